// Persons' requests about their data (src/modules/privacy/requests.ts): each type end to end through
// the API, the clock relative to the day it runs (the calendar proof runs it at each of its
// instants: before 13 May 2027 the company's 90 days, from then the DPDP Rules'), who sees and who
// decides, and the access bundle with who the data was shared with.
import { beforeAll, describe, expect, it } from "vitest";
import { registerAllJobs } from "../../src/modules/jobs.ts";
import { nowMs, setClock } from "../../src/lib/clock.ts";
import { addDays } from "../../src/lib/dates.ts";
import { DELIVER_JOB } from "../../src/platform/events/events.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { addMember, expectError, signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { today } from "../support/clock.ts";
import { createEmployee } from "../support/employees.ts";
import { startReceiver } from "./fixtures.ts";
import { api, type RequestBodyOf } from "../support/api.ts";

const t = useTestApp({ config: { webhookAllowLoopback: true } });
beforeAll(() => registerAllJobs());

interface World {
  owner: TenantSession;
  hr: TenantSession;
  staff: TenantSession;
  colleague: TenantSession;
  staffEmployeeId: string;
}

async function world(): Promise<World> {
  const owner = await signupTenant(t);
  const hr = await addMember(t, owner, "hr");
  const e = await createEmployee(owner, { first_name: "Asha", last_name: "Nair" });
  const staff = await addMember(t, owner, "employee", { employeeId: e.id });
  const c = await createEmployee(owner);
  const colleague = await addMember(t, owner, "employee", { employeeId: c.id });
  return { owner, hr, staff, colleague, staffEmployeeId: e.id };
}

const ask = (w: TenantSession, body: RequestBodyOf<"createPrivacyRequest">) => api(w.agent).op("createPrivacyRequest", { body });
const decide = (w: TenantSession, id: string, body: RequestBodyOf<"decidePrivacyRequest">) =>
  api(w.agent).op("decidePrivacyRequest", { params: { id }, body });

describe("createPrivacyRequest, getPrivacyRequest, listPrivacyRequests: the clock", () => {
  it("due_at is 90 days from the day it is received, on the rule in force that day; an overdue request warns", async () => {
    const w = await world();
    const r = (await ask(w.staff, { type: "grievance", description: "My salary was shown to a colleague." }).expect(201)).body.data;
    const day = today();
    const statutory = day >= "2027-05-13";
    expect(r).toMatchObject({ type: "grievance", status: "received", subject: "employee", employee_id: w.staffEmployeeId, channel: "app" });
    expect(r).toMatchObject({ received_on: day, due_at: addDays(day, 90), warnings: [] });
    expect(r.clock).toMatchObject({ days: 90, basis: statutory ? "statutory" : "policy" });
    // a second open grievance is refused; the deciders were told
    expectError(await ask(w.staff, { type: "grievance", description: "Again" }), 409, "conflict");
    const [n] = await t.query(`SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND kind = 'privacy.request_received'`, [
      w.owner.userId,
    ]);
    expect(n.n).toBe(1);

    const start = nowMs();
    setClock(new Date(start + 92 * 86_400_000));
    try {
      const late = (
        await api(w.owner.agent)
          .op("getPrivacyRequest", { params: { id: r.id } })
          .expect(200)
      ).body.data;
      expect(late.warnings).toHaveLength(1);
      expect(late.warnings[0]).toMatch(new RegExp(`^The answer was due on ${r.due_at} \\(90 days, .*\\): [12] days? overdue$`));
      const listed = (
        await api(w.owner.agent)
          .op("listPrivacyRequests", { query: { status: "received" } })
          .expect(200)
      ).body;
      expect(listed.data.map((x: { id: string }) => x.id)).toEqual([r.id]);
    } finally {
      setClock(new Date(start));
    }
    // the person sees theirs, a colleague does not
    await api(w.staff.agent)
      .op("getPrivacyRequest", { params: { id: r.id } })
      .expect(200);
    expectError(await api(w.colleague.agent).op("getPrivacyRequest", { params: { id: r.id } }), 404, "not_found");
    expect((await api(w.colleague.agent).op("listPrivacyRequests").expect(200)).body.data).toEqual([]);
    // a grievance is answered by its resolution
    const done = (await decide(w.owner, r.id, { status: "completed", resolution: "Access to salaries restricted." }).expect(200)).body.data;
    expect(done).toMatchObject({
      status: "completed",
      resolution: "Access to salaries restricted.",
      decided_by: w.owner.userId,
      warnings: [],
    });
  });
});

describe("decidePrivacyRequest, withdrawPrivacyRequest, getPrivacySettings, updatePrivacySettings: who decides, the state machine", () => {
  it("owners, admins and the named grievance officer decide; other hr members may not", async () => {
    const w = await world();
    const r = (await ask(w.staff, { type: "access", description: "What do you hold about me?" }).expect(201)).body.data;
    expectError(await decide(w.hr, r.id, { status: "in_progress" }), 403, "forbidden");
    await api(w.owner.agent)
      .op("updatePrivacySettings", { body: { grievance_officer_user_id: w.hr.userId } })
      .expect(200);
    const s = (await api(w.staff.agent).op("getPrivacySettings").expect(200)).body.data;
    expect(s).toMatchObject({ jurisdiction: "IN", grievance_officer_user_id: w.hr.userId, grievance_officer_email: w.hr.email });
    expect((await decide(w.hr, r.id, { status: "in_progress" }).expect(200)).body.data.status).toBe("in_progress");
    expectError(await decide(w.hr, r.id, { status: "rejected" }), 400, "validation_failed"); // a rejection says why
    expectError(await api(w.colleague.agent).op("withdrawPrivacyRequest", { params: { id: r.id } }), 404);
    expect(
      (
        await api(w.staff.agent)
          .op("withdrawPrivacyRequest", { params: { id: r.id } })
          .expect(200)
      ).body.data.status,
    ).toBe("withdrawn");
    expectError(await decide(w.owner, r.id, { status: "completed" }), 409, "conflict");
    expectError(await api(w.owner.agent).op("updatePrivacySettings", { body: { grievance_officer_user_id: w.staff.userId } }), 400);
  });

  it("a member without an employee record is told to ask the company; a decider logs it on their behalf", async () => {
    const w = await world();
    const loose = await addMember(t, w.owner, "employee");
    expectError(await ask(loose, { type: "access", description: "x" }), 403, "forbidden");
    expectError(await ask(w.staff, { type: "access", description: "x", employee_id: (await createEmployee(w.owner)).id }), 403);
    const r = (await ask(w.owner, { type: "access", description: "Asked by letter", employee_id: w.staffEmployeeId }).expect(201)).body
      .data;
    expect(r.channel).toBe("on_behalf");
  });
});

describe("correction and nomination requests", () => {
  it("a correction goes through the employee record's own update rules when completed", async () => {
    const w = await world();
    expectError(await ask(w.staff, { type: "correction", description: "New phone" }), 400, "validation_failed");
    expectError(await ask(w.staff, { type: "correction", description: "x", corrections: { phone: "not a phone" } }), 400);
    const r = (await ask(w.staff, { type: "correction", description: "New phone", corrections: { phone: "+91 98450 00001" } }).expect(201))
      .body.data;
    const done = (await decide(w.owner, r.id, { status: "completed", resolution: "Updated" }).expect(200)).body.data;
    expect(done.outcome).toEqual({ corrected: ["phone"] });
    const emp = (
      await api(w.owner.agent)
        .op("getEmployee", { params: { employeeId: w.staffEmployeeId } })
        .expect(200)
    ).body.data;
    expect(emp.phone).toBe("+91 98450 00001");
    const log = (
      await api(w.owner.agent)
        .op("listActivityLog", { query: { entity_id: w.staffEmployeeId, action: "employee.updated" } })
        .expect(200)
    ).body;
    expect(log.data[0].changes?.phone).toMatchObject({ to: "+91 98450 00001" });
  });

  it("a nomination records the nominee", async () => {
    const w = await world();
    const nominee = { name: "Meera Nair", relationship: "Sister", email: "meera@example.test" };
    expectError(await ask(w.staff, { type: "nomination", description: "x" }), 400);
    const r = (await ask(w.staff, { type: "nomination", description: "My sister", nominee }).expect(201)).body.data;
    const done = (await decide(w.owner, r.id, { status: "completed" }).expect(200)).body.data;
    expect(done).toMatchObject({ nominee, outcome: { nominee } });
  });
});

describe("getPrivacyRequestBundle: what is held and who it was shared with", () => {
  it("answers a completed access request with the person's records and the webhook endpoints that received them", async () => {
    const w = await world();
    const receiver = await startReceiver();
    try {
      const ep = (
        await api(w.owner.agent)
          .op("createWebhookEndpoint", { body: { url: receiver.url, event_types: ["employee.updated"] } })
          .expect(201)
      ).body.data.endpoint;
      await api(w.owner.agent)
        .op("updateEmployee", { params: { employeeId: w.staffEmployeeId }, body: { designation: "Lead" } })
        .expect(200);
      await jobs.runNow(DELIVER_JOB, t.configWith({ webhookAllowLoopback: true }));
      const r = (await ask(w.staff, { type: "access", description: "What do you hold?" }).expect(201)).body.data;
      expectError(await api(w.staff.agent).op("getPrivacyRequestBundle", { params: { id: r.id } }), 409, "conflict");
      const done = (await decide(w.owner, r.id, { status: "completed" }).expect(200)).body.data;
      expect(done.outcome).toEqual({ bundle_url: `/api/privacy/requests/${r.id}/bundle` });
      const b = (
        await api(w.staff.agent)
          .op("getPrivacyRequestBundle", { params: { id: r.id } })
          .expect(200)
      ).body.data;
      expect(b.subject).toEqual({ kind: "employee", id: w.staffEmployeeId, name: "Asha Nair" });
      expect(b.records.employee_profile).toEqual([
        expect.objectContaining({ id: w.staffEmployeeId, first_name: "Asha", designation: "Lead" }),
      ]);
      expect(b.records).toHaveProperty("attendance");
      expect(b.records.privacy_requests).toEqual([expect.objectContaining({ type: "access", status: "completed" })]);
      expect(b.shared_with.webhook_endpoints).toEqual([
        expect.objectContaining({ endpoint_id: ep.id, url: receiver.url, deliveries: 1, last_delivered_at: expect.any(String) }),
      ]);
      expectError(await api(w.colleague.agent).op("getPrivacyRequestBundle", { params: { id: r.id } }), 404);
    } finally {
      await receiver.close();
    }
  });
});
