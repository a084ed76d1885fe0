// An export is an import file: every kind's CSV export goes back through its import - the columns only
// the export has (`id`, `created_at`, ...) named as such, the formula guard's `'` undone (`'+91 …`),
// salary setups' component lists read from their JSON text - and the data afterwards is what was
// exported. The import's answer maps each row to the record it wrote (`records`: id, employee code).
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { addDays } from "../../src/lib/dates.ts";
import { expectDetails, signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { today } from "../support/clock.ts";
import { insertEmployee } from "../support/employees.ts";
import { createType, leaveWorld } from "../leave/fixtures.ts";
import { payrollWorld } from "../payroll/fixtures.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
type Agent = TenantSession["agent"];
type Rows = Record<string, string>[];

const exportCsv = async (agent: Agent, path: string): Promise<{ text: string; rows: Rows }> => {
  const res = await agent
    .get(path)
    .buffer(true)
    .parse((r, cb) => {
      let s = "";
      r.setEncoding("utf8");
      r.on("data", (c: string) => {
        s += c;
      });
      r.on("end", () => cb(null, s));
    });
  expect(res.status).toBe(200);
  const text = res.body as string;
  return { text, rows: parse(text, { columns: true, bom: true }) as Rows };
};
const quoted = (s: string) => (/[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s);
const toCsv = (rows: Rows, columns: string[]) =>
  `${columns.join(",")}\r\n${rows.map((r) => columns.map((c) => quoted(r[c] ?? "")).join(",")).join("\r\n")}\r\n`;

/**
 * Imports an export's file as a person would: the export as it is first (a 400 naming only the
 * export's own columns, "leave it out"), then without those columns. Returns the import and the
 * columns the import writes.
 */
async function importBack(agent: Agent, importPath: string, exported: { text: string; rows: Rows }) {
  const raw = expectDetails(await agent.post(importPath).send({ csv: exported.text }), 400, "validation_failed");
  for (const d of raw.details)
    expect(d.message, d.message).toMatch(
      /^"\w+" is a column the export adds \(the server keeps it\), not one an import writes: leave it out/,
    );
  const serverOnly = new Set(raw.details.map((d: { message: string }) => /^"(\w+)"/.exec(d.message)![1]));
  expect(serverOnly.has("id")).toBe(true);
  const columns = Object.keys(exported.rows[0]).filter((c) => !serverOnly.has(c));
  const res = await agent.post(importPath).send({ csv: toCsv(exported.rows, columns) });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { data: res.body.data, columns };
}
const pick = (rows: Rows, columns: string[], key: string) =>
  rows.map((r) => Object.fromEntries(columns.map((c) => [c, r[c]]))).sort((a, b) => a[key].localeCompare(b[key]));

describe("exportEmployees, importEmployees: an export imports back", () => {
  it("into another company: phones with + (the guard's ' undone), codes and every field as exported; ids and codes by row", async () => {
    const a = await signupTenant(t);
    for (const [first, phone, designation] of [
      ["Aditi", "+91 98450 11223", "Engineer"],
      ["Bharat", "+91 80 4110 2233", "-Contractor liaison"],
    ])
      await api(a.agent)
        .op("createEmployee", {
          body: {
            first_name: first,
            last_name: "Sharma",
            email: `${first.toLowerCase()}.${process.pid}.${Date.now()}@example.test`,
            phone,
            department: "Engineering",
            designation,
            joining_date: "2024-01-15",
            date_of_birth: "1994-05-02",
            gender: first === "Aditi" ? "female" : "male",
          },
        })
        .expect(201);
    const exported = await exportCsv(a.agent, "/api/exports/employees?format=csv");
    expect(exported.text).toContain("'+91 98450 11223"); // guarded for spreadsheets
    const b = await signupTenant(t);
    const { data, columns } = await importBack(b.agent, "/api/imports/employees", exported);
    expect(data.imported_rows).toBe(2);
    const again = await exportCsv(b.agent, "/api/exports/employees?format=csv");
    expect(pick(again.rows, columns, "email")).toEqual(pick(exported.rows, columns, "email"));
    const stored = await t.query<{ id: string; employee_code: string; phone: string; designation: string }>(
      "SELECT id, employee_code, phone, designation FROM employees WHERE tenant_id = $1 ORDER BY first_name",
      [b.tenantId],
    );
    expect(stored.map((s) => [s.phone, s.designation])).toEqual([
      ["+91 98450 11223", "Engineer"],
      ["+91 80 4110 2233", "-Contractor liaison"],
    ]);
    // the answer names what each row created
    const rowOf = (email: string) => exported.rows.findIndex((r) => r.email === email) + 1;
    const byEmail = await t.query<{ id: string; employee_code: string; email: string }>(
      "SELECT id, employee_code, email::text FROM employees WHERE tenant_id = $1",
      [b.tenantId],
    );
    expect(data.records).toEqual(
      byEmail.map((e) => ({ row: rowOf(e.email), id: e.id, code: e.employee_code })).sort((x, y) => x.row - y.row),
    );
    expect(
      (
        await api(b.agent)
          .op("getImport", { params: { id: data.id } })
          .expect(200)
      ).body.data.records,
    ).toEqual(data.records);
  });

  it("codes drawn by an import (no employee_code column) are in its answer; a dry run and a refused import list none", async () => {
    const o = await signupTenant(t);
    const row = (n: string) => `Z,${n},z${n}.${Date.now()}@example.test,Ops,Clerk,2024-01-01`;
    const csv = `first_name,last_name,email,department,designation,joining_date\n${row("One")}\n${row("Two")}\n`;
    const dry = await api(o.agent)
      .op("importEmployees", { query: { dry_run: true }, body: { csv } })
      .expect(200);
    expect(dry.body.data.records).toEqual([]);
    const res = await api(o.agent).op("importEmployees", { body: { csv } }).expect(201);
    expect(res.body.data.records.map((r) => [r.row, r.code])).toEqual([
      [1, "EMP-00001"],
      [2, "EMP-00002"],
    ]);
  });
});

describe("exportHolidays, importHolidays: an export imports back", () => {
  it("into another company, as exported", async () => {
    const a = await signupTenant(t);
    await api(a.agent)
      .op("createHoliday", { body: { date: "2027-01-26", name: "Republic Day", description: "=National holiday" } })
      .expect(201);
    await api(a.agent)
      .op("createHoliday", { body: { date: "2027-03-14", name: "Holi", is_optional: true } })
      .expect(201);
    const exported = await exportCsv(a.agent, "/api/exports/holidays?format=csv");
    const b = await signupTenant(t);
    const { data, columns } = await importBack(b.agent, "/api/imports/holidays", exported);
    expect(data.records).toHaveLength(2);
    expect(data.records.every((r: { code: null }) => r.code === null)).toBe(true);
    const again = await exportCsv(b.agent, "/api/exports/holidays?format=csv");
    expect(pick(again.rows, columns, "date")).toEqual(pick(exported.rows, columns, "date"));
    expect(again.rows.find((r) => r.name === "Republic Day")!.id).toBe(
      data.records.find((r: { row: number }) => exported.rows[r.row - 1].name === "Republic Day").id,
    );
  });
});

describe("exportAttendanceRecords, importAttendanceRecords: an export imports back", () => {
  it("into the same company: the same records (ids in the answer), unchanged", async () => {
    const o = await signupTenant(t);
    const emp = await insertEmployee(t, o.tenantId);
    const d1 = addDays(today(), -3);
    const d2 = addDays(today(), -2);
    await api(o.agent)
      .op("importAttendanceRecords", {
        body: {
          rows: [
            { employee_id: emp, date: d1, status: "absent", notes: "@home sick" },
            { employee_id: emp, date: d2, status: "present" },
          ],
        },
      })
      .expect(201);
    const exported = await exportCsv(o.agent, `/api/exports/attendance?format=csv&employee_id=${emp}`);
    const { data, columns } = await importBack(o.agent, "/api/imports/attendance", exported);
    expect(data.records.map((r: { id: string }) => r.id).sort()).toEqual(exported.rows.map((r) => r.id).sort());
    const again = await exportCsv(o.agent, `/api/exports/attendance?format=csv&employee_id=${emp}`);
    expect(pick(again.rows, columns, "date")).toEqual(pick(exported.rows, columns, "date"));
    expect(again.rows.find((r) => r.date === d1)!.notes).toBe("'@home sick");
  });
});

describe("exportLeaveAllocations, importLeaveAllocations: an export imports back", () => {
  it("into the same company: accepted, nothing doubled", async () => {
    const w = await leaveWorld(t);
    const type = await createType(w.hr.agent, { name: "Casual", code: `CL${Date.now() % 100000}` });
    await api(w.hr.agent)
      .op("importLeaveAllocations", {
        body: { csv: `employee_id,leave_type_id,days\n${w.employeeId},${type.id},6\n${w.managerEmployeeId},${type.id},4.5\n` },
      })
      .expect(201);
    const exported = await exportCsv(w.hr.agent, `/api/exports/leave-allocations?format=csv&leave_type_id=${type.id}`);
    const { data, columns } = await importBack(w.hr.agent, "/api/imports/leave-allocations", exported);
    expect(data.imported_rows).toBe(2);
    const again = await exportCsv(w.hr.agent, `/api/exports/leave-allocations?format=csv&leave_type_id=${type.id}`);
    expect(pick(again.rows, columns, "employee_id")).toEqual(pick(exported.rows, columns, "employee_id"));
  });
});

describe("exportSalarySetups, importSalarySetups: an export imports back", () => {
  it("into the same company: component lists from their JSON text, the same versions (ids in the answer)", async () => {
    const w = await payrollWorld(t);
    const emp = await insertEmployee(t, w.owner.tenantId);
    await api(w.hr.agent)
      .op("setEmployeeSalarySetup", {
        params: { employeeId: emp },
        body: {
          effective_from: "2026-04-01",
          monthly_ctc: "60000.00",
          components: [{ component_id: w.components.BASIC }, { component_id: w.components.HRA }],
        },
      })
      .expect(200);
    const exported = await exportCsv(w.hr.agent, `/api/exports/salary-setups?format=csv&employee_id=${emp}`);
    expect(JSON.parse(exported.rows[0].components)).toHaveLength(2);
    const { data, columns } = await importBack(w.hr.agent, "/api/imports/salary-setups", exported);
    expect(columns).toContain("components");
    expect(data.records).toEqual([{ row: 1, id: exported.rows[0].id, code: null }]);
    const again = await exportCsv(w.hr.agent, `/api/exports/salary-setups?format=csv&employee_id=${emp}`);
    expect(pick(again.rows, columns, "effective_from")).toEqual(pick(exported.rows, columns, "effective_from"));
    // a list column that is not JSON: that row's problem, in words
    const bad = expectDetails(
      await api(w.hr.agent).op("importSalarySetups", { body: { csv: `employee_id,effective_from,components\n${emp},2026-05-01,BASIC\n` } }),
      400,
    );
    expect(bad.details[0]).toMatchObject({ row: 1, column: "components" });
  });
});
