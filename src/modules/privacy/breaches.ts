// The breach register: each breach with its clocks from when the company became aware of it (the
// breach clocks of its jurisdiction, rules.ts), the notice mailed to the affected employees, what
// was submitted to the Board, and the text of the Board's report; every step audited.
import type { Prisma, PrivacyBreach } from "../../../generated/prisma/client.ts";
import { activeTenant } from "../../db/central.ts";
import { byId, db, tenantTx } from "../../db/tenancy.ts";
import { pageOf } from "../../platform/use-case.ts";
import type { AuthContext, QueryParams, RequestBody } from "../../platform/use-case.ts";
import { todayIn } from "../../lib/dates.ts";
import { audit } from "../../platform/audit.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import { queueEmail } from "../../platform/mail/outbox.ts";
import { notify } from "../../platform/notify.ts";
import { nextNumber } from "../../platform/sequences.ts";
import * as clock from "../../lib/clock.ts";
import { lockBreach } from "./queries.ts";
import { breachClock, type Clock, clockJson } from "./rules.ts";
import { deciderIds, jurisdictionToday, privacySettings } from "./settings.ts";

const HOUR = 3_600_000;
type Stored = Clock & { persons: string; board_intimation: string };

const hoursText = (ms: number) => {
  const h = Math.floor(ms / HOUR);
  return `${h} hour${h === 1 ? "" : "s"}`;
};

/** What is overdue or still owed on an open breach at `now`. */
export function breachWarnings(b: PrivacyBreach, now: Date): string[] {
  if (b.status !== "open") return [];
  const c = b.clock as unknown as Stored;
  const w: string[] = [];
  if (!b.persons_notified_at && b.affected_count > 0) w.push(`The affected persons have not been told: due ${c.persons}`);
  if (!b.board_intimated_at) w.push(`The Board has not been intimated: due ${c.board_intimation}`);
  if (!b.report_submitted_at && c.hours) {
    const due = new Date(b.became_aware_at.getTime() + c.hours * HOUR);
    const left = due.getTime() - now.getTime();
    const rule = `(${c.hours} hours after the breach became known, ${c.source})`;
    w.push(
      left < 0
        ? `The detailed report to the Board was due at ${due.toISOString()} ${rule}: ${hoursText(-left)} overdue`
        : `The detailed report to the Board is due at ${due.toISOString()} ${rule}: ${hoursText(left)} left`,
    );
  }
  return w;
}

export function breachJson(b: PrivacyBreach, now = clock.now()) {
  const c = b.clock as unknown as Stored;
  return {
    id: b.id,
    breach_number: b.breach_number,
    title: b.title,
    description: b.description,
    nature: b.nature as "confidentiality" | "integrity" | "availability",
    data_categories: b.data_categories,
    affected_employee_ids: b.affected_employee_ids,
    affected_count: b.affected_count,
    occurred_at: b.occurred_at?.toISOString() ?? null,
    became_aware_at: b.became_aware_at.toISOString(),
    likely_impact: b.likely_impact,
    measures: b.measures,
    jurisdiction: b.jurisdiction as "IN" | "AE",
    status: b.status as "open" | "closed",
    deadlines: {
      persons: c.persons,
      board_intimation: c.board_intimation,
      board_report: c.hours ? new Date(b.became_aware_at.getTime() + c.hours * HOUR).toISOString() : null,
      clock: clockJson(c),
    },
    warnings: breachWarnings(b, now),
    persons_notified_at: b.persons_notified_at?.toISOString() ?? null,
    persons_notified_count: b.persons_notified_count,
    board_intimated_at: b.board_intimated_at?.toISOString() ?? null,
    board_reference: b.board_reference,
    report_submitted_at: b.report_submitted_at?.toISOString() ?? null,
    closed_at: b.closed_at?.toISOString() ?? null,
    recorded_by: b.recorded_by,
    created_at: b.created_at.toISOString(),
    updated_at: b.updated_at.toISOString(),
  };
}

export async function breachPage(q: QueryParams<"listPrivacyBreaches">) {
  const page = pageOf(q);
  const where: Prisma.PrivacyBreachWhereInput = q.status ? { status: q.status } : {};
  const [rows, total] = await Promise.all([
    db.privacyBreach.findMany({ where, orderBy: [{ became_aware_at: "desc" }, { id: "desc" }], skip: page.skip, take: page.limit }),
    db.privacyBreach.count({ where }),
  ]);
  const now = clock.now();
  return { rows: rows.map((b) => breachJson(b, now)), total, page };
}

async function breachRow(id: string): Promise<PrivacyBreach> {
  const b = await db.privacyBreach.findFirst({ where: { id } });
  if (!b) throw notFound("Breach");
  return b;
}

export const breachById = async (id: string) => breachJson(await breachRow(id));

export async function recordBreach(auth: AuthContext, input: RequestBody<"createPrivacyBreach">) {
  const aware = new Date(input.became_aware_at);
  if (aware.getTime() > clock.nowMs() + 60_000) throw invalidField("body.became_aware_at", "must not be in the future");
  if (input.occurred_at && new Date(input.occurred_at) > aware) throw invalidField("body.occurred_at", "must not be after became_aware_at");
  const ids = input.affected_employee_ids ?? [];
  if (ids.length && (await db.employee.count({ where: { id: { in: ids } } })) !== ids.length)
    throw invalidField("body.affected_employee_ids", "must all be employees of this company");
  const count = input.affected_count ?? ids.length;
  if (count < ids.length) throw invalidField("body.affected_count", "must be at least the number of affected_employee_ids");
  const [{ jurisdiction, timezone }, settings] = await Promise.all([jurisdictionToday(), privacySettings()]);
  const c = breachClock(jurisdiction, todayIn(timezone, aware));
  const b = await tenantTx(async (tx) => {
    const breach_number = await nextNumber(tx, "privacy_breach", "BRC-");
    const b = await tx.privacyBreach.create({
      data: {
        breach_number,
        title: input.title.trim(),
        description: input.description,
        nature: input.nature,
        data_categories: input.data_categories,
        affected_employee_ids: ids,
        affected_count: count,
        occurred_at: input.occurred_at ? new Date(input.occurred_at) : null,
        became_aware_at: aware,
        likely_impact: input.likely_impact,
        measures: input.measures ?? null,
        jurisdiction,
        clock: { ...clockJson(c), persons: c.persons, board_intimation: c.board_intimation } as unknown as Prisma.InputJsonObject,
        recorded_by: auth.userId,
      },
    });
    const json = breachJson(b);
    await audit(
      {
        action: "privacy_breach.recorded",
        event: "privacy_breach.recorded",
        entity_type: "privacy_breach",
        entity_id: b.id,
        changes: {
          breach_number,
          nature: b.nature,
          affected_count: count,
          became_aware_at: aware.toISOString(),
          board_report_due: json.deadlines.board_report,
        },
      },
      tx,
    );
    for (const userId of await deciderIds(tx, settings))
      if (userId !== auth.userId)
        await notify(tx, {
          userId,
          kind: "privacy.breach_recorded",
          title: `Personal data breach ${breach_number} recorded: ${b.title}`,
          link: `/api/privacy/breaches/${b.id}`,
        });
    return b;
  });
  return breachJson(b);
}

export async function notifyBreachPersons(id: string) {
  const company = await activeTenant({ name: true, legal_name: true });
  const settings = await privacySettings();
  const b = await tenantTx(async (tx) => {
    if (!(await lockBreach(tx, id))) throw notFound("Breach");
    const b = (await tx.privacyBreach.findFirst({ where: { id } }))!;
    if (b.persons_notified_at) throw conflict(`The affected persons were told at ${b.persons_notified_at.toISOString()}`);
    const people = await tx.employee.findMany({
      where: { id: { in: b.affected_employee_ids } },
      select: { email: true, first_name: true },
    });
    const contact = settings.grievance_officer_email
      ? `${settings.grievance_officer_name} <${settings.grievance_officer_email}>`
      : "the company's HR team";
    let sent = 0;
    for (const p of people) {
      if (p.email.endsWith("@erased.invalid")) continue;
      await queueEmail(tx, {
        to: p.email,
        subject: `A personal data breach at ${company.legal_name || company.name}`,
        text: [
          `Dear ${p.first_name},`,
          "",
          `We are telling you of a breach of personal data that concerns you (${b.breach_number}).`,
          `What happened: ${b.description}`,
          `When: ${b.occurred_at ? `it happened at ${b.occurred_at.toISOString()}; ` : ""}` +
            `we became aware of it at ${b.became_aware_at.toISOString()}.`,
          `The data concerned: ${b.data_categories.join(", ")}.`,
          `Its likely consequences: ${b.likely_impact}`,
          `What we have done and what you can do: ${b.measures ?? "We are containing it and will write again."}`,
          `Whom to contact: ${contact}.`,
        ].join("\n"),
      });
      sent++;
    }
    const row = await tx.privacyBreach.update({
      where: byId(id),
      data: { persons_notified_at: clock.now(), persons_notified_count: sent },
    });
    await audit(
      { action: "privacy_breach.persons_notified", entity_type: "privacy_breach", entity_id: id, changes: { persons_notified: sent } },
      tx,
    );
    return row;
  });
  return breachJson(b);
}

export async function recordIntimation(id: string, input: RequestBody<"recordPrivacyBreachIntimation">) {
  const b = await tenantTx(async (tx) => {
    if (!(await lockBreach(tx, id))) throw notFound("Breach");
    const b = (await tx.privacyBreach.findFirst({ where: { id } }))!;
    const now = clock.now();
    let data: Prisma.PrivacyBreachUpdateInput;
    if (input.stage === "intimation") {
      if (b.board_intimated_at) throw conflict("The Board was already intimated");
      data = { board_intimated_at: now, board_reference: input.reference ?? b.board_reference };
    } else {
      if (!b.board_intimated_at) throw conflict("Record the first intimation to the Board before the detailed report");
      if (b.report_submitted_at) throw conflict("The detailed report was already submitted");
      const closes = b.persons_notified_at !== null || b.affected_count === 0;
      data = {
        report_submitted_at: now,
        ...(closes ? { status: "closed", closed_at: now } : {}),
        ...(input.reference ? { board_reference: input.reference } : {}),
      };
    }
    if (input.measures) data.measures = input.measures;
    const row = await tx.privacyBreach.update({ where: byId(id), data });
    await audit(
      {
        action: `privacy_breach.board_${input.stage}_recorded`,
        entity_type: "privacy_breach",
        entity_id: id,
        changes: { stage: input.stage, reference: input.reference ?? null },
      },
      tx,
    );
    return row;
  });
  return breachJson(b);
}

/** The detailed report's text (DPDP Rules 2025 r.7(2)(b)), to paste into the Board's portal. */
export async function breachReport(id: string): Promise<{ filename: string; text: string }> {
  const b = await breachRow(id);
  const company = await activeTenant({ name: true, legal_name: true, address: true });
  const json = breachJson(b);
  const notified = b.persons_notified_at ? `${b.persons_notified_count} at ${b.persons_notified_at.toISOString()}` : "not yet";
  const reference = b.board_reference ? ` (reference ${b.board_reference})` : "";
  const text = [
    `Personal data breach report - ${b.breach_number}`,
    `Data Fiduciary: ${company.legal_name || company.name}${company.address ? `, ${company.address}` : ""}`,
    `Jurisdiction: ${b.jurisdiction}`,
    "",
    `Title: ${b.title}`,
    `Description (nature, extent, timing, location): ${b.description}`,
    `Nature: ${b.nature}`,
    `Personal data concerned: ${b.data_categories.join(", ")}`,
    `Persons affected: ${b.affected_count}`,
    `Occurred at: ${b.occurred_at?.toISOString() ?? "not known"}`,
    `Became aware at: ${b.became_aware_at.toISOString()}`,
    `Likely impact: ${b.likely_impact}`,
    `Measures taken (mitigation and remedial): ${b.measures ?? "none recorded"}`,
    `Affected persons notified: ${notified}`,
    `First intimation to the Board: ${b.board_intimated_at?.toISOString() ?? "not yet"}${reference}`,
    `Detailed report due: ${json.deadlines.board_report ?? json.deadlines.board_intimation}`,
    "",
    ...json.warnings.map((w) => `Warning: ${w}`),
  ].join("\n");
  await audit({ action: "privacy_breach.report_exported", entity_type: "privacy_breach", entity_id: id, changes: null });
  return { filename: `${b.breach_number}-report.txt`, text: `${text}\n` };
}
