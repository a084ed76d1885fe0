// The breach register (src/modules/privacy/breaches.ts): on 4 June 2027 (the DPDP Rules in force) a
// breach found 80 hours before warns that the Board's detailed report is overdue; the notice is
// mailed to the affected employees once; the intimation and the report are recorded in order and
// close it; the report for the Board is exported; an event for each breach.
import { describe, expect, it } from "vitest";
import { expectError, signupTenant, useTestApp } from "../support/app.ts";
import { useClock } from "../support/clock.ts";
import { createEmployee } from "../support/employees.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
useClock("2027-06-04T17:00:00Z");

const base = {
  title: "Payroll register mailed to a wrong address",
  description: "The May salary register was mailed to an outside address by mistake.",
  nature: "confidentiality" as const,
  data_categories: ["salary", "bank account"],
  likely_impact: "Disclosure of salaries and bank account numbers.",
};

describe("createPrivacyBreach, getPrivacyBreach, listPrivacyBreaches: the clocks", () => {
  it("warns while the persons and the Board are not told, and once the 72 hours have passed", async () => {
    const owner = await signupTenant(t);
    const a = await createEmployee(owner);
    const b = await createEmployee(owner);
    const fresh = (
      await api(owner.agent)
        .op("createPrivacyBreach", { body: { ...base, became_aware_at: "2027-06-04T15:00:00Z" } })
        .expect(201)
    ).body.data;
    expect(fresh.deadlines).toMatchObject({ board_report: "2027-06-07T15:00:00.000Z", clock: { hours: 72, basis: "statutory" } });
    expect(fresh.warnings.at(-1)).toMatch(/is due at 2027-06-07T15:00:00.000Z .*: 69 hours left$/);

    const old = (
      await api(owner.agent)
        .op("createPrivacyBreach", {
          body: { ...base, affected_employee_ids: [a.id, b.id], affected_count: 40, became_aware_at: "2027-06-01T09:00:00Z" },
        })
        .expect(201)
    ).body.data;
    expect(old.breach_number).toBe("BRC-00002");
    expect(old.warnings).toEqual([
      expect.stringMatching(/^The affected persons have not been told: due without delay/),
      expect.stringMatching(/^The Board has not been intimated: due without delay/),
      "The detailed report to the Board was due at 2027-06-04T09:00:00.000Z (72 hours after the breach became known, " +
        "DPDP Rules 2025 r.7(2)(b): the detailed report within seventy-two hours of becoming aware): 8 hours overdue",
    ]);
    const list = (
      await api(owner.agent)
        .op("listPrivacyBreaches", { query: { status: "open" } })
        .expect(200)
    ).body.data;
    expect(list.map((x) => x.id)).toEqual([fresh.id, old.id]);
    const [ev] = await t.query(`SELECT type, data FROM events WHERE data->>'id' = $1`, [old.id]);
    expect(ev).toMatchObject({
      type: "privacy_breach.recorded",
      data: { changes: { affected_count: 40, board_report_due: "2027-06-04T09:00:00.000Z" } },
    });

    expectError(await api(owner.agent).op("createPrivacyBreach", { body: { ...base, became_aware_at: "2027-06-05T09:00:00Z" } }), 400);
    expectError(
      await api(owner.agent).op("createPrivacyBreach", {
        body: { ...base, became_aware_at: "2027-06-01T09:00:00Z", affected_employee_ids: [fresh.id] },
      }),
      400,
    );
    const other = await signupTenant(t);
    expectError(await api(other.agent).op("getPrivacyBreach", { params: { id: old.id } }), 404, "not_found");
  });
});

describe("notifyPrivacyBreachPersons, recordPrivacyBreachIntimation, getPrivacyBreachReport, getPrivacyBreach", () => {
  it("mails the affected once, records the intimation then the report (closing it), exports the report", async () => {
    const owner = await signupTenant(t);
    const a = await createEmployee(owner, { first_name: "Kiran" });
    const br = (
      await api(owner.agent)
        .op("createPrivacyBreach", {
          body: {
            ...base,
            affected_employee_ids: [a.id],
            became_aware_at: "2027-06-04T10:00:00Z",
            measures: "Recipient asked to delete it.",
          },
        })
        .expect(201)
    ).body.data;
    const told = (
      await api(owner.agent)
        .op("notifyPrivacyBreachPersons", { params: { id: br.id } })
        .expect(200)
    ).body.data;
    expect(told).toMatchObject({ persons_notified_count: 1, persons_notified_at: expect.stringMatching(/^2027-06-04T17:0/) });
    const [mail] = await t.query(`SELECT to_address, subject, text_body FROM email_outbox WHERE to_address = $1`, [a.email]);
    expect(mail.subject).toMatch(/A personal data breach/);
    expect(mail.text_body).toContain("Dear Kiran");
    expect(mail.text_body).toContain("Its likely consequences: Disclosure of salaries");
    expect(mail.text_body).toContain("Recipient asked to delete it.");
    expectError(await api(owner.agent).op("notifyPrivacyBreachPersons", { params: { id: br.id } }), 409, "conflict");

    expectError(await api(owner.agent).op("recordPrivacyBreachIntimation", { params: { id: br.id }, body: { stage: "report" } }), 409);
    await api(owner.agent)
      .op("recordPrivacyBreachIntimation", { params: { id: br.id }, body: { stage: "intimation", reference: "DPB-1" } })
      .expect(200);
    const closed = (
      await api(owner.agent)
        .op("recordPrivacyBreachIntimation", { params: { id: br.id }, body: { stage: "report" } })
        .expect(200)
    ).body.data;
    expect(closed).toMatchObject({ status: "closed", board_reference: "DPB-1", warnings: [] });

    const rep = await api(owner.agent)
      .op("getPrivacyBreachReport", { params: { id: br.id } })
      .expect(200);
    expect(rep.headers["content-type"]).toMatch(/^text\/plain/);
    expect(rep.headers["content-disposition"]).toBe(`attachment; filename="${br.breach_number}-report.txt"`);
    expect(rep.text).toContain("Persons affected: 1");
    expect(rep.text).toContain(`Affected persons notified: 1 at ${told.persons_notified_at}`);
    expect(rep.text).toContain("(reference DPB-1)");
    await api(owner.agent)
      .op("getPrivacyBreach", { params: { id: br.id } })
      .expect(200);
  });
});
