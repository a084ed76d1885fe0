// Day quantities: exact decimals in steps of half a day. The API writes them as strings with one
// decimal place ("1.5"); the database keeps them as DECIMAL(6,1).
import { Decimal } from "../../lib/money.ts";

export { Decimal };
export type DayValue = Decimal.Value | { toString(): string };

export function days(v: DayValue | null | undefined): Decimal {
  return new Decimal(v === null || v === undefined ? 0 : v.toString());
}

/** "1.5", "12.0", "-2.0" (the `DayCount` form of the document). */
export function dayString(v: DayValue): string {
  return days(v).toFixed(1);
}
export function dayStringOrNull(v: DayValue | null | undefined): string | null {
  return v === null || v === undefined ? null : dayString(v);
}

/** Nearest multiple of 0.5, halves rounded up (1.25 → 1.5, 1.24 → 1.0). */
export function roundHalf(v: DayValue): Decimal {
  return days(v).times(2).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).div(2);
}

/** Half-day units (integers) → days. */
export function fromHalves(halves: number): Decimal {
  return new Decimal(halves).div(2);
}

export function sumDays(values: Iterable<DayValue>): Decimal {
  let s = new Decimal(0);
  for (const v of values) s = s.plus(days(v));
  return s;
}
