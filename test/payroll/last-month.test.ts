// A last month paid exactly (salary setups prorated by the days each was
// in force, never a setup starting after the last working day), the settlement rules (no notice
// recovered on death or disablement, the expiry of a fixed-term contract, due dates and interest),
// the reading of continuous service, and the day rate of encashment and notice pay - each with the
// issue's figures, to the paisa, through the API.
import { beforeAll, describe, expect, it } from "vitest";
import { api, type RequestBodyOf } from "../support/api.ts";
import { useTestApp, type AuditChanges } from "../support/app.ts";
import { createType, grant } from "../leave/fixtures.ts";
import { renderPdf } from "../support/pdf.ts";
import { PAYROLL_FIGURES_DAY, useClock } from "../support/clock.ts";
import { memberFor, type PayrollWorld, payrollEmployee, payrollWorld } from "./fixtures.ts";

// the dates below are worked out by hand from this day (Wednesday 25 November 2026)
useClock(PAYROLL_FIGURES_DAY);
const t = useTestApp();
let w: PayrollWorld;
let earnedId: string;
const periodIds: Record<string, string> = {};

beforeAll(async () => {
  w = await payrollWorld(t);
  for (const year of ["2025", "2026"]) {
    const period = await api(w.hr.agent).op("createLeavePeriod", {
      body: { name: year, start_date: `${year}-01-01`, end_date: `${year}-12-31` },
    });
    if (period.status !== 201) throw new Error(JSON.stringify(period.body));
    periodIds[year] = period.body.data.id;
    if (year === "2026")
      await api(w.hr.agent)
        .op("updateLeavePeriod", { params: { id: period.body.data.id }, body: { is_current: true } })
        .expect(200);
  }
  earnedId = (await createType(w.hr.agent, { name: "Earned leave", encashable: true })).id;
});

/** A new salary setup version of the employee from `from` (the standard components). */
async function revise(employeeId: string, from: string, ctc: string) {
  await api(w.hr.agent)
    .op("setEmployeeSalarySetup", {
      params: { employeeId },
      body: { effective_from: from, monthly_ctc: ctc, components: Object.values(w.components).map((component_id) => ({ component_id })) },
    })
    .expect(200);
}

/** The employee's slip of a draft run of the month (the draft is deleted after: one draft per month). */
async function slipOf(employeeId: string, period: string) {
  const run = (
    await api(w.hr.agent)
      .op("createPayrollRun", { body: { period, employee_ids: [employeeId] } })
      .expect(201)
  ).body.data;
  const slip = (
    await api(w.hr.agent)
      .op("getPayrollRunEmployee", { params: { id: run.id, employeeId } })
      .expect(200)
  ).body.data;
  await api(w.hr.agent)
    .op("deletePayrollRun", { params: { id: run.id } })
    .expect(200);
  return slip;
}

async function exitOn(employeeId: string, resignation: string, lastDay: string) {
  await api(w.hr.agent)
    .op("submitResignation", {
      params: { employeeId },
      body: { resignation_date: resignation, last_working_day: lastDay, reason: "Moving on" },
    })
    .expect(201);
}

/** The text of a PDF the agent downloads, read as a person reads it. */
async function pdfText(agent: PayrollWorld["hr"]["agent"], url: string, png: string): Promise<string> {
  const res = await agent
    .get(url)
    .buffer(true)
    .parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on("data", (c: Buffer) => chunks.push(c));
      r.on("end", () => cb(null, Buffer.concat(chunks)));
    })
    .expect(200);
  return (await renderPdf(res.body as Buffer, png)).text;
}

const settle = async (body: RequestBodyOf<"createFinalSettlement">) =>
  (await api(w.hr.agent).op("createFinalSettlement", { body }).expect(201)).body.data;
const resettle = async (id: string, body: Record<string, unknown>) =>
  (await api(w.hr.agent).op("updateFinalSettlement", { params: { id }, body }).expect(200)).body.data;

describe("createPayrollRun, getPayrollRunEmployee, deletePayrollRun, setEmployeeSalarySetup: a salary revised within the month", () => {
  it("a cut from 16 October pays 1-15 October at the old rate: gross 46 903.23, not 44 000 (₹2,903.23 underpaid)", async () => {
    const id = await payrollEmployee(t, w, "50000.00");
    await revise(id, "2026-10-16", "44000.00");
    const slip = await slipOf(id, "2026-10");
    // BASIC 25 000 × 15/31 + 22 000 × 16/31 = 23 451.612…; HRA 10 000 × 15/31 + 8 800 × 16/31 = 9 380.645…;
    // SPECIAL 15 000 × 15/31 + 13 200 × 16/31 = 14 070.967…
    expect(slip.earnings.map((l) => [l.code, l.full_amount, l.amount])).toEqual([
      ["BASIC", "22000.00", "23451.61"],
      ["HRA", "8800.00", "9380.65"],
      ["SPECIAL", "13200.00", "14070.97"],
    ]);
    expect(slip).toMatchObject({ gross: "46903.23", full_month_gross: "44000.00", payable_days: "31.0", lop_days: "0.0" });
    expect((Number(slip.gross) - 44000).toFixed(2)).toBe("2903.23");
    expect(slip.salary_periods).toEqual([
      {
        effective_from: "2024-04-01",
        from: "2026-10-01",
        to: "2026-10-15",
        days: 15,
        lop_days: "0.0",
        payable_days: "15.0",
        monthly_ctc: "50000.00",
        full_month_gross: "50000.00",
        gross: "24193.55", // 50 000 × 15/31
      },
      {
        effective_from: "2026-10-16",
        from: "2026-10-16",
        to: "2026-10-31",
        days: 16,
        lop_days: "0.0",
        payable_days: "16.0",
        monthly_ctc: "44000.00",
        full_month_gross: "44000.00",
        gross: "22709.68", // 44 000 × 16/31
      },
    ]);
    // the PF wage is the month's basic as paid (capped at 15 000): 1 800; November is all at the new rate
    expect(slip.pf).toMatchObject({ wages: "23451.61", employee: "1800.00" });
    // the processed slip and its PDF show what each rate paid
    const me = await memberFor(t, w, id);
    const run = (
      await api(w.hr.agent)
        .op("createPayrollRun", { body: { period: "2026-10", employee_ids: [id] } })
        .expect(201)
    ).body.data;
    await api(w.hr.agent)
      .op("processPayrollRun", { params: { id: run.id } })
      .expect(200);
    const mine = (
      await api(me.agent)
        .op("getMySalarySlip", { params: { draftId: run.id } })
        .expect(200)
    ).body.data;
    expect(mine).toMatchObject({ gross: "46903.23", salary_periods: slip.salary_periods });
    const text = await pdfText(me.agent, `/api/payroll/my-salary/${run.id}/pdf`, "/tmp/payslip-revised.png");
    expect(text).toContain("Salary revised within the month");
    expect(text).toContain("2026-10-01 to 2026-10-15: 15.0 of 15 days at a monthly gross of 50,000.00");
    expect(text).toContain("24,193.55");
    expect(text).toContain("2026-10-16 to 2026-10-31: 16.0 of 16 days at a monthly gross of 44,000.00");
    expect(text).toContain("22,709.68");
    const november = await slipOf(id, "2026-11");
    expect(november).toMatchObject({ gross: "44000.00" });
    expect(november.salary_periods).toBeUndefined();
  });

  it("a raise from 16 August pays the new rate only from the 16th: 53 096.77, not 56 000; loss of pay counts in its own part", async () => {
    const id = await payrollEmployee(t, w, "50000.00");
    await revise(id, "2026-08-16", "56000.00");
    const slip = await slipOf(id, "2026-08");
    // 50 000 × 15/31 + 56 000 × 16/31 = 53 096.774…
    expect(slip.earnings.map((l) => l.amount)).toEqual(["26548.39", "10619.35", "15929.03"]);
    expect(slip.gross).toBe("53096.77");
    expect((56000 - Number(slip.gross)).toFixed(2)).toBe("2903.23");

    // an absence on Tuesday 18 August is lost at the new rate: 50 000 × 15/31 + 56 000 × 15/31 = 51 290.32
    await api(w.hr.agent)
      .op("importAttendance", { body: { records: [{ employee_id: id, date: "2026-08-18", status: "absent" }] } })
      .expect(200);
    const lop = await slipOf(id, "2026-08");
    expect(lop).toMatchObject({ gross: "51290.32", lop_days: "1.0", payable_days: "30.0" });
    expect(lop.salary_periods!.map((p) => [p.from, p.lop_days, p.payable_days, p.gross])).toEqual([
      ["2026-08-01", "0.0", "15.0", "24193.55"],
      ["2026-08-16", "1.0", "15.0", "27096.77"],
    ]);
  });

  it("a revision dated after the last working day is never used: June pays 20 000, gratuity stays ₹1,15,385 (not ₹1,50,000)", async () => {
    // basic 20 000 (CTC 40 000) for 10 years to 15 June 2026; a raise to basic 26 000 dated 20 June
    const id = await payrollEmployee(t, w, "40000.00", { joining_date: "2016-06-16" });
    await revise(id, "2026-06-20", "52000.00");
    await exitOn(id, "2026-05-16", "2026-06-15");
    const slip = await slipOf(id, "2026-06");
    // 1-15 June at 40 000: 40 000 × 15/30
    expect(slip).toMatchObject({ pay_end: "2026-06-15", gross: "20000.00", full_month_gross: "40000.00" });
    expect(slip.salary_periods).toBeUndefined();
    const s = await settle({ employee_id: id });
    expect(s).toMatchObject({
      daily_wage: "769.23", // 20 000 ÷ 26
      salary: { pay_end: "2026-06-15", gross: "20000.00" },
      // 20 000 × 15/26 × 10 = 115 384.6… → 115 385 (on 26 000 it would be 150 000)
      gratuity_detail: { wage: "20000.00", service: { years: 10, months: 0, days: 0 }, counted_years: 10, amount: "115385.00" },
      gratuity: "115385.00",
    });
    expect(s.salary.earnings.map((l) => l.full_amount)).toEqual(["20000.00", "8000.00", "12000.00"]);
  });

  it("a settlement's last month prorates a revision before the last working day, and prices gratuity on the rate last drawn", async () => {
    const id = await payrollEmployee(t, w, "40000.00", { joining_date: "2016-06-16" });
    await revise(id, "2026-06-11", "52000.00");
    await exitOn(id, "2026-05-16", "2026-06-15");
    const s = await settle({ employee_id: id });
    // 40 000 × 10/30 + 52 000 × 5/30 = 13 333.33 + 8 666.67 = 22 000
    expect(s.salary).toMatchObject({ gross: "22000.00", payable_days: "15.0" });
    expect(s.salary.periods?.map((p) => [p.from, p.to, p.gross])).toEqual([
      ["2026-06-01", "2026-06-10", "13333.33"],
      ["2026-06-11", "2026-06-15", "8666.67"],
    ]);
    // the wage last drawn is basic 26 000: 26 000 × 15/26 × 10 = 150 000
    expect(s.gratuity_detail).toMatchObject({ wage: "26000.00", amount: "150000.00" });
    // gratuity due 2026-07-15 and unpaid on 2026-11-25: 150 000 × 10 % × 163 ÷ 365 = 6 698.630… → 6 698.63
    expect(s.dues).toEqual({
      final_wages_due: "2026-06-17", // Monday 15 June + Tue 16, Wed 17
      gratuity_due: "2026-07-15",
      as_of: "2026-11-25",
      paid_on: null,
      gratuity_interest: { rate_percent: "10.00", from: "2026-06-15", to: "2026-11-25", days: 163, amount: "6698.63" },
    });
    expect(s.gratuity_interest).toBe("6698.63");
    expect(s.total_payable).toBe((Number(s.salary_net) + 150000 + 6698.63).toFixed(2));
    const text = await pdfText(w.hr.agent, `/api/payroll/final-settlements/${s.id}/pdf`, "/tmp/final-settlement-revised.png");
    for (const line of [
      "Salary revised within the month",
      "2026-06-01 to 2026-06-10: 10.0 days at a monthly gross of 40,000.00",
      "13,333.33 INR",
      "2026-06-11 to 2026-06-15: 5.0 days at a monthly gross of 52,000.00",
      "8,666.67 INR",
      "Interest on late gratuity: 10.00 % a year, 163 days from 2026-06-15 (s.7(3A))",
      "6,698.63 INR",
      "Final wages due (Code on Wages 2019 s.17(2), two working days): 2026-06-17",
      "Gratuity due (30 days, Payment of Gratuity Act s.7(3)): 2026-07-15",
      "Continuous service: 10 years completed; 5 years of completed service needed (Andhra Pradesh High Court reading: five full years)",
      "Day rate of leave encashment and notice (monthly wage / 26): 1,000.00 INR",
      "Overdue: Final wages were due on 2026-06-17",
    ])
      expect(text).toContain(line);
  });
});

describe("createFinalSettlement, updateFinalSettlement: the settlement rules", () => {
  it("never recovers a notice shortfall on death or disablement: 59 days × 24 000 ÷ 26 = 54 461.54 only on resignation", async () => {
    const id = await payrollEmployee(t, w, "48000.00", { joining_date: "2020-01-06" });
    // served 2026-06-01..2026-07-01 = 31 days of 90
    await exitOn(id, "2026-06-01", "2026-07-01");
    const s = await settle({ employee_id: id, notice_period_days: 90, recover_notice_shortfall: true });
    expect(s.notice).toEqual({ required_days: 90, served_days: 31, shortfall_days: 59, recovered: true, amount: "54461.54", note: null });
    expect(s.notice_recovery).toBe("54461.54");
    for (const separation of ["death", "disablement"]) {
      const d = await resettle(s.id, { separation });
      expect(d.notice).toEqual({
        required_days: 90,
        served_days: 31,
        shortfall_days: 59,
        recovered: false,
        amount: "0.00",
        note: `No notice shortfall is recovered on ${separation} (54461.54 would have been recovered)`,
      });
      expect(d).toMatchObject({ separation, recover_notice_shortfall: true, notice_recovery: "0.00", total_recovery: "0.00" });
      expect(d.net_payable).toBe(d.total_payable);
    }
    const text = await pdfText(w.hr.agent, `/api/payroll/final-settlements/${s.id}/pdf`, "/tmp/final-settlement-disablement.png");
    expect(text).toContain("Notice shortfall (59 of 90 days, waived)");
    expect(text).toContain("No notice shortfall is recovered on disablement (54461.54 would have been recovered)");
    const audit = await t.query<{ changes: AuditChanges }>(
      `SELECT changes FROM audit_logs WHERE entity_id = $1 AND action = 'final_settlement.recalculated' ORDER BY created_at`,
      [s.id],
    );
    expect(audit[0].changes.separation).toEqual({ from: "resignation", to: "death" });
  });

  it("expiry of a fixed-term contract: one year suffices, pro rata 2 years 7 months at 26 000 → 3 × 15 000 = ₹45,000", async () => {
    const id = await payrollEmployee(t, w, "52000.00", { joining_date: "2024-01-01" });
    await exitOn(id, "2026-07-01", "2026-07-31");
    const resigned = await settle({ employee_id: id });
    expect(resigned.gratuity_detail).toMatchObject({
      eligible: false,
      amount: "0.00",
      reason: "2 years of completed service; gratuity needs 5 years",
      continuous_service: { rule: "five_full_years", decided_by: "completed_years", minimum_years: 5, fifth_year: null },
    });
    const expiry = await resettle(resigned.id, { separation: "fixed_term_expiry" });
    expect(expiry).toMatchObject({
      separation: "fixed_term_expiry",
      gratuity: "45000.00",
      gratuity_detail: {
        eligible: true,
        service: { years: 2, months: 7, days: 0 },
        counted_years: 3,
        wage: "26000.00",
        amount: "45000.00",
        continuous_service: { decided_by: "fixed_term_minimum", minimum_years: 1 },
      },
    });
    expect(expiry.gratuity_detail.continuous_service!.explanation).toContain("s.53(1)(d)");
    // under a year of a fixed term pays none
    const short = await payrollEmployee(t, w, "52000.00", { joining_date: "2025-10-01" });
    await exitOn(short, "2026-07-01", "2026-07-31");
    const s2 = await settle({ employee_id: short, separation: "fixed_term_expiry" });
    expect(s2.gratuity_detail).toMatchObject({
      eligible: false,
      amount: "0.00",
      reason: "0 years of completed service; gratuity needs 1 year",
    });
  });

  it("due dates: final wages two working days after a Friday are due on Tuesday; gratuity not yet due pays no interest", async () => {
    // joined 2016-11-01, last day Friday 13 November 2026, read on Wednesday 25 November
    const id = await payrollEmployee(t, w, "50000.00", { joining_date: "2016-11-01" });
    await exitOn(id, "2026-10-14", "2026-11-13");
    const s = await settle({ employee_id: id });
    expect(s.dues).toEqual({
      final_wages_due: "2026-11-17", // Mon 16, Tue 17 (Saturday and Sunday are weekly offs)
      gratuity_due: "2026-12-13",
      as_of: "2026-11-25",
      paid_on: null,
      gratuity_interest: null,
    });
    expect(s.gratuity_interest).toBe("0.00");
    expect(s.warnings).toEqual([
      "Final wages were due on 2026-11-17 (within two working days of the separation, Code on Wages 2019 s.17(2)): 8 days overdue",
    ]);
    // 10 years: 25 000 × 15/26 × 10 = 144 230.77 → 144 231; net = salary + gratuity, no interest
    expect(s.gratuity).toBe("144231.00");
    expect(s.total_payable).toBe((Number(s.salary_net) + 144231).toFixed(2));
    const listed = (
      await api(w.hr.agent)
        .op("listFinalSettlements", { query: { employee_id: id } })
        .expect(200)
    ).body.data;
    expect(listed[0].warnings).toEqual(s.warnings);
    const done = (
      await api(w.hr.agent)
        .op("processFinalSettlement", { params: { id: s.id } })
        .expect(200)
    ).body.data;
    expect(done).toMatchObject({ status: "processed", warnings: [], dues: { paid_on: "2026-11-25", gratuity_interest: null } });
  });
});

describe("getGratuitySettings, updateGratuitySettings, createFinalSettlement: the reading of continuous service", () => {
  it("4 years 8 months 27 days: none under five full years; under the Madras reading 195 days worked of 190 count as five", async () => {
    // joined 2021-06-01, last day Friday 27 February 2026; the fifth year 2025-06-01..2026-02-27 has
    // 195 working days (Saturday and Sunday off: a five-day week needs 190)
    const id = await payrollEmployee(t, w, "50000.00", { joining_date: "2021-06-01" });
    await exitOn(id, "2026-02-01", "2026-02-27");
    const settings = (await api(w.hr.agent).op("getGratuitySettings").expect(200)).body.data;
    expect(settings.continuous_service_rule).toBe("five_full_years");
    const strict = await settle({ employee_id: id });
    expect(strict.gratuity_detail).toMatchObject({
      eligible: false,
      service: { years: 4, months: 8, days: 27 },
      reason: "4 years of completed service; gratuity needs 5 years",
      continuous_service: { rule: "five_full_years", decided_by: "completed_years", fifth_year: null },
    });

    await api(w.owner.agent)
      .op("updateGratuitySettings", { body: { continuous_service_rule: "four_years_240_days" } })
      .expect(200);
    const madras = await resettle(strict.id, {});
    // 25 000 × 15/26 × 5 = 72 115.38… → 72 115
    expect(madras.gratuity_detail).toMatchObject({
      eligible: true,
      counted_years: 5,
      amount: "72115.00",
      continuous_service: {
        rule: "four_years_240_days",
        decided_by: "fifth_year_days",
        minimum_years: 5,
        fifth_year: { from: "2025-06-01", to: "2026-02-27", working_days: 195, lost_days: "0.0", days_worked: "195.0", required_days: 190 },
      },
    });
    expect(madras.gratuity_detail.continuous_service!.explanation).toBe(
      "4 completed years and 195.0 days actually worked in the fifth (at least 190) count as 5 years (Madras High Court reading)",
    );

    // six days absent in February: 189 days worked, fewer than 190
    await w.hr.agent
      .post("/api/attendance/import")
      .send({
        records: ["2026-02-16", "2026-02-17", "2026-02-18", "2026-02-19", "2026-02-20", "2026-02-23"].map((date) => ({
          employee_id: id,
          date,
          status: "absent",
        })),
      })
      .expect(200);
    const short = await resettle(strict.id, {});
    expect(short.gratuity_detail).toMatchObject({
      eligible: false,
      amount: "0.00",
      reason: "4 years of completed service and 189.0 days worked in the fifth year (190 needed); gratuity needs 5 years",
      continuous_service: { fifth_year: { working_days: 195, lost_days: "6.0", days_worked: "189.0" } },
    });
    const log = await api(w.owner.agent)
      .op("listActivityLog", { query: { action: "settings.gratuity_updated" } })
      .expect(200);
    expect(log.body.data[0].changes).toEqual({ continuous_service_rule: { from: "five_full_years", to: "four_years_240_days" } });
    await api(w.owner.agent)
      .op("updateGratuitySettings", { body: { continuous_service_rule: "five_full_years" } })
      .expect(200);
  });
});

describe("updateWageSettings, createFinalSettlement, createPayrollRun: the day rate of encashment and notice pay", () => {
  it("10 days of leave and 15 days of notice on gross 50 000 (basic 25 000): wage ÷ 26 by default, else by the settings", async () => {
    const id = await payrollEmployee(t, w, "50000.00", { joining_date: "2018-01-01" });
    await grant(w.hr.agent, id, earnedId, "10");
    // last day 15 July 2026 (31 days); 45 days served of 60
    await exitOn(id, "2026-06-01", "2026-07-15");
    const s = await settle({ employee_id: id, notice_period_days: 60, recover_notice_shortfall: true });
    const figures = (x: Awaited<ReturnType<typeof settle>>) => [
      x.day_rate,
      x.daily_wage,
      x.leave_encashment,
      x.notice_recovery,
      x.gratuity,
    ];
    // 10 × 25 000 ÷ 26 = 9 615.38; 15 × 25 000 ÷ 26 = 14 423.08; gratuity 25 000 × 15/26 × 9 = 129 808
    expect(figures(s)).toEqual([
      { basis: "wage", divisor: "26", divisor_days: 26, monthly: "25000.00", daily: "961.54" },
      "961.54",
      "9615.38",
      "14423.08",
      "129808.00",
    ]);
    const set = (body: Record<string, unknown>) => api(w.owner.agent).op("updateWageSettings", { body }).expect(200);

    await set({ encashment_basis: "gross", encashment_divisor: "30" });
    // 10 × 50 000 ÷ 30 = 16 666.666… → 16 666.67; 15 × 50 000 ÷ 30 = 25 000; gratuity unchanged (15/26 of the wage)
    expect(figures(await resettle(s.id, {}))).toEqual([
      { basis: "gross", divisor: "30", divisor_days: 30, monthly: "50000.00", daily: "1666.67" },
      "1666.67",
      "16666.67",
      "25000.00",
      "129808.00",
    ]);
    await set({ encashment_divisor: "month_days" });
    // ÷ 31 days of July: 10 × 50 000 ÷ 31 = 16 129.03; 15 × 50 000 ÷ 31 = 24 193.548… → 24 193.55
    expect(figures(await resettle(s.id, {}))).toEqual([
      { basis: "gross", divisor: "month_days", divisor_days: 31, monthly: "50000.00", daily: "1612.90" },
      "1612.90",
      "16129.03",
      "24193.55",
      "129808.00",
    ]);
    await set({ encashment_basis: "wage", encashment_divisor: "30" });
    // 10 × 25 000 ÷ 30 = 8 333.33; 15 × 25 000 ÷ 30 = 12 500
    expect(figures(await resettle(s.id, {})).slice(2, 4)).toEqual(["8333.33", "12500.00"]);
    const log = await api(w.owner.agent)
      .op("listActivityLog", { query: { action: "settings.wages_updated" } })
      .expect(200);
    expect(log.body.data[0].changes).toEqual({
      encashment_basis: { from: "gross", to: "wage" },
      encashment_divisor: { from: "month_days", to: "30" },
    });

    // a payroll run prices an approved encashment by the same rule: 2.5 days of gross 50 000 ÷ 31 days of May 2027 = 4 032.26
    await set({ encashment_basis: "gross", encashment_divisor: "month_days" });
    const other = await payrollEmployee(t, w, "50000.00");
    await grant(w.hr.agent, other, earnedId, "2.5");
    const x = (
      await api(w.hr.agent)
        .op("createLeaveEncashment", { body: { employee_id: other, leave_type_id: earnedId, days: "2.5" } })
        .expect(201)
    ).body.data;
    await api(w.hr.agent)
      .op("updateLeaveEncashment", { params: { id: x.id }, body: { status: "approved" } })
      .expect(200);
    const slip = await slipOf(other, "2027-05");
    expect(slip.encashments).toEqual([{ encashment_id: x.id, leave_type: "Earned leave", days: "2.5", amount: "4032.26" }]);
    expect(slip.encashment_rate).toEqual({
      basis: "gross",
      divisor: "month_days",
      divisor_days: 31,
      monthly: "50000.00",
      daily: "1612.90",
    });
    // processed, the employee's PDF shows the encashment and its rate
    const run = (
      await api(w.hr.agent)
        .op("createPayrollRun", { body: { period: "2027-05", employee_ids: [other] } })
        .expect(201)
    ).body.data;
    await api(w.hr.agent)
      .op("processPayrollRun", { params: { id: run.id } })
      .expect(200);
    const me = await memberFor(t, w, other);
    const text = await pdfText(me.agent, `/api/payroll/my-salary/${run.id}/pdf`, "/tmp/payslip-encashment-rate.png");
    expect(text).toContain("Leave encashment: 2.5 days Earned leave");
    expect(text).toContain("4,032.26");
    expect(text).toContain("Encashment day rate: full-month gross 50,000.00 / 31 = 1,612.90 a day");
    // back to the default: the processed encashment and slip keep their price; a new one is paid at 2.5 × 25 000 ÷ 26 = 2 403.85
    await set({ encashment_basis: "wage", encashment_divisor: "26" });
    expect(
      (
        await api(w.hr.agent)
          .op("getLeaveEncashment", { params: { id: x.id } })
          .expect(200)
      ).body.data.amount,
    ).toBe("4032.26");
    expect(
      (
        await api(me.agent)
          .op("getMySalarySlip", { params: { draftId: run.id } })
          .expect(200)
      ).body.data.leave_encashment,
    ).toBe("4032.26");
    const third = await payrollEmployee(t, w, "50000.00");
    await grant(w.hr.agent, third, earnedId, "2.5");
    const z = (
      await api(w.hr.agent)
        .op("createLeaveEncashment", { body: { employee_id: third, leave_type_id: earnedId, days: "2.5" } })
        .expect(201)
    ).body.data;
    await api(w.hr.agent)
      .op("updateLeaveEncashment", { params: { id: z.id }, body: { status: "approved" } })
      .expect(200);
    expect((await slipOf(third, "2027-06")).encashments[0].amount).toBe("2403.85");
  });
});

describe("createLeaveType, createLeaveAllocations, createPayrollRun: OSH Code s.32 carry-forward capped at 30, the excess encashed", () => {
  it("40 days unused in 2025: 30 carried into 2026, 10 encashed at the close of 2025 and paid by the next run (9 615.38)", async () => {
    const refused = await api(w.hr.agent).op("createLeaveType", {
      body: { name: "Annual leave (no encashment)", code: "ALX", carry_forward: true, encash_carry_forward_excess: true },
    });
    expect(refused.status).toBe(400);
    const osh = await createType(w.hr.agent, {
      name: "Annual leave (OSH Code)",
      carry_forward: true,
      encashable: true,
      encash_carry_forward_excess: true,
    });
    expect(osh).toMatchObject({ encash_carry_forward_excess: true, carry_forward_max_days: null });
    const id = await payrollEmployee(t, w, "50000.00");
    await api(w.hr.agent)
      .op("createLeaveAllocations", { body: { employee_id: id, leave_type_id: osh.id, days: "40", period_id: periodIds["2025"] } })
      .expect(201);
    // closing 2025: the 2026 allocation carries 30 (the cap) and encashes the other 10
    const made = (
      await api(w.hr.agent)
        .op("createLeaveAllocations", { body: { employee_id: id, leave_type_id: osh.id, days: "12", period_id: periodIds["2026"] } })
        .expect(201)
    ).body.data;
    expect(made.created_count).toBe(1);
    const encashments = (
      await api(w.hr.agent)
        .op("listLeaveEncashments", { query: { employee_id: id } })
        .expect(200)
    ).body.data;
    expect(encashments).toHaveLength(1);
    expect(encashments[0]).toMatchObject({
      leave_type_id: osh.id,
      period_id: periodIds["2025"],
      days: "10.0",
      status: "approved",
      amount: null,
    });
    const balances = (
      await api(w.hr.agent)
        .op("listLeaveBalances", { query: { employee_id: id } })
        .expect(200)
    ).body.data;
    // 2026 (the current period): 12 allocated + 30 carried; 2025 closes with nothing left (40 − 30 carried − 10 encashed)
    expect(balances.find((b) => b.leave_type_id === osh.id)).toMatchObject({ allocated: "12.0", carried: "30.0", available: "42.0" });
    const closed = (
      await api(w.hr.agent)
        .op("listLeaveBalances", { query: { employee_id: id, period_id: periodIds["2025"] } })
        .expect(200)
    ).body.data;
    expect(closed.find((b) => b.leave_type_id === osh.id)).toMatchObject({ carried: "-30.0", encashed: "10.0", available: "0.0" });
    const audited = await t.query(
      `SELECT changes FROM audit_logs WHERE entity_id = $1 AND action = 'leave_encashment.carry_forward_excess'`,
      [encashments[0].id],
    );
    expect(audited[0].changes).toMatchObject({ employee_id: id, days: "10.0", period: "2025", status: "approved" });
    // the next payroll run pays it at the day rate: 10 × 25 000 ÷ 26 = 9 615.38
    const slip = await slipOf(id, "2026-12");
    expect(slip.encashments).toEqual([
      { encashment_id: encashments[0].id, leave_type: "Annual leave (OSH Code)", days: "10.0", amount: "9615.38" },
    ]);
    expect(slip).toMatchObject({ gross: "50000.00", leave_encashment: "9615.38" });
  });
});
