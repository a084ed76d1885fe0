// Leave encashment at exit, for the final settlement: the whole remaining balance of every encashable
// type in the period of the last working day; the type's per-period maximum and minimum balance do not
// apply (the days have no later use).
import type { ScopedTx } from "../../db/tenancy.ts";
import { audit } from "../../platform/audit.ts";
import { conflict } from "../../platform/errors.ts";
import { addDays, type DateString, parseDate } from "../../lib/dates.ts";
import { lockEmployees } from "../shared/people.ts";
import { type Decimal, days, dayString } from "./days.ts";
import { availability } from "./ledger-balance.ts";
import { postEntries } from "./ledger.ts";
import * as clock from "../../lib/clock.ts";

export interface ExitLeaveBalance {
  leave_type_id: string;
  leave_type: string;
  period_id: string;
  /** Days, one decimal ("12.5"). */
  days: string;
}

/** The encashable days left on the last working day, per active encashable type (types with days only). */
export async function exitLeaveBalances(tx: ScopedTx, employeeId: string, lastWorkingDay: DateString): Promise<ExitLeaveBalance[]> {
  const on = parseDate(lastWorkingDay);
  const period = await tx.leavePeriod.findFirst({ where: { start_date: { lte: on }, end_date: { gte: on } } });
  if (!period) return [];
  const types = await tx.leaveType.findMany({
    where: { encashable: true, active: true },
    select: { id: true, name: true },
    orderBy: [{ name: "asc" }, { id: "asc" }],
  });
  const out: ExitLeaveBalance[] = [];
  for (const type of types) {
    const available = await availableOn(tx, { employee_id: employeeId, leave_type_id: type.id, period_id: period.id }, lastWorkingDay);
    if (available.gt(0)) out.push({ leave_type_id: type.id, leave_type: type.name, period_id: period.id, days: dayString(available) });
  }
  return out;
}

async function availableOn(
  tx: ScopedTx,
  account: { employee_id: string; leave_type_id: string; period_id: string },
  lastWorkingDay: DateString,
): Promise<Decimal> {
  // the one availability rule of leave (ledger.ts): credits expiring on or before the last working
  // day have lapsed whether or not the expiry job has posted them; pending encashments count as
  // used on the last working day
  return (await availability(tx, account, addDays(lastWorkingDay, 1), lastWorkingDay)).available;
}

export interface ExitEncashment extends ExitLeaveBalance {
  /** Money for the days, to the paisa. */
  amount: string;
}

/**
 * Writes the settlement's encashments (approved and priced, so no run pays them again) and their ledger
 * debits in the caller's transaction; 409 when a balance is no longer what was priced.
 */
// size: one transaction read top to bottom: the checks under its row locks, the write, the audit and the notices, in order
export async function encashOnExit(
  tx: ScopedTx,
  employeeId: string,
  lines: ExitEncashment[],
  opts: { userId: string | null; date: DateString; lastWorkingDay: DateString; reference: string },
): Promise<string[]> {
  if (!lines.length) return [];
  await lockEmployees(tx, [employeeId]);
  const ids: string[] = [];
  const now = clock.now();
  for (const line of lines) {
    const account = { employee_id: employeeId, leave_type_id: line.leave_type_id, period_id: line.period_id };
    const available = await availableOn(tx, account, opts.lastWorkingDay);
    if (!available.eq(days(line.days)))
      throw conflict(
        `The ${line.leave_type} balance is now ${dayString(available)} days, not the ${line.days} the settlement priced: recalculate it`,
      );
    const row = await tx.leaveEncashment.create({
      data: {
        ...account,
        days: line.days,
        amount: line.amount,
        status: "approved",
        reason: `Full and final settlement ${opts.reference}`,
        requested_by: opts.userId,
        decided_by: opts.userId,
        decided_at: now,
      },
    });
    await postEntries(tx, [
      {
        ...account,
        entry_type: "encashed",
        days: days(line.days).negated(),
        effective_date: opts.date,
        reference_type: "leave_encashment",
        reference_id: row.id,
        reason: `Full and final settlement ${opts.reference}`,
        dedupe_key: `encashed:${row.id}`,
        created_by: opts.userId,
      },
    ]);
    await audit(
      {
        action: "leave_encashment.settled",
        entity_type: "leave_encashment",
        entity_id: row.id,
        changes: {
          employee_id: employeeId,
          leave_type_id: line.leave_type_id,
          days: line.days,
          amount: line.amount,
          settlement: opts.reference,
        },
      },
      tx,
    );
    ids.push(row.id);
  }
  return ids;
}

/**
 * Prices approved encashments with what the payroll run that pays them computed (one update per
 * distinct amount) - payroll's only write to leave's data, made here where leave's rules live.
 */
export async function priceEncashments(tx: ScopedTx, priced: readonly { id: string; amount: string }[], at: Date): Promise<void> {
  const byAmount = new Map<string, string[]>();
  for (const x of priced) (byAmount.get(x.amount) ?? byAmount.set(x.amount, []).get(x.amount)!).push(x.id);
  for (const [amount, ids] of byAmount)
    await tx.leaveEncashment.updateMany({ where: { id: { in: ids } }, data: { amount, updated_at: at } });
}

/** Prices one approved encashment no run has paid (a final settlement pays it); false when it changed meanwhile. */
export async function priceUnpaidEncashment(tx: ScopedTx, id: string, amount: string, at: Date): Promise<boolean> {
  const { count } = await tx.leaveEncashment.updateMany({
    where: { id, status: "approved", amount: null },
    data: { amount, updated_at: at },
  });
  return count === 1;
}
