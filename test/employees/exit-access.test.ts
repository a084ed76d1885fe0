// Security review, items 3 and 7: a completed exit ends the person's access to the
// company at once - their membership, their sessions there, the identity cached by the server
// (identity cache on, as in production) - their reports move to the next manager up, who then
// decides their pending requests; re-hiring restores access only by a new invitation. And nobody
// but the owner completes their own exit (hr past pending items was a 200).
import { describe, expect, it } from "vitest";
import { addDays } from "../../src/lib/dates.ts";
import { completeDueExits } from "../../src/modules/employees/exits.ts";
import { newToken } from "../../src/platform/identity/tokens.ts";
import { addMember, expectError, signupTenant, type TenantSession, useTestApp, type AuditChanges } from "../support/app.ts";
import { createEmployee } from "../support/employees.ts";
import { createType, grant, insertEmployee, leaveWorld, nextWeekday, today } from "../leave/fixtures.ts";
import { appIdentityCache, settled } from "../support/identity-cache.ts";
import { api } from "../support/api.ts";

const t = useTestApp({ config: { identityCacheTtlMs: 60_000 } });
const PDF = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.from("passport scan ".repeat(40))]);

const appCache = () => appIdentityCache(t);

/** hr files a resignation whose last working day has passed. */
async function resignedYesterday(hr: TenantSession, employeeId: string) {
  return (
    await api(hr.agent)
      .op("submitResignation", {
        params: { employeeId },
        body: { resignation_date: addDays(today(), -30), last_working_day: addDays(today(), -1), reason: "Moving on" },
      })
      .expect(201)
  ).body.data;
}

const memberships = (userId: string, tenantId: string) =>
  t.query(`SELECT role FROM memberships WHERE user_id = $1 AND tenant_id = $2`, [userId, tenantId]);
const sessionsIn = async (userId: string, tenantId: string) =>
  (
    await t.query<{ n: number }>(`SELECT count(*)::int AS n FROM "session" WHERE sess->>'userId' = $1 AND sess->>'tenantId' = $2`, [
      userId,
      tenantId,
    ])
  )[0].n;

describe("completeExit, downloadEmployeeDocument, decideLeaveRequest, acceptInvite, updateHelpdeskTicket: exit ends access", () => {
  it("the exited manager loses the company at once; reports move up and their manager decides; an invitation restores access", async () => {
    const w = await leaveWorld(t);
    const topId = await insertEmployee(t, w.owner.tenantId, { first_name: "Tara", last_name: "Top" });
    const top = await addMember(t, w.owner, "manager", { employeeId: topId, name: "Tara Top" });
    await api(w.hr.agent)
      .op("updateEmployee", { params: { employeeId: w.managerEmployeeId }, body: { reports_to: topId } })
      .expect(200);
    // the report's pending leave and passport
    const CL = await createType(w.hr.agent, { name: "Casual leave" });
    await grant(w.hr.agent, w.employeeId, CL.id, "5.0");
    const day = nextWeekday(addDays(today(), 14), 2);
    const leave = (
      await api(w.employee.agent)
        .op("createLeaveRequest", { body: { leave_type_id: CL.id, from_date: day, to_date: day } })
        .expect(201)
    ).body.data;
    const doc = (
      await w.hr.agent
        .post(`/api/employees/${w.employeeId}/documents`)
        .field("document_type", "passport")
        .field("title", "Passport")
        .attach("file", PDF, { filename: "passport.pdf", contentType: "application/pdf" })
        .expect(201)
    ).body.data;
    // before: the manager reads it (and the cache holds their identity)
    await w.manager.agent.get(doc.download_path).expect(200);
    await w.manager.agent.get(doc.download_path).expect(200);
    expect(await sessionsIn(w.manager.userId, w.owner.tenantId)).toBe(1);

    await resignedYesterday(w.hr, w.managerEmployeeId);
    await api(w.owner.agent)
      .op("completeExit", { params: { employeeId: w.managerEmployeeId }, body: { override_reason: "Left early" } })
      .expect(200);

    // at once: no document, no decision, no company
    expectError(await w.manager.agent.get(doc.download_path), 401, "unauthenticated");
    expectError(
      await api(w.manager.agent).op("updateLeaveRequest", { params: { id: leave.id }, body: { status: "approved" } }),
      401,
      "unauthenticated",
    );
    expect(await memberships(w.manager.userId, w.owner.tenantId)).toEqual([]);
    expect(await sessionsIn(w.manager.userId, w.owner.tenantId)).toBe(0);
    const again = await api(t.request())
      .op("signIn", { body: { email: w.manager.email, password: w.manager.password } })
      .expect(200);
    expect(again.body.data.tenants).toEqual([]);
    expect(again.body.data.active_tenant_id).toBeNull();
    const removed = await t.query<{ changes: AuditChanges }>(
      `SELECT changes FROM audit_logs WHERE tenant_id = $1 AND action = 'member.removed' AND entity_id = $2`,
      [w.owner.tenantId, w.manager.userId],
    );
    expect(removed.map((r) => r.changes)).toEqual([{ role: "manager", employee_id: w.managerEmployeeId, reason: "exit_completed" }]);

    // the report now reports to the exited manager's manager, who is told and decides the leave
    const report = (
      await api(w.hr.agent)
        .op("getEmployee", { params: { employeeId: w.employeeId } })
        .expect(200)
    ).body.data;
    expect(report.reports_to).toBe(topId);
    const log = (
      await api(w.hr.agent)
        .op("getEmployeeActivityLog", { params: { employeeId: w.employeeId } })
        .expect(200)
    ).body.data;
    expect(log[0]).toMatchObject({
      action: "employee.updated",
      changes: { reports_to: { from: w.managerEmployeeId, to: topId }, reason: "manager_exited" },
    });
    const notices = (await api(top.agent).op("listNotifications").expect(200)).body.data;
    expect(notices.map((n) => n.kind)).toContain("employee.reports_reassigned");
    await api(top.agent)
      .op("updateLeaveRequest", { params: { id: leave.id }, body: { status: "approved" } })
      .expect(200);

    // re-hiring: only an invitation, accepted by the person, gives the access back
    await api(w.owner.agent)
      .op("inviteMember", { body: { email: w.manager.email, role: "manager", employee_id: w.managerEmployeeId } })
      .expect(201);
    const { token, hash } = newToken();
    await t.query(`UPDATE invitations SET token_hash = $1 WHERE tenant_id = $2 AND email = $3 AND accepted_at IS NULL`, [
      hash,
      w.owner.tenantId,
      w.manager.email,
    ]);
    const back = t.request();
    const accepted = await api(back)
      .op("acceptInvite", { body: { token, password: w.manager.password } })
      .expect(200);
    expect(accepted.body.data).toMatchObject({ active_tenant_id: w.owner.tenantId, role: "manager", employee_id: w.managerEmployeeId });
    await api(back)
      .op("getEmployee", { params: { employeeId: w.managerEmployeeId } })
      .expect(200);
  });

  it("the exit job ends access too, also of a member who unlinked first; their cached identity and tickets go with it", async () => {
    const o = await signupTenant(t);
    const e = await createEmployee(o);
    const admin = await addMember(t, o, "admin", { employeeId: e.id });
    const exit = await resignedYesterday(o, e.id);
    for (const c of exit.checklist)
      await api(o.agent)
        .op("updateExitChecklistItem", { params: { employeeId: e.id, itemId: c.id }, body: { status: "done" } })
        .expect(200);
    // a helpdesk ticket in the admin's hands
    await api(o.agent)
      .op("updateCompanySettings", { body: { modules: ["helpdesk"] } })
      .expect(200);
    const ticket = (
      await api(o.agent)
        .op("createHelpdeskTicket", { body: { title: "Laptop fan", category: "it", priority: "low", description: "Loud" } })
        .expect(201)
    ).body.data;
    await api(o.agent)
      .op("updateHelpdeskTicket", { params: { id: ticket.id }, body: { assignee_user_id: admin.userId } })
      .expect(200);
    // the admin unlinks their own membership, hoping to stay
    await api(admin.agent)
      .op("updateMember", { params: { userId: admin.userId }, body: { employee_id: null } })
      .expect(200);
    await api(admin.agent).op("listMembers").expect(200);
    await settled(t);
    await api(admin.agent).op("listMembers").expect(200); // from the cache now
    expect(appCache().size).toBeGreaterThan(0);

    expect(await completeDueExits()).toBeGreaterThanOrEqual(1);
    await settled(t); // the job is no request of this process: the memberships trigger's NOTIFY drops the cache
    expectError(await api(admin.agent).op("listMembers"), 401, "unauthenticated");
    expect(await memberships(admin.userId, o.tenantId)).toEqual([]);
    // their ticket is back in the queue, still in progress
    expect(
      (
        await api(o.agent)
          .op("getHelpdeskTicket", { params: { id: ticket.id } })
          .expect(200)
      ).body.data,
    ).toMatchObject({
      assignee_user_id: null,
      status: "in_progress",
    });
  });

  it("the company's last owner cannot exit this way (409); with another owner they can", async () => {
    const o = await signupTenant(t);
    const e = await createEmployee(o);
    await t.query(`UPDATE memberships SET employee_id = $1 WHERE tenant_id = $2 AND user_id = $3`, [e.id, o.tenantId, o.userId]);
    await resignedYesterday(o, e.id);
    const refused = expectError(
      await api(o.agent).op("completeExit", { params: { employeeId: e.id }, body: { override_reason: "Handing over" } }),
      409,
      "conflict",
    );
    expect(refused.error).toMatch(/last owner/);
    expect((await t.query(`SELECT status FROM employees WHERE id = $1`, [e.id]))[0].status).toBe("on_notice");
    const second = await addMember(t, o, "admin");
    await api(o.agent)
      .op("updateMember", { params: { userId: second.userId }, body: { role: "owner" } })
      .expect(200);
    await api(second.agent)
      .op("completeExit", { params: { employeeId: e.id }, body: { override_reason: "Handing over" } })
      .expect(200);
    expectError(await api(o.agent).op("listEmployees"), 401, "unauthenticated");
  });
});

describe("completeExit: not on one's own exit (the owner may)", () => {
  it("hr completing their own exit past pending items is a 403 and nothing changes, also after unlinking; another hr may", async () => {
    const o = await signupTenant(t);
    const self = await createEmployee(o);
    const hr = await addMember(t, o, "hr", { employeeId: self.id });
    await resignedYesterday(hr, self.id);
    const e = expectError(
      await api(hr.agent).op("completeExit", { params: { employeeId: self.id }, body: { override_reason: "All fine" } }),
      403,
      "forbidden",
    );
    expect(e.error).toMatch(/^You cannot complete your own exit: only the company's owner may decide on their own record/);
    await api(o.agent)
      .op("updateMember", { params: { userId: hr.userId }, body: { employee_id: null } })
      .expect(200);
    expectError(
      await api(hr.agent).op("completeExit", { params: { employeeId: self.id }, body: { override_reason: "All fine" } }),
      403,
      "forbidden",
    );
    expect((await t.query(`SELECT status FROM employees WHERE id = $1`, [self.id]))[0].status).toBe("on_notice");
    const [x] = await t.query(`SELECT status FROM employee_exits WHERE employee_id = $1`, [self.id]);
    expect(x.status).toBe("in_progress");

    const other = await addMember(t, o, "hr");
    await api(other.agent)
      .op("completeExit", { params: { employeeId: self.id }, body: { override_reason: "All fine" } })
      .expect(200);
  });
});
