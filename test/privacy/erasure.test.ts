// Erasure that keeps what the law requires (src/modules/privacy/erasure.ts): on 15 June 2027 (the
// DPDP Rules in force), a former employee's erasure request deletes the salary slip past its eight
// financial years and keeps the one inside them (the record pseudonymised around it), the tombstone
// reaches a webhook receiver and the event feed, a legal hold stops it, and the daily purge removes
// the kept slip once its date has passed; a candidate not hired is erased by the schedule alone.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerAllJobs } from "../../src/modules/jobs.ts";
import { setClock } from "../../src/lib/clock.ts";
import { DELIVER_JOB } from "../../src/platform/events/events.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { expectError, signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { useClock } from "../support/clock.ts";
import { createEmployee } from "../support/employees.ts";
import { addCandidate, openPosting } from "../recruitment/fixtures.ts";
import { insertSlip, type Receiver, startReceiver } from "./fixtures.ts";
import { api } from "../support/api.ts";
import { asObject } from "../support/document.ts";

const t = useTestApp({ config: { webhookAllowLoopback: true } });
useClock("2027-06-15T06:30:00Z");

let receiver: Receiver;
beforeAll(async () => {
  registerAllJobs();
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const deliver = () => jobs.runNow(DELIVER_JOB, t.configWith({ webhookAllowLoopback: true }));
const purge = () => jobs.runNow("privacy.purge", t.config);

async function formerEmployee(owner: TenantSession) {
  const e = await createEmployee(owner, { first_name: "Ravi", last_name: "Kumar", phone: "+91 98450 12345" });
  await t.query(`UPDATE employees SET status = 'exited' WHERE id = $1`, [e.id]);
  return e as { id: string; employee_code: string; email: string };
}

async function erasureRequest(owner: TenantSession, employeeId: string) {
  return (
    await api(owner.agent)
      .op("createPrivacyRequest", { body: { type: "erasure", employee_id: employeeId, description: "Please erase my data." } })
      .expect(201)
  ).body.data;
}

describe("decidePrivacyRequest (erasure), createLegalHold, releaseLegalHold, listLegalHolds, the purge job", () => {
  it("keeps the payslip inside its window (pseudonymised around it), erases the one past it, sends the tombstone", async () => {
    const owner = await signupTenant(t);
    await api(owner.agent)
      .op("createWebhookEndpoint", { body: { url: receiver.url, event_types: ["personal_data.erased"] } })
      .expect(201);
    const e = await formerEmployee(owner);
    // FY 2018-19 ends 31 March 2019: kept until 31 March 2027, gone by 15 June 2027; FY 2019-20: until 31 March 2028
    const past = await insertSlip(t, owner.tenantId, e.id, "2019-03");
    const inside = await insertSlip(t, owner.tenantId, e.id, "2019-04");

    const r = await erasureRequest(owner, e.id);
    expect(r).toMatchObject({ status: "received", jurisdiction: "IN", received_on: "2027-06-15", due_at: "2027-09-13" });
    expect(r.clock).toMatchObject({ days: 90, basis: "statutory", effective_from: "2027-05-13" });
    const done = (
      await api(owner.agent)
        .op("decidePrivacyRequest", { params: { id: r.id }, body: { status: "completed" } })
        .expect(200)
    ).body.data;
    expect(done.status).toBe("completed");
    // `outcome` is free-form in the document (what each request type did): read as the erasure writes it
    expect(done.outcome).toMatchObject({ erased: { payslips: [past] } });
    expect(asObject(done.outcome).kept).toEqual([
      { record_class: "payslips", count: 1, retain_until: "2028-03-31", rule: expect.stringContaining("Companies Act 2013 s.128(5)") },
    ]);

    const slips = await t.query<{ id: string; employee_name: string }>(
      `SELECT id, employee_name FROM payroll_slips WHERE employee_id = $1`,
      [e.id],
    );
    expect(slips).toEqual([{ id: inside, employee_name: "Ravi Kumar" }]); // the wage record keeps its own particulars
    const [row] = await t.query(`SELECT first_name, last_name, email, phone, deleted_at FROM employees WHERE id = $1`, [e.id]);
    expect(row).toMatchObject({ first_name: "Erased", last_name: e.employee_code, email: `erased-${e.id}@erased.invalid`, phone: null });
    expect(row.deleted_at).not.toBeNull();
    const [kept] = await t.query(`SELECT record_class, retain_until::text AS until FROM retained_records WHERE record_id = $1`, [inside]);
    expect(kept).toEqual({ record_class: "payslips", until: "2028-03-31" });

    await deliver();
    const tombstones = receiver.bodies().filter((b) => b.type === "personal_data.erased" && b.data.id === e.id);
    expect(tombstones).toHaveLength(1);
    expect(tombstones[0].data).toMatchObject({ entity_type: "employee", changes: { stage: "erased", erased: { payslips: [past] } } });
    const feed = (await api(owner.agent).op("listEvents").expect(200)).body.data;
    expect(feed.some((ev) => ev.type === "personal_data.erased" && ev.data.id === e.id)).toBe(true);

    // The daily purge leaves it until its date has passed, then removes it and says so.
    await purge();
    expect(await t.query(`SELECT id FROM payroll_slips WHERE employee_id = $1`, [e.id])).toHaveLength(1);
    setClock("2028-04-01T06:30:00Z");
    try {
      await purge();
      await purge(); // twice: nothing more
    } finally {
      setClock("2027-06-15T06:30:00Z");
    }
    expect(await t.query(`SELECT id FROM payroll_slips WHERE employee_id = $1`, [e.id])).toHaveLength(0);
    await deliver();
    const purged = receiver
      .bodies()
      .filter((b) => b.type === "personal_data.erased" && b.data.id === e.id && b.data.changes.stage === "purged");
    expect(purged).toHaveLength(1);
    expect(purged[0].data.changes.erased.payslips).toEqual([inside]);
  });

  it("a legal hold stops the erasure (409, nothing changed) until it is released", async () => {
    const owner = await signupTenant(t);
    const e = await formerEmployee(owner);
    const slip = await insertSlip(t, owner.tenantId, e.id, "2018-05");
    const hold = (
      await api(owner.agent)
        .op("createLegalHold", { body: { employee_id: e.id, reason: "Wage claim before the Labour Court" } })
        .expect(201)
    ).body.data;
    expect(hold.active).toBe(true);
    const r = await erasureRequest(owner, e.id);
    expectError(
      await api(owner.agent).op("decidePrivacyRequest", { params: { id: r.id }, body: { status: "completed" } }),
      409,
      "conflict",
    );
    expect(await t.query(`SELECT id FROM payroll_slips WHERE id = $1`, [slip])).toHaveLength(1);
    expect(
      (
        await api(owner.agent)
          .op("listLegalHolds", { query: { active: true } })
          .expect(200)
      ).body.data.map((h: { id: string }) => h.id),
    ).toEqual([hold.id]);
    await api(owner.agent)
      .op("releaseLegalHold", { params: { id: hold.id } })
      .expect(200);
    expectError(await api(owner.agent).op("releaseLegalHold", { params: { id: hold.id } }), 409, "conflict");
    await api(owner.agent)
      .op("decidePrivacyRequest", { params: { id: r.id }, body: { status: "completed" } })
      .expect(200);
    expect(await t.query(`SELECT id FROM payroll_slips WHERE id = $1`, [slip])).toHaveLength(0);
  });

  it("refuses to erase a person still employed (their data serves the employment)", async () => {
    const owner = await signupTenant(t);
    const e = await createEmployee(owner);
    const r = await erasureRequest(owner, e.id);
    expect(
      expectError(await api(owner.agent).op("decidePrivacyRequest", { params: { id: r.id }, body: { status: "completed" } }), 409).error,
    ).toMatch(/still employed/);
  });

  it("listRetentionRules: the schedule with each rule's source and the date it applies from", async () => {
    const owner = await signupTenant(t);
    const rules = (await api(owner.agent).op("listRetentionRules").expect(200)).body.data;
    expect(rules.find((r: { record_class: string }) => r.record_class === "payslips")).toMatchObject({
      jurisdiction: "IN",
      period_years: 8,
      counted_from: "end_of_financial_year",
      effective_from: "2014-04-01",
    });
    const uae = (
      await api(owner.agent)
        .op("listRetentionRules", { query: { jurisdiction: "AE" } })
        .expect(200)
    ).body.data;
    expect(uae.find((r: { record_class: string }) => r.record_class === "payslips")).toMatchObject({
      period_years: 2,
      counted_from: "end_of_service",
      source: "Federal Decree-Law 33/2021 art.13(1)",
    });
  });
});

describe("the purge job: candidates not hired", () => {
  it("erases a candidate rejected more than a year ago without a request, and not one rejected since", async () => {
    const owner = await signupTenant(t);
    await api(owner.agent)
      .op("updateCompanySettings", { body: { modules: ["recruitment"] } })
      .expect(200);
    const posting = await openPosting(owner.agent);
    const old = (await addCandidate(owner.agent, posting.id, { first_name: "old" })).id;
    const recent = (await addCandidate(owner.agent, posting.id, { first_name: "recent" })).id;
    await t.query(`UPDATE candidates SET stage = 'rejected', stage_changed_at = '2026-06-10T00:00:00Z' WHERE id = $1`, [old]);
    await t.query(`UPDATE candidates SET stage = 'rejected', stage_changed_at = '2026-06-20T00:00:00Z' WHERE id = $1`, [recent]);
    await purge();
    const rows = await t.query<{ id: string; first_name: string; resume_text: string | null }>(
      `SELECT id, first_name, resume_text FROM candidates WHERE id = ANY($1::uuid[]) ORDER BY first_name`,
      [[old, recent]],
    );
    expect(rows.find((r) => r.id === old)).toMatchObject({ first_name: "Erased", resume_text: null });
    expect(rows.find((r) => r.id === recent)?.first_name).toBe("recent");
  });
});
