// Bulk imports (src/modules/bulk/): CSV or JSON rows checked against the single
// create's schema and rules; dry run, all-or-nothing and row-by-row; unknown columns a 400; roles,
// tenant isolation and retries with the same Idempotency-Key.
import { describe, expect, it } from "vitest";
import { addMember, expectDetails, expectError, signupTenant, type TenantSession, useTestApp, type ErrorDetail } from "../support/app.ts";
import { createEmployee, employeeInput, insertEmployee } from "../support/employees.ts";
import { api } from "../support/api.ts";

const t = useTestApp();

let n = 0;
const email = (tag: string) => `${tag}.${process.pid}.${Date.now()}.${n++}@example.test`;

const HEADER = "first_name,last_name,email,department,designation,joining_date,date_of_birth,phone";
const line = (first: string, mail: string, extra: Partial<Record<"joining_date" | "date_of_birth" | "phone", string>> = {}) =>
  [first, "Import", mail, "Engineering", "Engineer", extra.joining_date ?? "2024-01-15", extra.date_of_birth ?? "", extra.phone ?? ""].join(
    ",",
  );
const csvOf = (...lines: string[]) => `${HEADER}\n${lines.join("\n")}\n`;

async function employeeCount(tenantId: string): Promise<number> {
  const [r] = await t.query<{ n: string }>("SELECT count(*)::text AS n FROM employees WHERE tenant_id = $1", [tenantId]);
  return Number(r.n);
}

async function withBadRows(o: TenantSession) {
  const taken = email("taken");
  await createEmployee(o, { email: taken });
  const dup = email("dup");
  return csvOf(
    line("Good", email("good")), // row 1
    line("BadDate", email("bad-date"), { joining_date: "2024-02-30" }), // row 2: impossible date
    line("Taken", taken), // row 3: email of a stored employee
    line("Dup1", dup), // row 4
    line("Dup2", dup), // row 5: repeats row 4
    line("Born", email("born"), { date_of_birth: "2025-01-01" }), // row 6: born after joining
    line("", email("noname")), // row 7: first_name missing
  );
}

describe("importEmployees: dry run, all-or-nothing, row by row", () => {
  it("a dry run reports every row's problems (row, column, message) and writes nothing", async () => {
    const o = await signupTenant(t);
    const csv = await withBadRows(o);
    const before = await employeeCount(o.tenantId);
    const res = expectDetails(
      await api(o.agent).op("importEmployees", { query: { dry_run: true }, body: { csv } }),
      400,
      "validation_failed",
    );
    const byRow = new Map<number, ErrorDetail[]>();
    for (const d of res.details) byRow.set(d.row ?? 0, [...(byRow.get(d.row ?? 0) ?? []), d]);
    expect([...byRow.keys()].sort()).toEqual([2, 3, 5, 6, 7]);
    expect(byRow.get(2)).toEqual([expect.objectContaining({ column: "joining_date", path: "rows[2].joining_date" })]);
    expect(byRow.get(3)![0]).toMatchObject({ column: "email", message: expect.stringContaining("already uses the email") });
    expect(byRow.get(5)![0]).toMatchObject({ column: "email", message: expect.stringContaining("earlier row") });
    expect(byRow.get(6)![0]).toMatchObject({ column: "date_of_birth", message: "date of birth must be before the joining date" });
    expect(byRow.get(7)![0]).toMatchObject({ column: "first_name", path: "rows[7].first_name", message: "is required" });
    expect(res.error).toContain("nothing was imported");
    expect(await employeeCount(o.tenantId)).toBe(before);

    // without problems: 200, what would be imported, still nothing written
    const ok = await api(o.agent).op("importEmployees", {
      query: { dry_run: true },
      body: { csv: csvOf(line("A", email("a")), line("B", email("b"))) },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data).toMatchObject({
      dry_run: true,
      status: "succeeded",
      total_rows: 2,
      imported_rows: 2,
      failed_rows: 0,
      problem_count: 0,
    });
    expect(await employeeCount(o.tenantId)).toBe(before);
  });

  it("all-or-nothing (the default) writes nothing when one row is bad, and everything when none is", async () => {
    const o = await signupTenant(t);
    const before = await employeeCount(o.tenantId);
    const bad = csvOf(line("One", email("one")), line("Two", email("two")), line("Three", email("three"), { date_of_birth: "2030-01-01" }));
    const res = expectError(await api(o.agent).op("importEmployees", { body: { csv: bad } }), 400, "validation_failed");
    expect(res.details).toEqual([expect.objectContaining({ row: 3, column: "date_of_birth" })]);
    expect(await employeeCount(o.tenantId)).toBe(before);
    const [imp] = await t.query("SELECT status, imported_rows FROM imports WHERE tenant_id = $1", [o.tenantId]);
    expect(imp).toMatchObject({ status: "failed", imported_rows: 0 });

    const good = csvOf(line("One", email("one")), line("Two", email("two")));
    const done = await api(o.agent)
      .op("importEmployees", { body: { csv: good } })
      .expect(201);
    expect(done.body.data).toMatchObject({ status: "succeeded", mode: "all_or_nothing", imported_rows: 2, format: "csv" });
    expect(await employeeCount(o.tenantId)).toBe(before + 2);
    // as by the single create: a generated code and an activity entry for each
    const rows = await t.query("SELECT employee_code, id FROM employees WHERE tenant_id = $1 AND first_name IN ('One','Two')", [
      o.tenantId,
    ]);
    expect(rows.map((r) => r.employee_code).sort()).toEqual([expect.stringMatching(/^EMP-\d{5}$/), expect.stringMatching(/^EMP-\d{5}$/)]);
    const log = await t.query("SELECT action FROM audit_logs WHERE tenant_id = $1 AND entity_id = ANY($2::uuid[])", [
      o.tenantId,
      rows.map((r) => r.id),
    ]);
    expect(log.map((l) => l.action)).toEqual(["employee.created", "employee.created"]);
    // and the webhook event of each, as the single create writes it
    const events = await t.query("SELECT data->>'id' AS id FROM events WHERE tenant_id = $1 AND type = 'employee.created'", [o.tenantId]);
    expect(events.map((e) => e.id).sort()).toEqual(rows.map((r) => r.id).sort());
  });

  it("row by row keeps the good rows and reports the bad ones", async () => {
    const o = await signupTenant(t);
    const before = await employeeCount(o.tenantId);
    const csv = await withBadRows(o);
    const res = await api(o.agent)
      .op("importEmployees", { query: { mode: "row_by_row" }, body: { csv } })
      .expect(201);
    expect(res.body.data).toMatchObject({ status: "succeeded", mode: "row_by_row", total_rows: 7, imported_rows: 2, failed_rows: 5 });
    expect(res.body.data.problems.map((p: { row: number }) => p.row)).toEqual([2, 3, 5, 6, 7]);
    // + the stored one of withBadRows, + rows 1 and 4
    expect(await employeeCount(o.tenantId)).toBe(before + 3);
    const got = (
      await api(o.agent)
        .op("getImport", { params: { id: res.body.data.id } })
        .expect(200)
    ).body.data;
    expect(got).toEqual({ ...res.body.data, version: expect.any(String) });
  });

  it("JSON rows are checked as the single create's body", async () => {
    const o = await signupTenant(t);
    const rows = [
      employeeInput(),
      employeeInput({ employment_type: "sometimes" }),
      employeeInput({ reports_to: "8c4b1b8e-1f7e-4c55-9c4e-6f1b2a3c4d5e" }),
    ];
    const res = expectError(await api(o.agent).op("importEmployees", { body: { rows } }), 400, "validation_failed");
    expect(res.details).toEqual([
      expect.objectContaining({ row: 2, column: "employment_type", message: expect.stringContaining("must be one of") }),
      expect.objectContaining({ row: 3, column: "reports_to", message: "is not an employee of this company" }),
    ]);
    const ok = await api(o.agent)
      .op("importEmployees", { body: { rows: [employeeInput({ employee_code: "IMP-7" })] } })
      .expect(201);
    expect(ok.body.data).toMatchObject({ format: "json", imported_rows: 1 });
    // the code is now taken: a second import of it is a problem of its row
    const again = expectDetails(
      await api(o.agent).op("importEmployees", { body: { rows: [employeeInput({ employee_code: "IMP-7" })] } }),
      400,
    );
    expect(again.details[0]).toMatchObject({ row: 1, column: "employee_code", message: expect.stringContaining("already taken") });
  });
});

describe("importEmployees: the source as a whole", () => {
  it("names an unknown column in part only: a huge header line does not come back in the answer", async () => {
    const o = await signupTenant(t);
    const res = await api(o.agent).op("importEmployees", { body: { csv: `first_name,${"x".repeat(100_000)}\nPriya,1\n` } });
    const e = expectError(res, 400, "validation_failed");
    expect(e.error).toContain(`Unknown or repeated columns: ${"x".repeat(60)}...`);
    expect(JSON.stringify(res.body).length).toBeLessThan(2000);
  });

  it("unknown columns are a 400 naming them, never dropped; nothing imported", async () => {
    const o = await signupTenant(t);
    const before = await employeeCount(o.tenantId);
    const csv = `first_name,last_name,email,department,designation,joining_date,salary\nA,B,${email("x")},D,E,2024-01-01,100\n`;
    const res = expectError(await api(o.agent).op("importEmployees", { body: { csv } }), 400, "validation_failed");
    expect(res.details).toEqual([
      { path: "body.csv.columns[7]", message: expect.stringMatching(/^"salary" is not a column of an employees row/) },
    ]);
    const json = expectDetails(await api(o.agent).op("importEmployees", { body: { rows: [{ ...employeeInput(), salary: 1 }] } }), 400);
    expect(json.details[0]).toMatchObject({ path: "body.rows[1].salary" });
    expect(await employeeCount(o.tenantId)).toBe(before);
  });

  it("CSV that cannot be parsed, an empty file, both or neither form: 400", async () => {
    const o = await signupTenant(t);
    const broken = `${HEADER}\n"unterminated,B,c@example.test,D,E,2024-01-01,,\n`;
    expect(expectDetails(await api(o.agent).op("importEmployees", { body: { csv: broken } }), 400).details[0].path).toBe("body.csv");
    expectError(await api(o.agent).op("importEmployees", { body: { csv: `${HEADER}\n` } }), 400);
    expectError(await api(o.agent).op("importEmployees", { body: { csv: "a", rows: [{}] } }), 400);
    expectError(await api(o.agent).op("importEmployees", { body: {} }), 400);
    const wide = `${HEADER}\nA,B,${email("w")},D,E,2024-01-01,,,extra\n`;
    expectError(await api(o.agent).op("importEmployees", { body: { csv: wide } }), 400);
  });
});

describe("importEmployees, getImport: roles, isolation, retries", () => {
  it("hr may import; managers and employees may not; another company's import is a 404", async () => {
    const o = await signupTenant(t);
    const hr = await addMember(t, o, "hr");
    const emp = await addMember(t, o, "employee", { employeeId: await insertEmployee(t, o.tenantId) });
    const csv = csvOf(line("Hr", email("hr")));
    const made = await api(hr.agent).op("importEmployees", { body: { csv } }).expect(201);
    expectError(await api(emp.agent).op("importEmployees", { body: { csv } }), 403, "forbidden");
    expectError(await api(emp.agent).op("getImport", { params: { id: made.body.data.id } }), 403, "forbidden");
    const other = await signupTenant(t);
    expectError(await api(other.agent).op("getImport", { params: { id: made.body.data.id } }), 404, "not_found");
  });

  it("a retry with the same Idempotency-Key answers the first import and imports nothing again", async () => {
    const o = await signupTenant(t);
    const before = await employeeCount(o.tenantId);
    const csv = csvOf(line("Once", email("once")), line("Only", email("only")));
    const key = "bulk-import-retry-1";
    const first = await api(o.agent)
      .op("importEmployees", { body: { csv }, headers: { "Idempotency-Key": key } })
      .expect(201);
    const second = await api(o.agent)
      .op("importEmployees", { body: { csv }, headers: { "Idempotency-Key": key } })
      .expect(201);
    expect(second.headers["idempotent-replayed"]).toBe("true");
    expect(second.body).toEqual(first.body);
    expect(await employeeCount(o.tenantId)).toBe(before + 2);
    const imports = await t.query("SELECT id FROM imports WHERE tenant_id = $1", [o.tenantId]);
    expect(imports).toHaveLength(1);
  });

  it("two imports of the same new employees at once: one imports them, the other is refused (a 4xx), never both, never a 500", async () => {
    const o = await signupTenant(t);
    const before = await employeeCount(o.tenantId);
    const csv = csvOf(line("Race1", email("race")), line("Race2", email("race")), line("Race3", email("race")));
    const answers = await Promise.all([1, 2, 3].map(() => api(o.agent).op("importEmployees", { body: { csv } })));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    for (const r of answers.filter((x) => x.status !== 201)) expect([400, 409]).toContain(expectError(r, r.status).status);
    expect(await employeeCount(o.tenantId)).toBe(before + 3);
    // none is left running
    const running = await t.query("SELECT status FROM imports WHERE tenant_id = $1 AND status NOT IN ('succeeded', 'failed')", [
      o.tenantId,
    ]);
    expect(running).toEqual([]);
  });

  it("an API credential needs the area's write scope to import and its read scope to export", async () => {
    const o = await signupTenant(t);
    const make = async (scopes: string[]) =>
      (
        await api(o.agent)
          .op("createApiCredential", { body: { name: `Sync ${scopes.join(" ")}`, scopes } })
          .expect(201)
      ).body.data.secret as string;
    const reader = await make(["employees:read"]);
    const writer = await make(["employees:write", "bulk:read"]);
    const csv = csvOf(line("Cred", email("cred")));
    const refused = expectError(
      await api(t.request()).op("importEmployees", { body: { csv }, headers: { Authorization: `Bearer ${reader}` } }),
      403,
    );
    expect(refused.error).toContain("employees:write");
    const made = await api(t.request())
      .op("importEmployees", { body: { csv }, headers: { Authorization: `Bearer ${writer}` } })
      .expect(201);
    await api(t.request())
      .op("getImport", { params: { id: made.body.data.id }, headers: { Authorization: `Bearer ${writer}` } })
      .expect(200);
    await api(t.request())
      .op("exportEmployees", { headers: { Authorization: `Bearer ${reader}` } })
      .expect(200);
    expectError(await api(t.request()).op("exportEmployees", { headers: { Authorization: `Bearer ${writer}` } }), 403);
    expectError(
      await api(t.request()).op("importHolidays", {
        body: { csv: "date,name\n2099-01-01,X\n" },
        headers: { Authorization: `Bearer ${writer}` },
      }),
      403,
    );
  });
});
