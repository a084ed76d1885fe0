// Money: exact decimals (decimal.js), serialised as strings with two places ("48250.00").
import { Decimal } from "decimal.js";

Decimal.set({ precision: 40, rounding: Decimal.ROUND_HALF_UP });
export { Decimal };

export type MoneyInput = Decimal.Value | { toString(): string };

export function money(v: MoneyInput | null | undefined): Decimal {
  return new Decimal(v === null || v === undefined ? 0 : v.toString());
}

/** "1234.50" - two places, half-up. */
export function moneyString(v: MoneyInput): string {
  return money(v).toFixed(2);
}
export function moneyStringOrNull(v: MoneyInput | null | undefined): string | null {
  return v === null || v === undefined ? null : moneyString(v);
}

/** A percentage with at least two and at most four places: "8.33", "12.00", "0.7500" → "0.75". */
export function percentString(v: MoneyInput): string {
  return money(v)
    .toFixed(4)
    .replace(/(\.\d\d\d?)0+$/, "$1")
    .replace(/(\.\d\d)0$/, "$1");
}
