// Bulk imports of each kind: holidays, attendance, leave allocations and salary
// setups, each row by the single create's use case and rules (employees: imports.test.ts); queued
// imports run as the job with progress; salary setups need the payroll module and its scope.
import { describe, expect, it } from "vitest";
import * as clock from "../../src/lib/clock.ts";
import { addDays } from "../../src/lib/dates.ts";
import { registerAllJobs } from "../../src/modules/jobs.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { addMember, expectDetails, expectError, signupTenant, useTestApp } from "../support/app.ts";
import { today } from "../support/clock.ts";
import { insertEmployee } from "../support/employees.ts";
import { createType, leaveWorld } from "../leave/fixtures.ts";
import { payrollWorld } from "../payroll/fixtures.ts";
import { api } from "../support/api.ts";

/** An NDJSON answer's lines, parsed. */
const ndjson = async (req: import("supertest").Test) => {
  const res = await req.buffer(true).parse((r, cb) => {
    let s = "";
    r.setEncoding("utf8");
    r.on("data", (c: string) => {
      s += c;
    });
    r.on("end", () => cb(null, s));
  });
  const body = (res.body as string).trimEnd();
  return { status: res.status, body: body ? body.split("\n").map((l) => JSON.parse(l)) : [] };
};

const t = useTestApp({ config: { bulkImportSyncRows: 3 } });
registerAllJobs();

describe("importHolidays", () => {
  it("imports holidays from CSV; a duplicate of a stored holiday or an earlier row is that row's problem", async () => {
    const o = await signupTenant(t);
    await api(o.agent)
      .op("createHoliday", { body: { date: "2027-01-26", name: "Republic Day" } })
      .expect(201);
    const csv = "date,name,is_optional\n2027-08-15,Independence Day,false\n2027-01-26,Republic Day,\n2027-10-02,Gandhi Jayanti,true\n";
    const bad = expectError(await api(o.agent).op("importHolidays", { body: { csv } }), 400);
    expect(bad.details).toEqual([expect.objectContaining({ row: 2, column: null, message: expect.stringContaining("already exists") })]);
    const res = await api(o.agent)
      .op("importHolidays", { query: { mode: "row_by_row" }, body: { csv } })
      .expect(201);
    expect(res.body.data).toMatchObject({ imported_rows: 2, failed_rows: 1 });
    const list = (
      await api(o.agent)
        .op("listHolidays", { query: { year: 2027 } })
        .expect(200)
    ).body.data;
    expect(list.map((h: { name: string; is_optional: boolean }) => `${h.name}:${h.is_optional}`).sort()).toEqual([
      "Gandhi Jayanti:true",
      "Independence Day:false",
      "Republic Day:false",
    ]);
  });
});

describe("importAttendanceRecords", () => {
  it("imports attendance rows as importAttendance does; an unknown employee is that row's problem", async () => {
    const o = await signupTenant(t);
    const emp = await insertEmployee(t, o.tenantId);
    const d1 = addDays(today(), -3);
    const d2 = addDays(today(), -2);
    const rows = [
      { employee_id: emp, date: d1, status: "absent" },
      { employee_id: emp, date: d2, status: "present", notes: "imported" },
    ];
    const res = await api(o.agent).op("importAttendanceRecords", { body: { rows } }).expect(201);
    expect(res.body.data).toMatchObject({ kind: "attendance", imported_rows: 2 });
    const stored = await t.query(
      "SELECT to_char(date, 'YYYY-MM-DD') AS date, status, source FROM attendance_records WHERE tenant_id = $1 ORDER BY date",
      [o.tenantId],
    );
    expect(stored).toEqual([
      { date: d1, status: "absent", source: "import" },
      { date: d2, status: "present", source: "import" },
    ]);
    const unknown = expectDetails(
      await api(o.agent).op("importAttendanceRecords", {
        body: { csv: `employee_id,date,status\n5d0f3a8e-2b1c-4d5e-8f9a-0b1c2d3e4f5a,${d1},absent\n` },
      }),
      400,
    );
    expect(unknown.details[0]).toMatchObject({ row: 1, message: "Employee not found" });
  });
});

describe("importLeaveAllocations, exportLeaveAllocations", () => {
  it("allocates explicit days per row by createLeaveAllocations' rules; a repeat is skipped, not doubled", async () => {
    const w = await leaveWorld(t);
    const type = await createType(w.hr.agent, { name: "Casual", code: `CL${Date.now() % 100000}` });
    const csv = `employee_id,leave_type_id,days\n${w.employeeId},${type.id},6\n${w.managerEmployeeId},${type.id},4.5\n`;
    await api(w.hr.agent).op("importLeaveAllocations", { body: { csv } }).expect(201);
    await api(w.hr.agent).op("importLeaveAllocations", { body: { csv } }).expect(201);
    const rows = await t.query(
      "SELECT employee_id, days::text AS days FROM leave_allocations WHERE tenant_id = $1 AND leave_type_id = $2 ORDER BY days",
      [w.owner.tenantId, type.id],
    );
    expect(rows).toEqual([
      { employee_id: w.managerEmployeeId, days: "4.5" },
      { employee_id: w.employeeId, days: "6.0" },
    ]);
    const exported = await ndjson(w.hr.agent.get(`/api/exports/leave-allocations?format=ndjson&leave_type_id=${type.id}`));
    expect(exported.status).toBe(200);
    expect(exported.body).toEqual([
      expect.objectContaining({ employee_id: expect.any(String), leave_type_id: type.id, period_id: w.periodId }),
      expect.objectContaining({ leave_type_id: type.id }),
    ]);
    expect(exported.body.map((a: { days: string }) => a.days).sort()).toEqual(["4.5", "6.0"]);
    // updated_since: an allocation changed after the instant (here by raw SQL) is in, the other not
    const [{ mark }] = await t.query<{ mark: Date }>("SELECT clock_timestamp() AS mark");
    await t.query("UPDATE leave_allocations SET days = days WHERE tenant_id = $1 AND employee_id = $2 AND leave_type_id = $3", [
      w.owner.tenantId,
      w.employeeId,
      type.id,
    ]);
    const since = encodeURIComponent(mark.toISOString());
    const changed = await ndjson(
      w.hr.agent.get(`/api/exports/leave-allocations?format=ndjson&leave_type_id=${type.id}&updated_since=${since}`),
    );
    expect(changed.body.map((a: { employee_id: string }) => a.employee_id)).toEqual([w.employeeId]);
    // the same rules as the single call: days need leave_type_id (schema), a wrong step is refused
    const bad = expectDetails(
      await api(w.hr.agent).op("importLeaveAllocations", { body: { rows: [{ employee_id: w.employeeId, days: "2" }] } }),
      400,
    );
    expect(bad.details[0]).toMatchObject({ row: 1 });
  });
});

describe("importSalarySetups, exportSalarySetups", () => {
  it("sets salary setups per row (payroll module); without the module a 403", async () => {
    const w = await payrollWorld(t);
    const emp = await insertEmployee(t, w.owner.tenantId);
    const csv = `employee_id,effective_from,monthly_ctc,pf_enabled\n${emp},2026-04-01,50000.00,false\n`;
    const res = await api(w.hr.agent).op("importSalarySetups", { body: { csv } }).expect(201);
    expect(res.body.data).toMatchObject({ kind: "salary_setups", imported_rows: 1 });
    const setup = (
      await api(w.hr.agent)
        .op("getEmployeeSalarySetup", { params: { employeeId: emp } })
        .expect(200)
    ).body.data;
    expect(JSON.stringify(setup)).toContain("50000.00");
    const [row] = await t.query("SELECT pf_enabled, all_components FROM employee_salary_setups WHERE tenant_id = $1", [w.owner.tenantId]);
    expect(row).toEqual({ pf_enabled: false, all_components: true });
    const exported = await ndjson(w.hr.agent.get(`/api/exports/salary-setups?format=ndjson&employee_id=${emp}`));
    expect(exported.status).toBe(200);
    expect(exported.body).toEqual([
      expect.objectContaining({ employee_id: emp, effective_from: "2026-04-01", monthly_ctc: "50000.00", components: [] }),
    ]);
    // updated_since: the setup is stamped when written; after a later instant it is not exported until it changes
    const [{ mark }] = await t.query<{ mark: Date }>("SELECT clock_timestamp() AS mark");
    const since = encodeURIComponent(mark.toISOString());
    const none = await ndjson(w.hr.agent.get(`/api/exports/salary-setups?format=ndjson&employee_id=${emp}&updated_since=${since}`));
    expect(none.body).toEqual([]);
    await t.query("UPDATE employee_salary_setups SET pf_enabled = pf_enabled WHERE tenant_id = $1", [w.owner.tenantId]);
    const again = await ndjson(w.hr.agent.get(`/api/exports/salary-setups?format=ndjson&employee_id=${emp}&updated_since=${since}`));
    expect(again.body).toHaveLength(1);
    // components in CSV are JSON text in their cell, as the export writes them (test/bulk/round-trip.test.ts)
    const col = expectDetails(
      await api(w.hr.agent).op("importSalarySetups", { body: { csv: "employee_id,effective_from,components\n" } }),
      400,
    );
    expect(col.details[0].message).toContain("needs at least one row");

    const plain = await signupTenant(t);
    expectError(await api(plain.agent).op("importSalarySetups", { body: { csv } }), 403, "module_disabled");
  });
});

describe("importEmployees, getImport: a large import runs as a job with progress", () => {
  it("more rows than BULK_IMPORT_SYNC_ROWS: 202 queued, then the job imports it and the import shows the outcome", async () => {
    const o = await signupTenant(t);
    const lines = Array.from(
      { length: 7 },
      (_, i) => `Job${i},Person,job.${process.pid}.${Date.now()}.${i}@example.test,Ops,Clerk,2024-01-0${i + 1}`,
    );
    const csv = `first_name,last_name,email,department,designation,joining_date\n${lines.join("\n")}\n`;
    const res = await api(o.agent).op("importEmployees", { body: { csv } }).expect(202);
    expect(res.body.data).toMatchObject({ status: "queued", total_rows: 7, processed_rows: 0 });
    await jobs.runNow("bulk.imports", t.config);
    const done = (
      await api(o.agent)
        .op("getImport", { params: { id: res.body.data.id } })
        .expect(200)
    ).body.data;
    expect(done).toMatchObject({ status: "succeeded", processed_rows: 7, imported_rows: 7, failed_rows: 0 });
    const [{ n }] = await t.query("SELECT count(*)::int AS n FROM employees WHERE tenant_id = $1 AND department = 'Ops'", [o.tenantId]);
    expect(n).toBe(7);
    const [src] = await t.query("SELECT source FROM imports WHERE id = $1", [res.body.data.id]);
    expect(src.source).toBeNull();
    // the job again: nothing left to do, nothing imported twice
    await jobs.runNow("bulk.imports", t.config);
    const [{ n: again }] = await t.query("SELECT count(*)::int AS n FROM employees WHERE tenant_id = $1 AND department = 'Ops'", [
      o.tenantId,
    ]);
    expect(again).toBe(7);
  });

  it("a queued all-or-nothing import with a bad row ends failed with its problems and nothing written", async () => {
    const o = await signupTenant(t);
    const rows = Array.from({ length: 5 }, (_, i) => ({
      first_name: `Q${i}`,
      last_name: "Q",
      email: `q.${process.pid}.${Date.now()}.${i}@example.test`,
      department: "Queue",
      designation: "Q",
      joining_date: i === 4 ? "2024-13-01" : "2024-01-01",
    }));
    const res = await api(o.agent).op("importEmployees", { body: { rows } }).expect(202);
    await jobs.runNow("bulk.imports", t.config);
    const done = (
      await api(o.agent)
        .op("getImport", { params: { id: res.body.data.id } })
        .expect(200)
    ).body.data;
    expect(done).toMatchObject({ status: "failed", processed_rows: 5, imported_rows: 0, failed_rows: 1, problem_count: 1 });
    expect(done.problems[0]).toMatchObject({ row: 5, column: "joining_date" });
    const [{ n }] = await t.query("SELECT count(*)::int AS n FROM employees WHERE tenant_id = $1 AND department = 'Queue'", [o.tenantId]);
    expect(n).toBe(0);
  });

  it("imports that ended more than 30 days ago are pruned by bulk.prune-imports; newer ones stay", async () => {
    const o = await signupTenant(t);
    const csv = "date,name\n2099-03-01,Prune\n";
    const old = (
      await api(o.agent)
        .op("importHolidays", { query: { dry_run: true }, body: { csv } })
        .expect(200)
    ).body.data;
    const recent = (
      await api(o.agent)
        .op("importHolidays", { query: { dry_run: true }, body: { csv } })
        .expect(200)
    ).body.data;
    const now = clock.now().getTime();
    await t.query("UPDATE imports SET finished_at = $2 WHERE id = $1", [old.id, new Date(now - 31 * 86_400_000)]);
    await t.query("UPDATE imports SET finished_at = $2 WHERE id = $1", [recent.id, new Date(now - 29 * 86_400_000)]);
    await jobs.runNow("bulk.prune-imports", t.config);
    expectError(await api(o.agent).op("getImport", { params: { id: old.id } }), 404, "not_found");
    await api(o.agent)
      .op("getImport", { params: { id: recent.id } })
      .expect(200);
  });
});

describe("importSalarySetups queued: the job acts as its maker is now", () => {
  /** An admin linked to their own employee record, an API credential of theirs, and five employees' salary rows (theirs last). */
  async function world() {
    const w = await payrollWorld(t);
    const own = await insertEmployee(t, w.owner.tenantId);
    const admin = await addMember(t, w.owner, "admin", { employeeId: own });
    const cred = (
      await api(admin.agent)
        .op("createApiCredential", { body: { name: "Payroll sync", scopes: ["payroll:write"] } })
        .expect(201)
    ).body.data;
    const others: string[] = [];
    for (let i = 0; i < 4; i++) others.push(await insertEmployee(t, w.owner.tenantId));
    const csv = `employee_id,effective_from,monthly_ctc\n${[...others, own].map((e) => `${e},2026-04-01,888888.00`).join("\n")}\n`;
    const setups = async () =>
      (await t.query("SELECT employee_id FROM employee_salary_setups WHERE tenant_id = $1", [w.owner.tenantId])).map((r) => r.employee_id);
    const run = async (id: string) => {
      await jobs.runNow("bulk.imports", t.config);
      return (await api(w.owner.agent).op("getImport", { params: { id } }).expect(200)).body.data;
    };
    return { w, own, admin, cred, csv, setups, run };
  }

  it("an API credential's queued import keeps its creator's own-record rule: their own salary row is refused", async () => {
    const { own, cred, csv, setups, run } = await world();
    const res = await api(t.request())
      .op("importSalarySetups", { body: { csv }, headers: { Authorization: `Bearer ${cred.secret}` } })
      .expect(202);
    const done = await run(res.body.data.id);
    expect(done).toMatchObject({ status: "failed", imported_rows: 0, problem_count: 1 });
    expect(done.problems[0]).toMatchObject({ row: 5, message: expect.stringContaining("own record") });
    expect(await setups()).not.toContain(own);
  });

  it("a session's queued import keeps the maker's own-record links, and is not run once the maker is demoted", async () => {
    const { w, own, admin, csv, setups, run } = await world();
    const first = await api(admin.agent).op("importSalarySetups", { body: { csv } }).expect(202);
    const refused = await run(first.body.data.id);
    expect(refused.problems[0]).toMatchObject({ row: 5, message: expect.stringContaining("own record") });
    const rows = csv.split("\n").slice(0, 5).join("\n");
    const second = await api(admin.agent)
      .op("importSalarySetups", { body: { csv: `${rows}\n` } })
      .expect(202);
    await t.query("UPDATE memberships SET role = 'employee' WHERE tenant_id = $1 AND user_id = $2", [w.owner.tenantId, admin.userId]);
    const demoted = await run(second.body.data.id);
    expect(demoted).toMatchObject({
      status: "failed",
      imported_rows: 0,
      error: expect.stringMatching(/^Not run: the member who made it no longer/),
    });
    expect(await setups()).toEqual([]);
    expect(own).toBeTruthy();
  });

  it("a revoked credential's queued import is not run", async () => {
    const { admin, cred, csv, setups, run } = await world();
    const rows = csv.split("\n").slice(0, 5).join("\n");
    const res = await api(t.request())
      .op("importSalarySetups", { body: { csv: `${rows}\n` }, headers: { Authorization: `Bearer ${cred.secret}` } })
      .expect(202);
    await api(admin.agent)
      .op("revokeApiCredential", { params: { id: cred.credential.id } })
      .expect(200);
    const done = await run(res.body.data.id);
    expect(done).toMatchObject({ status: "failed", imported_rows: 0, error: expect.stringMatching(/^Not run: the API credential/) });
    expect(await setups()).toEqual([]);
  });
});
