// Carry-forward at allocation: the previous period's unused days per employee and type, what an
// allocation carries of them (capped: OSH Code 2020 s.32), the ledger entries that move them from the
// closing period to the new one, and the encashment of the days above the cap.
import type { Prisma } from "../../../generated/prisma/client.ts";
import { audit } from "../../platform/audit.ts";
import type { ScopedTx } from "../../db/tenancy.ts";
import { addDays, type DateString, toDateString } from "../../lib/dates.ts";
import { Decimal, days } from "./days.ts";
import { lapsedDays } from "./ledger-balance.ts";
import { accountKey, type NewEntry, openLapses, postEntries } from "./ledger.ts";
import type { PeriodRow } from "./periods.ts";
import type { MadeAllocation } from "./queries.ts";
import * as clock from "../../lib/clock.ts";

export async function previousPeriod(tx: ScopedTx, p: PeriodRow): Promise<PeriodRow | null> {
  return tx.leavePeriod.findFirst({ where: { end_date: { lt: p.start_date } }, orderBy: { end_date: "desc" } });
}

/** Unused balance of the previous period per employee:type: its availability (ledger.ts) the day after it ends. */
export async function unusedBalances(
  tx: ScopedTx,
  prev: PeriodRow,
  employeeIds: string[],
  typeIds: string[],
  today: DateString,
): Promise<Map<string, Decimal>> {
  const out = new Map<string, Decimal>();
  if (!employeeIds.length || !typeIds.length) return out;
  const where = { period_id: prev.id, employee_id: { in: employeeIds }, leave_type_id: { in: typeIds } };
  // one after the other: an interactive transaction runs one query at a time
  const ledger = await tx.leaveLedgerEntry.groupBy({ by: ["employee_id", "leave_type_id"], where, _sum: { days: true } });
  const pendingReq = await tx.leaveRequest.groupBy({
    by: ["employee_id", "leave_type_id"],
    where: { ...where, status: "pending" },
    _sum: { days: true },
  });
  const pendingEnc = await tx.leaveEncashment.groupBy({
    by: ["employee_id", "leave_type_id"],
    where: { ...where, status: "pending" },
    _sum: { days: true },
  });
  for (const r of ledger) out.set(`${r.employee_id}:${r.leave_type_id}`, days(r._sum.days));
  for (const r of [...pendingReq, ...pendingEnc]) {
    const k = `${r.employee_id}:${r.leave_type_id}`;
    out.set(k, (out.get(k) ?? new Decimal(0)).minus(days(r._sum.days)));
  }
  const accounts = ledger.map((r) => ({ employee_id: r.employee_id, leave_type_id: r.leave_type_id, period_id: prev.id }));
  const lapses = await openLapses(tx, accounts, addDays(toDateString(prev.end_date), 1), today);
  for (const a of accounts) {
    const lapsed = lapsedDays(lapses.get(accountKey(a)));
    const k = `${a.employee_id}:${a.leave_type_id}`;
    if (!lapsed.isZero()) out.set(k, (out.get(k) ?? new Decimal(0)).minus(lapsed));
  }
  return out;
}

/** The carry-forward cap of the OSH Code 2020 s.32 (in force from 2025-11-21), when a type sets none. */
export const OSH_CARRY_FORWARD_CAP = 30;

/**
 * OSH Code s.32: the unused days above the carry-forward cap are encashed at the end of the year.
 * For each allocation just made whose type says so (`encash_carry_forward_excess`), the excess is
 * recorded as an approved leave encashment of the closing period and debited from its balance
 * (on its last day), audited; the next payroll run pays it at the company's day rate (unpriced,
 * like any approved encashment). Made once: an allocation is made once per employee, type and period.
 */
export async function encashExcess(
  tx: ScopedTx,
  prev: PeriodRow,
  made: MadeAllocation[],
  excess: Map<string, Decimal>,
  createdBy: string,
): Promise<void> {
  const now = clock.now();
  const closing = toDateString(prev.end_date);
  for (const a of made) {
    const n = excess.get(`${a.employee_id}:${a.leave_type_id}`);
    if (!n?.gt(0)) continue;
    const account = { employee_id: a.employee_id, leave_type_id: a.leave_type_id, period_id: prev.id };
    const reason = `OSH Code s.32: days above the carry-forward cap encashed at the close of ${prev.name}`;
    const row = await tx.leaveEncashment.create({
      data: {
        ...account,
        days: n.toString(),
        status: "approved",
        reason,
        requested_by: createdBy,
        decided_by: createdBy,
        decided_at: now,
      },
    });
    await postEntries(tx, [
      {
        ...account,
        entry_type: "encashed",
        days: n.negated(),
        effective_date: closing,
        reference_type: "leave_encashment",
        reference_id: row.id,
        reason,
        dedupe_key: `encashed:${row.id}`,
        created_by: createdBy,
      },
    ]);
    await audit(
      {
        action: "leave_encashment.carry_forward_excess",
        entity_type: "leave_encashment",
        entity_id: row.id,
        changes: { employee_id: a.employee_id, leave_type_id: a.leave_type_id, period: prev.name, days: n.toFixed(1), status: "approved" },
      },
      tx,
    );
  }
}

/**
 * What an allocation of a type carries of the `left` unused days of the previous period: OSH Code
 * s.32, the cap is 30 days unless the type sets its own; the excess is encashed, not lost (when the
 * type says so); carried days expire `carry_forward_expiry_days` after the period's `start`.
 */
export function carriedForward(
  type: { carry_forward_max_days: Prisma.Decimal | null; carry_forward_expiry_days: number | null; encash_carry_forward_excess?: boolean },
  left: Decimal,
  start: DateString,
): { carried: Decimal; expires: DateString | null; excess: Decimal | null } {
  const cap = type.carry_forward_max_days
    ? days(type.carry_forward_max_days)
    : type.encash_carry_forward_excess
      ? new Decimal(OSH_CARRY_FORWARD_CAP)
      : null;
  const carried = cap ? Decimal.min(left, cap) : left;
  const excess = type.encash_carry_forward_excess && left.gt(carried) ? left.minus(carried) : null;
  const expires = carried.gt(0) && type.carry_forward_expiry_days ? addDays(start, type.carry_forward_expiry_days - 1) : null;
  return { carried, expires, excess };
}

/** The ledger entries of an allocation's carry-forward: in to the new period, out of the previous one. */
export function carryForwardEntries(a: MadeAllocation, prev: PeriodRow, period: PeriodRow, createdBy: string): NewEntry[] {
  const carried = days(a.carried_forward);
  if (!carried.gt(0)) return [];
  const base = {
    employee_id: a.employee_id,
    leave_type_id: a.leave_type_id,
    entry_type: "carry_forward" as const,
    reference_type: "leave_allocation" as const,
    reference_id: a.id,
    created_by: createdBy,
  };
  return [
    {
      ...base,
      period_id: period.id,
      days: carried,
      effective_date: toDateString(period.start_date),
      expires_on: a.carry_forward_expires_on,
      dedupe_key: `carry-in:${a.id}`,
      reason: `carried forward from ${prev.name}`,
    },
    {
      ...base,
      period_id: prev.id,
      days: carried.negated(),
      effective_date: toDateString(prev.end_date),
      dedupe_key: `carry-out:${a.id}`,
      reason: `carried forward to ${period.name}`,
    },
  ];
}
