// What a leave account holds (docs on the ledger: ledger.ts): the sum of its entries, the days
// pending requests and encashments reserve, its availability as of a date (expiry counted whether
// or not it is posted), and the lowest balance its type allows.
import type { DateString } from "../../lib/dates.ts";
import { Decimal, days, dayString } from "./days.ts";
import { type Account, accountKey, type Client, type OpenLapse, openLapses } from "./ledger.ts";

/** The sum of an account's entries. */
export async function ledgerSum(c: Client, a: Account): Promise<Decimal> {
  const r = await c.leaveLedgerEntry.aggregate({ where: a, _sum: { days: true } });
  return days(r._sum.days);
}

/** Days reserved by pending leave requests and pending encashments of the account. */
export async function pendingDays(c: Client, a: Account, exclude: Exclude = {}): Promise<Decimal> {
  // one after the other: `c` may be an interactive transaction, which runs one query at a time
  const r = await c.leaveRequest.aggregate({
    where: { ...a, status: "pending", ...(exclude.requestId ? { NOT: { id: exclude.requestId } } : {}) },
    _sum: { days: true },
  });
  const e = await c.leaveEncashment.aggregate({
    where: { ...a, status: "pending", ...(exclude.encashmentId ? { NOT: { id: exclude.encashmentId } } : {}) },
    _sum: { days: true },
  });
  return days(r._sum.days).plus(days(e._sum.days));
}

/** A pending request or encashment left out of the reservations (the one being decided). */
export interface Exclude {
  requestId?: string;
  encashmentId?: string;
}

/** What an account holds on a date (availability). */
export interface Availability {
  /** Sum of the ledger's entries. */
  ledger: Decimal;
  /** Reserved by pending leave requests and encashments (less the one being decided, `exclude`). */
  pending: Decimal;
  /**
   * Expired by the date beyond what the ledger's expiry entries hold (openLapses): positive, a lapse
   * not posted yet; negative, days of a posted lapse that leave dated on or before the expiry uses.
   */
  lapsed: Decimal;
  /** ledger − pending − lapsed. */
  available: Decimal;
}

export const availableOf = (ledger: Decimal, pending: Decimal, lapsed: Decimal): Decimal => ledger.minus(pending).minus(lapsed);

/** Sum of the open lapses of an account (openLapses). */
export const lapsedDays = (open: OpenLapse[] | undefined): Decimal => (open ?? []).reduce((s, l) => s.plus(l.days), new Decimal(0));

/**
 * THE availability of an account as of a date, used by every reader that checks or shows a balance
 * (leave requests and their approval as of the leave's first day, encashments and their approval,
 * adjustments and the withdrawal of compensatory leave as of today; the balances page and the
 * carry-forward apply the same openLapses to many accounts at once): expiry counts from the day
 * after the expiry date whether or not the nightly job has posted it.
 */
export async function availability(
  c: Client,
  a: Account,
  asOf: DateString,
  today: DateString,
  exclude: Exclude = {},
): Promise<Availability> {
  // the request or encashment being decided is not reserved, but it is consumption either way
  // (pending, or posted on the same date by its approval): it stays in the lapse computation
  // one after the other: `c` may be an interactive transaction, which runs one query at a time
  const ledger = await ledgerSum(c, a);
  const pending = await pendingDays(c, a, exclude);
  const open = await openLapses(c, [a], asOf, today);
  const lapsed = lapsedDays(open.get(accountKey(a)));
  return { ledger, pending, lapsed, available: availableOf(ledger, pending, lapsed) };
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

/**
 * Why an account's available days are below the lowest balance its type allows (null when they
 * are not, and for unpaid types, whose balance is never checked). Requests, approvals, encashments
 * and adjustments never take a balance there; it happens when something outside them moved it.
 */
export function belowMinimumReason(av: Availability, min: Decimal | null): string | null {
  if (min === null || !av.available.lt(min)) return null;
  const floor = min.isNegative() ? `the allowed ${dayString(min)}` : "zero";
  const short = dayString(min.minus(av.available));
  if (!av.ledger.minus(av.lapsed).lt(min))
    return (
      `Pending requests and encashments reserve ${dayString(av.pending)} days, ${short} more than the balance allows ` +
      `(below ${floor}): they cannot all be approved`
    );
  if (!av.ledger.lt(min))
    return `${dayString(av.lapsed)} expiring days lapsed after being counted on; the balance is ${short} below ${floor}`;
  return (
    `More days were taken, encashed or adjusted than the ledger now holds - e.g. an allocation was reduced or the type's ` +
    `negative-balance limit was lowered after they were used: the balance is ${short} below ${floor}`
  );
}
