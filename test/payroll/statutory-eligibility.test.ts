// EPS eligibility derived from the joining date and the PF wages at joining (Employees' Pension
// Scheme 1995 as amended from 1 Sep 2014), and ESI coverage decided by the wage at the start of the
// contribution period (1 Apr-30 Sep, 1 Oct-31 Mar: coverage holds for the period) - through the
// API, on a tenant whose first-ever run is the month under test.
import { beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../support/app.ts";
import { payrollEmployee, payrollWorld, type PayrollWorld } from "./fixtures.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
let w: PayrollWorld;

/** A salary setup version with the standard components from `effective_from`. */
async function setup(employeeId: string, effective_from: string, monthly_ctc: string, o: Record<string, unknown> = {}) {
  const res = await api(w.hr.agent).op("setEmployeeSalarySetup", {
    params: { employeeId },
    body: { effective_from, monthly_ctc, components: Object.values(w.components).map((component_id) => ({ component_id })), ...o },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}
const slip = async (runId: string, employeeId: string) =>
  (
    await api(w.hr.agent)
      .op("getPayrollRunEmployee", { params: { id: runId, employeeId } })
      .expect(200)
  ).body.data;
const run = async (period: string) => (await api(w.hr.agent).op("createPayrollRun", { body: { period } }).expect(201)).body.data;

beforeAll(async () => {
  w = await payrollWorld(t);
});

describe("setEmployeeSalarySetup, createPayrollRun, getPayrollRunEmployee: EPS eligibility is derived", () => {
  let joined2015: string, joined2013: string, existing: string, old: string, runId: string;

  beforeAll(async () => {
    // PF wages = BASIC = CTC × 0.5: 16 000 at joining (CTC 32 000), 20 000 in 2027 (CTC 40 000)
    joined2015 = await payrollEmployee(t, w, null, { employee_code: "E-2015", joining_date: "2015-06-01" });
    joined2013 = await payrollEmployee(t, w, null, { employee_code: "E-2013", joining_date: "2013-06-01" });
    existing = await payrollEmployee(t, w, null, { employee_code: "E-UAN", joining_date: "2015-06-01" });
    old = await payrollEmployee(t, w, null, { employee_code: "E-58", joining_date: "2013-06-01", date_of_birth: "1968-12-01" });
    for (const id of [joined2015, joined2013, existing, old]) {
      const first = await setup(id, id === joined2015 || id === existing ? "2015-06-01" : "2013-06-01", "32000.00", {
        ...(id === existing ? { existing_eps_member: true } : {}),
      });
      expect(first.current.existing_eps_member).toBe(id === existing);
      // a later version that does not mention the flag keeps it
      const later = await setup(id, "2024-04-01", "40000.00");
      expect(later.current.existing_eps_member).toBe(id === existing);
    }
    runId = (await run("2027-02")).id;
  });

  it("joined 2015 on PF wages of 16 000: the employer's 3.67 % + 8.33 % all go to EPF", async () => {
    const s = await slip(runId, joined2015);
    expect(s.pf).toMatchObject({
      base: "15000.00",
      employee: "1800.00",
      employer_total: "1800.00",
      employer_eps: "0.00",
      employer_epf: "1800.00",
      eps_applicable: false,
      eps_exclusion: "joined_above_wage_ceiling",
    });
  });

  it("joined 2013 on the same wages, or an existing EPS member joining in 2015: the normal split", async () => {
    for (const id of [joined2013, existing])
      expect((await slip(runId, id)).pf).toMatchObject({
        employer_total: "1800.00",
        employer_eps: "1250.00",
        employer_epf: "550.00",
        eps_applicable: true,
        eps_exclusion: null,
      });
  });

  it("58 on 1 December 2026: no EPS in February 2027", async () => {
    expect((await slip(runId, old)).pf).toMatchObject({ employer_eps: "0.00", employer_epf: "1800.00", eps_exclusion: "age_limit" });
    const totals = (
      await api(w.hr.agent)
        .op("getPayrollRunBreakdown", { params: { id: runId } })
        .expect(200)
    ).body.data.totals;
    expect(totals.pf).toMatchObject({ members: 4, employer_eps: "2500.00", employer_epf: "4700.00" });
  });
});

describe("createPayrollRun, getPayrollRunEmployee: ESI coverage follows the contribution period", () => {
  let raised: string, joiner: string, above: string;

  beforeAll(async () => {
    // ESI wages = gross = CTC (every component is ESI-applicable by default)
    raised = await payrollEmployee(t, w, null, { employee_code: "S-RAISE", joining_date: "2020-01-06" });
    await setup(raised, "2024-04-01", "20000.00");
    await setup(raised, "2027-06-01", "25000.00");
    joiner = await payrollEmployee(t, w, null, { employee_code: "S-JOIN", joining_date: "2027-05-10" });
    await setup(joiner, "2027-05-10", "21000.00");
    await setup(joiner, "2027-07-01", "24000.00");
    above = await payrollEmployee(t, w, null, { employee_code: "S-ABOVE", joining_date: "2020-01-06" });
    await setup(above, "2024-04-01", "22000.00");
    await setup(above, "2027-05-01", "20000.00");
  });

  it("the tenant's first run of the period is July: covered since April on 20 000, paid on the full 25 000", async () => {
    const july = await run("2027-07");
    expect((await slip(july.id, raised)).esi).toMatchObject({
      covered: true,
      wages: "25000.00",
      employee: "188.00", // 187.50 rounded up
      employer: "813.00", // 812.50 rounded up
      period_start_wages: "20000.00",
    });
    // joined in May on 21 000 (the threshold itself): covered to September though now on 24 000
    expect((await slip(july.id, joiner)).esi).toMatchObject({ covered: true, wages: "24000.00", employee: "180.00", employer: "780.00" });
    // above the threshold on 1 April: not covered in this period although the wage fell in May
    expect((await slip(july.id, above)).esi).toMatchObject({ covered: false, employee: "0.00", employer: "0.00" });
    const sept = await run("2027-09");
    expect((await slip(sept.id, raised)).esi).toMatchObject({ covered: true, employee: "188.00", employer: "813.00" });
  });

  it("October starts a new period on 25 000: not covered; the one whose wage fell is covered from then", async () => {
    const oct = await run("2027-10");
    expect((await slip(oct.id, raised)).esi).toMatchObject({
      covered: false,
      employee: "0.00",
      employer: "0.00",
      period_start_wages: "25000.00",
    });
    expect((await slip(oct.id, joiner)).esi).toMatchObject({ covered: false });
    expect((await slip(oct.id, above)).esi).toMatchObject({ covered: true, wages: "20000.00", employee: "150.00", employer: "650.00" });
  });
});
