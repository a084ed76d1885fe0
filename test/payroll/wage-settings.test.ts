// The labour codes' single definition of "wages" through the API: the wage settings (dates and the
// 50 % limit), each component's wage class, the code's wage on the slip (PF ₹840 on basic 6 000 +
// HRA 6 000 + conveyance 2 000) and on the final settlement (gratuity ₹1,44,231 on basic 20 000 +
// HRA 22 000 + conveyance 8 000 for 10 years; ₹1,15,385 under the pre-code rule before
// 21 November 2025), and processed runs and settlements keeping their figures.
import { beforeAll, describe, expect, it } from "vitest";
import { addMember, expectError, type TenantSession, useTestApp } from "../support/app.ts";
import { PAYROLL_FIGURES_DAY, useClock } from "../support/clock.ts";
import { insertEmployee } from "../leave/fixtures.ts";
import { find, renderPdf, type RenderedPdf } from "../support/pdf.ts";
import { payslipPdf } from "../../src/modules/payroll/payslip-pdf.ts";
import { api } from "../support/api.ts";
import { createComponents, payrollCompany } from "./fixtures.ts";

// the months and exits below are worked out by hand from this day (runs of 2027, exits in 2025)
useClock(PAYROLL_FIGURES_DAY);
const t = useTestApp();
let owner: TenantSession;
let hr: TenantSession;
const ids: Record<string, string> = {};

beforeAll(async () => {
  ({ owner, hr } = await payrollCompany(t));
  Object.assign(
    ids,
    await createComponents(hr, [
      { name: "Basic", code: "BASIC", type: "earning", calculation: "fixed", amount: "0.00", pf_wage: true, position: 1 },
      { name: "House rent allowance", code: "HRA", type: "earning", calculation: "fixed", amount: "0.00", position: 2 },
      { name: "Conveyance allowance", code: "CONV", type: "earning", calculation: "fixed", amount: "0.00", position: 3 },
    ]),
  );
});

/** An employee paid basic + HRA + conveyance (fixed amounts) from 2024-04-01. */
async function employee(basic: string, hra: string, conv: string, joining = "2020-01-06"): Promise<string> {
  const id = await insertEmployee(t, owner.tenantId, { gender: "male", joining_date: joining, date_of_birth: "1990-05-05" });
  await api(hr.agent)
    .op("setEmployeeSalarySetup", {
      params: { employeeId: id },
      body: {
        effective_from: "2024-04-01",
        monthly_ctc: null,
        pt_enabled: false,
        components: [
          { component_id: ids.BASIC, amount: basic },
          { component_id: ids.HRA, amount: hra },
          { component_id: ids.CONV, amount: conv },
        ],
      },
    })
    .expect(200);
  return id;
}

async function slipOf(period: string, employeeId: string) {
  const run = (
    await api(hr.agent)
      .op("createPayrollRun", { body: { period, employee_ids: [employeeId] } })
      .expect(201)
  ).body.data;
  const slip = (
    await api(hr.agent)
      .op("getPayrollRunEmployee", { params: { id: run.id, employeeId } })
      .expect(200)
  ).body.data;
  return { run, slip };
}

/** Texts on one line (within 2 points), left to right. */
const sameLine = (r: RenderedPdf, a: { y: number; page: number }) =>
  r.items
    .filter((i) => i.page === a.page && Math.abs(i.y - a.y) < 2)
    .sort((p, q) => p.x - q.x)
    .map((i) => i.str);

async function settlementPdfText(id: string): Promise<string> {
  const pdf = await hr.agent
    .get(`/api/payroll/final-settlements/${id}/pdf`)
    .buffer(true)
    .parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on("data", (c: Buffer) => chunks.push(c));
      r.on("end", () => cb(null, Buffer.concat(chunks)));
    })
    .expect(200);
  return (await renderPdf(pdf.body as Buffer, `/tmp/final-settlement-wages-${id.slice(0, 8)}.png`)).text;
}

async function settlementOf(employeeId: string, lastDay: string) {
  await api(hr.agent)
    .op("submitResignation", {
      params: { employeeId },
      body: { resignation_date: lastDay, last_working_day: lastDay, reason: "Moving on" },
    })
    .expect(201);
  return (
    await api(hr.agent)
      .op("createFinalSettlement", { body: { employee_id: employeeId } })
      .expect(201)
  ).body.data;
}

describe("getWageSettings, updateWageSettings: the labour codes' wage settings", () => {
  it("serves the statutory dates and limit, updates partially with an audit entry, and refuses what is not a date or a share", async () => {
    const defaults = (await api(hr.agent).op("getWageSettings").expect(200)).body.data;
    expect(defaults).toEqual({
      code_wages_from: "2025-11-21",
      pf_code_wages_from: "2026-06-29",
      exclusion_limit_percent: "50.00",
      // the day rate of encashment and notice pay: today's behaviour (wage ÷ 26) by default
      encashment_basis: "wage",
      encashment_divisor: "26",
      updated_at: null,
      version: expect.any(String),
    });
    const changed = (
      await api(owner.agent)
        .op("updateWageSettings", { body: { code_wages_from: "2026-01-01" } })
        .expect(200)
    ).body.data;
    expect(changed).toMatchObject({ code_wages_from: "2026-01-01", pf_code_wages_from: "2026-06-29", exclusion_limit_percent: "50.00" });
    expect(changed.updated_at).not.toBeNull();
    const log = await api(owner.agent)
      .op("listActivityLog", { query: { action: "settings.wages_updated" } })
      .expect(200);
    expect(log.body.data[0].changes).toEqual({ code_wages_from: { from: "2025-11-21", to: "2026-01-01" } });

    for (const bad of [
      { exclusion_limit_percent: "100.01" },
      { code_wages_from: "2025-02-30" },
      { pf_code_wages_from: "29-06-2026" },
      { code_wages_from: null },
      { basic_only: true },
      {},
    ])
      expectError(await owner.agent.post("/api/configuration/payroll/wage-settings").send(bad), 400, "validation_failed");
    const manager = await addMember(t, owner, "manager");
    expectError(await api(manager.agent).op("getWageSettings"), 403, "forbidden");
    expectError(await api(manager.agent).op("updateWageSettings", { body: { exclusion_limit_percent: "40" } }), 403, "forbidden");

    // back to the statutory date
    await api(owner.agent)
      .op("updateWageSettings", { body: { code_wages_from: "2025-11-21" } })
      .expect(200);
    expect((await api(hr.agent).op("getWageSettings").expect(200)).body.data.code_wages_from).toBe("2025-11-21");
  });
});

describe("createSalaryComponent, getSalaryComponent, updateSalaryComponent, listSalaryComponents: wage class", () => {
  it("classifies by default from pf_wage and type, takes an explicit class, changes it with an audit entry", async () => {
    const list = (await api(hr.agent).op("listSalaryComponents").expect(200)).body.data;
    expect(list.map((c) => [c.code, c.pf_wage, c.wage_class])).toEqual([
      ["BASIC", true, "wages"],
      ["HRA", false, "excluded"],
      ["CONV", false, "excluded"],
    ]);
    const canteen = (
      await api(hr.agent)
        .op("createSalaryComponent", {
          body: { name: "Canteen", code: "CANTEEN", type: "deduction", calculation: "fixed", amount: "100.00", position: 9 },
        })
        .expect(201)
    ).body.data;
    expect(canteen.wage_class).toBe("outside_remuneration");
    const grat = (
      await api(hr.agent)
        .op("createSalaryComponent", {
          body: {
            name: "Gratuity (CTC)",
            code: "GRATCTC",
            type: "earning",
            calculation: "fixed",
            amount: "0.00",
            wage_class: "gratuity_retrenchment",
            position: 8,
            active: false,
          },
        })
        .expect(201)
    ).body.data;
    expect(grat.wage_class).toBe("gratuity_retrenchment");
    expectError(
      await hr.agent
        .post("/api/payroll/salary-components")
        .send({ name: "Bad", code: "BAD", type: "earning", calculation: "fixed", amount: "1.00", wage_class: "basic" }),
      400,
      "validation_failed",
    );
    const updated = (
      await api(hr.agent)
        .op("updateSalaryComponent", { params: { id: grat.id }, body: { wage_class: "outside_remuneration" } })
        .expect(200)
    ).body.data;
    expect(updated).toMatchObject({ wage_class: "outside_remuneration", pf_wage: false });
    expect(
      (
        await api(hr.agent)
          .op("getSalaryComponent", { params: { id: grat.id } })
          .expect(200)
      ).body.data.wage_class,
    ).toBe("outside_remuneration");
    const log = await api(owner.agent)
      .op("listActivityLog", { query: { entity_id: grat.id } })
      .expect(200);
    expect(log.body.data.map((e) => e.changes?.wage_class)).toContainEqual({
      from: "gratuity_retrenchment",
      to: "outside_remuneration",
    });
    await api(hr.agent)
      .op("deleteSalaryComponent", { params: { id: grat.id } })
      .expect(200);
    await api(hr.agent)
      .op("deleteSalaryComponent", { params: { id: canteen.id } })
      .expect(200);
  });
});

describe("createPayrollRun, getPayrollRunEmployee, processPayrollRun, updateWageSettings: the code's wage on the slip", () => {
  it("basic 6 000 + HRA 6 000 + conveyance 2 000: PF wage 7 000, employee PF 840; processed slips keep their figures", async () => {
    const id = await employee("6000.00", "6000.00", "2000.00");
    const { run, slip } = await slipOf("2027-01", id);
    expect(slip.code_wages).toEqual({
      rule: "code",
      pf_rule: "code",
      note: null,
      code_wages_from: "2025-11-21",
      pf_code_wages_from: "2026-06-29",
      exclusion_limit_percent: "50.00",
      month: {
        wages: "6000.00",
        exclusions: "8000.00",
        gratuity_retrenchment: "0.00",
        outside_remuneration: "0.00",
        total_remuneration: "14000.00",
        exclusion_limit: "7000.00",
        add_back: "1000.00",
        wage: "7000.00",
      },
      full_month: {
        wages: "6000.00",
        exclusions: "8000.00",
        gratuity_retrenchment: "0.00",
        outside_remuneration: "0.00",
        total_remuneration: "14000.00",
        exclusion_limit: "7000.00",
        add_back: "1000.00",
        wage: "7000.00",
      },
      day_wage: "7000.00",
    });
    // 12 % of 7 000 = 840 (on basic alone, 720); employer: EPS 8.33 % of 7 000 = 583.10 → 583, EPF 257
    expect(slip).toMatchObject({ gross: "14000.00", pf_employee: "840.00" });
    expect(slip.pf).toMatchObject({
      wages: "7000.00",
      base: "7000.00",
      employee: "840.00",
      employer_eps: "583.00",
      employer_epf: "257.00",
    });
    expect(run.totals!.pf).toMatchObject({ members: 1, wages: "7000.00", employee: "840.00" });

    await api(hr.agent)
      .op("processPayrollRun", { params: { id: run.id } })
      .expect(200);
    // the company moves the PF switch: the processed slip keeps its figures, the next run uses the new date
    await api(owner.agent)
      .op("updateWageSettings", { body: { pf_code_wages_from: "2027-06-01" } })
      .expect(200);
    // by hand: the slip goes to the PDF renderer, whose input type is the server's, not the document's
    const kept = (await hr.agent.get(`/api/payroll/draft-runs/${run.id}/employees/${id}`).expect(200)).body.data;
    expect(kept).toMatchObject({ pf_employee: "840.00", pf: { wages: "7000.00" }, code_wages: { pf_rule: "code" } });
    // the payslip shows wages, exclusions and the add-back, still on one page
    const r = await renderPdf(
      await payslipPdf({ name: "Acme", address: null, currency: "INR" }, kept, null),
      "/tmp/payslip-code-wages.png",
    );
    expect(r.pages).toBe(1);
    const title = find(r, "Wages under the labour codes (Code on Wages 2019 s.2(y))");
    expect(title.y).toBeGreaterThan(find(r, "Net pay").y);
    expect(sameLine(r, find(r, "Wages (basic pay, dearness allowance, retaining allowance)"))[1]).toBe("6,000.00");
    expect(sameLine(r, find(r, "Exclusions (allowances and other payments of s.2(y)(a)-(i))"))[1]).toBe("8,000.00");
    expect(sameLine(r, find(r, "Total remuneration"))[1]).toBe("14,000.00");
    expect(sameLine(r, find(r, "Limit: 50.00 % of the total remuneration"))[1]).toBe("7,000.00");
    expect(sameLine(r, find(r, "Exclusions above the limit, added back to wages"))[1]).toBe("1,000.00");
    expect(sameLine(r, find(r, "Wage under the labour codes"))[1]).toBe("7,000.00");
    expect(r.text).toContain("Used for: provident fund, leave encashment (at the full month's wage, 7,000.00).");
    const feb = (await slipOf("2027-02", id)).slip;
    expect(feb.code_wages).toMatchObject({
      rule: "code",
      pf_rule: "epf_act",
      pf_code_wages_from: "2027-06-01",
      month: { wage: "7000.00" },
    });
    expect(feb).toMatchObject({ pf_employee: "720.00", pf: { wages: "6000.00" } });
    await api(owner.agent)
      .op("updateWageSettings", { body: { pf_code_wages_from: "2026-06-29" } })
      .expect(200);
  });

  it("₹76 000 = 20 000 basic, 40 000 allowances, 16 000 gratuity and retrenchment provision: the slip's wage is ₹22 000", async () => {
    const gr = (
      await api(hr.agent)
        .op("createSalaryComponent", {
          body: {
            name: "Gratuity and retrenchment provision",
            code: "GRATRET",
            type: "earning",
            calculation: "fixed",
            amount: "0.00",
            wage_class: "gratuity_retrenchment",
            position: 4,
          },
        })
        .expect(201)
    ).body.data;
    const id = await insertEmployee(t, owner.tenantId, { gender: "male", joining_date: "2020-01-06", date_of_birth: "1990-05-05" });
    await api(hr.agent)
      .op("setEmployeeSalarySetup", {
        params: { employeeId: id },
        body: {
          effective_from: "2024-04-01",
          pt_enabled: false,
          components: [
            { component_id: ids.BASIC, amount: "20000.00" },
            { component_id: ids.HRA, amount: "24000.00" },
            { component_id: ids.CONV, amount: "16000.00" },
            { component_id: gr.id, amount: "16000.00" },
          ],
        },
      })
      .expect(200);
    const { slip } = await slipOf("2027-04", id);
    // all remuneration 76 000, half 38 000; the allowances of clauses (a)-(i), 40 000, exceed it by 2 000
    expect(slip.code_wages!.month).toEqual({
      wages: "20000.00",
      exclusions: "40000.00",
      gratuity_retrenchment: "16000.00",
      outside_remuneration: "0.00",
      total_remuneration: "76000.00",
      exclusion_limit: "38000.00",
      add_back: "2000.00",
      wage: "22000.00",
    });
    expect(slip.code_wages!.day_wage).toBe("22000.00");
    expect(slip).toMatchObject({ gross: "76000.00", pf: { wages: "22000.00", base: "15000.00", employee: "1800.00" } });
  });

  it("a slip calculated before slips showed the code's wage is answered without it", async () => {
    const id = await employee("6000.00", "6000.00", "2000.00");
    const { run } = await slipOf("2027-03", id);
    await t.query(`UPDATE payroll_slips SET details = details - 'code_wages' WHERE run_id = $1`, [run.id]);
    const old = (
      await api(hr.agent)
        .op("getPayrollRunEmployee", { params: { id: run.id, employeeId: id } })
        .expect(200)
    ).body.data;
    expect(old.code_wages).toBeUndefined();
    expect(old.pf_employee).toBe("840.00");
  });
});

describe("createFinalSettlement, getFinalSettlement, processFinalSettlement: gratuity on the code's wage", () => {
  it("basic 20 000 + HRA 22 000 + conveyance 8 000, 10 years to 31 Dec 2025: wage 25 000, gratuity 1,44,231", async () => {
    const id = await employee("20000.00", "22000.00", "8000.00", "2016-01-01");
    const s = await settlementOf(id, "2025-12-31");
    expect(s.code_wages).toEqual({
      rule: "code",
      note: null,
      code_wages_from: "2025-11-21",
      exclusion_limit_percent: "50.00",
      full_month: {
        wages: "20000.00",
        exclusions: "30000.00",
        gratuity_retrenchment: "0.00",
        outside_remuneration: "0.00",
        total_remuneration: "50000.00",
        exclusion_limit: "25000.00",
        add_back: "5000.00",
        wage: "25000.00",
      },
      wage: "25000.00",
    });
    // 25 000 × 15 / 26 × 10 = 144 230.769… → 144 231; a day 25 000 / 26 = 961.54
    expect(s).toMatchObject({
      daily_wage: "961.54",
      gratuity: "144231.00",
      gratuity_detail: { eligible: true, service: { years: 10, months: 0, days: 0 }, counted_years: 10, wage: "25000.00" },
    });
    const done = (
      await api(hr.agent)
        .op("processFinalSettlement", { params: { id: s.id } })
        .expect(200)
    ).body.data;
    expect(done).toMatchObject({ status: "processed", gratuity: "144231.00", code_wages: { wage: "25000.00" } });
    // the statement shows the wage's make-up
    const text = await settlementPdfText(s.id);
    expect(text).toContain("Monthly wage (gratuity, leave encashment, notice): 25,000.00 INR");
    expect(text).toContain("Wage under the labour codes (Code on Social Security 2020 s.2(88)), full month");
    expect(text).toContain("Exclusions (allowances and other payments of s.2(88)(a)-(i))");
    expect(text).toContain("30,000.00 INR");
    expect(text).toContain("Exclusions above the limit, added back to wages");
    expect(text).toContain("5,000.00 INR");
    expect(text).toContain("1,44,231.00 INR");
  });

  it("a last working day before 21 November 2025 keeps the pre-code rule: basic + DA 20 000, gratuity 1,15,385", async () => {
    const id = await employee("20000.00", "22000.00", "8000.00", "2015-11-21");
    const s = await settlementOf(id, "2025-11-20");
    expect(s.code_wages).toMatchObject({
      rule: "pre_code",
      note: "Before 2025-11-21, when the labour codes' definition of wages applies from (code_wages_from): basic + DA",
      full_month: { add_back: "5000.00", wage: "25000.00" },
      wage: "20000.00",
    });
    // 20 000 × 15 / 26 × 10 = 115 384.61… → 115 385
    expect(s).toMatchObject({ daily_wage: "769.23", gratuity: "115385.00", gratuity_detail: { wage: "20000.00", counted_years: 10 } });
    const text = await settlementPdfText(s.id);
    expect(text).toContain("Wage (pre-code rule): Before 2025-11-21, when the labour codes' definition of wages applies from");
    expect(text).not.toContain("added back to wages");
    expect(text).toContain("1,15,385.00 INR");
  });

  it("a draft computed before settlements showed the code's wage still processes when its figures are the same", async () => {
    const id = await employee("20000.00", "22000.00", "8000.00", "2016-01-01");
    const s = await settlementOf(id, "2025-12-31");
    await t.query(`UPDATE final_settlements SET details = details - 'code_wages' WHERE id = $1`, [s.id]);
    const old = (
      await api(hr.agent)
        .op("getFinalSettlement", { params: { id: s.id } })
        .expect(200)
    ).body.data;
    expect(old.code_wages).toBeNull();
    expect(old.gratuity).toBe("144231.00");
    const done = (
      await api(hr.agent)
        .op("processFinalSettlement", { params: { id: s.id } })
        .expect(200)
    ).body.data;
    expect(done).toMatchObject({ status: "processed", gratuity: "144231.00", code_wages: { rule: "code", wage: "25000.00" } });
  });

  it("a draft whose wage changed with the settings is refused until recalculated; the processed one keeps its figures", async () => {
    const id = await employee("20000.00", "22000.00", "8000.00", "2016-01-01");
    const s = await settlementOf(id, "2025-12-31");
    expect(s.gratuity).toBe("144231.00");
    // the company keeps the pre-code rule until 2026: the draft's figures changed
    await api(owner.agent)
      .op("updateWageSettings", { body: { code_wages_from: "2026-01-01" } })
      .expect(200);
    const refused = expectError(await api(hr.agent).op("processFinalSettlement", { params: { id: s.id } }), 409, "conflict");
    expect(refused.error).toContain("recalculate it (PUT)");
    const again = (
      await api(hr.agent)
        .op("updateFinalSettlement", { params: { id: s.id }, body: {} })
        .expect(200)
    ).body.data;
    expect(again).toMatchObject({
      gratuity: "115385.00",
      code_wages: { rule: "pre_code", code_wages_from: "2026-01-01", wage: "20000.00" },
    });
    await api(hr.agent)
      .op("processFinalSettlement", { params: { id: s.id } })
      .expect(200);
    await api(owner.agent)
      .op("updateWageSettings", { body: { code_wages_from: "2025-11-21" } })
      .expect(200);
    const kept = (
      await api(hr.agent)
        .op("getFinalSettlement", { params: { id: s.id } })
        .expect(200)
    ).body.data;
    expect(kept).toMatchObject({ status: "processed", gratuity: "115385.00", code_wages: { rule: "pre_code" } });
  });
});
