// Full and final settlements (draft → processed once, under the company's payroll lock); the arithmetic
// is settlement-figures.ts (docs/payroll-settlements.md).
import type { FinalSettlement, Prisma } from "../../../generated/prisma/client.ts";
import { activeTenant } from "../../db/central.ts";
import { lockRow } from "../../db/sql.ts";
import { db, type ScopedTx, tenantTx, byId } from "../../db/tenancy.ts";
import { pageOf, type PageQuery } from "../../platform/use-case.ts";
import type { AuthContext, QueryParams, RequestBody } from "../../platform/use-case.ts";
import { audit } from "../../platform/audit.ts";
import { conflict, notFound } from "../../platform/errors.ts";
import { nextNumber } from "../../platform/sequences.ts";
import { attachSettlementToChecklist, completeSettlementItem, exitOfEmployee } from "../employees/index.ts";
import { encashOnExit, priceUnpaidEncashment } from "../leave/index.ts";
import { assertNotOwnRecord, OWN_RECORD, selfDecision } from "../shared/access.ts";
import { loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";
import { lockPayroll } from "./calculation.ts";
import type { Separation } from "./gratuity.ts";
import { settleLoans } from "./queries/calculation.ts";
import { settlementPdf } from "./settlement-pdf.ts";
import * as clock from "../../lib/clock.ts";
import { type SettlementJson, type Row, include, type Details, settlementJson } from "./settlement-json.ts";
import { type Options, computeSettlement, columns, loadEmployee } from "./settlement-compute.ts";

const ownMessage = `You cannot settle your own exit: ${OWN_RECORD}`;

/** A draft settlement of the employee's exit (one per exit), computed now. */
export async function draftSettlement(auth: AuthContext, body: RequestBody<"createFinalSettlement">): Promise<SettlementJson> {
  const self = assertNotOwnRecord(auth, body.employee_id, ownMessage);
  const o: Options = {
    separation: body.separation ?? "resignation",
    notice_period_days: body.notice_period_days ?? 0,
    recover_notice_shortfall: body.recover_notice_shortfall ?? false,
  };
  const row = await tenantTx(async (tx) => {
    if (!(await lockRow(tx, "employees", body.employee_id, { live: true }))) throw notFound("Employee");
    const e = await loadEmployee(tx, body.employee_id);
    const exit = await exitOfEmployee(tx, e.id);
    if (!exit) throw conflict(`${e.employee_code} has not resigned: there is no exit to settle`);
    if (await tx.finalSettlement.findFirst({ where: { exit_id: exit.id }, select: { id: true } }))
      throw conflict(`The exit of ${e.employee_code} already has a final settlement`);
    const details = await computeSettlement(tx, e, exit, o, { date: tenantToday(await loadAttendanceSettings(tx)), paid: false });
    const number = await nextNumber(tx, "final_settlement", "FS-");
    await attachSettlementToChecklist(tx, exit.id, number);
    const created = await tx.finalSettlement.create({
      data: {
        settlement_number: number,
        employee_id: e.id,
        exit_id: exit.id,
        separation: o.separation,
        last_working_day: new Date(`${exit.last_working_day}T00:00:00Z`),
        notice_period_days: o.notice_period_days,
        recover_notice_shortfall: o.recover_notice_shortfall,
        created_by: auth.userId,
        ...columns(details),
      },
      include,
    });
    await audit(
      {
        action: "final_settlement.created",
        entity_type: "final_settlement",
        entity_id: created.id,
        changes: { settlement_number: number, employee_id: e.id, ...o, net_payable: details.net_payable, ...selfDecision(self) },
      },
      tx,
    );
    return created;
  });
  return settlementJson(row, tenantToday(await loadAttendanceSettings()));
}

export async function settlementPage(
  query: QueryParams<"listFinalSettlements"> & PageQuery,
): Promise<{ rows: SettlementJson[]; page: ReturnType<typeof pageOf>; total: number }> {
  const page = pageOf(query);
  const where: Prisma.FinalSettlementWhereInput = {
    ...(query.employee_id ? { employee_id: query.employee_id } : {}),
    ...(query.status ? { status: query.status } : {}),
  };
  const [rows, total] = await Promise.all([
    db.finalSettlement.findMany({ where, include, orderBy: [{ created_at: "desc" }, { id: "asc" }], skip: page.skip, take: page.limit }),
    db.finalSettlement.count({ where }),
  ]);
  const today = tenantToday(await loadAttendanceSettings());
  return { rows: rows.map((r) => settlementJson(r, today)), page, total };
}

async function loadRow(id: string): Promise<Row> {
  const r = await db.finalSettlement.findFirst({ where: { id }, include });
  if (!r) throw notFound("Final settlement");
  return r;
}

export async function settlementById(id: string): Promise<SettlementJson> {
  return settlementJson(await loadRow(id), tenantToday(await loadAttendanceSettings()));
}

/** Locks the settlement row and reads it (404 when it vanished), with the employee and exit. */
async function lockSettlement(tx: ScopedTx, id: string) {
  if (!(await lockRow(tx, "final_settlements", id))) throw notFound("Final settlement");
  const r = await tx.finalSettlement.findFirstOrThrow({ where: { id }, include });
  const e = await loadEmployee(tx, r.employee_id);
  const exit = await exitOfEmployee(tx, r.employee_id);
  if (!exit) throw notFound("Final settlement");
  return { r, e, exit };
}

const optionsOf = (r: FinalSettlement): Options => ({
  separation: r.separation as Separation,
  notice_period_days: r.notice_period_days,
  recover_notice_shortfall: r.recover_notice_shortfall,
});

/** Changes a draft's options and computes it again. */
export async function recalculateSettlement(
  auth: AuthContext,
  id: string,
  body: RequestBody<"updateFinalSettlement">,
): Promise<SettlementJson> {
  const current = await loadRow(id);
  const self = assertNotOwnRecord(auth, current.employee_id, ownMessage);
  const row = await tenantTx(async (tx) => {
    const { r, e, exit } = await lockSettlement(tx, id);
    if (r.status !== "draft") throw conflict(`The settlement ${r.settlement_number} is processed; it can no longer change`);
    const before = optionsOf(r);
    const o: Options = {
      separation: body.separation ?? before.separation,
      notice_period_days: body.notice_period_days ?? before.notice_period_days,
      recover_notice_shortfall: body.recover_notice_shortfall ?? before.recover_notice_shortfall,
    };
    const details = await computeSettlement(tx, e, exit, o, { date: tenantToday(await loadAttendanceSettings(tx)), paid: false });
    const saved = await tx.finalSettlement.update({ where: byId(id), data: { ...o, ...columns(details) }, include });
    const changes: Record<string, unknown> = {};
    for (const k of Object.keys(o) as (keyof Options)[]) if (o[k] !== before[k]) changes[k] = { from: before[k], to: o[k] };
    await audit(
      {
        action: "final_settlement.recalculated",
        entity_type: "final_settlement",
        entity_id: id,
        changes: { ...changes, net_payable: { from: r.net_payable.toFixed(2), to: details.net_payable }, ...selfDecision(self) },
      },
      tx,
    );
    return saved;
  });
  return settlementJson(row, tenantToday(await loadAttendanceSettings()));
}

/** A value as JSON with object keys sorted (the stored details come back from JSONB in its own key order). */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (v && typeof v === "object")
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(v) ?? "null";
}

/**
 * The figures that must not have changed between the reviewed draft and processing. The due dates'
 * interest is counted to the day of processing, so it and the totals it enters are left out (every
 * figure the totals add up is compared). A draft computed before a figure was shown (`code_wages`,
 * the day rate, the notice note, the continuous-service rule, the dues) is compared without it.
 */
const reviewed = (d: Details, stored: Details) => {
  const { code_wages, dues: _dues, gratuity_interest: _interest, total_payable: _total, net_payable: _net, day_rate, ...rest } = d;
  const { note, ...notice } = d.notice;
  const { continuous_service, ...gratuity } = d.gratuity_detail;
  return canonical({
    ...rest,
    ...(stored.code_wages !== undefined ? { code_wages } : {}),
    ...(stored.day_rate !== undefined ? { day_rate } : {}),
    notice: stored.notice.note !== undefined ? { ...notice, note } : notice,
    gratuity_detail: stored.gratuity_detail.continuous_service !== undefined ? { ...gratuity, continuous_service } : gratuity,
    leave_encashment_lines: d.leave_encashment_lines.map((l) => ({ ...l, encashment_id: l.source === "balance" ? null : l.encashment_id })),
  });
};

/** Pays and locks a draft, once, under the payroll lock: recomputed and compared with the draft first. */
// size: one transaction read top to bottom: the checks under its row locks, the write, the audit and the notices, in order
export async function processSettlement(auth: AuthContext, id: string): Promise<SettlementJson> {
  const current = await loadRow(id);
  const self = assertNotOwnRecord(auth, current.employee_id, ownMessage);
  const today = tenantToday(await loadAttendanceSettings());
  const row = await tenantTx(async (tx) => {
    await lockPayroll(tx);
    const { r, e, exit } = await lockSettlement(tx, id);
    if (r.status !== "draft") throw conflict(`The settlement ${r.settlement_number} is already processed`);
    if (exit.last_working_day >= today)
      throw conflict(`The settlement can be processed after the last working day (${exit.last_working_day})`);
    const stored = r.details as unknown as Details;
    const now = await computeSettlement(tx, e, exit, optionsOf(r), { date: today, paid: true });
    if (reviewed(now, stored) !== reviewed(stored, stored))
      throw conflict(
        `The figures of ${r.settlement_number} changed since it was computed (net payable ${stored.net_payable} → ${now.net_payable}): ` +
          "recalculate it (PUT) and review it before processing",
      );
    const at = clock.now();
    const installmentIds = now.loans.flatMap((l) => l.installment_ids);
    if (installmentIds.length) {
      await tx.loanInstallment.updateMany({
        where: { id: { in: installmentIds }, status: "pending" },
        data: { status: "paid", paid_settlement_id: id, paid_at: at },
      });
      await settleLoans(tx, [...new Set(now.loans.map((l) => l.loan_id))], at);
    }
    const claimIds = now.claims.map((c) => c.claim_id);
    if (claimIds.length)
      await tx.expenseClaim.updateMany({
        where: { id: { in: claimIds }, status: "approved", paid_run_id: null },
        data: { status: "paid", paid_settlement_id: id, paid_at: at },
      });
    // approved requests no run has paid: priced here (payroll runs pay only unpriced ones)
    const requests = now.leave_encashment_lines.filter((l) => l.source === "request");
    for (const l of requests) {
      const priced = l.encashment_id ? await priceUnpaidEncashment(tx, l.encashment_id, l.amount, at) : false;
      if (!priced) throw conflict(`An encashment of ${l.leave_type} changed meanwhile: recalculate the settlement`);
    }
    const balances = now.leave_encashment_lines.filter((l) => l.source === "balance");
    const encashmentIds = await encashOnExit(tx, e.id, balances, {
      userId: auth.userId,
      date: exit.last_working_day,
      lastWorkingDay: exit.last_working_day,
      reference: r.settlement_number,
    });
    const created = new Map(balances.map((l, i) => [l, encashmentIds[i] ?? null]));
    const details: Details = {
      ...now,
      leave_encashment_lines: now.leave_encashment_lines.map((l) =>
        l.source === "balance" ? { ...l, encashment_id: created.get(l) ?? null } : l,
      ),
    };
    await completeSettlementItem(tx, exit.id, e.id, auth.userId);
    const saved = await tx.finalSettlement.update({
      where: byId(id),
      // the interest on late gratuity is counted to today: the net payable is the one paid
      data: {
        status: "processed",
        processed_by: auth.userId,
        processed_at: at,
        net_payable: details.net_payable,
        details: details as unknown as Prisma.InputJsonObject,
      },
      include,
    });
    await audit(
      {
        action: "final_settlement.processed",
        event: "final_settlement.processed",
        entity_type: "final_settlement",
        entity_id: id,
        changes: {
          status: { from: "draft", to: "processed" },
          net_payable: now.net_payable,
          loan_installments_recovered: installmentIds.length,
          expense_claims_paid: claimIds.length,
          leave_encashments: encashmentIds.length + requests.length,
          ...selfDecision(self),
        },
      },
      tx,
    );
    return saved;
  });
  return settlementJson(row, tenantToday(await loadAttendanceSettings()));
}

/** The settlement statement as a PDF, with its file name. */
export async function settlementPdfOf(id: string): Promise<{ fileName: string; pdf: Buffer }> {
  const s = await settlementById(id);
  const tenant = await activeTenant({ name: true, legal_name: true, currency: true });
  const pdf = await settlementPdf({ name: tenant.legal_name ?? tenant.name, currency: tenant.currency }, s);
  return { fileName: `final-settlement-${s.settlement_number}.pdf`, pdf };
}
