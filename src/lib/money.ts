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

/** The locale whose digit grouping a currency's amounts are shown in (Indian lakh/crore grouping for INR). */
const CURRENCY_LOCALE: Record<string, string> = { INR: "en-IN", AED: "en-AE", SAR: "en-SA", USD: "en-US", GBP: "en-GB", EUR: "en-IE" };
export const localeOfCurrency = (currency: string): string => CURRENCY_LOCALE[currency] ?? "en-US";

const groupers = new Map<string, Intl.NumberFormat>();

/** An amount in the currency's grouping ("1,23,456.00" INR, "123,456.00" AED), exact: no binary floating point on the way. */
export function formatMoney(amount: MoneyInput, currency: string): string {
  const [int, frac] = money(amount).toFixed(2).split(".");
  const negative = int.startsWith("-");
  const locale = localeOfCurrency(currency);
  let grouper = groupers.get(locale);
  if (!grouper) {
    grouper = new Intl.NumberFormat(locale, { useGrouping: true, maximumFractionDigits: 0 });
    groupers.set(locale, grouper);
  }
  return `${negative ? "-" : ""}${grouper.format(BigInt(negative ? int.slice(1) : int))}.${frac}`;
}
