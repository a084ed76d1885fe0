// Erasure that keeps what the law requires (docs/privacy.md, "Erasure and the retention schedule"): record
// by record, past `retain_until` deleted, inside it kept and purged by the daily job; the person's record
// pseudonymised around it; a legal hold stops all. Each step is the event `personal_data.erased`, so
// integrators erase their copies too.
import type { ScopedTx } from "../../db/tenancy.ts";
import { currentTenantId, db, tenantTx, withTenant } from "../../db/tenancy.ts";
import { activeTenant, tenantPage } from "../../db/central.ts";
import { audit } from "../../platform/audit.ts";
import { conflict } from "../../platform/errors.ts";
import { addDays, type DateString, parseDate, toDateString, todayIn } from "../../lib/dates.ts";
import { logger } from "../../log.ts";
import * as clock from "../../lib/clock.ts";
import { attendanceDatesOf, deleteAttendanceIn } from "../attendance/index.ts";
import { employeeForPrivacy, pseudonymiseEmployeeIn } from "../employees/index.ts";
import { deleteSlipsIn, slipsOfEmployee } from "../payroll/index.ts";
import { candidateForPrivacy, notHiredCandidatesBefore, pseudonymiseCandidateIn } from "../recruitment/index.ts";
import { addYears, type Jurisdiction, retainUntil, type RetentionRule, retentionSchedule } from "./rules.ts";
import { privacySettings } from "./settings.ts";

export interface Subject {
  employee_id?: string | null;
  candidate_id?: string | null;
}

/** 409 while a legal hold stands on the person. */
export async function assertNoHold(client: Pick<ScopedTx, "legalHold">, s: Subject): Promise<void> {
  const hold = await client.legalHold.findFirst({
    where: { released_at: null, ...(s.employee_id ? { employee_id: s.employee_id } : { candidate_id: s.candidate_id }) },
    select: { reason: true },
  });
  if (hold) throw conflict(`A legal hold stands on this person (${hold.reason}); nothing of theirs is erased until it is released`);
}

interface Kept {
  record_class: string;
  count: number;
  retain_until: DateString;
  rule: string;
}

/** Splits dated records into those past their period (to delete) and those kept, recording the kept ones. */
async function sortByRetention(
  tx: ScopedTx,
  rule: RetentionRule | undefined,
  records: { id: string; date: DateString }[],
  endOfService: DateString | null,
  today: DateString,
  ctx: { employee_id: string; request_id: string | null },
): Promise<{ erase: string[]; kept: Kept | null }> {
  if (!rule) return { erase: records.map((r) => r.id), kept: null };
  const erase: string[] = [];
  let keptCount = 0;
  let latest = "";
  for (const r of records) {
    const until = retainUntil(rule, r.date, endOfService);
    if (until < today) {
      erase.push(r.id);
      continue;
    }
    keptCount++;
    if (until > latest) latest = until;
    await tx.retainedRecord.upsert({
      where: { tenant_id_record_class_record_id: { tenant_id: currentTenantId(), record_class: rule.record_class, record_id: r.id } },
      create: {
        employee_id: ctx.employee_id,
        record_class: rule.record_class,
        record_id: r.id,
        rule: rule.source,
        retain_until: parseDate(until),
        request_id: ctx.request_id,
      },
      update: { retain_until: parseDate(until) },
    });
  }
  return { erase, kept: keptCount ? { record_class: rule.record_class, count: keptCount, retain_until: latest, rule: rule.source } : null };
}

async function jurisdictionAndToday(): Promise<{ jurisdiction: Jurisdiction; today: DateString }> {
  const [s, t] = await Promise.all([privacySettings(), activeTenant({ timezone: true })]);
  return { jurisdiction: s.jurisdiction as Jurisdiction, today: todayIn(t.timezone) };
}

/** Erases a person's data in `tx` (a completed erasure request); returns what was erased and kept. */
export async function eraseSubject(tx: ScopedTx, s: Subject, requestId: string | null): Promise<Record<string, unknown>> {
  await assertNoHold(tx, s);
  if (s.candidate_id) return eraseCandidate(tx, s.candidate_id, "erasure_request");
  const id = s.employee_id!;
  const e = await employeeForPrivacy(id);
  if (!e) throw conflict("The employee record no longer exists");
  if (e.status !== "exited" && !e.deleted_at)
    throw conflict(
      "The person is still employed: their data is needed for the employment (a legitimate use, DPDP Act 2023 s.7(i)); " +
        "it is erased once the employment has ended",
    );
  const { jurisdiction, today } = await jurisdictionAndToday();
  const schedule = new Map(retentionSchedule(jurisdiction, today).map((r) => [r.record_class, r]));
  const eos = e.last_working_day ? toDateString(e.last_working_day) : null;
  const ctx = { employee_id: id, request_id: requestId };
  const slips = (await slipsOfEmployee(id)).map((x) => ({ id: x.id, date: x.pay_end }));
  const days = await attendanceDatesOf(id);
  const pay = await sortByRetention(tx, schedule.get("payslips"), slips, eos, today, ctx);
  const att = await sortByRetention(tx, schedule.get("attendance"), days, eos, today, ctx);
  await deleteSlipsIn(tx, id, pay.erase);
  await deleteAttendanceIn(tx, id, att.erase);
  const documents = await pseudonymiseEmployeeIn(tx, id, clock.now());
  const erased = { employee_profile: "pseudonymised", payslips: pay.erase, attendance: att.erase.length, documents };
  const kept = [pay.kept, att.kept].filter((k): k is Kept => k !== null);
  await audit(
    {
      action: "personal_data.erased",
      event: "personal_data.erased",
      entity_type: "employee",
      entity_id: id,
      changes: { stage: "erased", jurisdiction, erased, kept, request_id: requestId },
    },
    tx,
  );
  return { erased, kept };
}

async function eraseCandidate(tx: ScopedTx, id: string, reason: string): Promise<Record<string, unknown>> {
  const c = await candidateForPrivacy(id);
  if (!c) throw conflict("The candidate record no longer exists");
  if (c.employee_id)
    throw conflict("The candidate was hired: their data is now the employee record's, erased with it once the employment has ended");
  await pseudonymiseCandidateIn(tx, id);
  const erased = { candidate_profile: "pseudonymised", resume: true, talent_pool: true, consents: true };
  await audit(
    {
      action: "personal_data.erased",
      event: "personal_data.erased",
      entity_type: "candidate",
      entity_id: id,
      changes: { stage: "erased", reason, erased, kept: [] },
    },
    tx,
  );
  return { erased, kept: [] };
}

// ─── the daily purge ───

/**
 * In the active company on `today`: purges the retained records whose `retain_until` has passed
 * (unless a hold stands), and erases the candidates not hired whose period is over. Safe to run
 * twice. Returns how many records and candidates.
 */
export async function purgeDue(today: DateString): Promise<{ records: number; candidates: number }> {
  const due = await db.retainedRecord.findMany({
    where: { purged_at: null, retain_until: { lt: parseDate(today) } },
    orderBy: [{ employee_id: "asc" }, { record_class: "asc" }],
    take: 5000,
  });
  const held = new Set(
    (await db.legalHold.findMany({ where: { released_at: null, employee_id: { not: null } }, select: { employee_id: true } })).map(
      (h) => h.employee_id,
    ),
  );
  const byEmployee = new Map<string, typeof due>();
  for (const r of due)
    if (r.employee_id && !held.has(r.employee_id)) byEmployee.set(r.employee_id, [...(byEmployee.get(r.employee_id) ?? []), r]);
  let records = 0;
  for (const [employeeId, rows] of byEmployee)
    await tenantTx(async (tx) => {
      const slips = rows.filter((r) => r.record_class === "payslips").map((r) => r.record_id);
      const days = rows.filter((r) => r.record_class === "attendance").map((r) => r.record_id);
      await deleteSlipsIn(tx, employeeId, slips);
      await deleteAttendanceIn(tx, employeeId, days);
      await tx.retainedRecord.updateMany({ where: { id: { in: rows.map((r) => r.id) } }, data: { purged_at: clock.now() } });
      await audit(
        {
          action: "personal_data.erased",
          event: "personal_data.erased",
          entity_type: "employee",
          entity_id: employeeId,
          changes: { stage: "purged", erased: { payslips: slips, attendance: days.length }, kept: [] },
        },
        tx,
      );
      records += rows.length;
    });
  return { records, candidates: await eraseCandidatesNotHired(today) };
}

async function eraseCandidatesNotHired(today: DateString): Promise<number> {
  const { jurisdiction } = await jurisdictionAndToday();
  const rule = retentionSchedule(jurisdiction, today).find((r) => r.record_class === "candidates_not_hired");
  if (!rule) return 0;
  // a stage change before this date has its period over by today
  const before = parseDate(addDays(addYears(today, -rule.period_years), -rule.period_days));
  let n = 0;
  for (const id of await notHiredCandidatesBefore(before)) {
    const hold = await db.legalHold.findFirst({ where: { candidate_id: id, released_at: null }, select: { id: true } });
    if (hold) continue;
    await tenantTx((tx) => eraseCandidate(tx, id, "not_hired_retention_over"));
    n++;
  }
  return n;
}

export const PURGE_JOB = "privacy.purge";

/** Every company at once (the daily job). */
export async function purgeEverywhere(now = clock.now()): Promise<number> {
  let after: string | undefined;
  let total = 0;
  let failed = 0;
  for (;;) {
    const page = await tenantPage(after);
    if (!page.length) break;
    for (const t of page) {
      try {
        const r = await withTenant(t.id, () => purgeDue(todayIn(t.timezone, now)));
        total += r.records + r.candidates;
      } catch (err) {
        failed++;
        logger.error({ err: (err as Error).message, tenant_id: t.id }, "privacy purge failed");
      }
    }
    after = page[page.length - 1].id;
  }
  if (failed) throw new Error(`privacy purge failed for ${failed} tenant(s)`);
  return total;
}
