// The labour codes' single definition of "wages" (Code on Wages 2019 s.2(y), Code on Social
// Security 2020 s.2(88)) without HTTP: the add-back arithmetic on the three published examples,
// worked to the paisa, and the dated rules - the code's wage for gratuity, leave encashment, notice
// pay and the gratuity provision from 21 November 2025 (pre-code basic + DA before it), and for
// PF from the EPF Scheme 2026 (29 June 2026; the EPF Act's basic wages before it).
import { describe, expect, it } from "vitest";
import {
  buildStructure,
  computeSlip,
  type ComponentDef,
  type EmployeeInput,
  type PeriodInput,
  monthBounds,
  type StatutorySettings,
} from "../../src/modules/payroll/compute.ts";
import { Decimal } from "../../src/lib/money.ts";
import { settlementCodeWagesOf, settlementFigures } from "../../src/modules/payroll/settlement-figures.ts";
import { ESI_DEFAULTS, GRATUITY_DEFAULTS, PF_DEFAULTS, PT_DEFAULTS } from "../../src/modules/payroll/statutory.ts";
import { codeWages, codeWageFigures, noWageParts, WAGE_DEFAULTS, wageRuleOn, type WageClass } from "../../src/modules/payroll/wages.ts";

const D = (v: Decimal.Value) => new Decimal(v);
const settings: StatutorySettings = { pf: PF_DEFAULTS, esi: ESI_DEFAULTS, pt: PT_DEFAULTS, wages: WAGE_DEFAULTS };

const fixed = (code: string, amount: string, wage_class: WageClass, o: Partial<ComponentDef> = {}): ComponentDef => ({
  id: `id-${code}`,
  code,
  name: code,
  type: "earning",
  calculation: "fixed",
  amount,
  formula: null,
  pf_wage: wage_class === "wages",
  wage_class,
  esi_applicable: true,
  depends_on_payment_days: true,
  position: 0,
  active: true,
  ...o,
});

const month = (year: number, m: number): PeriodInput => ({ year, month: m, ...monthBounds(year, m) });

function employee(components: ComponentDef[], o: Partial<EmployeeInput> = {}): EmployeeInput {
  return {
    id: "e",
    employee_code: "EMP-1",
    name: "A B",
    department: "Eng",
    designation: "Dev",
    gender: "male",
    date_of_birth: "1990-05-05",
    joining_date: "2015-01-01",
    last_working_day: null,
    state: null,
    setup: {
      monthly_ctc: null,
      all_components: false,
      pf_enabled: true,
      eps_enabled: true,
      esi_enabled: false,
      pt_enabled: false,
      pt_state: null,
      disabled: false,
      lines: new Map(components.map((c) => [c.id, null])),
    },
    leave_lop_days: D(0),
    absent_days: D(0),
    loans: [],
    claims: [],
    encashments: [],
    ...o,
  };
}

function slip(components: ComponentDef[], period: PeriodInput, o: Partial<EmployeeInput> = {}, s: StatutorySettings = settings) {
  return computeSlip(buildStructure(components), s, period, employee(components, o));
}

/** A full and final settlement as settlements.ts computes it: the wage and its rule from the last month's slip. */
function settle(components: ComponentDef[], joining: string, lastDay: string, s: StatutorySettings = settings) {
  const [y, m] = lastDay.split("-").map(Number);
  const last = slip(components, month(y, m), { joining_date: joining, last_working_day: lastDay }, s);
  const cw = last.details.code_wages!;
  return settlementFigures({
    joining_date: joining,
    resignation_date: lastDay,
    last_working_day: lastDay,
    separation: "resignation",
    fixed_term: false,
    notice_period_days: 0,
    recover_notice_shortfall: false,
    wage: cw.day_wage,
    code_wages: settlementCodeWagesOf(cw),
    salary: { slip: last, paid_by_run: null },
    leave: [],
    loans: [],
    claims: [],
    gratuity: GRATUITY_DEFAULTS,
  });
}

const parts = (wages: string, excluded: string, gratuity_retrenchment = "0", outside = "0") => ({
  ...noWageParts(),
  wages: D(wages),
  excluded: D(excluded),
  gratuity_retrenchment: D(gratuity_retrenchment),
  outside_remuneration: D(outside),
});

describe("the codes' definition of wages: wages + the excess of the exclusions over 50 % of all remuneration", () => {
  it("₹76 000 = 20 000 basic + DA, 40 000 allowances, 16 000 gratuity and retrenchment: wages ₹22 000", () => {
    // all remuneration counts gratuity and retrenchment compensation (clauses (j), (k)); only the
    // payments of clauses (a)-(i) are compared with half of it: 40 000 − 38 000 = 2 000 added back
    expect(codeWageFigures(codeWages(parts("20000.00", "40000.00", "16000.00"), "50.00"))).toEqual({
      wages: "20000.00",
      exclusions: "40000.00",
      gratuity_retrenchment: "16000.00",
      outside_remuneration: "0.00",
      total_remuneration: "76000.00",
      exclusion_limit: "38000.00",
      add_back: "2000.00",
      wage: "22000.00",
    });
    // leaving the 16 000 out of the total (the other reading) would give 30 000, not the published 22 000
    expect(codeWages(parts("20000.00", "40000.00"), "50.00").wage.toFixed(2)).toBe("30000.00");
    // outside remuneration is counted nowhere
    expect(codeWages(parts("20000.00", "40000.00", "16000.00", "9999.00"), "50.00").wage.toFixed(2)).toBe("22000.00");
  });

  it("nothing is added back while the exclusions are within the limit, and the limit follows the notified percentage", () => {
    expect(codeWageFigures(codeWages(parts("25000.00", "25000.00"), "50.00"))).toMatchObject({ add_back: "0.00", wage: "25000.00" });
    expect(codeWages(parts("20000.00", "10000.00"), "50.00").wage.toFixed(2)).toBe("20000.00");
    // a limit of 40 %: 50 000 × 40 % = 20 000; 30 000 − 20 000 = 10 000 added back
    expect(codeWageFigures(codeWages(parts("20000.00", "30000.00"), "40.00"))).toMatchObject({
      exclusion_limit: "20000.00",
      add_back: "10000.00",
      wage: "30000.00",
    });
    // the limit is rounded to the paisa and the figures shown add up: 100.01 × 50 % = 50.005 → 50.01
    expect(codeWageFigures(codeWages(parts("50.00", "50.01"), "50.00"))).toMatchObject({ exclusion_limit: "50.01", add_back: "0.00" });
  });

  it("gratuity: basic 20 000 + HRA 22 000 + conveyance 8 000, 10 years → wage 25 000, ₹1,44,231 (₹1,15,385 on basic alone)", () => {
    const c = [fixed("BASIC", "20000.00", "wages"), fixed("HRA", "22000.00", "excluded"), fixed("CONV", "8000.00", "excluded")];
    // 10 years of service to 31 December 2025 (after the codes' 21 November 2025)
    const f = settle(c, "2016-01-01", "2025-12-31");
    expect(f.code_wages).toEqual({
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
    // 25 000 × 15 / 26 × 10 = 144 230.769… → 144 231
    expect(f.gratuity_detail).toMatchObject({ service: { years: 10, months: 0, days: 0 }, counted_years: 10, wage: "25000.00" });
    expect(f.gratuity).toBe("144231.00");
    // 25 000 ÷ 26 = 961.538…
    expect(f.daily_wage).toBe("961.54");

    // the pre-code rule for a last working day before 21 November 2025: basic + DA, 20 000 × 15 / 26 × 10 = 115 384.6… → 115 385
    const before = settle(c, "2015-11-21", "2025-11-20");
    expect(before.gratuity_detail).toMatchObject({ service: { years: 10, months: 0, days: 0 }, wage: "20000.00" });
    expect(before.gratuity).toBe("115385.00");
    expect(before.code_wages).toMatchObject({
      rule: "pre_code",
      note: "Before 2025-11-21, when the labour codes' definition of wages applies from (code_wages_from): basic + DA",
      full_month: { add_back: "5000.00", wage: "25000.00" }, // shown, not applied
      wage: "20000.00",
    });
    // from the day itself, the code
    const on = settle(c, "2015-11-22", "2025-11-21");
    expect(on.code_wages?.rule).toBe("code");
    expect(on.gratuity).toBe("144231.00");
  });

  it("PF: basic 6 000 + HRA 6 000 + conveyance 2 000 → PF wage 7 000, employee PF ₹840 under the EPF Scheme 2026 (₹720 before)", () => {
    const c = [fixed("BASIC", "6000.00", "wages"), fixed("HRA", "6000.00", "excluded"), fixed("CONV", "2000.00", "excluded")];
    const july = slip(c, month(2026, 7));
    expect(july.details.code_wages).toMatchObject({
      rule: "code",
      pf_rule: "code",
      note: null,
      month: {
        wages: "6000.00",
        exclusions: "8000.00",
        total_remuneration: "14000.00",
        exclusion_limit: "7000.00",
        add_back: "1000.00",
        wage: "7000.00",
      },
      day_wage: "7000.00",
    });
    // 12 % of 7 000 = 840; employer 840 = EPS 8.33 % of 7 000 = 583.10 → 583 + EPF 257
    expect(july.details.pf).toMatchObject({
      wages: "7000.00",
      base: "7000.00",
      employee: "840.00",
      employer_eps: "583.00",
      employer_epf: "257.00",
    });
    expect(july.pf_employee.toFixed(2)).toBe("840.00");

    // May 2026: the codes are in force (21 Nov 2025) but the PF wage is still the EPF Act's basic wages
    const may = slip(c, month(2026, 5));
    expect(may.details.code_wages).toMatchObject({ rule: "code", pf_rule: "epf_act", month: { wage: "7000.00" } });
    expect(may.details.pf).toMatchObject({ wages: "6000.00", employee: "720.00" });
  });

  it("the PF rule switches with the slip whose last day is on or after 29 June 2026, the EPF Scheme 2026's date", () => {
    const c = [fixed("BASIC", "6000.00", "wages"), fixed("HRA", "6000.00", "excluded"), fixed("CONV", "2000.00", "excluded")];
    // June 2026 ends on the 30th, after the Scheme's publication on the 29th: the code's wage for the month
    expect(slip(c, month(2026, 6)).details.pf).toMatchObject({ wages: "7000.00", employee: "840.00" });
    // an employee whose last day is 28 June 2026: the EPF Act's basic wages (prorated 28/30: 5 600.00 → 672)
    const left28 = slip(c, month(2026, 6), { last_working_day: "2026-06-28" });
    expect(left28.details.code_wages).toMatchObject({
      pf_rule: "epf_act",
      code_wages_from: "2025-11-21",
      pf_code_wages_from: "2026-06-29",
    });
    expect(left28.details.pf).toMatchObject({ wages: "5600.00", employee: "672.00" });
    // … and on 29 June 2026: the code's wage of what was paid (29/30: 5 800 + 7 733.33 → limit 6 766.67, add-back 966.66)
    const left29 = slip(c, month(2026, 6), { last_working_day: "2026-06-29" });
    expect(left29.details.code_wages).toMatchObject({
      pf_rule: "code",
      month: {
        wages: "5800.00",
        exclusions: "7733.33",
        total_remuneration: "13533.33",
        exclusion_limit: "6766.67",
        add_back: "966.66",
        wage: "6766.66",
      },
    });
    expect(left29.details.pf).toMatchObject({ wages: "6766.66", employee: "812.00" });

    // the company's own date moves the switch
    const later = { ...settings, wages: { ...WAGE_DEFAULTS, pf_code_wages_from: "2026-08-01" } };
    expect(slip(c, month(2026, 7), {}, later).details.pf).toMatchObject({ wages: "6000.00", employee: "720.00" });
    expect(slip(c, month(2026, 8), {}, later).details.pf).toMatchObject({ wages: "7000.00", employee: "840.00" });
  });

  it("before 21 November 2025 a slip keeps the pre-code rule: encashment and the gratuity provision on basic + DA", () => {
    const c = [fixed("BASIC", "20000.00", "wages"), fixed("HRA", "22000.00", "excluded"), fixed("CONV", "8000.00", "excluded")];
    const enc = [{ encashment_id: "x", leave_type: "Earned", days: "2.0" }];
    const withProvision = { ...settings, gratuity: { ...GRATUITY_DEFAULTS, monthly_provision: true } };
    const october = slip(c, month(2025, 10), { encashments: enc }, withProvision);
    expect(october.details.code_wages).toMatchObject({
      rule: "pre_code",
      pf_rule: "epf_act",
      note: "Before 2025-11-21, when the labour codes' definition of wages applies from (code_wages_from): basic + DA",
      day_wage: "20000.00",
    });
    // 2 × 20 000 ÷ 26 = 1 538.46; provision 20 000 × 15 / 26 ÷ 12 = 961.54; PF on basic 20 000 capped at 15 000
    expect(october.details.encashments[0].amount).toBe("1538.46");
    expect(october.details.gratuity_provision).toBe("961.54");
    expect(october.details.pf).toMatchObject({ wages: "20000.00", employee: "1800.00" });
    // November 2025 (its last day after the 21st): the code's wage of 25 000
    const november = slip(c, month(2025, 11), { encashments: enc }, withProvision);
    expect(november.details.code_wages).toMatchObject({ rule: "code", pf_rule: "epf_act", day_wage: "25000.00" });
    // 2 × 25 000 ÷ 26 = 1 923.08; provision 25 000 × 15 / 26 ÷ 12 = 1 201.92; PF still on the EPF Act's 20 000
    expect(november.details.encashments[0].amount).toBe("1923.08");
    expect(november.details.gratuity_provision).toBe("1201.92");
    expect(november.details.pf).toMatchObject({ wages: "20000.00", employee: "1800.00" });
    // a company that keeps the pre-code rule longer (its own date)
    const keep = { ...withProvision, wages: { ...WAGE_DEFAULTS, code_wages_from: "2026-01-01" } };
    expect(slip(c, month(2025, 12), { encashments: enc }, keep).details.encashments[0].amount).toBe("1538.46");
    expect(slip(c, month(2026, 1), { encashments: enc }, keep).details.encashments[0].amount).toBe("1923.08");
  });

  it("classes: gratuity/retrenchment count in the total only; outside remuneration nowhere; gross and ESI do not change", () => {
    const c = [
      fixed("BASIC", "20000.00", "wages"),
      fixed("ALLOW", "40000.00", "excluded"),
      fixed("GRATUITY", "16000.00", "gratuity_retrenchment"),
      fixed("REFUND", "500.00", "outside_remuneration"),
    ];
    const s = slip(c, month(2027, 1));
    expect(s.details.code_wages?.month).toEqual({
      wages: "20000.00",
      exclusions: "40000.00",
      gratuity_retrenchment: "16000.00",
      outside_remuneration: "500.00",
      total_remuneration: "76000.00",
      exclusion_limit: "38000.00",
      add_back: "2000.00",
      wage: "22000.00",
    });
    expect(s.gross.toFixed(2)).toBe("76500.00");
    expect(s.details.pf).toMatchObject({ wages: "22000.00", base: "15000.00", employee: "1800.00" });
  });

  it("a structure without earnings of class wages is not put to the test: pre-code figures, no PF, the gross prices encashment", () => {
    const c = [fixed("PAY", "26000.00", "excluded"), fixed("ALLOW", "5200.00", "excluded")];
    const s = slip(c, month(2027, 1), { encashments: [{ encashment_id: "c", leave_type: "Earned", days: "3.0" }] });
    expect(s.details.code_wages).toMatchObject({
      rule: "pre_code",
      pf_rule: "epf_act",
      note:
        "No earning of the salary is of class wages (basic pay, DA, retaining allowance): " +
        "the labour codes' test is not applied; basic + DA is the earnings flagged pf_wage",
      month: { add_back: "15600.00", wage: "15600.00" }, // shown, not applied
      day_wage: "31200.00",
    });
    expect(s.details.pf).toMatchObject({ applicable: false, wages: "0.00", employee: "0.00" });
    // 3 × 31 200 ÷ 26
    expect(s.details.encashments[0].amount).toBe("3600.00");
  });

  it("EPS for a member who joined from 1 Sep 2014 is decided on the PF wage at joining by the PF rule of that date", () => {
    // basic 14 000 + HRA 14 000 + conveyance 4 000: EPF Act wage 14 000 (within 15 000), code wage 16 000 (above)
    const c = [fixed("BASIC", "14000.00", "wages"), fixed("HRA", "14000.00", "excluded"), fixed("CONV", "4000.00", "excluded")];
    const e = employee(c);
    const atJoining = (joining: string) =>
      computeSlip(buildStructure(c), settings, month(2027, 1), { ...e, joining_date: joining, setup_at_joining: e.setup }).details.pf;
    expect(atJoining("2026-06-01")).toMatchObject({ eps_applicable: true, eps_exclusion: null });
    expect(atJoining("2026-07-01")).toMatchObject({ eps_applicable: false, eps_exclusion: "joined_above_wage_ceiling" });
  });

  it("wageRuleOn: the dates are inclusive, and a structure without wages keeps the pre-code rule", () => {
    expect(wageRuleOn("2025-11-20", WAGE_DEFAULTS, true)).toMatchObject({ rule: "pre_code", pf_rule: "epf_act" });
    expect(wageRuleOn("2025-11-21", WAGE_DEFAULTS, true)).toEqual({ rule: "code", pf_rule: "epf_act", note: null });
    expect(wageRuleOn("2026-06-28", WAGE_DEFAULTS, true)).toMatchObject({ rule: "code", pf_rule: "epf_act" });
    expect(wageRuleOn("2026-06-29", WAGE_DEFAULTS, true)).toEqual({ rule: "code", pf_rule: "code", note: null });
    expect(wageRuleOn("2027-01-31", WAGE_DEFAULTS, false)).toMatchObject({ rule: "pre_code", pf_rule: "epf_act" });
  });
});
