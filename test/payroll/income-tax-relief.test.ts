// Relief for arrears of salary under s.89(1), by rule 21A(2) of the Income-tax Rules 1962 (Form 10E), in the
// engine (src/modules/payroll/income-tax/engine.ts): (this year's tax with the arrears − without) − Σ over the
// earlier years (that year's tax with its arrears − without), each year at its own rates and regime, never
// below nil. Pure: no HTTP, no database. Every figure is worked out by hand in the comment above it.
import { describe, expect, it } from "vitest";
import { Decimal } from "../../src/lib/money.ts";
import { computeIncomeTax, type EarlierYearArrears, salaryOnly } from "../../src/modules/payroll/income-tax/engine.ts";
import { EARLIEST_RATES_YEAR, rateRulesOf, rulesOf } from "../../src/modules/payroll/income-tax/rates.ts";

const fy25 = rulesOf("2025-26")!;
const D = (v: Decimal.Value) => new Decimal(v);
const arrears = (relates_to: string, amount: number, total_income: number, regime: "new" | "old"): EarlierYearArrears => ({
  relates_to,
  amount: D(amount),
  total_income: D(total_income),
  regime,
  age_band: "below_60",
});

describe("s.89(1) relief for arrears (rule 21A(2))", () => {
  // 2025-26, new regime: salary ₹17,75,000 of which ₹3,00,000 are arrears of 2023-24 (total income that year ₹6,00,000, new regime)
  // this year with: 17,75,000 − 75,000 = 17,00,000 → 20,000 + 40,000 + 60,000 + 1,00,000 × 20 % = 1,40,000; + 4 % = 1,45,600
  // this year without: 14,75,000 − 75,000 = 14,00,000 → 20,000 + 40,000 + 2,00,000 × 15 % = 90,000; + 4 % = 93,600; difference 52,000
  // 2023-24 (slabs 3/6/9/12/15 lakh, rebate ₹25,000 to ₹7 lakh): 6,00,000 → 15,000 − rebate 15,000 = 0;
  //   9,00,000 → 15,000 + 30,000 = 45,000 (above ₹7 lakh; 45,000 < 2,00,000 so no marginal relief); + 4 % = 46,800; difference 46,800
  // relief 52,000 − 46,800 = 5,200; tax payable 1,45,600 − 5,200 = 1,40,400
  it("arrears of 2023-24 in a 2025-26 salary of ₹17.75 lakh (new regime both years): relief ₹5,200", () => {
    const c = computeIncomeTax(salaryOnly(1775000, "new", { arrears: [arrears("2023-24", 300000, 600000, "new")] }), fy25);
    expect(c.total_tax).toBe("145600.00");
    expect(c.arrears_relief).toBe("5200.00");
    expect(c.tax_payable).toBe("140400.00");
    expect(c.arrears_relief_detail).toEqual({
      arrears: "300000.00",
      current_year: {
        tax_year: "2025-26",
        total_income: "1700000.00",
        total_income_without_arrears: "1400000.00",
        tax: "145600.00",
        tax_without_arrears: "93600.00",
        difference: "52000.00",
      },
      earlier_years: [
        {
          tax_year: "2023-24",
          regime: "new",
          total_income: "600000.00",
          arrears: "300000.00",
          total_income_with_arrears: "900000.00",
          tax: "0.00",
          tax_with_arrears: "46800.00",
          difference: "46800.00",
        },
      ],
      earlier_difference: "46800.00",
      relief: "5200.00",
    });
  });

  // Published: gksocialnet.blogspot.com/2026/02/form-10-e-tax-relief-under-section-891.html - arrears ₹2,00,000 of 2024-25
  // received in 2025-26; current income ₹8,00,000 + arrears = ₹10,00,000, that year's ₹6,00,000 + arrears = ₹8,00,000; it gives
  // tax on ₹10 lakh ₹1,12,500 (the old regime's slab tax: 12,500 + 5,00,000 × 20 %), on ₹8 lakh ₹62,500, on ₹6 lakh ₹22,500 and a
  // relief of ₹10,000. Its ₹62,500 and ₹22,500 are not the old slabs' figures: 12,500 + 3,00,000 × 20 % = 72,500 and 12,500 +
  // 1,00,000 × 20 % = 32,500 (₹10,000 less each). Replayed on the old regime with the slabs (and cess) as the Finance Acts give them:
  // this year 1,12,500 × 1.04 = 1,17,000 − 72,500 × 1.04 = 75,400 → 41,600; 2024-25 the same slabs, 75,400 − 32,500 × 1.04 = 33,800
  // → 41,600; relief 41,600 − 41,600 = nil (the arrears would have been taxed at the same 20 % in 2024-25).
  it("the gksocialnet.blogspot.com example (old regime, arrears of 2024-25): nil relief once its slab figures are corrected", () => {
    const c = computeIncomeTax(salaryOnly(1050000, "old", { arrears: [arrears("2024-25", 200000, 600000, "old")] }), fy25);
    expect(c.tax_on_income).toBe("112500.00");
    expect(c.arrears_relief_detail?.current_year).toMatchObject({
      tax: "117000.00",
      tax_without_arrears: "75400.00",
      difference: "41600.00",
    });
    expect(c.arrears_relief_detail?.earlier_years[0]).toMatchObject({
      tax: "33800.00",
      tax_with_arrears: "75400.00",
      difference: "41600.00",
    });
    expect([c.arrears_relief, c.tax_payable]).toEqual(["0.00", "117000.00"]);
  });

  // 2025-26 new regime: salary ₹30,75,000 with arrears ₹2,00,000 of 2020-21 (income ₹4 lakh, new regime) and ₹3,00,000 of 2024-25
  // (income ₹12 lakh, old regime). This year: 30,00,000 → 3,00,000 + 6,00,000 × 30 % = 4,80,000, + 4 % = 4,99,200; without:
  // 25,00,000 → 3,30,000 + 4 % = 3,43,200; difference 1,56,000.
  // 2020-21 (s.115BAC as first enacted: 2.5/5/7.5/10/12.5/15 lakh; rebate ₹12,500 to ₹5 lakh, no marginal relief): 4,00,000 → 7,500
  // − 7,500 = 0; 6,00,000 → 12,500 + 10,000 = 22,500, + 4 % = 23,400; difference 23,400.
  // 2024-25 old regime: 12,00,000 → 1,12,500 + 60,000 = 1,72,500, + 4 % = 1,79,400; 15,00,000 → 2,62,500, + 4 % = 2,73,000;
  // difference 93,600. Relief 1,56,000 − (23,400 + 93,600) = 39,000.
  it("two earlier years, each at its own rates and regime (2020-21 new, 2024-25 old): relief ₹39,000", () => {
    const c = computeIncomeTax(
      salaryOnly(3075000, "new", { arrears: [arrears("2020-21", 200000, 400000, "new"), arrears("2024-25", 300000, 1200000, "old")] }),
      fy25,
    );
    expect(c.arrears_relief_detail?.current_year.difference).toBe("156000.00");
    expect(c.arrears_relief_detail?.earlier_years.map((y) => [y.tax_year, y.tax, y.tax_with_arrears])).toEqual([
      ["2020-21", "0.00", "23400.00"],
      ["2024-25", "179400.00", "273000.00"],
    ]);
    expect(c.arrears_relief).toBe("39000.00");
    expect(c.tax_payable).toBe(D(499200).minus(39000).toFixed(2));
  });

  // 2025-26: salary ₹8,75,000 with ₹1,00,000 of arrears of 2024-25 → income 8,00,000 (rebate: nil either way), difference 0;
  // 2024-25 old regime at ₹30 lakh: 7,12,500 → 7,41,000 and 7,42,500 → 7,72,200, difference 31,200; 0 − 31,200 < 0 → no relief
  it("never below nil: arrears of a year taxed at a higher rate", () => {
    const c = computeIncomeTax(salaryOnly(875000, "new", { arrears: [arrears("2024-25", 100000, 3000000, "old")] }), fy25);
    expect(c.arrears_relief_detail?.earlier_difference).toBe("31200.00");
    expect([c.arrears_relief, c.tax_payable]).toEqual(["0.00", "0.00"]);
  });

  it("no arrears: no relief and no detail", () => {
    const c = computeIncomeTax(salaryOnly(1775000, "new"), fy25);
    expect([c.arrears_relief, c.arrears_relief_detail, c.tax_payable]).toEqual(["0.00", null, "145600.00"]);
  });

  it("rates on record from 2020-21 (the first year of s.115BAC); none for 2019-20", () => {
    expect(EARLIEST_RATES_YEAR).toBe("2020-21");
    expect(rateRulesOf("2019-20")).toBeNull();
    // 2021-22 and 2022-23 kept the Finance Act 2020's rates
    expect(rateRulesOf("2022-23")?.regimes.new.slabs).toEqual(rateRulesOf("2020-21")?.regimes.new.slabs);
    expect(rateRulesOf("2024-25")?.regimes.new.rebate.income_limit).toBe("700000");
    expect(rateRulesOf("2025-26")?.tax_year).toBe("2025-26");
  });
});
