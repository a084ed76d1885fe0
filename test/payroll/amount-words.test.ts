// The shared money formatter (digit grouping of the currency's locale) and amounts in words.
import { describe, expect, test } from "vitest";
import { amountInWords, numberInWords } from "../../src/lib/amount-words.ts";
import { formatMoney } from "../../src/lib/money.ts";

describe("formatMoney", () => {
  test("INR in Indian grouping (lakh, crore), exactly from the decimal string", () => {
    expect(formatMoney("123456", "INR")).toBe("1,23,456.00");
    expect(formatMoney("2400000", "INR")).toBe("24,00,000.00");
    expect(formatMoney("999999999999.99", "INR")).toBe("9,99,99,99,99,999.99");
    expect(formatMoney("999.5", "INR")).toBe("999.50");
    expect(formatMoney("0", "INR")).toBe("0.00");
    expect(formatMoney("-1234.567", "INR")).toBe("-1,234.57");
  });
  test("other currencies in groups of three (AED as en-AE, an unknown code as en-US)", () => {
    expect(formatMoney("123456", "AED")).toBe("123,456.00");
    expect(formatMoney("1234567.8", "AED")).toBe("1,234,567.80");
    expect(formatMoney("9999999999999.99", "CHF")).toBe("9,999,999,999,999.99");
  });
});

describe("amountInWords", () => {
  test("Indian system for INR, with paise", () => {
    expect(amountInWords("123456.50", "INR")).toBe("Rupees One Lakh Twenty-Three Thousand Four Hundred Fifty-Six and Paise Fifty Only");
    expect(amountInWords("48250", "INR")).toBe("Rupees Forty-Eight Thousand Two Hundred Fifty Only");
  });
  test("zero, paise only, teens and round tens", () => {
    expect(amountInWords("0", "INR")).toBe("Rupees Zero Only");
    expect(amountInWords("0.05", "INR")).toBe("Rupees Zero and Paise Five Only");
    expect(amountInWords("0.99", "INR")).toBe("Rupees Zero and Paise Ninety-Nine Only");
    expect(amountInWords("1000000", "INR")).toBe("Rupees Ten Lakh Only");
    expect(amountInWords("115.20", "INR")).toBe("Rupees One Hundred Fifteen and Paise Twenty Only");
  });
  test("crore, and crores above ninety-nine counted in words again", () => {
    expect(amountInWords("10000000", "INR")).toBe("Rupees One Crore Only");
    expect(amountInWords("12345678.9", "INR")).toBe(
      "Rupees One Crore Twenty-Three Lakh Forty-Five Thousand Six Hundred Seventy-Eight and Paise Ninety Only",
    );
    expect(amountInWords("999999999999.99", "INR")).toBe(
      "Rupees Ninety-Nine Thousand Nine Hundred Ninety-Nine Crore Ninety-Nine Lakh Ninety-Nine Thousand " +
        "Nine Hundred Ninety-Nine and Paise Ninety-Nine Only",
    );
  });
  test("international system (million, billion) for other currencies", () => {
    expect(amountInWords("1200000", "AED")).toBe("Dirhams One Million Two Hundred Thousand Only");
    expect(amountInWords("123456.5", "AED")).toBe("Dirhams One Hundred Twenty-Three Thousand Four Hundred Fifty-Six and Fils Fifty Only");
    expect(amountInWords("2000000001", "USD")).toBe("Dollars Two Billion One Only");
    expect(amountInWords("10.25", "CHF")).toBe("CHF Ten and 25/100 Only");
    expect(amountInWords("-5", "INR")).toBe("Minus Rupees Five Only");
  });
  test("numberInWords", () => {
    expect(numberInWords(0n, true)).toBe("Zero");
    expect(numberInWords(100000n, true)).toBe("One Lakh");
    expect(numberInWords(100000n, false)).toBe("One Hundred Thousand");
    expect(numberInWords(1000000n, false)).toBe("One Million");
  });
});
