// An amount in words, as payslips and cheques print it: the Indian system (lakh, crore) for INR -
// "Rupees One Lakh Twenty-Three Thousand Four Hundred Fifty-Six and Paise Fifty Only" - and the
// international one (thousand, million, billion) for every other currency.
import { money, type MoneyInput } from "./money.ts";

const ONES = [
  "Zero",
  "One",
  "Two",
  "Three",
  "Four",
  "Five",
  "Six",
  "Seven",
  "Eight",
  "Nine",
  "Ten",
  "Eleven",
  "Twelve",
  "Thirteen",
  "Fourteen",
  "Fifteen",
  "Sixteen",
  "Seventeen",
  "Eighteen",
  "Nineteen",
];
const TENS = ["", "", "Twenty", "Thirty", "Forty", "Fifty", "Sixty", "Seventy", "Eighty", "Ninety"];

/** 1..999 in words ("Four Hundred Fifty-Six"). */
function belowThousand(n: number): string {
  const out: string[] = [];
  if (n >= 100) out.push(`${ONES[Math.floor(n / 100)]} Hundred`);
  const rest = n % 100;
  if (rest > 0 && rest < 20) out.push(ONES[rest]);
  else if (rest >= 20) out.push(rest % 10 ? `${TENS[Math.floor(rest / 10)]}-${ONES[rest % 10]}` : TENS[Math.floor(rest / 10)]);
  return out.join(" ");
}

/** A positive whole number in the Indian system: crore, lakh, thousand, hundred (crores above 99 are counted in words again). */
function indian(n: bigint): string {
  const out: string[] = [];
  const crore = n / 10_000_000n;
  if (crore > 0n) out.push(`${indian(crore)} Crore`);
  let rest = Number(n % 10_000_000n);
  const lakh = Math.floor(rest / 100_000);
  if (lakh) out.push(`${belowThousand(lakh)} Lakh`);
  rest %= 100_000;
  const thousand = Math.floor(rest / 1000);
  if (thousand) out.push(`${belowThousand(thousand)} Thousand`);
  if (rest % 1000) out.push(belowThousand(rest % 1000));
  return out.join(" ");
}

const SCALES = ["", "Thousand", "Million", "Billion", "Trillion", "Quadrillion"];

/** A positive whole number in the international system (groups of three digits). */
function international(n: bigint): string {
  const out: string[] = [];
  for (let i = 0; n > 0n; i++, n /= 1000n) {
    const group = Number(n % 1000n);
    if (group) out.unshift(SCALES[i] ? `${belowThousand(group)} ${SCALES[i]}` : belowThousand(group));
  }
  return out.join(" ");
}

/** The names of a currency's unit and hundredth as printed in words; others print the code and "n/100". */
const UNITS: Record<string, [string, string]> = {
  INR: ["Rupees", "Paise"],
  AED: ["Dirhams", "Fils"],
  SAR: ["Riyals", "Halalas"],
  USD: ["Dollars", "Cents"],
  EUR: ["Euros", "Cents"],
  GBP: ["Pounds", "Pence"],
};

/** A whole number in words (the Indian system when `indianSystem`), "Zero" for 0. */
export function numberInWords(n: bigint, indianSystem: boolean): string {
  if (n === 0n) return "Zero";
  return indianSystem ? indian(n) : international(n);
}

/**
 * An amount (two places, half-up) in words: "Rupees One Lakh Twenty-Three Thousand Four Hundred
 * Fifty-Six and Paise Fifty Only", "Dirhams One Million Two Hundred Thousand Only", "CHF Ten and 25/100 Only".
 */
export function amountInWords(amount: MoneyInput, currency: string): string {
  const [int, frac] = money(amount).toFixed(2).split(".");
  const negative = int.startsWith("-");
  const whole = BigInt(negative ? int.slice(1) : int);
  const cents = Number(frac);
  const words = numberInWords(whole, currency === "INR");
  const units = UNITS[currency];
  let text: string;
  if (units) text = `${units[0]} ${words}${cents ? ` and ${units[1]} ${numberInWords(BigInt(cents), false)}` : ""}`;
  else text = `${currency} ${words}${cents ? ` and ${frac}/100` : ""}`;
  return `${negative ? "Minus " : ""}${text} Only`;
}
