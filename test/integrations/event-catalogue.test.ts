// The event catalogue: an event type of the document's `webhooks` section is raised by an action
// through the API, seen in the feed (listEvents), and its body (what a webhook delivers: type,
// timestamp, data) is valid for the type's schema in the document.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { beforeAll, describe, expect, it } from "vitest";
import type { EventType } from "../../generated/registry.ts";
import { nowMs } from "../../src/lib/clock.ts";
import { addDays } from "../../src/lib/dates.ts";
import { api } from "../support/api.ts";
import { createAsset, createCategory } from "../assets/fixtures.ts";
import { addMember, uniqueEmail, useTestApp } from "../support/app.ts";
import { createEmployee } from "../support/employees.ts";
import { createType, grant, type LeaveWorld, leaveWorld, nextWeekday, today } from "../leave/fixtures.ts";
import { payrollEmployee, type PayrollWorld, standardComponents } from "../payroll/fixtures.ts";
import { addCandidate, advance, openPosting } from "../recruitment/fixtures.ts";

const t = useTestApp({ config: { webhookAllowLoopback: true } });
const doc = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../generated/openapi.json"), "utf8"));
const DOC_ID = "https://hrms.example.com/openapi.json";
const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
// ajv-formats is CommonJS: its default import is the module, whose `default` is the plugin
addFormats.default(ajv);
ajv.addSchema({ ...doc, $id: DOC_ID });

/** The validator of a type's body: the request body its webhook declares. */
function bodySchema(type: string) {
  const ref: string = doc.webhooks[type].post.requestBody.content["application/json"].schema.$ref;
  return ajv.getSchema(`${DOC_ID}${ref}`) ?? ajv.compile({ $ref: `${DOC_ID}${ref}` });
}

interface FeedEvent {
  type: string;
  timestamp: string;
  data: unknown;
  cursor: string;
}

let w: LeaveWorld;
let cursor: string | null = null;

/** The events of the feed after the last read (every page). */
async function newEvents(): Promise<FeedEvent[]> {
  const out: FeedEvent[] = [];
  for (;;) {
    const page = (
      await api(w.owner.agent)
        .op("listEvents", { query: { limit: 100, ...(cursor ? { after: cursor } : {}) } })
        .expect(200)
    ).body;
    out.push(...page.data);
    const moved = page.next_cursor && page.next_cursor !== cursor;
    cursor = page.next_cursor ?? cursor;
    if (!moved || page.data.length < 100) return out;
  }
}

/** The types a test of this file raised through the API and validated against their schema. */
const proven = new Set<string>();

/** Runs the producer, then expects an event of `type` among the new events with a body valid for its schema. */
async function expectRaised(type: EventType, producer: () => Promise<unknown>) {
  await newEvents();
  await producer();
  const events = (await newEvents()).filter((e) => e.type === type);
  expect(events.length, `${type} in the feed`).toBeGreaterThan(0);
  const validate = bodySchema(type);
  for (const e of events) {
    const body = { type: e.type, timestamp: e.timestamp, data: e.data };
    expect(validate(body), `${type}: ${JSON.stringify(validate.errors)}`).toBe(true);
  }
  proven.add(type);
}

/** The file's company as a payroll world (the standard components of test/payroll/support.ts). */
const payrollOf = async (world: LeaveWorld): Promise<PayrollWorld> => ({
  owner: world.owner,
  hr: world.hr,
  components: await standardComponents(world.hr),
});
let payroll: Promise<PayrollWorld> | undefined;

let leaveTypeId: string;
const leaveDay = (week: number) => nextWeekday(addDays(today(), 14 + week * 7), 2);
const applyLeave = async (week: number) =>
  (
    await api(w.employee.agent)
      .op("createLeaveRequest", {
        body: { leave_type_id: leaveTypeId, from_date: leaveDay(week), to_date: leaveDay(week), reason: "Errand" },
      })
      .expect(201)
  ).body.data.id as string;

beforeAll(async () => {
  w = await leaveWorld(t);
  await api(w.owner.agent)
    .op("updateCompanySettings", { body: { modules: ["helpdesk", "assets", "payroll", "recruitment"] } })
    .expect(200);
  leaveTypeId = (await createType(w.hr.agent, { name: "Casual leave" })).id;
  await grant(w.hr.agent, w.employeeId, leaveTypeId, "10");
});

describe("listEvents: each event type has a producer and its body is valid for its schema", () => {
  it("employee.created, employee.updated, employee.deleted: createEmployee, updateEmployee, deleteEmployee", async () => {
    let id = "";
    await expectRaised("employee.created", async () => {
      id = (await createEmployee(w.owner)).id;
    });
    await expectRaised("employee.updated", () =>
      api(w.owner.agent)
        .op("updateEmployee", { params: { employeeId: id }, body: { designation: "Head" } })
        .expect(200),
    );
    await expectRaised("employee.deleted", () =>
      api(w.owner.agent)
        .op("deleteEmployee", { params: { employeeId: id } })
        .expect(200),
    );
  });

  it("employee.exited: submitResignation, completeExit", async () => {
    const id = (await createEmployee(w.owner, { joining_date: addDays(today(), -400) })).id;
    await api(w.hr.agent)
      .op("submitResignation", {
        params: { employeeId: id },
        body: { resignation_date: addDays(today(), -30), last_working_day: addDays(today(), -1), reason: "Moving on" },
      })
      .expect(201);
    await expectRaised("employee.exited", () =>
      api(w.owner.agent)
        .op("completeExit", { params: { employeeId: id }, body: { override_reason: "Left early" } })
        .expect(200),
    );
  });

  it("leave_request.created, .approved, .rejected, .cancelled: createLeaveRequest, updateLeaveRequest, cancelLeaveRequest", async () => {
    let first = "";
    await expectRaised("leave_request.created", async () => {
      first = await applyLeave(0);
    });
    await expectRaised("leave_request.approved", () =>
      api(w.manager.agent)
        .op("updateLeaveRequest", { params: { id: first }, body: { status: "approved" } })
        .expect(200),
    );
    await expectRaised("leave_request.cancelled", () =>
      api(w.employee.agent)
        .op("cancelLeaveRequest", { params: { id: first } })
        .expect(200),
    );
    const second = await applyLeave(1);
    await expectRaised("leave_request.rejected", () =>
      api(w.manager.agent)
        .op("updateLeaveRequest", { params: { id: second }, body: { status: "rejected", comment: "Busy week" } })
        .expect(200),
    );
  });

  it("helpdesk.ticket_created, helpdesk.ticket_updated: createHelpdeskTicket, updateHelpdeskTicket", async () => {
    let id = "";
    await expectRaised("helpdesk.ticket_created", async () => {
      id = (
        await api(w.employee.agent)
          .op("createHelpdeskTicket", { body: { title: "Payslip missing", category: "payroll", priority: "high", description: "Where?" } })
          .expect(201)
      ).body.data.id;
    });
    await expectRaised("helpdesk.ticket_updated", () =>
      api(w.hr.agent)
        .op("updateHelpdeskTicket", { params: { id }, body: { priority: "urgent" } })
        .expect(200),
    );
  });

  it("asset.assigned, asset.returned: createAssetAssignment, createAssetReturnRequest, decideAssetReturnRequest", async () => {
    const asset = await createAsset(w.hr, await createCategory(w.hr));
    let assignment = "";
    await expectRaised("asset.assigned", async () => {
      assignment = (
        await api(w.hr.agent)
          .op("createAssetAssignment", { body: { asset_id: asset.id, employee_id: w.employeeId } })
          .expect(201)
      ).body.data.id;
    });
    const request = (
      await api(w.employee.agent)
        .op("createAssetReturnRequest", { body: { assignment_id: assignment, reason: "Got a new laptop" } })
        .expect(201)
    ).body.data.id;
    await expectRaised("asset.returned", () =>
      api(w.hr.agent)
        .op("decideAssetReturnRequest", { params: { id: request }, body: { status: "approved", returned_on: today() } })
        .expect(200),
    );
  });

  it("attendance_regularization.approved, .rejected: createAttendanceRegularization, updateAttendanceRegularization", async () => {
    const correct = async (day: string) =>
      (
        await api(w.employee.agent)
          .op("createAttendanceRegularization", { body: { date: day, check_in: `${day}T03:30:00.000Z`, reason: "Forgot to punch" } })
          .expect(201)
      ).body.data.id as string;
    const first = await correct(nextWeekday(addDays(today(), -14), 2));
    await expectRaised("attendance_regularization.approved", () =>
      api(w.manager.agent)
        .op("updateAttendanceRegularization", { params: { id: first }, body: { status: "approved" } })
        .expect(200),
    );
    const second = await correct(nextWeekday(addDays(today(), -14), 3));
    await expectRaised("attendance_regularization.rejected", () =>
      api(w.manager.agent)
        .op("updateAttendanceRegularization", { params: { id: second }, body: { status: "rejected", comment: "No record" } })
        .expect(200),
    );
  });

  it("privacy_request.received, privacy_request.completed: createPrivacyRequest, decidePrivacyRequest", async () => {
    let id = "";
    await expectRaised("privacy_request.received", async () => {
      id = (
        await api(w.employee.agent).op("createPrivacyRequest", {
          body: { type: "grievance", description: "My salary was shown to a colleague." },
        })
      ).body.data.id;
    });
    await expectRaised("privacy_request.completed", () =>
      api(w.owner.agent)
        .op("decidePrivacyRequest", { params: { id }, body: { status: "completed", resolution: "Access to salaries restricted." } })
        .expect(200),
    );
  });

  it("personal_data.erased: createPrivacyRequest (erasure), decidePrivacyRequest", async () => {
    const former = (await createEmployee(w.owner)).id;
    await t.query("UPDATE employees SET status = 'exited' WHERE id = $1", [former]);
    const r = (
      await api(w.owner.agent)
        .op("createPrivacyRequest", { body: { type: "erasure", employee_id: former, description: "Please erase my data." } })
        .expect(201)
    ).body.data;
    await expectRaised("personal_data.erased", () =>
      api(w.owner.agent)
        .op("decidePrivacyRequest", { params: { id: r.id }, body: { status: "completed" } })
        .expect(200),
    );
  });

  it("privacy_breach.recorded: createPrivacyBreach", async () => {
    await expectRaised("privacy_breach.recorded", () =>
      api(w.owner.agent)
        .op("createPrivacyBreach", {
          body: {
            title: "Payroll register mailed to a wrong address",
            description: "The salary register was mailed to an outside address by mistake.",
            nature: "confidentiality",
            data_categories: ["salary"],
            likely_impact: "Disclosure of salaries.",
            became_aware_at: new Date(nowMs() - 3_600_000).toISOString(),
          },
        })
        .expect(201),
    );
  });

  it("member.joined: inviteMember, acceptInvite", async () => {
    const email = uniqueEmail("joining");
    await api(w.owner.agent)
      .op("inviteMember", { body: { email, role: "employee" } })
      .expect(201);
    const [mail] = await t.query<{ text_body: string }>("SELECT text_body FROM email_outbox WHERE to_address = $1", [email]);
    const token = /Invitation token: ([A-Za-z0-9_-]+)/.exec(mail.text_body)?.[1];
    await expectRaised("member.joined", () =>
      t.request().post("/api/auth/accept-invite").send({ token, name: "Jo Joining", password: "jo-joining-granite-44" }).expect(200),
    );
  });

  it("member.removed: removeMember", async () => {
    const leaving = await addMember(t, w.owner, "employee", { name: "Lee Leaving" });
    await expectRaised("member.removed", () =>
      api(w.owner.agent)
        .op("removeMember", { params: { userId: leaving.userId } })
        .expect(200),
    );
  });

  it("payroll_run.processed: createPayrollRun, processPayrollRun", async () => {
    payroll ??= payrollOf(w);
    const paid = await payrollEmployee(t, await payroll, "50000.00", { joining_date: addDays(today(), -400) });
    const period = addDays(`${today().slice(0, 7)}-01`, -1).slice(0, 7); // last month
    const run = (
      await api(w.hr.agent)
        .op("createPayrollRun", { body: { period, employee_ids: [paid] } })
        .expect(201)
    ).body.data;
    await expectRaised("payroll_run.processed", () =>
      api(w.hr.agent)
        .op("processPayrollRun", { params: { id: run.id } })
        .expect(200),
    );
  });

  it("final_settlement.processed: submitResignation, createFinalSettlement, processFinalSettlement", async () => {
    payroll ??= payrollOf(w);
    const leaving = await payrollEmployee(t, await payroll, "50000.00", { joining_date: addDays(today(), -800) });
    await api(w.hr.agent)
      .op("submitResignation", {
        params: { employeeId: leaving },
        body: { resignation_date: addDays(today(), -45), last_working_day: addDays(today(), -2), reason: "Moving on" },
      })
      .expect(201);
    const settlement = (
      await api(w.hr.agent)
        .op("createFinalSettlement", { body: { employee_id: leaving } })
        .expect(201)
    ).body.data;
    await expectRaised("final_settlement.processed", () =>
      api(w.hr.agent)
        .op("processFinalSettlement", { params: { id: settlement.id } })
        .expect(200),
    );
  });

  it("recruitment.offer_status_changed, .candidate_converted: sendJobOffer, acceptPublicOffer, convertCandidateToEmployee", async () => {
    const posting = await openPosting(w.hr.agent);
    const candidate = await addCandidate(w.hr.agent, posting.id);
    await advance(w.hr.agent, candidate.id, "interview");
    const offer = (
      await api(w.hr.agent)
        .op("createJobOffer", {
          body: { candidate_id: candidate.id, salary: "2400000.00", joining_date: addDays(today(), 30), expires_on: addDays(today(), 7) },
        })
        .expect(201)
    ).body.data;
    await expectRaised("recruitment.offer_status_changed", () =>
      api(w.hr.agent)
        .op("sendJobOffer", { params: { id: offer.id } })
        .expect(200),
    );
    const [mail] = await t.query<{ text_body: string }>(
      "SELECT text_body FROM email_outbox WHERE to_address = $1 AND text_body LIKE '%/api/public/offers/%'",
      [candidate.email],
    );
    const token = /\/api\/public\/offers\/([A-Za-z0-9_-]{20,})/.exec(mail.text_body)?.[1];
    await expectRaised("recruitment.offer_status_changed", () => t.request().post(`/api/public/offers/${token}/accept`).expect(200));
    await api(w.hr.agent)
      .op("updateCandidate", { params: { id: candidate.id }, body: { stage: "hired" } })
      .expect(200);
    await expectRaised("recruitment.candidate_converted", () =>
      api(w.hr.agent)
        .op("convertCandidateToEmployee", { params: { id: candidate.id }, body: {} })
        .expect(201),
    );
  });

  it("webhook.ping: testWebhookEndpoint writes it for the one endpoint, not the feed", async () => {
    const e = (
      await api(w.owner.agent)
        .op("createWebhookEndpoint", { body: { url: "http://127.0.0.1:9/hook" } })
        .expect(201)
    ).body.data;
    await newEvents();
    await api(w.owner.agent)
      .op("testWebhookEndpoint", { params: { id: e.endpoint.id } })
      .expect(202);
    expect(await newEvents()).toEqual([]);
    const [row] = await t.query<{ type: string; created_at: Date; data: unknown }>(
      "SELECT type, created_at, data FROM events WHERE endpoint_id = $1",
      [e.endpoint.id],
    );
    const validate = bodySchema("webhook.ping");
    const body = { type: row.type, timestamp: row.created_at.toISOString(), data: row.data };
    expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    proven.add(row.type);
  });

  // last: the tests above ran in order (a run of some of them with a filter skips this one too)
  it("every event type of the document's `webhooks` section was raised and validated by a test above", () => {
    const missing = Object.keys(doc.webhooks).filter((type) => !proven.has(type));
    expect(missing, "event types without a producer test").toEqual([]);
    expect(proven.size).toBe(Object.keys(doc.webhooks).length);
  });
});
