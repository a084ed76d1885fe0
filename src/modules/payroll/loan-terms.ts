// The arithmetic of a loan: months as YYYY-MM, the total with simple interest and
// its installments to the paisa, and the loan type's limits an application must keep.
import type { Prisma } from "../../../generated/prisma/client.ts";
import { parseDate, toDateString } from "../../lib/dates.ts";
import { Decimal, moneyString } from "../../lib/money.ts";
import { invalidField } from "../../platform/errors.ts";

export const month = (d: Date) => toDateString(d).slice(0, 7);
export const firstOf = (ym: string) => parseDate(`${ym}-01`);
export function addMonth(ym: string, n: number): string {
  const [y, m] = ym.split("-").map(Number);
  const t = y * 12 + (m - 1) + n;
  return `${Math.floor(t / 12)}-${String((t % 12) + 1).padStart(2, "0")}`;
}

/** Simple interest over the term: amount × rate% × installments ÷ 12; installments rounded to paise, the last absorbs the rest. */
export function loanTerms(amount: Decimal.Value, installments: number, ratePercent: Decimal.Value) {
  const a = new Decimal(amount);
  const total = a.plus(a.times(ratePercent).div(100).times(installments).div(12)).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const each = total.div(installments).toDecimalPlaces(2, Decimal.ROUND_HALF_UP);
  const schedule = Array.from({ length: installments }, (_, i) =>
    i < installments - 1 ? each : total.minus(each.times(installments - 1)),
  );
  return { total, each, schedule };
}

/** The loan type's limits on an application's amount and installments (400 naming the field). */
export function checkLimits(
  type: { name: string; max_amount: Prisma.Decimal | null; max_installments: number },
  amount: string,
  installments: number,
) {
  if (new Decimal(amount).lte(0)) throw invalidField("body.amount", "must be greater than zero");
  if (type.max_amount !== null && new Decimal(amount).gt(type.max_amount.toString()))
    throw invalidField("body.amount", `exceeds the limit of ${type.name} (${moneyString(type.max_amount)})`);
  if (installments > type.max_installments)
    throw invalidField("body.installments", `exceeds the limit of ${type.name} (${type.max_installments} installments)`);
}
