// Who sees what: employees read their own record and colleagues' directory entries, managers their
// direct reports (bank masked), hr/admin/owner everything; out-of-scope ids are 404.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { addMember, expectError, signupTenant, uniqueEmail, useTestApp, type TenantSession } from "../support/app.ts";
import { createEmployee, employeeInput, type Employee } from "../support/employees.ts";

const t = useTestApp();
let owner: TenantSession;
let boss: Employee, report: Employee, colleague: Employee;
let manager: TenantSession, employee: TenantSession, hr: TenantSession;

beforeAll(async () => {
  owner = await signupTenant(t);
  boss = await createEmployee(owner, { first_name: "Maya", last_name: "Manager" });
  report = await createEmployee(owner, {
    first_name: "Ravi",
    last_name: "Report",
    reports_to: boss.id,
    bank_account_number: "50100234567890",
    bank_iban: "AE070331234567890123456",
    pan_number: "ABCPS1234K",
    uan: "100123456789",
    esi_number: "3100123456",
    bank_ifsc: "HDFC0001234",
    bank_routing_code: "802420101",
    labour_card_number: "00915012345663",
    date_of_birth: "1990-01-01",
  });
  colleague = await createEmployee(owner, {
    first_name: "Cara",
    last_name: "Colleague",
    date_of_birth: "1991-02-02",
    bank_account_number: "12341234123412",
  });
  manager = await addMember(t, owner, "manager", { employeeId: boss.id });
  employee = await addMember(t, owner, "employee", { employeeId: report.id });
  hr = await addMember(t, owner, "hr");
});

describe("employee role", () => {
  it("reads their own complete record", async () => {
    const me = await api(employee.agent)
      .op("getEmployee", { params: { employeeId: report.id } })
      .expect(200);
    expect(me.body.data).toMatchObject({
      view: "full",
      id: report.id,
      bank_account_number: "50100234567890",
      date_of_birth: "1990-01-01",
      user_id: employee.userId,
    });
  });

  it("reads only the directory entry of colleagues", async () => {
    const c = await api(employee.agent)
      .op("getEmployee", { params: { employeeId: colleague.id } })
      .expect(200);
    expect(c.body.data.view).toBe("directory");
    expect(c.body.data).not.toHaveProperty("bank_account_number");
    expect(c.body.data).not.toHaveProperty("date_of_birth");
    const list = await api(employee.agent)
      .op("listEmployees", { query: { search: "colleague" } })
      .expect(200);
    // the list's entry is the GET's, without the record's version (only the GET of one record carries it)
    const { version, ...entry } = c.body.data;
    expect(version).toEqual(expect.any(String));
    expect(list.body.data).toEqual([entry]);
  });

  it("gets 404 for colleagues' documents, activity log and resignation", async () => {
    expectError(await api(employee.agent).op("listEmployeeDocuments", { params: { employeeId: colleague.id } }), 404, "not_found");
    expectError(await api(employee.agent).op("getEmployeeActivityLog", { params: { employeeId: colleague.id } }), 404, "not_found");
    expectError(
      await api(employee.agent).op("submitResignation", {
        params: { employeeId: colleague.id },
        body: { resignation_date: "2024-01-02", last_working_day: "2024-02-01", reason: "x" },
      }),
      404,
    );
    expectError(
      await employee.agent
        .post(`/api/employees/${colleague.id}/documents`)
        .field("document_type", "other")
        .field("title", "x")
        .attach("file", Buffer.from("hi"), { filename: "a.txt", contentType: "text/plain" }),
      404,
    );
    expect((await t.query(`SELECT status FROM employees WHERE id = $1`, [colleague.id]))[0].status).toBe("active");
    // Own activity log is visible.
    const own = await api(employee.agent)
      .op("getEmployeeActivityLog", { params: { employeeId: report.id } })
      .expect(200);
    expect(own.body.data[0].action).toBe("employee.created");
  });

  it("cannot create, update or delete (403)", async () => {
    expectError(await employee.agent.post("/api/employees").send(employeeInput()), 403, "forbidden");
    expectError(
      await api(employee.agent).op("updateEmployee", { params: { employeeId: report.id }, body: { designation: "CEO" } }),
      403,
      "forbidden",
    );
    expectError(await api(employee.agent).op("deleteEmployee", { params: { employeeId: colleague.id } }), 403, "forbidden");
    expect((await t.query(`SELECT designation, deleted_at FROM employees WHERE id = $1`, [report.id]))[0]).toEqual({
      designation: report.designation,
      deleted_at: null,
    });
  });

  it("a member without a linked record sees the directory only", async () => {
    const unlinked = await addMember(t, owner, "employee");
    expect(
      (
        await api(unlinked.agent)
          .op("getEmployee", { params: { employeeId: report.id } })
          .expect(200)
      ).body.data.view,
    ).toBe("directory");
    expectError(await api(unlinked.agent).op("listEmployeeDocuments", { params: { employeeId: report.id } }), 404);
  });
});

describe("manager role", () => {
  it("reads direct reports' complete record with every pay and statutory identifier masked", async () => {
    const r = await api(manager.agent)
      .op("getEmployee", { params: { employeeId: report.id } })
      .expect(200);
    expect(r.body.data).toMatchObject({
      view: "full",
      bank_account_number: "********7890",
      bank_iban: "********3456",
      pan_number: "******234K",
      uan: "********6789",
      esi_number: "******3456",
      bank_ifsc: "*******1234",
      bank_routing_code: "*****0101",
      labour_card_number: "********5663",
      date_of_birth: "1990-01-01",
    });
    // nowhere in clear in what the manager reads
    const text = JSON.stringify(r.body);
    for (const clear of ["100123456789", "3100123456", "HDFC0001234", "802420101", "00915012345663"]) expect(text).not.toContain(clear);
    // the activity log masks them too
    await api(hr.agent)
      .op("updateEmployee", { params: { employeeId: report.id }, body: { uan: "100987654321", bank_ifsc: "ICIC0005678" } })
      .expect(200);
    const log = (
      await api(manager.agent)
        .op("getEmployeeActivityLog", { params: { employeeId: report.id } })
        .expect(200)
    ).body.data;
    expect(log[0].changes).toMatchObject({
      uan: { from: "********6789", to: "********4321" },
      bank_ifsc: { from: "*******1234", to: "*******5678" },
    });
    await api(hr.agent)
      .op("updateEmployee", { params: { employeeId: report.id }, body: { uan: "100123456789", bank_ifsc: "HDFC0001234" } })
      .expect(200);
    // the employee and hr see their own / every record in full
    expect(
      (
        await api(employee.agent)
          .op("getEmployee", { params: { employeeId: report.id } })
          .expect(200)
      ).body.data,
    ).toMatchObject({
      uan: "100123456789",
      labour_card_number: "00915012345663",
    });
    // by hand: getEmployee answers Employee | EmployeeDirectoryEntry, and this reads the full record
    expect((await hr.agent.get(`/api/employees/${report.id}`).expect(200)).body.data.esi_number).toBe("3100123456");
    await api(manager.agent)
      .op("getEmployeeActivityLog", { params: { employeeId: report.id } })
      .expect(200);
    await api(manager.agent)
      .op("listEmployeeDocuments", { params: { employeeId: report.id } })
      .expect(200);
    const own = await api(manager.agent)
      .op("getEmployee", { params: { employeeId: boss.id } })
      .expect(200);
    expect(own.body.data.view).toBe("full");
  });

  it("sees other colleagues as directory entries and gets 404 beyond", async () => {
    const c = await api(manager.agent)
      .op("getEmployee", { params: { employeeId: colleague.id } })
      .expect(200);
    expect(c.body.data.view).toBe("directory");
    expectError(await api(manager.agent).op("getEmployeeActivityLog", { params: { employeeId: colleague.id } }), 404);
    expectError(await manager.agent.post("/api/employees").send(employeeInput()), 403, "forbidden");
    // A manager resigns for themselves only, not for their reports.
    expectError(
      await api(manager.agent).op("submitResignation", {
        params: { employeeId: report.id },
        body: { resignation_date: "2024-01-02", last_working_day: "2024-02-01", reason: "x" },
      }),
      404,
    );
    const reports = await api(manager.agent)
      .op("listEmployees", { query: { reports_to: boss.id } })
      .expect(200);
    expect(reports.body.data.map((e) => e.id)).toEqual([report.id]);
  });
});

describe("hr role", () => {
  it("manages every employee", async () => {
    const e = (await hr.agent.post("/api/employees").send(employeeInput()).expect(201)).body.data;
    const c = await api(hr.agent)
      .op("getEmployee", { params: { employeeId: colleague.id } })
      .expect(200);
    expect(c.body.data).toMatchObject({ view: "full", bank_account_number: "12341234123412" });
    await api(hr.agent)
      .op("updateEmployee", { params: { employeeId: e.id }, body: { designation: "Lead" } })
      .expect(200);
    await api(hr.agent)
      .op("deleteEmployee", { params: { employeeId: e.id } })
      .expect(200);
    const log = await api(owner.agent)
      .op("listActivityLog", { query: { entity_id: e.id } })
      .expect(200);
    expect(log.body.data.map((l) => [l.action, l.actor_user_id])).toEqual([
      ["employee.deleted", hr.userId],
      ["employee.updated", hr.userId],
      ["employee.created", hr.userId],
    ]);
  });
});

describe("linking a member through an invitation", () => {
  it("an invited employee reads their own record after accepting", async () => {
    const e = await createEmployee(owner, { first_name: "Ines", last_name: "Invited" });
    const email = uniqueEmail("invitee");
    await api(owner.agent)
      .op("inviteMember", { body: { email, role: "employee", employee_id: e.id } })
      .expect(201);
    const [mail] = await t.query<{ text_body: string }>(`SELECT text_body FROM email_outbox WHERE to_address = $1`, [email]);
    const token = /Invitation token: (\S+)/.exec(mail.text_body)![1];
    const agent = t.request();
    const accepted = await api(agent)
      .op("acceptInvite", { body: { token, name: "Ines Invited", password: "a-good-password" } })
      .expect(200);
    expect(accepted.body.data).toMatchObject({ role: "employee", employee_id: e.id, active_tenant_id: owner.tenantId });
    const me = await api(agent)
      .op("getEmployee", { params: { employeeId: e.id } })
      .expect(200);
    expect(me.body.data).toMatchObject({ view: "full", id: e.id, user_id: accepted.body.data.user.id });
    const other = await api(agent)
      .op("getEmployee", { params: { employeeId: colleague.id } })
      .expect(200);
    expect(other.body.data.view).toBe("directory");
    expectError(await api(agent).op("listEmployeeDocuments", { params: { employeeId: colleague.id } }), 404);
    // the record's activity log says who became its member, and by which invitation
    const log = (
      await api(owner.agent)
        .op("getEmployeeActivityLog", { params: { employeeId: e.id } })
        .expect(200)
    ).body.data;
    const linked = log.filter((l: { action: string }) => l.action === "employee.member_linked");
    expect(linked).toHaveLength(1);
    expect(linked[0]).toMatchObject({
      actor_user_id: accepted.body.data.user.id,
      changes: { member: { user_id: accepted.body.data.user.id, email, name: "Ines Invited" } },
    });
  });
});
