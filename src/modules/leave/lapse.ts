// Lapse of expiring credits (carried-forward days, compensatory offs). Leave taken on or before a
// credit's expiry date uses the soonest-expiring credits first; whatever of a credit is not used
// by its expiry date lapses.
import type { DateString } from "../../lib/dates.ts";
import { Decimal, days, type DayValue } from "./days.ts";

export interface ExpiringCredit {
  key: string;
  days: DayValue;
  /** Last day the credit can be used. */
  expiresOn: DateString;
}
export interface Debit {
  /** Date of the leave (or of the encashment). */
  date: DateString;
  /** Days consumed (positive; a reversal is negative). */
  days: DayValue;
}

/** Days of each credit that lapse (0 when fully used before its expiry). */
export function computeLapses(credits: ExpiringCredit[], debits: Debit[]): Map<string, Decimal> {
  const sorted = [...credits].sort((a, b) => (a.expiresOn < b.expiresOn ? -1 : a.expiresOn > b.expiresOn ? 1 : a.key < b.key ? -1 : 1));
  const out = new Map<string, Decimal>();
  let attributed = new Decimal(0);
  for (const c of sorted) {
    let used = new Decimal(0);
    for (const d of debits) if (d.date <= c.expiresOn) used = used.plus(days(d.days));
    const amount = days(c.days);
    const consumed = Decimal.min(amount, Decimal.max(0, used.minus(attributed)));
    attributed = attributed.plus(consumed);
    out.set(c.key, amount.minus(consumed));
  }
  return out;
}
