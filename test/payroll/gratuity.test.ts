// Gratuity (Payment of Gratuity Act 1972) as a pure rule: the worked figures of the issue.
import { describe, expect, it } from "vitest";
import { computeGratuity, gratuityProvision, serviceBetween, type GratuityInput } from "../../src/modules/payroll/gratuity.ts";
import { GRATUITY_DEFAULTS } from "../../src/modules/payroll/statutory.ts";

const base: GratuityInput = {
  wage: "6000",
  joining_date: "2018-01-01",
  last_working_day: "2026-07-31",
  separation: "resignation",
  fixed_term: false,
  settings: GRATUITY_DEFAULTS,
};

describe("gratuity", () => {
  it("counts service from the joining date to the last working day, both included", () => {
    expect(serviceBetween("2018-01-01", "2026-07-31")).toEqual({ years: 8, months: 7, days: 0 });
    expect(serviceBetween("2020-03-15", "2025-03-14")).toEqual({ years: 5, months: 0, days: 0 });
    expect(serviceBetween("2020-03-15", "2025-03-13")).toEqual({ years: 4, months: 11, days: 27 });
    expect(serviceBetween("2020-01-31", "2020-03-01")).toEqual({ years: 0, months: 1, days: 0 });
    expect(serviceBetween("2024-02-29", "2025-02-27")).toEqual({ years: 0, months: 11, days: 30 });
    expect(serviceBetween("2025-01-10", "2025-01-09")).toEqual({ years: 0, months: 0, days: 0 });
  });

  it("8 years 7 months at ₹6,000 counts as 9 years: 15/26 × 6,000 × 9 = ₹31,154", () => {
    const g = computeGratuity(base);
    expect(g).toMatchObject({ eligible: true, counted_years: 9, amount: "31154.00", computed: "31154.00", capped: false });
    expect(g.service).toEqual({ years: 8, months: 7, days: 0 });
  });

  it("a final part-year of six months or less is dropped; more than six months counts", () => {
    expect(computeGratuity({ ...base, last_working_day: "2026-06-30" })).toMatchObject({ counted_years: 8, amount: "27692.00" });
    // 8 years 6 months 1 day
    expect(computeGratuity({ ...base, last_working_day: "2026-07-01" })).toMatchObject({ counted_years: 9, amount: "31154.00" });
  });

  it("4 years 5 months gets none; death or disablement waives the five years", () => {
    const short = computeGratuity({ ...base, joining_date: "2022-03-01", last_working_day: "2026-07-31" });
    expect(short.service).toEqual({ years: 4, months: 5, days: 0 });
    expect(short).toMatchObject({ eligible: false, amount: "0.00" });
    expect(short.reason).toBe("4 years of completed service; gratuity needs 5 years");
    // on death the five years do not apply; 4 years 5 months counts as 4
    const death = computeGratuity({ ...base, joining_date: "2022-03-01", last_working_day: "2026-07-31", separation: "death" });
    expect(death).toMatchObject({ eligible: true, counted_years: 4, amount: "13846.00" });
    expect(computeGratuity({ ...base, joining_date: "2022-03-01", separation: "disablement" }).eligible).toBe(true);
    // fixed-term employees qualify after one year (Labour Codes)
    const fixed = computeGratuity({ ...base, joining_date: "2024-01-01", fixed_term: true });
    expect(fixed).toMatchObject({ eligible: true, counted_years: 3, amount: "10385.00" });
  });

  it("is capped at ₹20 lakh for a large wage, and nil when switched off", () => {
    const big = computeGratuity({ ...base, wage: "500000", joining_date: "1996-01-01" });
    expect(big).toMatchObject({ eligible: true, counted_years: 31, computed: "8942308.00", amount: "2000000.00", capped: true });
    const off = computeGratuity({ ...base, settings: { ...GRATUITY_DEFAULTS, enabled: false } });
    expect(off).toMatchObject({ eligible: false, amount: "0.00" });
  });

  it("the monthly provision is the month's basic + DA × 15/26 ÷ 12, to the paisa", () => {
    expect(gratuityProvision("6000", GRATUITY_DEFAULTS).toFixed(2)).toBe("288.46");
    expect(gratuityProvision("20000", GRATUITY_DEFAULTS).toFixed(2)).toBe("961.54");
  });
});
