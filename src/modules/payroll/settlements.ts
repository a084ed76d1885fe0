// Full and final settlements (draft → processed): computing the settlement of an exit from the
// employee's salary setup, attendance and leave (the last month as a run computes it), leave
// balances, gratuity settings, loans and claims (settlement-figures.ts holds the arithmetic);
// recomputing a draft; processing it once, under the company's payroll lock, which pays and
// closes what it settles; the statement as a PDF.
import type { components } from "../../../generated/api-types.ts";
import type { FinalSettlement, Prisma } from "../../../generated/prisma/client.ts";
import { activeTenant } from "../../db/central.ts";
import { lockRow } from "../../db/sql.ts";
import { db, type ScopedTx, tenantTx, byId } from "../../db/tenancy.ts";
import { pageOf, type PageQuery } from "../../http/envelope.ts";
import type { AuthContext, QueryParams, RequestBody } from "../../http/types.ts";
import { addDays, type DateString, daysBetween, toDateString, weekday } from "../../lib/dates.ts";
import { Decimal } from "../../lib/money.ts";
import { audit } from "../../platform/audit.ts";
import { conflict, notFound } from "../../platform/errors.ts";
import { nextNumber } from "../../platform/sequences.ts";
import { attachSettlementToChecklist, completeSettlementItem, type ExitFacts, exitOfEmployee } from "../employees/index.ts";
import {
  approvedLeaveBetween,
  encashmentsToPay,
  encashOnExit,
  exitLeaveBalances,
  mandatoryHolidaysBetween,
  priceUnpaidEncashment,
} from "../leave/index.ts";
import { absencesBetween } from "../attendance/index.ts";
import { assertNotOwnRecord, OWN_RECORD, selfDecision } from "../shared/access.ts";
import { loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";
import { AmountOutOfRange, assertFits, lossOfPay } from "./compute.ts";
import { employeeMonthSalary, lockPayroll } from "./calculation.ts";
import { type FifthYear, type Separation, serviceBetween } from "./gratuity.ts";
import { settleLoans } from "./queries/calculation.ts";
import { FINAL_WAGES_DUE_WORKING_DAYS, settlementCodeWagesOf, settlementFigures, type SettlementFigures } from "./settlement-figures.ts";
import { settlementPdf } from "./settlement-pdf.ts";
import { readSettings } from "./statutory.ts";
import * as clock from "../../lib/clock.ts";

type SettlementJson = components["schemas"]["FinalSettlement"];

interface Options {
  separation: Separation;
  notice_period_days: number;
  recover_notice_shortfall: boolean;
}

const employeeSelect = {
  id: true,
  employee_code: true,
  first_name: true,
  last_name: true,
  joining_date: true,
  employment_type: true,
  branch_id: true,
  work_location_id: true,
} as const;
type EmployeeRow = Prisma.EmployeeGetPayload<{ select: typeof employeeSelect }>;
type Row = FinalSettlement & { employee: Pick<EmployeeRow, "employee_code" | "first_name" | "last_name" | "joining_date"> };
const include = { employee: { select: { employee_code: true, first_name: true, last_name: true, joining_date: true } } } as const;

/** Figures and the settlement's dates as stored in `details`. */
type Details = SettlementFigures & { resignation_date: string; last_working_day?: string };

/**
 * What is overdue on a settlement not yet processed, on `today` (the list's and the reader's
 * warnings): final wages past their due date (Code on Wages s.17(2)), gratuity past its due date
 * (interest at 10 % a year runs from the last working day, s.7(3A)).
 */
export function settlementWarnings(status: string, d: Details, today: DateString): string[] {
  if (status !== "draft" || !d.dues) return [];
  const w: string[] = [];
  const late = (due: DateString) => daysBetween(due, today);
  if (today > d.dues.final_wages_due)
    w.push(
      `Final wages were due on ${d.dues.final_wages_due} (within two working days of the separation, Code on Wages 2019 s.17(2)): ` +
        `${late(d.dues.final_wages_due)} day${late(d.dues.final_wages_due) === 1 ? "" : "s"} overdue`,
    );
  if (d.dues.gratuity_due && today > d.dues.gratuity_due)
    w.push(
      `Gratuity of ${d.gratuity} was due on ${d.dues.gratuity_due} (within 30 days, Payment of Gratuity Act 1972 s.7(3)): ` +
        `simple interest at 10 % a year runs from ${d.last_working_day ?? d.dues.gratuity_interest?.from} until it is paid (s.7(3A))`,
    );
  return w;
}

export function settlementJson(r: Row, today: DateString): SettlementJson {
  const d = r.details as unknown as Details;
  return {
    id: r.id,
    settlement_number: r.settlement_number,
    employee_id: r.employee_id,
    employee_code: r.employee.employee_code,
    employee_name: `${r.employee.first_name} ${r.employee.last_name}`.trim(),
    exit_id: r.exit_id,
    status: r.status as SettlementJson["status"],
    separation: r.separation as SettlementJson["separation"],
    joining_date: toDateString(r.employee.joining_date),
    resignation_date: d.resignation_date,
    last_working_day: toDateString(r.last_working_day),
    notice_period_days: r.notice_period_days,
    recover_notice_shortfall: r.recover_notice_shortfall,
    daily_wage: d.daily_wage,
    day_rate: d.day_rate ?? null,
    code_wages: d.code_wages ?? null,
    salary: d.salary,
    leave_encashment_lines: d.leave_encashment_lines,
    gratuity_detail: d.gratuity_detail,
    notice: d.notice,
    loans: d.loans,
    claims: d.claims,
    salary_net: d.salary_net,
    leave_encashment: d.leave_encashment,
    gratuity: d.gratuity,
    reimbursements: d.reimbursements,
    notice_recovery: d.notice_recovery,
    loan_recovery: d.loan_recovery,
    gratuity_interest: d.gratuity_interest ?? "0.00",
    total_payable: d.total_payable,
    total_recovery: d.total_recovery,
    net_payable: d.net_payable,
    dues: d.dues ?? null,
    warnings: settlementWarnings(r.status, { ...d, last_working_day: toDateString(r.last_working_day) }, today),
    computed_at: r.computed_at.toISOString(),
    created_by: r.created_by,
    processed_by: r.processed_by,
    processed_at: r.processed_at?.toISOString() ?? null,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

/** The company's calendar for an employee: weekly offs and the mandatory holidays that apply to them. */
async function offDays(tx: ScopedTx, e: EmployeeRow, from: DateString, to: DateString) {
  const settings = await loadAttendanceSettings(tx);
  const offs = new Set(settings.weekly_offs);
  const applies = (h: { branch_id: string | null; work_location_id: string | null }) =>
    (h.branch_id === null || h.branch_id === e.branch_id) && (h.work_location_id === null || h.work_location_id === e.work_location_id);
  const hols = new Set((await mandatoryHolidaysBetween(tx, from, to)).filter(applies).map((h) => h.date));
  return { isOff: (d: DateString) => offs.has(weekday(d)) || hols.has(d), weeklyOffs: settings.weekly_offs.length };
}

/** The `n`th working day after `d` (weekly offs and mandatory holidays skipped). */
async function workingDaysAfter(tx: ScopedTx, e: EmployeeRow, d: DateString, n: number): Promise<DateString> {
  const { isOff } = await offDays(tx, e, addDays(d, 1), addDays(d, 60));
  let day = d;
  // a calendar with no working day in sight (every day off) counts calendar days after 60
  for (let k = 0; k < n; ) {
    day = addDays(day, 1);
    if (!isOff(day) || daysBetween(d, day) > 60) k++;
  }
  return day;
}

/**
 * The days actually worked in the year after four completed years (the Madras reading of
 * continuous service, GratuitySettings `continuous_service_rule`): the working days of
 * [joining + 4 years, last working day] (not weekly offs or mandatory holidays) less unpaid leave
 * and absences (absent 1, half day 0.5) - paid leave counts as worked (s.2A Explanation); 240
 * needed, 190 when the company works fewer than six days a week (two or more weekly offs).
 */
async function fifthYearOf(tx: ScopedTx, e: EmployeeRow, lwd: DateString): Promise<FifthYear> {
  const j = toDateString(e.joining_date);
  const from = `${Number(j.slice(0, 4)) + 4}${j.slice(4)}`.replace(/-02-29$/, "-03-01");
  const { isOff, weeklyOffs } = await offDays(tx, e, from, lwd);
  let working = 0;
  for (let d = from; d <= lwd; d = addDays(d, 1)) if (!isOff(d)) working++;
  const spans = (await approvedLeaveBetween(tx, [e.id], from, lwd)).map((l) => ({
    from: l.from,
    to: l.to,
    half_day_start: l.half_day_start,
    half_day_end: l.half_day_end,
    days: l.days,
    is_paid: l.is_paid,
  }));
  const lost = lossOfPay(from, lwd, spans, await absencesBetween(tx, [e.id], from, lwd), isOff);
  const lostDays = lost.leave.plus(lost.absent);
  return {
    from,
    to: lwd,
    working_days: working,
    lost_days: lostDays.toFixed(1),
    days_worked: new Decimal(working).minus(lostDays).toFixed(1),
    required_days: weeklyOffs >= 2 ? 190 : 240,
  };
}

/** The day interest and overdue dues are counted to, and whether the settlement is paid on it (processing). */
interface AsOf {
  date: DateString;
  paid: boolean;
}

/** Computes the settlement of the exit with these options from the current data (inside the caller's transaction). */
async function compute(tx: ScopedTx, e: EmployeeRow, exit: ExitFacts, o: Options, asOf: AsOf): Promise<Details> {
  const lwd = exit.last_working_day;
  const [year, month] = lwd.split("-").map(Number);
  const salary = await employeeMonthSalary(tx, e.id, year, month);
  if (!salary) throw conflict(`${e.employee_code} has no salary setup in force in ${lwd.slice(0, 7)}: the settlement cannot be computed`);
  // the wage of gratuity, leave encashment and notice pay: the last month's day wage under the rule
  // in force on the last working day (the slip's last day) - the labour codes' wage, or basic + DA
  const cw = salary.slip.details.code_wages!;
  const codeWages = settlementCodeWagesOf(cw);
  const paid = await tx.payrollSlip.findFirst({
    where: { employee_id: e.id, run: { status: "processed", period_year: year, period_month: month } },
    select: { slip_number: true, run_id: true },
  });
  const installments = await tx.loanInstallment.findMany({
    where: { status: "pending", loan: { employee_id: e.id, status: { in: ["approved", "active"] } } },
    select: { id: true, amount: true, loan_id: true, loan: { select: { loan_number: true } } },
    orderBy: [{ loan: { loan_number: "asc" } }, { seq: "asc" }],
  });
  const loans: Details["loans"] = [];
  for (const i of installments) {
    let l = loans.find((x) => x.loan_id === i.loan_id);
    if (!l) {
      l = { loan_id: i.loan_id, loan_number: i.loan.loan_number, installment_ids: [], amount: "0.00" };
      loans.push(l);
    }
    l.installment_ids.push(i.id);
    l.amount = new Decimal(l.amount).plus(i.amount.toString()).toFixed(2);
  }
  const claims = await tx.expenseClaim.findMany({
    where: { employee_id: e.id, status: "approved", paid_run_id: null, paid_settlement_id: null },
    select: { id: true, claim_number: true, amount: true, category: { select: { name: true } } },
    orderBy: { claim_number: "asc" },
  });
  const gratuity = await readSettings("gratuity");
  const figures = settlementFigures({
    joining_date: toDateString(e.joining_date),
    resignation_date: exit.resignation_date,
    last_working_day: lwd,
    separation: o.separation,
    fixed_term: e.employment_type === "fixed_term",
    notice_period_days: o.notice_period_days,
    recover_notice_shortfall: o.recover_notice_shortfall,
    wage: codeWages.wage,
    code_wages: codeWages,
    salary: { slip: salary.slip, paid_by_run: paid ? (paid.slip_number ?? paid.run_id) : null },
    leave: [
      ...(await encashmentsToPay(tx, [e.id])).map((x) => ({
        leave_type_id: x.leave_type_id,
        leave_type: x.leave_type,
        period_id: x.period_id,
        days: x.days,
        source: "request" as const,
        encashment_id: x.id,
      })),
      ...(await exitLeaveBalances(tx, e.id, lwd)).map((b) => ({ ...b, source: "balance" as const, encashment_id: null })),
    ],
    loans,
    claims: claims.map((c) => ({ claim_id: c.id, claim_number: c.claim_number, category: c.category.name, amount: c.amount.toFixed(2) })),
    gratuity,
    day_rate: salary.slip.details.encashment_rate,
    fifth_year:
      gratuity.continuous_service_rule === "four_years_240_days" && serviceBetween(toDateString(e.joining_date), lwd).years === 4
        ? await fifthYearOf(tx, e, lwd)
        : null,
    dues: {
      final_wages_due: await workingDaysAfter(tx, e, lwd, FINAL_WAGES_DUE_WORKING_DAYS),
      as_of: asOf.date,
      paid: asOf.paid,
    },
  });
  try {
    // every figure goes into a NUMERIC(14,2) column (encashments NUMERIC(10,2))
    assertFits(
      (["leave_encashment", "gratuity", "reimbursements", "notice_recovery", "loan_recovery", "total_payable", "net_payable"] as const).map(
        (k) => [k.replace(/_/g, " "), new Decimal(figures[k])],
      ),
    );
    assertFits(
      figures.leave_encashment_lines.map((l) => [`the encashment of ${l.leave_type}`, new Decimal(l.amount)]),
      new Decimal("99999999.99"),
    );
  } catch (err) {
    if (err instanceof AmountOutOfRange) throw conflict(`The settlement cannot be computed: ${err.message}`);
    throw err;
  }
  return { ...figures, resignation_date: exit.resignation_date };
}

const columns = (d: Details) => ({
  salary_net: d.salary_net,
  leave_encashment: d.leave_encashment,
  gratuity: d.gratuity,
  reimbursements: d.reimbursements,
  notice_recovery: d.notice_recovery,
  loan_recovery: d.loan_recovery,
  net_payable: d.net_payable,
  details: d as unknown as Prisma.InputJsonObject,
  computed_at: clock.now(),
});

async function loadEmployee(tx: ScopedTx, id: string): Promise<EmployeeRow> {
  const e = await tx.employee.findFirst({ where: { id, deleted_at: null }, select: employeeSelect });
  if (!e) throw notFound("Employee");
  return e;
}

const ownMessage = `You cannot settle your own exit: ${OWN_RECORD}`;

/** A draft settlement of the employee's exit (one per exit), computed now. */
export async function createSettlement(auth: AuthContext, body: RequestBody<"createFinalSettlement">): Promise<SettlementJson> {
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
    const details = await compute(tx, e, exit, o, { date: tenantToday(await loadAttendanceSettings(tx)), paid: false });
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
    const details = await compute(tx, e, exit, o, { date: tenantToday(await loadAttendanceSettings(tx)), paid: false });
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

/**
 * Pays and locks a draft, once: under the company's payroll lock and the settlement's row lock,
 * recomputed and compared with the draft, then loans recovered (installments paid, loans closed),
 * claims paid, leave encashed (balance debited), the exit checklist's final_settlement ticked.
 */
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
    const now = await compute(tx, e, exit, optionsOf(r), { date: today, paid: true });
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
