// Income tax at source through the API (createPayrollRun, processPayrollRun, getPayrollRunEmployee,
// getTaxProjection): a year of monthly runs (2025-26) where an employee gets a raise in October and
// another joins in July - each one's TDS over the year sums exactly to the year's tax, worked out by hand
// below from the Finance Act 2025's slabs (new regime, the default).
import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../support/app.ts";
import { useClock } from "../support/clock.ts";
import { type PayrollWorld, payrollEmployee, payrollWorld } from "./fixtures.ts";
import { api } from "../support/api.ts";

// every run below is for a month before this day (the tax year 2025-26 has ended)
useClock("2026-04-20T06:30:00Z");
const t = useTestApp();
let w: PayrollWorld;
let raised: string;
let joiner: string;
let noPan: string;
const tds: Record<string, Record<string, number>> = {};
const slips: Record<string, Record<string, { income_tax?: string; income_tax_detail?: Record<string, unknown>; gross: string }>> = {};

const MONTHS = [
  "2025-04",
  "2025-05",
  "2025-06",
  "2025-07",
  "2025-08",
  "2025-09",
  "2025-10",
  "2025-11",
  "2025-12",
  "2026-01",
  "2026-02",
  "2026-03",
];

beforeAll(async () => {
  w = await payrollWorld(t);
  raised = await payrollEmployee(t, w, "150000.00", { joining_date: "2020-01-06" });
  await api(w.hr.agent)
    .op("setEmployeeSalarySetup", {
      params: { employeeId: raised },
      body: {
        effective_from: "2025-10-01",
        monthly_ctc: "200000.00",
        components: Object.values(w.components).map((component_id) => ({ component_id })),
      },
    })
    .expect(200);
  joiner = await payrollEmployee(t, w, "200000.00", { joining_date: "2025-07-10" });
  noPan = await payrollEmployee(t, w, "150000.00", { joining_date: "2020-01-06" });
  tds[noPan] = {};
  slips[noPan] = {};
  for (const [id, pan] of [
    [raised, "ABCPE1234F"],
    [joiner, "ABCPJ5678K"],
  ]) {
    await api(w.hr.agent)
      .op("setTaxProfile", { params: { employeeId: id }, query: { tax_year: "2025-26" }, body: { pan } })
      .expect(200);
    tds[id] = {};
    slips[id] = {};
  }
  for (const period of MONTHS) {
    const run = await api(w.hr.agent).op("createPayrollRun", { body: { period } }).expect(201);
    await api(w.hr.agent)
      .op("processPayrollRun", { params: { id: run.body.data.id } })
      .expect(200);
    for (const id of [raised, joiner, noPan]) {
      const res = await api(w.hr.agent).op("getPayrollRunEmployee", { params: { id: run.body.data.id, employeeId: id } });
      if (res.status === 404) continue; // not yet joined
      expect(res.status).toBe(200);
      slips[id][period] = res.body.data;
      tds[id][period] = Number(res.body.data.income_tax);
    }
  }
}, 240_000);

const sum = (r: Record<string, number>) => Object.values(r).reduce((a, b) => a + b, 0);

describe("a year of monthly deductions (processPayrollRun, getPayrollRunEmployee)", () => {
  it("a raise in October: ₹1.5 lakh × 6 + ₹2 lakh × 6; taxable ₹20.25 lakh; ₹2,06,250 + cess ₹8,250 = ₹2,14,500, deducted exactly", () => {
    expect(Object.keys(tds[raised])).toEqual(MONTHS);
    expect(sum(tds[raised])).toBe(214500);
    // before the raise the year projects at ₹18 lakh: taxable ₹17.25 lakh, ₹1,45,000 + cess ₹5,800 = ₹1,50,800; ÷ 12 = ₹12,567
    expect(tds[raised]["2025-04"]).toBe(12567);
    // the raise lifts the deduction from October: the new projection less what was deducted, over six months
    expect(tds[raised]["2025-10"]).toBeGreaterThan(tds[raised]["2025-09"]);
    const march = slips[raised]["2026-03"].income_tax_detail!;
    expect(march).toMatchObject({
      tax_year: "2025-26",
      regime: "new",
      taxable_salary_to_date: "2100000.00",
      tds_to_date: "214500.00",
      annual_tax: "214500.00",
      remaining_months: 0,
    });
  });
  // July prorated: 22 of 31 days, each component to the paisa, ₹1,41,935.49; then ₹2 lakh × 8
  it("a joiner on 10 July: taxable ₹16,66,940; ₹1,38,720 deducted exactly from July", () => {
    expect(Object.keys(tds[joiner])).toEqual(MONTHS.slice(3));
    expect(slips[joiner]["2025-07"].gross).toBe("141935.49");
    // 17,41,935.49 − 75,000 = 16,66,935.49 → ₹16,66,940 (s.288A); 20,000 + 40,000 + 60,000 + 20 % of 66,940 = 1,33,388;
    // + cess 5,335.52 = 1,38,723.52 → ₹1,38,720 (s.288B)
    expect(slips[joiner]["2026-03"].income_tax_detail).toMatchObject({ annual_tax: "138720.00", tds_to_date: "138720.00" });
    expect(sum(tds[joiner])).toBe(138720);
  });
  it("the slip's line is part of its deductions and net pay", () => {
    const s = slips[raised]["2025-04"] as unknown as {
      total_deductions: string;
      net_pay: string;
      gross: string;
      pf_employee: string;
      professional_tax: string;
    };
    expect(Number(s.total_deductions)).toBeCloseTo(Number(s.pf_employee) + Number(s.professional_tax) + 12567, 2);
    expect(Number(s.net_pay)).toBeCloseTo(Number(s.gross) - Number(s.total_deductions), 2);
  });
});

describe("without a PAN (s.206AA): 20 % of the income when higher than the tax", () => {
  it("₹18 lakh of salary: 20 % of ₹17.25 lakh = ₹3,45,000 (the tax would be ₹1,50,800), ₹28,750 a month", () => {
    expect(slips[noPan]["2026-03"].income_tax_detail).toMatchObject({ has_pan: false, annual_tax: "345000.00", tds_to_date: "345000.00" });
    expect(new Set(Object.values(tds[noPan]))).toEqual(new Set([28750]));
  });
});

describe("getTaxProjection after the year", () => {
  it("lists the twelve months paid and the deductions to date", async () => {
    const res = await api(w.hr.agent)
      .op("getTaxProjection", { params: { employeeId: raised }, query: { tax_year: "2025-26" } })
      .expect(200);
    const p = res.body.data!;
    expect(p.months).toHaveLength(12);
    expect(p.months.every((m: { status: string }) => m.status === "paid")).toBe(true);
    expect(p.tds_to_date).toBe("214500.00");
    expect(p.tds_remaining).toBe("0.00");
    expect(p.computation.tax_payable).toBe("214500.00");
    expect(p.comparison.lower).toBe("new");
  });
});
