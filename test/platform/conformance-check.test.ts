// scripts/checks/check-conformance.ts: after the suite, every operation needs a handler, a 2xx in a test
// of its own (not the generic matrices), and a test that names it (its operationId as a word in
// the describe/test titles) among those that get a 2xx from it.
import { describe, expect, it } from "vitest";
import { type FileRecord, failuresOf, namesOperation, tally } from "../../scripts/checks/check-conformance.ts";

const ops = [
  { id: "createLeaveRequest", method: "POST", path: "/api/leave/requests" },
  { id: "listEmployees", method: "GET", path: "/api/employees" },
];
const rec = (file: string, calls: FileRecord["calls"], generic = false): FileRecord => ({ file, generic, calls });
const call = (tests: Record<string, Record<string, number>>) => {
  const statuses: Record<string, number> = {};
  for (const s of Object.values(tests)) for (const [st, n] of Object.entries(s)) statuses[st] = (statuses[st] ?? 0) + n;
  return { calls: Object.values(statuses).reduce((a, b) => a + b, 0), statuses, tests };
};
const NAMED_IN_NO_TITLE =
  /^createLeaveRequest \(POST \/api\/leave\/requests\): .*title.*test\/leave\/allocations\.test\.ts, test\/leave\/requests\.test\.ts$/;
const check = (records: FileRecord[]) => failuresOf(tally(ops, records), new Set());

describe("check-conformance", () => {
  it("namesOperation finds the operationId as a word of the full test name, case-sensitively", () => {
    expect(namesOperation("createLeaveRequest, updateLeaveRequest: leave requests > refuses overlaps", "createLeaveRequest")).toBe(true);
    expect(namesOperation("leave > listEmployees filters by department", "listEmployees")).toBe(true);
    expect(namesOperation("listEmployees", "listEmployees")).toBe(true);
    expect(namesOperation("(listEmployees) works", "listEmployees")).toBe(true);
    // part of a longer identifier, or another case, is not the operation
    expect(namesOperation("listEmployeesByDepartment pages", "listEmployees")).toBe(false);
    expect(namesOperation("relistEmployees", "listEmployees")).toBe(false);
    expect(namesOperation("listemployees filters", "listEmployees")).toBe(false);
    // a later occurrence as a word still counts
    expect(namesOperation("listEmployeesX and listEmployees", "listEmployees")).toBe(true);
  });

  it("passes when a test that gets a 2xx names the operation", () => {
    expect(
      check([
        rec("test/leave/requests.test.ts", {
          createLeaveRequest: call({ "createLeaveRequest: leave requests > creates one": { 201: 1 } }),
        }),
        rec("test/employees/list.test.ts", { listEmployees: call({ "employees > listEmployees pages": { 200: 2 } }) }),
      ]),
    ).toEqual([]);
  });

  it("fails an operation whose 2xx come only from tests that do not name it, listing the files that get them", () => {
    const failures = check([
      rec("test/leave/requests.test.ts", {
        createLeaveRequest: call({ "leave requests > creates one": { 201: 1 }, "createLeaveRequest > validates": { 400: 3 } }),
      }),
      rec("test/leave/allocations.test.ts", { createLeaveRequest: call({ "(outside a test: beforeAll/afterAll)": { 201: 4 } }) }),
      rec("test/employees/list.test.ts", { listEmployees: call({ "listEmployees > pages": { 200: 1 } }) }),
    ]);
    expect(failures).toEqual([expect.stringMatching(NAMED_IN_NO_TITLE)]);
  });

  it("does not count a naming test of the generic matrices", () => {
    const failures = check([
      rec(
        "test/proof/contract.test.ts",
        {
          createLeaveRequest: call({ "contract > createLeaveRequest": { 201: 1 } }),
          listEmployees: call({ "contract > listEmployees": { 200: 1 } }),
        },
        true,
      ),
      rec("test/leave/requests.test.ts", { createLeaveRequest: call({ "leave requests > creates one": { 201: 1 } }) }),
      rec("test/employees/list.test.ts", { listEmployees: call({ "listEmployees > pages": { 200: 1 } }) }),
    ]);
    expect(failures).toEqual([expect.stringMatching(/^createLeaveRequest .*test\/leave\/requests\.test\.ts$/)]);
  });

  it("keeps the earlier rules: a stub, an operation never called, one with 2xx only from the matrices", () => {
    expect(
      failuresOf(
        tally(ops, [rec("test/employees/list.test.ts", { listEmployees: call({ "listEmployees > pages": { 200: 1 } }) })]),
        new Set(["listEmployees"]),
      ),
    ).toEqual([expect.stringMatching(/^createLeaveRequest .*never called/), expect.stringMatching(/^listEmployees .*501 stub/)]);
    expect(
      check([
        rec(
          "test/proof/contract.test.ts",
          { createLeaveRequest: call({ createLeaveRequest: { 201: 1 } }), listEmployees: call({ x: { 200: 1 } }) },
          true,
        ),
      ]),
    ).toEqual([
      expect.stringMatching(/^createLeaveRequest .*2xx only from the generic matrices/),
      expect.stringMatching(/^listEmployees .*2xx only from the generic matrices/),
    ]);
  });
});
