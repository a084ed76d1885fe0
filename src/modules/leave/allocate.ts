// Making allocations in one transaction: each wanted employee/type of the period, prorated for joiners,
// with its carry-forward; inserted once (an employee/type/period is allocated once, later attempts are
// skipped), then the ledger postings they schedule (up front, or the accrual parts due by today).
import type { Prisma } from "../../../generated/prisma/client.ts";
import type { ScopedTx } from "../../db/tenancy.ts";
import { type DateString, toDateString } from "../../lib/dates.ts";
import { type AccrualDay, type AccrualMode, accrualSchedule, effectiveFrom, prorate } from "./accrual.ts";
import { Decimal } from "./days.ts";
import { type NewEntry, postEntries } from "./ledger.ts";
import type { PeriodRow } from "./periods.ts";
import { type AllocationRow, insertAllocations, type MadeAllocation } from "./queries.ts";
import { carriedForward, carryForwardEntries, encashExcess, previousPeriod, unusedBalances } from "./carry-forward.ts";

export const CHUNK = 2000;

export async function inChunks<T>(rows: T[], fn: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += CHUNK) await fn(rows.slice(i, i + CHUNK));
}

// ───────────────────────────── allocation ─────────────────────────────

export interface Emp {
  id: string;
  joining_date: Date;
  department: string;
  designation: string;
  gender: string | null;
  employment_type: string;
}
export const empSelect = {
  id: true,
  joining_date: true,
  department: true,
  designation: true,
  gender: true,
  employment_type: true,
} as const;

export interface LeaveTypeRow {
  id: string;
  active: boolean;
  carry_forward: boolean;
  carry_forward_max_days: Prisma.Decimal | null;
  carry_forward_expiry_days: number | null;
  encash_carry_forward_excess?: boolean;
  applicable_genders: string[];
  applicable_employment_types: string[];
}

export interface Want {
  emp: Emp;
  type: LeaveTypeRow;
  policyId: string | null;
  /** Explicit entitlement (not prorated), or the annual quota to prorate. */
  days?: Decimal;
  quota?: Decimal;
  accrual: AccrualMode;
  accrualDay: AccrualDay;
}
export interface Skip {
  employee_id: string;
  leave_type_id: string | null;
  reason: string;
}

/** Ledger postings of one allocation that are due by `today` (accruals) plus its carry-forward. */
export function allocationPostings(
  a: {
    id: string;
    employee_id: string;
    leave_type_id: string;
    period_id: string;
    days: Decimal.Value | { toString(): string };
    accrual: string;
    accrual_day: string;
  },
  period: { start_date: DateString; end_date: DateString },
  joiningDate: DateString,
  today: DateString,
  createdBy: string | null,
): NewEntry[] {
  const schedule = accrualSchedule({
    mode: a.accrual as AccrualMode,
    accrualDay: a.accrual_day as AccrualDay,
    periodStart: period.start_date,
    periodEnd: period.end_date,
    joiningDate,
    entitlement: a.days,
  });
  const base = {
    employee_id: a.employee_id,
    leave_type_id: a.leave_type_id,
    period_id: a.period_id,
    reference_type: "leave_allocation" as const,
    reference_id: a.id,
    created_by: createdBy,
  };
  return schedule
    .filter((s) => a.accrual === "upfront" || s.date <= today)
    .map((s) =>
      a.accrual === "upfront"
        ? { ...base, entry_type: "allocation" as const, days: s.days, effective_date: s.date, dedupe_key: `allocation:${a.id}` }
        : {
            ...base,
            entry_type: "accrual" as const,
            days: s.days,
            effective_date: s.date,
            dedupe_key: `accrual:${a.id}:${s.seq}`,
            reason: `${a.accrual} accrual`,
          },
    );
}

export async function allocate(tx: ScopedTx, period: PeriodRow, wants: Want[], createdBy: string, notes: string | null, today: DateString) {
  const start = toDateString(period.start_date);
  const end = toDateString(period.end_date);
  const skipped: Skip[] = [];
  const rows: AllocationRow[] = [];
  /** employee:type → the days above the carry-forward cap encashed at the close of the previous period (OSH Code s.32). */
  const excess = new Map<string, Decimal>();
  const prev = await previousPeriod(tx, period);
  const carryTypes = [...new Set(wants.filter((w) => w.type.carry_forward).map((w) => w.type.id))];
  const unused = prev
    ? await unusedBalances(tx, prev, [...new Set(wants.map((w) => w.emp.id))], carryTypes, today)
    : new Map<string, Decimal>();
  for (const w of wants) {
    const joining = toDateString(w.emp.joining_date);
    if (joining > end) {
      skipped.push({ employee_id: w.emp.id, leave_type_id: w.type.id, reason: "joins after the period" });
      continue;
    }
    const entitlement = w.days ?? prorate(w.quota ?? 0, start, end, joining);
    let carried = new Decimal(0);
    let expires: DateString | null = null;
    if (prev && w.type.carry_forward) {
      const c = carriedForward(w.type, Decimal.max(0, unused.get(`${w.emp.id}:${w.type.id}`) ?? 0), start);
      carried = c.carried;
      expires = c.expires;
      if (c.excess) excess.set(`${w.emp.id}:${w.type.id}`, c.excess);
    }
    rows.push({
      employee_id: w.emp.id,
      leave_type_id: w.type.id,
      period_id: period.id,
      policy_id: w.policyId,
      days: entitlement.toString(),
      accrual: w.accrual,
      accrual_day: w.accrualDay,
      effective_from: effectiveFrom(start, joining),
      carried_forward: carried.toString(),
      carry_forward_expires_on: expires,
      notes,
      created_by: createdBy,
    });
  }
  const made: MadeAllocation[] = [];
  await inChunks(rows, async (chunk) => made.push(...(await insertAllocations(tx, chunk))));
  const madeKeys = new Set(made.map((a) => `${a.employee_id}:${a.leave_type_id}`));
  for (const r of rows)
    if (!madeKeys.has(`${r.employee_id}:${r.leave_type_id}`))
      skipped.push({ employee_id: r.employee_id, leave_type_id: r.leave_type_id, reason: "already allocated for this period" });
  const joinings = new Map(wants.map((w) => [w.emp.id, toDateString(w.emp.joining_date)]));
  const entries: NewEntry[] = [];
  for (const a of made) {
    entries.push(...allocationPostings(a, { start_date: start, end_date: end }, joinings.get(a.employee_id)!, today, createdBy));
    if (prev) entries.push(...carryForwardEntries(a, prev, period, createdBy));
  }
  await inChunks(entries, (chunk) => postEntries(tx, chunk));
  if (prev) await encashExcess(tx, prev, made, excess, createdBy);
  return { made, skipped };
}
