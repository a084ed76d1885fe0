// The leave ledger: balances (sums of an account's entries), days reserved by pending requests,
// expiring credits and their lapse, the lowest balance a type allows, and postings.
//
// Locking: every operation that reserves or debits an employee's balance runs in a tenantTx and
// first takes lockEmployees (src/modules/shared/people.ts): a transaction-level advisory lock on
// that employee plus a shared lock on the tenant's leave data, which bulk allocation takes
// exclusively. Checks and writes therefore happen one at a time per employee, so parallel
// requests/approvals can never overdraw.
import type { components } from "../../../generated/api-types.ts";
import type { db, ScopedTx } from "../../db/tenancy.ts";
import { type DateString, toDateString } from "../../lib/dates.ts";
import { Decimal, days } from "./days.ts";
import { computeLapses, type Debit, type ExpiringCredit } from "./lapse.ts";
import { insertLedgerEntries } from "./queries.ts";

type Client = ScopedTx | typeof db;

export interface Account {
  employee_id: string;
  leave_type_id: string;
  period_id: string;
}

export async function ledgerSum(c: Client, a: Account): Promise<Decimal> {
  const r = await c.leaveLedgerEntry.aggregate({ where: a, _sum: { days: true } });
  return days(r._sum.days);
}

/** Days reserved by pending leave requests and pending encashments of the account. */
export async function pendingDays(c: Client, a: Account, exclude: { requestId?: string; encashmentId?: string } = {}): Promise<Decimal> {
  const [r, e] = await Promise.all([
    c.leaveRequest.aggregate({
      where: { ...a, status: "pending", ...(exclude.requestId ? { NOT: { id: exclude.requestId } } : {}) },
      _sum: { days: true },
    }),
    c.leaveEncashment.aggregate({
      where: { ...a, status: "pending", ...(exclude.encashmentId ? { NOT: { id: exclude.encashmentId } } : {}) },
      _sum: { days: true },
    }),
  ]);
  return days(r._sum.days).plus(days(e._sum.days));
}

/** Expiring credits of an account (net of reversals) and whether each already lapsed. */
export async function expiringCredits(c: Client, a: Account): Promise<(ExpiringCredit & { entryId: string; lapsed: boolean })[]> {
  const rows = await c.leaveLedgerEntry.findMany({
    where: { ...a, OR: [{ expires_on: { not: null } }, { entry_type: "expiry" }] },
    select: { id: true, entry_type: true, days: true, expires_on: true, reference_id: true },
    orderBy: { created_at: "asc" },
  });
  const lapsed = new Set(rows.filter((r) => r.entry_type === "expiry").map((r) => r.reference_id));
  const byKey = new Map<string, ExpiringCredit & { entryId: string; lapsed: boolean }>();
  for (const r of rows) {
    if (r.entry_type === "expiry" || !r.expires_on) continue;
    const key = `${r.entry_type}:${r.reference_id}:${toDateString(r.expires_on)}`;
    const cur = byKey.get(key);
    if (cur) cur.days = days(cur.days).plus(days(r.days));
    else if (days(r.days).gt(0))
      byKey.set(key, { key, entryId: r.id, days: days(r.days), expiresOn: toDateString(r.expires_on), lapsed: lapsed.has(r.id) });
  }
  return [...byKey.values()].filter((cr) => days(cr.days).gt(0));
}

/** Leave and encashments consumed from an account, dated (ledger debits net of reversals). */
export async function ledgerDebits(c: Client, a: Account): Promise<Debit[]> {
  const rows = await c.leaveLedgerEntry.findMany({
    where: { ...a, entry_type: { in: ["taken", "cancelled", "encashed"] } },
    select: { days: true, effective_date: true },
  });
  return rows.map((r) => ({ date: toDateString(r.effective_date), days: days(r.days).negated() }));
}

/**
 * Days of expiring credits not yet lapsed that will have lapsed before `date` — they cannot pay
 * for leave on that date. Pending requests count as consumption (they are reserved).
 */
export async function lapsingBefore(c: Client, a: Account, date: DateString, extra: Debit[] = []): Promise<Decimal> {
  const credits = await expiringCredits(c, a);
  const open = credits.filter((cr) => !cr.lapsed && cr.expiresOn < date);
  if (!open.length) return new Decimal(0);
  const pending = await c.leaveRequest.findMany({ where: { ...a, status: "pending" }, select: { from_date: true, days: true } });
  const debits = [...(await ledgerDebits(c, a)), ...pending.map((p) => ({ date: toDateString(p.from_date), days: p.days })), ...extra];
  const lapses = computeLapses(credits, debits);
  let total = new Decimal(0);
  for (const cr of open) total = total.plus(lapses.get(cr.key) ?? 0);
  return total;
}

export interface LeaveTypeRules {
  is_paid: boolean;
  allow_negative_balance: boolean;
  negative_balance_limit: { toString(): string };
}

/** Lowest balance the type allows (null = unpaid: never checked). */
export function minimumBalance(t: LeaveTypeRules): Decimal | null {
  if (!t.is_paid) return null;
  return t.allow_negative_balance ? days(t.negative_balance_limit).negated() : new Decimal(0);
}

export interface NewEntry {
  employee_id: string;
  leave_type_id: string;
  period_id: string;
  entry_type: "allocation" | "accrual" | "carry_forward" | "expiry" | "taken" | "cancelled" | "encashed" | "comp_off" | "adjustment";
  days: Decimal;
  effective_date: DateString;
  expires_on?: DateString | null;
  reference_type?: components["schemas"]["LeaveLedgerEntry"]["reference_type"];
  reference_id?: string | null;
  reason?: string | null;
  dedupe_key?: string | null;
  created_by?: string | null;
}

/**
 * Appends entries in one set-based INSERT (no per-row ORM work, so bulk postings stay cheap); an
 * entry whose dedupe_key exists already is skipped (idempotent postings). Returns the number written.
 */
export async function postEntries(c: Client, entries: NewEntry[]): Promise<number> {
  if (!entries.length) return 0;
  const rows = entries.map((e) => ({
    employee_id: e.employee_id,
    leave_type_id: e.leave_type_id,
    period_id: e.period_id,
    entry_type: e.entry_type,
    days: e.days.toString(),
    effective_date: e.effective_date,
    expires_on: e.expires_on ?? null,
    reference_type: e.reference_type ?? null,
    reference_id: e.reference_id ?? null,
    reason: e.reason ?? null,
    dedupe_key: e.dedupe_key ?? null,
    created_by: e.created_by ?? null,
  }));
  return insertLedgerEntries(c, rows);
}
