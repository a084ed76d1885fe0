// The statute's arithmetic for late TDS (interest and the late-filing fee) and the due dates, replaying
// published worked examples.
import { describe, expect, it } from "vitest";
import {
  depositDueDate,
  filingRulesOn,
  lateFilingFee,
  lateInterest,
  monthsOrPart,
  quarterMonths,
  quarterOf,
  returnDueDate,
} from "../../src/modules/payroll/income-tax/filing-rules.ts";

describe("TDS due dates", () => {
  it("is the 7th of the next month, 30 April for March (rule 30(2)(b))", () => {
    expect(depositDueDate(2025, 10)).toBe("2025-11-07");
    expect(depositDueDate(2025, 12)).toBe("2026-01-07");
    expect(depositDueDate(2026, 3)).toBe("2026-04-30");
  });
  it("files each quarter's return by 31 July, 31 October, 31 January and 31 May (rule 31A(2))", () => {
    expect(returnDueDate("2025-26", "Q1")).toBe("2025-07-31");
    expect(returnDueDate("2025-26", "Q3")).toBe("2026-01-31");
    expect(returnDueDate("2025-26", "Q4")).toBe("2026-05-31");
    expect(quarterOf(4)).toBe("Q1");
    expect(quarterOf(3)).toBe("Q4");
    expect(quarterMonths("2025-26", "Q4")).toEqual([
      { year: 2026, month: 1 },
      { year: 2026, month: 2 },
      { year: 2026, month: 3 },
    ]);
  });
  it("names the Act 1961's sections until 31 March 2026 and the Act 2025's from 1 April 2026", () => {
    expect(filingRulesOn("2026-03-31").interest.source).toContain("s.201(1A)");
    expect(filingRulesOn("2026-04-01").interest.source).toContain("s.398(3)");
    expect(filingRulesOn("2026-04-01").late_filing_fee.source).toContain("s.427");
    expect(filingRulesOn("2026-04-01").forms).toMatchObject({ certificate: "Form 130", quarterly_return: "Form 138" });
  });
});

describe("interest on late TDS (s.201(1A) / s.398(3))", () => {
  it("counts calendar months or part, both ends (TRACES' way)", () => {
    expect(monthsOrPart("2012-03-04", "2012-05-07")).toBe(3);
    expect(monthsOrPart("2025-07-31", "2025-08-08")).toBe(2);
    expect(monthsOrPart("2025-07-31", "2025-07-31")).toBe(0);
  });
  // simpletaxindia.in, "Procedure of calculating interest on late payment of TDS" (a TRACES justification
  // report): ₹4,000 deducted 4 March 2012, due 30 April 2012, deposited 7 May 2012 → 3 months × 1.5 % = ₹180
  it("replays the published TRACES example: ₹4,000 × 1.5 % × 3 = ₹180", () => {
    const r = lateInterest("4000", { deductible: "2012-03-04", deducted: "2012-03-04", paid: "2012-05-07", due: "2012-04-30" });
    expect(r.total).toBe("180.00");
    expect(r.lines).toEqual([expect.objectContaining({ months: 3, rate_percent: "1.5", amount: "180.00" })]);
  });
  // caclubindia.com forum (interest u/s 201(1A)): tax deducted in July paid on 8 August → July and August, 3 %
  it("charges two months for July's tax paid on 8 August", () => {
    expect(lateInterest("10000", { deductible: "2025-07-31", deducted: "2025-07-31", paid: "2025-08-08", due: "2025-08-07" }).total).toBe(
      "300.00",
    );
  });
  it("charges nothing when paid by the due date", () => {
    expect(lateInterest("10000", { deductible: "2025-07-31", deducted: "2025-07-31", paid: "2025-08-07", due: "2025-08-07" }).total).toBe(
      "0.00",
    );
  });
  it("adds 1 % a month from deductible to deducted, then 1.5 % to paid", () => {
    const r = lateInterest("10000", { deductible: "2026-05-31", deducted: "2026-07-31", paid: "2026-08-10", due: "2026-08-07" });
    // May-July at 1 % (3 months, ₹300), July-August at 1.5 % (2 months, ₹300), under the Act 2025
    expect(r.lines.map((l) => [l.months, l.rate_percent, l.amount])).toEqual([
      [3, "1", "300.00"],
      [2, "1.5", "300.00"],
    ]);
    expect(r.total).toBe("600.00");
    expect(r.lines[0].source).toContain("s.398(3)");
  });
});

describe("the late-filing fee (s.234E / s.427)", () => {
  it("is ₹200 for each day after the due date", () => {
    // Q1 2025-26 due 31 July 2025, filed 10 August 2025: 10 days → ₹2,000
    expect(lateFilingFee("50000", "2025-07-31", "2025-08-10")).toMatchObject({ days: 10, fee: "2000.00", capped: false });
    expect(lateFilingFee("50000", "2025-07-31", "2025-07-31")).toMatchObject({ days: 0, fee: "0.00" });
  });
  // aktassociates.com, "Section 234E of Income Tax Act": TDS ₹5,000, months late, ₹200 a day → ₹37,800
  // exceeds the TDS, so the fee is ₹5,000
  it("never exceeds the TDS of the statement (the published ₹5,000 example)", () => {
    expect(lateFilingFee("5000", "2025-05-13", "2025-11-17")).toMatchObject({ fee: "5000.00", capped: true });
  });
});
