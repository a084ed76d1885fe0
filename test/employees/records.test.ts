// Employee records: create / read / update / soft delete, validation, duplicates, reporting lines,
// activity log contents and tenant isolation.
import { describe, expect, it } from "vitest";
import { expectDetails, expectError, signupTenant, useTestApp, type TenantSession, type AuditChanges } from "../support/app.ts";
import { createEmployee, employeeInput } from "../support/employees.ts";
import { api } from "../support/api.ts";

const t = useTestApp();

const activity = async (o: TenantSession, id: string) =>
  (
    await api(o.agent)
      .op("getEmployeeActivityLog", { params: { employeeId: id }, query: { limit: 100 } })
      .expect(200)
  ).body.data;

describe("createEmployee, getEmployee: create", () => {
  it("creates with generated, sequential codes and persists every field", async () => {
    const o = await signupTenant(t);
    const a = await createEmployee(o, {
      first_name: "  Priya ",
      last_name: "Sharma",
      email: "Priya.Sharma@Example.com",
      phone: "+91 98765 43210",
      date_of_birth: "1992-08-17",
      gender: "female",
      employment_type: "fixed_term",
      bank_name: "HDFC Bank",
      bank_account_number: "50100234567890",
      bank_ifsc: "HDFC0001234",
      state: "Maharashtra",
    });
    const b = await createEmployee(o, {
      bank_iban: "AE070331234567890123456",
      bank_routing_code: "802420101",
      labour_card_number: "00915012345663",
      pan_number: "ABCPS1234K",
      uan: "100123456789",
      esi_number: "3100123456",
    });
    expect(a.employee_code).toBe("EMP-00001");
    expect(b.employee_code).toBe("EMP-00002");
    expect(a).toMatchObject({
      view: "full",
      first_name: "Priya",
      email: "priya.sharma@example.com",
      status: "active",
      employment_type: "fixed_term",
      gender: "female",
      exit: null,
      user_id: null,
    });
    const [row] = await t.query(
      `SELECT first_name, email, bank_account_number, bank_ifsc, state, to_char(date_of_birth, ` +
        `'YYYY-MM-DD') AS dob, search_text, tenant_id FROM employees WHERE id = $1`,
      [a.id],
    );
    expect(row).toMatchObject({
      first_name: "Priya",
      email: "priya.sharma@example.com",
      bank_account_number: "50100234567890",
      bank_ifsc: "HDFC0001234",
      state: "Maharashtra",
      dob: "1992-08-17",
      tenant_id: o.tenantId,
    });
    expect(row.search_text).toContain("919876543210");
    const got = await api(o.agent)
      .op("getEmployee", { params: { employeeId: b.id } })
      .expect(200);
    expect(got.body.data).toMatchObject({
      bank_iban: "AE070331234567890123456",
      bank_routing_code: "802420101",
      labour_card_number: "00915012345663",
      pan_number: "ABCPS1234K",
      uan: "100123456789",
      esi_number: "3100123456",
    });
    expect(a).toMatchObject({ pan_number: null, uan: null, esi_number: null });
  });

  it("names every missing required field in the 400 details", async () => {
    const o = await signupTenant(t);
    const body = expectDetails(await o.agent.post("/api/employees").send({}), 400, "validation_failed");
    const paths = body.details.map((d) => d.path).sort();
    expect(paths).toEqual(["body.department", "body.designation", "body.email", "body.first_name", "body.joining_date", "body.last_name"]);
    const one = expectError(await o.agent.post("/api/employees").send({ ...employeeInput(), designation: undefined }), 400);
    expect(one.details).toEqual([expect.objectContaining({ path: "body.designation" })]);
    expect((await t.query(`SELECT count(*)::int AS n FROM employees WHERE tenant_id = $1`, [o.tenantId]))[0].n).toBe(0);
  });

  it("rejects malformed values with a 400 naming the field", async () => {
    const o = await signupTenant(t);
    const cases: [Record<string, unknown>, string][] = [
      [{ email: "not-an-email" }, "body.email"],
      [{ joining_date: "2024-02-30" }, "body.joining_date"],
      [{ status: "exited" }, "body.status"],
      [{ bank_ifsc: "hdfc1234" }, "body.bank_ifsc"],
      [{ bank_iban: "AE070331234567890123457" }, "body.bank_iban"],
      [{ bank_routing_code: "12345" }, "body.bank_routing_code"],
      [{ pan_number: "abcps1234k" }, "body.pan_number"],
      [{ pan_number: "ABCP12345K" }, "body.pan_number"],
      [{ uan: "10012345678" }, "body.uan"],
      [{ esi_number: "31001234AB" }, "body.esi_number"],
      [{ date_of_birth: "2024-01-01", joining_date: "2023-01-01" }, "body.date_of_birth"],
      [{ first_name: "   " }, "body.first_name"],
      [{ salary: 100 }, "body.salary"],
      [{ reports_to: "not-a-uuid" }, "body.reports_to"],
    ];
    for (const [override, path] of cases) {
      const res = await o.agent.post("/api/employees").send(employeeInput(override));
      const body = expectDetails(res, 400, "validation_failed");
      expect(
        body.details.map((d) => d.path),
        JSON.stringify(override),
      ).toContain(path);
    }
    expect((await t.query(`SELECT count(*)::int AS n FROM employees WHERE tenant_id = $1`, [o.tenantId]))[0].n).toBe(0);
  });

  it("email is unique among live employees (case-insensitive); codes are unique", async () => {
    const o = await signupTenant(t);
    const a = await createEmployee(o, { email: "dup@example.com", employee_code: "IMP-7" });
    expectError(await o.agent.post("/api/employees").send(employeeInput({ email: "DUP@example.com" })), 409, "conflict");
    expectError(await o.agent.post("/api/employees").send(employeeInput({ employee_code: "IMP-7" })), 409, "conflict");
    // Another company may use the same email and code.
    const other = await signupTenant(t);
    await createEmployee(other, { email: "dup@example.com", employee_code: "IMP-7" });
    // A hand-given code that looks generated is skipped by the generator.
    await createEmployee(o, { employee_code: "EMP-00001" });
    const next = await createEmployee(o);
    expect(next.employee_code).toBe("EMP-00002");
    expect((await t.query(`SELECT count(*)::int AS n FROM employees WHERE tenant_id = $1`, [o.tenantId]))[0].n).toBe(3);
    expect(a.employee_code).toBe("IMP-7");
  });

  it("concurrent creates get distinct codes", async () => {
    const o = await signupTenant(t);
    const made = await Promise.all(Array.from({ length: 8 }, () => createEmployee(o)));
    expect(new Set(made.map((e) => e.employee_code)).size).toBe(8);
  });

  it("writes employee.created with every set field, bank details masked", async () => {
    const o = await signupTenant(t);
    const e = await createEmployee(o, {
      bank_account_number: "50100234567890",
      bank_iban: "AE070331234567890123456",
      pan_number: "ABCPS1234K",
      phone: "+971 50 123 4567",
    });
    const [entry] = await activity(o, e.id);
    expect(entry).toMatchObject({
      action: "employee.created",
      actor_user_id: o.userId,
      actor_email: o.email,
      entity_type: "employee",
      entity_id: e.id,
    });
    expect(entry.changes!.first_name).toEqual({ from: null, to: e.first_name });
    expect(entry.changes!.phone).toEqual({ from: null, to: "+971 50 123 4567" });
    expect(entry.changes!.bank_account_number).toEqual({ from: null, to: "********7890" });
    expect(entry.changes!.bank_iban).toEqual({ from: null, to: "********3456" });
    expect(entry.changes!.pan_number).toEqual({ from: null, to: "******234K" });
    expect(entry.changes!.date_of_birth).toBeUndefined();
  });
});

describe("updateEmployee, getEmployeeActivityLog: update", () => {
  it("changes only the given fields and logs from → to (masked)", async () => {
    const o = await signupTenant(t);
    const e = await createEmployee(o, { bank_account_number: "11112222333344", designation: "Engineer" });
    const res = await api(o.agent)
      .op("updateEmployee", {
        params: { employeeId: e.id },
        body: { designation: "Staff Engineer", bank_account_number: "99998888777766", phone: null, joining_date: "2023-05-01" },
      })
      .expect(200);
    expect(res.body.data).toMatchObject({
      designation: "Staff Engineer",
      bank_account_number: "99998888777766",
      first_name: e.first_name,
      joining_date: "2023-05-01",
    });
    const [row] = await t.query(
      `SELECT designation, bank_account_number, to_char(joining_date,'YYYY-MM-DD') AS jd FROM employees WHERE id = $1`,
      [e.id],
    );
    expect(row).toEqual({ designation: "Staff Engineer", bank_account_number: "99998888777766", jd: "2023-05-01" });
    const [entry] = await activity(o, e.id);
    expect(entry.action).toBe("employee.updated");
    expect(entry.changes).toEqual({
      designation: { from: "Engineer", to: "Staff Engineer" },
      bank_account_number: { from: "********3344", to: "********7766" },
      joining_date: { from: "2023-04-03", to: "2023-05-01" },
    });
    // No change, no entry.
    await api(o.agent)
      .op("updateEmployee", { params: { employeeId: e.id }, body: { designation: "Staff Engineer" } })
      .expect(200);
    expect((await activity(o, e.id)).length).toBe(2);
  });

  it("rejects an empty body, duplicate emails and hand-set exit statuses", async () => {
    const o = await signupTenant(t);
    const a = await createEmployee(o);
    const b = await createEmployee(o);
    expectError(await api(o.agent).op("updateEmployee", { params: { employeeId: a.id }, body: {} }), 400);
    expectError(
      await api(o.agent).op("updateEmployee", { params: { employeeId: a.id }, body: { email: b.email.toUpperCase() } }),
      409,
      "conflict",
    );
    expectError(await o.agent.put(`/api/employees/${a.id}`).send({ status: "on_notice" }), 400);
    await api(o.agent)
      .op("updateEmployee", { params: { employeeId: a.id }, body: { email: a.email } })
      .expect(200); // own email is fine
    await api(o.agent)
      .op("updateEmployee", { params: { employeeId: a.id }, body: { status: "inactive" } })
      .expect(200);
    await api(o.agent)
      .op("submitResignation", {
        params: { employeeId: b.id },
        body: { resignation_date: "2024-01-02", last_working_day: "2024-02-01", reason: "x" },
      })
      .expect(201);
    expectError(await api(o.agent).op("updateEmployee", { params: { employeeId: b.id }, body: { status: "active" } }), 409, "conflict");
    expect((await t.query(`SELECT status FROM employees WHERE id = $1`, [b.id]))[0].status).toBe("on_notice");
  });

  it("reports_to must be a live employee of the company and must not create a cycle (400)", async () => {
    const o = await signupTenant(t);
    const ceo = await createEmployee(o);
    const vp = await createEmployee(o, { reports_to: ceo.id });
    const dev = await createEmployee(o, { reports_to: vp.id });
    expect(dev.reports_to).toBe(vp.id);
    const self = expectDetails(
      await api(o.agent).op("updateEmployee", { params: { employeeId: ceo.id }, body: { reports_to: ceo.id } }),
      400,
      "validation_failed",
    );
    expect(self.details[0].path).toBe("body.reports_to");
    const cycle = expectDetails(
      await api(o.agent).op("updateEmployee", { params: { employeeId: ceo.id }, body: { reports_to: dev.id } }),
      400,
      "validation_failed",
    );
    expect(cycle.details[0]).toMatchObject({ path: "body.reports_to" });
    expect(cycle.error).toMatch(/cycle/);
    expectError(await o.agent.post("/api/employees").send(employeeInput({ reports_to: "00000000-0000-4000-8000-000000000000" })), 400);
    const other = await signupTenant(t);
    const foreign = await createEmployee(other);
    expectError(await api(o.agent).op("updateEmployee", { params: { employeeId: dev.id }, body: { reports_to: foreign.id } }), 400);
    expect((await t.query(`SELECT reports_to FROM employees WHERE id = $1`, [ceo.id]))[0].reports_to).toBeNull();
    // Moving within the tree is fine; clearing is fine.
    await api(o.agent)
      .op("updateEmployee", { params: { employeeId: dev.id }, body: { reports_to: ceo.id } })
      .expect(200);
    await api(o.agent)
      .op("updateEmployee", { params: { employeeId: vp.id }, body: { reports_to: null } })
      .expect(200);
    expect((await t.query(`SELECT reports_to FROM employees WHERE id = $1`, [vp.id]))[0].reports_to).toBeNull();
  });

  it("concurrent manager swaps cannot build a cycle", async () => {
    const o = await signupTenant(t);
    const a = await createEmployee(o);
    const b = await createEmployee(o);
    const [r1, r2] = await Promise.all([
      api(o.agent).op("updateEmployee", { params: { employeeId: a.id }, body: { reports_to: b.id } }),
      api(o.agent).op("updateEmployee", { params: { employeeId: b.id }, body: { reports_to: a.id } }),
    ]);
    expect([r1.status, r2.status].sort()).toEqual([200, 400]);
    const rows = await t.query(`SELECT id, reports_to FROM employees WHERE id = ANY($1)`, [[a.id, b.id]]);
    expect(rows.filter((r) => r.reports_to !== null)).toHaveLength(1);
  });
});

describe("deleteEmployee: soft delete", () => {
  it("hides the employee everywhere, keeps history and frees the email", async () => {
    const o = await signupTenant(t);
    const e = await createEmployee(o, { email: "leaver@example.com", last_name: "Leaverson" });
    await api(o.agent)
      .op("deleteEmployee", { params: { employeeId: e.id } })
      .expect(200);
    const [row] = await t.query(`SELECT deleted_at FROM employees WHERE id = $1`, [e.id]);
    expect(row.deleted_at).not.toBeNull();
    for (const path of ["", "/documents", "/activity-log"])
      expectError(await o.agent.get(`/api/employees/${e.id}${path}`), 404, "not_found");
    expectError(await api(o.agent).op("updateEmployee", { params: { employeeId: e.id }, body: { designation: "x" } }), 404);
    expectError(await api(o.agent).op("deleteEmployee", { params: { employeeId: e.id } }), 404);
    expectError(
      await api(o.agent).op("submitResignation", {
        params: { employeeId: e.id },
        body: { resignation_date: "2024-01-02", last_working_day: "2024-02-01", reason: "x" },
      }),
      404,
    );
    const list = await api(o.agent)
      .op("listEmployees", { query: { search: "leaverson" } })
      .expect(200);
    expect(list.body.pagination!.total).toBe(0);
    expectError(await o.agent.post("/api/employees").send(employeeInput({ reports_to: e.id })), 400);
    // Email reusable, history kept.
    const again = await createEmployee(o, { email: "leaver@example.com" });
    expect(again.id).not.toBe(e.id);
    const log = await t.query<{ action: string; changes: AuditChanges }>(
      `SELECT action, changes FROM audit_logs WHERE entity_id = $1 ORDER BY created_at`,
      [e.id],
    );
    expect(log.map((l) => l.action)).toEqual(["employee.created", "employee.deleted"]);
    expect(log[1].changes.deleted_at.from).toBeNull();
  });

  it("refuses while someone reports to them, and unlinks member accounts", async () => {
    const o = await signupTenant(t);
    const boss = await createEmployee(o);
    const report = await createEmployee(o, { reports_to: boss.id });
    expectError(await api(o.agent).op("deleteEmployee", { params: { employeeId: boss.id } }), 409, "conflict");
    await t.query(`UPDATE memberships SET employee_id = $1 WHERE user_id = $2`, [report.id, o.userId]);
    await api(o.agent)
      .op("updateEmployee", { params: { employeeId: report.id }, body: { reports_to: null } })
      .expect(200);
    await api(o.agent)
      .op("deleteEmployee", { params: { employeeId: boss.id } })
      .expect(200);
    await api(o.agent)
      .op("deleteEmployee", { params: { employeeId: report.id } })
      .expect(200);
    expect((await t.query(`SELECT employee_id FROM memberships WHERE user_id = $1`, [o.userId]))[0].employee_id).toBeNull();
  });
});

describe("tenant isolation", () => {
  it("another company's employee is a 404 for every id-taking operation", async () => {
    const o = await signupTenant(t);
    const other = await signupTenant(t);
    const e = await createEmployee(other);
    const [doc] = await t.query<{ id: string }>(`SELECT gen_random_uuid() AS id`);
    const id = e.id;
    expectError(await api(o.agent).op("getEmployee", { params: { employeeId: id } }), 404, "not_found");
    expectError(await api(o.agent).op("updateEmployee", { params: { employeeId: id }, body: { designation: "Hacker" } }), 404, "not_found");
    expectError(await api(o.agent).op("deleteEmployee", { params: { employeeId: id } }), 404, "not_found");
    expectError(await api(o.agent).op("listEmployeeDocuments", { params: { employeeId: id } }), 404, "not_found");
    expectError(
      await o.agent
        .post(`/api/employees/${id}/documents`)
        .field("document_type", "other")
        .field("title", "x")
        .attach("file", Buffer.from("hello"), { filename: "a.txt", contentType: "text/plain" }),
      404,
      "not_found",
    );
    expectError(await api(o.agent).op("downloadEmployeeDocument", { params: { employeeId: id, documentId: doc.id } }), 404, "not_found");
    expectError(await api(o.agent).op("getEmployeeActivityLog", { params: { employeeId: id } }), 404, "not_found");
    expectError(
      await api(o.agent).op("submitResignation", {
        params: { employeeId: id },
        body: { resignation_date: "2024-01-02", last_working_day: "2024-02-01", reason: "x" },
      }),
      404,
      "not_found",
    );
    const [row] = await t.query(`SELECT designation, status, deleted_at FROM employees WHERE id = $1`, [id]);
    expect(row).toEqual({ designation: e.designation, status: "active", deleted_at: null });
    expect((await t.query(`SELECT count(*)::int AS n FROM employee_documents`))[0].n).toBe(0);
    const list = await api(o.agent)
      .op("listEmployees", { query: { reports_to: id } })
      .expect(200);
    expect(list.body.data).toEqual([]);
    const all = await api(o.agent).op("listEmployees").expect(200);
    expect(all.body.data).toEqual([]);
  });
});
