// Pure payroll rules without HTTP: the formula language and a worked example checked to the paisa.
import { describe, expect, it } from "vitest";
import {
  buildStructure,
  computeSlip,
  encashmentPay,
  wageForDays,
  esiContributionStart,
  esiPeriodAnchor,
  lossOfPay,
  runTotals,
  type ComponentDef,
  type EmployeeInput,
  type StatutorySettings,
} from "../../src/modules/payroll/compute.ts";
import { evaluate, findCycle, FormulaError, parseFormula, variablesOf } from "../../src/modules/payroll/formula.ts";
import { buildSif, missingWpsDetails } from "../../src/modules/payroll/wps.ts";
import { loanTerms } from "../../src/modules/payroll/loan-terms.ts";
import { Decimal } from "../../src/lib/money.ts";
import { settlementFigures } from "../../src/modules/payroll/settlement-figures.ts";
import { ESI_DEFAULTS, GRATUITY_DEFAULTS, PF_DEFAULTS, PT_DEFAULTS } from "../../src/modules/payroll/statutory.ts";

const D = (v: Decimal.Value) => new Decimal(v);
const ev = (f: string, vars: Record<string, string> = {}) => evaluate(parseFormula(f), (n) => D(vars[n] ?? 0)).toString();

describe("formula language", () => {
  it("evaluates arithmetic, precedence, unary minus and functions exactly", () => {
    expect(ev("BASIC * 0.4", { BASIC: "20000" })).toBe("8000");
    expect(ev("1 + 2 * 3 - (4 - 1) / 3")).toBe("6");
    expect(ev("-basic + 10", { BASIC: "3" })).toBe("7");
    expect(ev("0.1 + 0.2")).toBe("0.3");
    expect(ev("min(CTC * 0.5, 15000)", { CTC: "40000" })).toBe("15000");
    expect(ev("max(1, 2, 3)")).toBe("3");
    expect(ev("round(10 / 3, 2)")).toBe("3.33");
    expect(ev("round(2.5)")).toBe("3");
    expect(ev("floor(2.9) + ceil(2.1) + abs(-1)")).toBe("6");
    expect(ev("5 / 0")).toBe("0");
    expect([...variablesOf(parseFormula("round(BASIC + hra * da, 2)"))].sort()).toEqual(["BASIC", "DA", "HRA"]);
  });

  it("rejects malformed formulas with a position", () => {
    for (const bad of [
      "",
      "BASIC +",
      "(1 + 2",
      "1 + * 2",
      "eval(1)",
      "BASIC; 1",
      "1 2",
      "min()",
      "round(1, 2, 3)",
      "a.b",
      "process.exit()",
    ])
      expect(() => parseFormula(bad), bad).toThrow(FormulaError);
    expect(() => parseFormula("BASIC + $")).toThrow(/position 9/);
  });

  it("finds cycles", () => {
    const g = new Map([
      ["A", new Set(["B"])],
      ["B", new Set(["C"])],
      ["C", new Set(["A", "CTC"])],
      ["D", new Set<string>()],
    ]);
    expect(findCycle(g)).toEqual(["A", "B", "C", "A"]);
    g.set("C", new Set(["CTC"]));
    expect(findCycle(g)).toBeNull();
  });
});

const settings: StatutorySettings = { pf: PF_DEFAULTS, esi: ESI_DEFAULTS, pt: PT_DEFAULTS };
const comp = (code: string, o: Partial<ComponentDef>): ComponentDef => ({
  id: `id-${code}`,
  code,
  name: code,
  type: "earning",
  calculation: "formula",
  amount: null,
  formula: null,
  pf_wage: false,
  esi_applicable: true,
  depends_on_payment_days: true,
  position: 0,
  active: true,
  ...o,
});
const structure = buildStructure([
  comp("BASIC", { formula: "CTC * 0.5", pf_wage: true, position: 1 }),
  comp("HRA", { formula: "BASIC * 0.4", position: 2 }),
  comp("SPECIAL", { formula: "CTC - BASIC - HRA", position: 3 }),
  comp("CANTEEN", { type: "deduction", calculation: "fixed", amount: "500.00", depends_on_payment_days: false, position: 4 }),
]);
const feb = { year: 2027, month: 2, start: "2027-02-01", end: "2027-02-28" };
const employee = (o: Partial<EmployeeInput> & { ctc: string }): EmployeeInput => ({
  id: "e",
  employee_code: "EMP-1",
  name: "A B",
  department: "Eng",
  designation: "Dev",
  gender: "male",
  date_of_birth: "1990-05-05",
  joining_date: "2020-01-01",
  last_working_day: null,
  state: "Maharashtra",
  setup: {
    monthly_ctc: o.ctc,
    all_components: false,
    pf_enabled: true,
    eps_enabled: true,
    esi_enabled: true,
    pt_enabled: true,
    pt_state: null,
    disabled: false,
    lines: new Map([
      ["id-BASIC", null],
      ["id-HRA", null],
      ["id-SPECIAL", null],
    ]),
  },
  leave_lop_days: D(0),
  absent_days: D(0),
  loans: [],
  claims: [],
  encashments: [],
  ...o,
});

describe("worked example (February 2027, 28 days)", () => {
  it("male, Maharashtra, CTC 40 000: LOP, PF at the ceiling, EPS cap, no ESI, February PT, loan, claim, encashment", () => {
    const s = computeSlip(
      structure,
      settings,
      feb,
      employee({
        ctc: "40000.00",
        leave_lop_days: D(2),
        absent_days: D(1),
        loans: [{ loan_id: "l", loan_number: "LN-00001", installment_ids: ["i"], amount: "2000.00" }],
        claims: [{ claim_id: "c", claim_number: "EXP-00001", category: "Travel", amount: "1250.00" }],
        encashments: [{ encashment_id: "x", leave_type: "Earned", days: "2.0" }],
      }),
    );
    expect(s.payable_days.toFixed(1)).toBe("25.0");
    expect(s.lop_days.toFixed(1)).toBe("3.0");
    expect(s.details.earnings.map((l) => [l.code, l.full_amount, l.amount])).toEqual([
      ["BASIC", "20000.00", "17857.14"],
      ["HRA", "8000.00", "7142.86"],
      ["SPECIAL", "12000.00", "10714.29"],
    ]);
    expect(s.gross.toFixed(2)).toBe("35714.29");
    expect(s.details.pf).toMatchObject({
      wages: "17857.14",
      base: "15000.00",
      employee: "1800.00",
      employer_total: "1800.00",
      employer_eps: "1250.00",
      employer_epf: "550.00",
      edli: "75.00",
      admin_charges: "75.00",
    });
    expect(s.details.esi).toMatchObject({ covered: false, employee: "0.00", employer: "0.00" });
    expect(s.professional_tax.toFixed(2)).toBe("300.00");
    // 2 days × basic 20 000 (no DA in this structure) ÷ 26 = 1 538.4615… - the full month's basic, whatever the LOP
    expect(s.details.encashments[0].amount).toBe("1538.46");
    expect(s.leave_encashment.toFixed(2)).toBe("1538.46");
    expect(s.total_deductions.toFixed(2)).toBe("4100.00");
    // 35 714.29 − 4 100.00 + 1 250.00 claim + 1 538.46 encashment
    expect(s.net_pay.toFixed(2)).toBe("34402.75");
  });

  it("leave encashment: days × full-month basic + DA ÷ 26, rounded once per encashment - the settlement's rate, not LOP's", () => {
    const withDa = buildStructure([
      comp("BASIC", { calculation: "fixed", amount: "20000.00", pf_wage: true, position: 1 }),
      comp("DA", { calculation: "fixed", amount: "5000.00", pf_wage: true, position: 2 }),
      comp("HRA", { formula: "BASIC * 0.4", position: 3 }),
    ]);
    const base = employee({ ctc: "33000.00" });
    const e = employee({
      ctc: "33000.00",
      setup: {
        ...base.setup,
        lines: new Map([
          ["id-BASIC", null],
          ["id-DA", null],
          ["id-HRA", null],
        ]),
      },
      leave_lop_days: D(4),
      encashments: [
        { encashment_id: "x7", leave_type: "Earned", days: "7.0" },
        { encashment_id: "x2", leave_type: "Earned", days: "2.5" },
      ],
    });
    const s = computeSlip(withDa, settings, feb, e);
    // LOP is untouched: 4 days of the 28 cost full-month amounts × 4/28 (basic 20 000 → 17 142.86)
    expect(s.details.earnings.map((l) => [l.code, l.amount])).toEqual([
      ["BASIC", "17142.86"],
      ["DA", "4285.71"],
      ["HRA", "6857.14"],
    ]);
    // a day = (20 000 + 5 000) ÷ 26 = 961.538…; 7 days = 6 730.769… → 6 730.77 (rounding per day would give 7 × 961.54 = 6 730.78);
    // 2.5 days = 2 403.846… → 2 403.85; the old rule (full-month gross 33 000 ÷ 28 calendar days) paid 8 250.00 and 2 946.43
    expect(s.details.encashments.map((x) => [x.days, x.amount])).toEqual([
      ["7.0", "6730.77"],
      ["2.5", "2403.85"],
    ]);
    expect(s.leave_encashment.toFixed(2)).toBe("9134.62");
    expect(encashmentPay("1", "25000.00").toFixed(2)).toBe("961.54");
    // the final settlement pays the same days at the same amounts
    const f = settlementFigures({
      joining_date: "2020-01-01",
      resignation_date: "2027-01-15",
      last_working_day: "2027-02-28",
      separation: "resignation",
      fixed_term: false,
      notice_period_days: 0,
      recover_notice_shortfall: false,
      wage: "25000.00", // basic + DA
      salary: { slip: computeSlip(withDa, settings, feb, { ...e, encashments: [] }), paid_by_run: null },
      leave: e.encashments.map((x) => ({
        leave_type_id: "t",
        leave_type: x.leave_type,
        period_id: "p",
        days: x.days,
        source: "request" as const,
        encashment_id: x.encashment_id,
      })),
      loans: [],
      claims: [],
      gratuity: GRATUITY_DEFAULTS,
    });
    expect(f.daily_wage).toBe("961.54");
    expect(f.leave_encashment_lines.map((l) => l.amount)).toEqual(s.details.encashments.map((x) => x.amount));
    expect(f.leave_encashment).toBe(s.leave_encashment.toFixed(2));
  });

  it("leave encashment of a consolidated salary (no earning flagged pf_wage): the full-month gross is the wage, never nothing", () => {
    const consolidated = buildStructure([
      comp("PAY", { calculation: "fixed", amount: "26000.00", position: 1 }),
      comp("ALLOW", { calculation: "fixed", amount: "5200.00", position: 2 }),
    ]);
    const base = employee({ ctc: "31200.00" });
    const e = employee({
      ctc: "31200.00",
      setup: {
        ...base.setup,
        lines: new Map([
          ["id-PAY", null],
          ["id-ALLOW", null],
        ]),
      },
      encashments: [{ encashment_id: "c3", leave_type: "Earned", days: "3.0" }],
    });
    const s = computeSlip(consolidated, settings, feb, e);
    // 3 days × 31 200 ÷ 26 = 3 600.00
    expect(s.details.encashments.map((x) => x.amount)).toEqual(["3600.00"]);
    expect(wageForDays("0", "31200.00").toFixed(2)).toBe("31200.00");
    // the monthly gratuity provision follows the same wage: 31 200 × 15 / 26 ÷ 12 = 1 500.00
    const withProvision = { ...settings, gratuity: { ...GRATUITY_DEFAULTS, monthly_provision: true } };
    expect(computeSlip(consolidated, withProvision, feb, e).details.gratuity_provision).toBe("1500.00");
    expect(wageForDays("25000.00", "33000.00").toFixed(2)).toBe("25000.00");
  });

  it("female, CTC 18 000: PF under the ceiling, ESI covered, no PT; run total applies the ₹500 admin minimum", () => {
    const a = computeSlip(structure, settings, feb, employee({ ctc: "40000.00" }));
    const b = computeSlip(structure, settings, feb, employee({ ctc: "18000.00", gender: "female" }));
    expect(b.details.pf).toMatchObject({
      base: "9000.00",
      employee: "1080.00",
      employer_eps: "750.00",
      employer_epf: "330.00",
      edli: "45.00",
      admin_charges: "45.00",
    });
    expect(b.details.esi).toMatchObject({ covered: true, wages: "18000.00", employee: "135.00", employer: "585.00" });
    expect(b.professional_tax.toFixed(2)).toBe("0.00");
    expect(b.net_pay.toFixed(2)).toBe("16785.00");
    const t = runTotals([a, b], structure, settings.pf);
    expect(t.pf).toMatchObject({
      members: 2,
      admin_charges: "500.00",
      admin_charges_minimum_applied: true,
      employee: "2880.00",
      employer_eps: "2000.00",
    });
    expect(t.esi).toMatchObject({ members: 1, employee: "135.00", employer: "585.00" });
    expect(t.components.map((c) => [c.code, c.amount])).toEqual([
      ["BASIC", "29000.00"],
      ["HRA", "11600.00"],
      ["SPECIAL", "17400.00"],
    ]);
  });

  it("ESI: rounds up to the rupee, stays covered in the contribution period, low-wage exemption; PT in other months and states", () => {
    const oct = { year: 2027, month: 10, start: "2027-10-01", end: "2027-10-31" };
    const s = computeSlip(structure, settings, oct, employee({ ctc: "18500.00" }));
    expect(s.details.esi).toMatchObject({ covered: true, employee: "139.00", employer: "602.00" }); // 138.75 → 139, 601.25 → 602
    expect(s.professional_tax.toFixed(2)).toBe("200.00");
    const over = computeSlip(structure, settings, oct, employee({ ctc: "22000.00" }));
    expect(over.details.esi.covered).toBe(false);
    const stays = computeSlip(
      structure,
      settings,
      oct,
      employee({ ctc: "22000.00", setup_at_esi_period_start: employee({ ctc: "20000.00" }).setup }),
    );
    expect(stays.details.esi).toMatchObject({ covered: true, employee: "165.00", employer: "715.00" });
    const low = computeSlip(structure, settings, oct, employee({ ctc: "5000.00" }));
    expect(low.details.esi).toMatchObject({ covered: true, employee: "0.00", employer: "163.00" });
    expect(low.professional_tax.toFixed(2)).toBe("0.00");
    const mid = computeSlip(structure, settings, oct, employee({ ctc: "9000.00" }));
    expect(mid.professional_tax.toFixed(2)).toBe("175.00");
    expect(computeSlip(structure, settings, feb, employee({ ctc: "30000.00", state: "Karnataka" })).professional_tax.toFixed(2)).toBe(
      "300.00",
    );
    expect(computeSlip(structure, settings, oct, employee({ ctc: "24000.00", state: "Karnataka" })).professional_tax.toFixed(2)).toBe(
      "0.00",
    );
    expect(computeSlip(structure, settings, oct, employee({ ctc: "30000.00", state: "Goa" })).professional_tax.toFixed(2)).toBe("0.00");
    expect(esiContributionStart(2027, 2)).toEqual({ year: 2026, month: 10 });
    expect(esiContributionStart(2027, 9)).toEqual({ year: 2027, month: 4 });
  });

  it("EPS stops at 58 and for non-members; joiners and leavers are prorated; deductions components", () => {
    const old = computeSlip(structure, settings, feb, employee({ ctc: "40000.00", date_of_birth: "1968-12-01" }));
    expect(old.details.pf).toMatchObject({ eps_applicable: false, employer_eps: "0.00", employer_epf: "1800.00" });
    const notMember = computeSlip(
      structure,
      settings,
      feb,
      employee({ ctc: "40000.00", setup: { ...employee({ ctc: "40000.00" }).setup, eps_enabled: false } }),
    );
    expect(notMember.details.pf.employer_eps).toBe("0.00");
    const joiner = computeSlip(structure, settings, feb, employee({ ctc: "28000.00", joining_date: "2027-02-15" }));
    expect(joiner.pay_start).toBe("2027-02-15");
    expect(joiner.payable_days.toFixed(1)).toBe("14.0");
    expect(joiner.gross.toFixed(2)).toBe("14000.00");
    const leaver = computeSlip(structure, settings, feb, employee({ ctc: "28000.00", last_working_day: "2027-02-07" }));
    expect(leaver.pay_end).toBe("2027-02-07");
    expect(leaver.gross.toFixed(2)).toBe("7000.00");
    const withCanteen = employee({ ctc: "28000.00" });
    withCanteen.setup.lines.set("id-CANTEEN", null);
    const c = computeSlip(structure, settings, feb, withCanteen);
    expect(c.details.deductions).toEqual([
      { component_id: "id-CANTEEN", code: "CANTEEN", name: "CANTEEN", full_amount: "500.00", amount: "500.00" },
    ]);
    expect(c.total_deductions.toFixed(2)).toBe("2480.00"); // canteen 500 + PF 1680 + February PT 300
  });

  it("loss of pay from unpaid leave and absences", () => {
    const isOff = (d: string) => [0, 6].includes(new Date(`${d}T00:00:00Z`).getUTCDay());
    const leave = [
      // crosses: Feb 1 (Mon) 1 + Feb 2 half
      { from: "2027-01-28", to: "2027-02-02", half_day_start: false, half_day_end: true, days: "3.5", is_paid: false },
      { from: "2027-02-10", to: "2027-02-11", half_day_start: false, half_day_end: false, days: "2.0", is_paid: false },
      { from: "2027-02-17", to: "2027-02-17", half_day_start: false, half_day_end: false, days: "1.0", is_paid: true },
    ];
    const att = [
      { date: "2027-02-03", status: "absent" },
      { date: "2027-02-04", status: "half_day" },
      { date: "2027-02-06", status: "absent" }, // Saturday: not a working day
      { date: "2027-02-10", status: "absent" }, // covered by leave
      { date: "2027-02-17", status: "absent" }, // covered by paid leave
    ];
    const r = lossOfPay("2027-02-01", "2027-02-28", leave, att, isOff);
    expect(r.leave.toFixed(1)).toBe("3.5");
    expect(r.absent.toFixed(1)).toBe("1.5");
  });

  it("loan terms and the SIF layout", () => {
    const t = loanTerms("10000.00", 3, "0");
    expect(t.schedule.map((x) => x.toFixed(2))).toEqual(["3333.33", "3333.33", "3333.34"]);
    expect(loanTerms("12000.00", 12, "10").total.toFixed(2)).toBe("13200.00");
    expect(missingWpsDetails({ labour_card_number: null, bank_routing_code: "12", bank_iban: "AE07 0331 2345 6789 0123 456" })).toEqual([
      "labour_card_number",
      "bank_routing_code",
    ]);
    const sif = buildSif({
      employer_id: "123456",
      bank_routing_code: "802420101",
      employer_reference: "Nov, payroll",
      currency: "AED",
      year: 2027,
      month: 1,
      created_local: "2027-01-31T14:30:05",
      employees: [
        {
          employee_code: "E1",
          employee_name: "A",
          labour_card_number: "915012345663",
          bank_routing_code: "802420101",
          bank_iban: "AE16 0240 0435 2012 3456 701",
          pay_start: "2027-01-01",
          pay_end: "2027-01-31",
          net_pay: "6500.00",
          variable: "2500.00",
          lop_days: "1.5",
        },
      ],
    });
    expect(sif.fileName).toBe("0000000123456270131143005.SIF");
    expect(sif.content).toBe(
      "EDR,00915012345663,802420101,AE160240043520123456701,2027-01-01,2027-01-31,31,4000.00,2500.00,2\r\n" +
        "SCR,0000000123456,802420101,2027-01-31,1430,012027,1,6500.00,AED,Nov  payroll\r\n",
    );
  });
});

describe("EPS eligibility derived (joining from 1 Sep 2014 above the ceiling, existing members, age 58)", () => {
  // February 2027, CTC 40 000: PF wages (BASIC) 20 000, base 15 000, employee 1 800, employer 1 800
  const setupOf = (ctc: string, o: Partial<EmployeeInput["setup"]> = {}) => ({ ...employee({ ctc }).setup, ...o });
  const slip = (o: Partial<EmployeeInput>) => computeSlip(structure, settings, feb, employee({ ctc: "40000.00", ...o }));

  it("joined 2015 on PF wages of 16 000: 3.67 % + 8.33 % all to EPF; joined 2013 on the same: the normal split", () => {
    const y2015 = slip({ joining_date: "2015-06-01", setup_at_joining: setupOf("32000.00") }); // BASIC 16 000 at joining
    expect(y2015.details.pf).toMatchObject({
      base: "15000.00",
      employee: "1800.00",
      employer_total: "1800.00",
      employer_eps: "0.00",
      employer_epf: "1800.00",
      eps_applicable: false,
      eps_exclusion: "joined_above_wage_ceiling",
    });
    const y2013 = slip({ joining_date: "2013-06-01", setup_at_joining: setupOf("32000.00") });
    expect(y2013.details.pf).toMatchObject({
      employer_total: "1800.00",
      employer_eps: "1250.00",
      employer_epf: "550.00",
      eps_applicable: true,
      eps_exclusion: null,
    });
    // the day the rule starts counts as new membership; PF wages of exactly the ceiling are not above it
    expect(slip({ joining_date: "2014-09-01", setup_at_joining: setupOf("32000.00") }).details.pf.employer_eps).toBe("0.00");
    expect(slip({ joining_date: "2014-08-31", setup_at_joining: setupOf("32000.00") }).details.pf.employer_eps).toBe("1250.00");
    expect(slip({ joining_date: "2015-06-01", setup_at_joining: setupOf("30000.00") }).details.pf.employer_eps).toBe("1250.00");
  });

  it("an existing EPS member from earlier employment keeps EPS; age 58 and eps_enabled false still stop it", () => {
    const existing = slip({
      joining_date: "2015-06-01",
      setup: setupOf("40000.00", { existing_eps_member: true }),
      setup_at_joining: setupOf("32000.00"),
    });
    expect(existing.details.pf).toMatchObject({ employer_eps: "1250.00", employer_epf: "550.00", eps_exclusion: null });
    // 58 on 1 December 2026: no EPS in February 2027 even for a 2013 joiner
    const at58 = slip({ joining_date: "2013-06-01", date_of_birth: "1968-12-01", setup_at_joining: setupOf("20000.00") });
    expect(at58.details.pf).toMatchObject({ employer_eps: "0.00", employer_epf: "1800.00", eps_exclusion: "age_limit" });
    // 57 until 2 March 2027: EPS still applies in February
    const at57 = slip({ joining_date: "2013-06-01", date_of_birth: "1969-03-02", setup_at_joining: setupOf("20000.00") });
    expect(at57.details.pf).toMatchObject({ employer_eps: "1250.00", eps_exclusion: null });
    const off = slip({ setup: setupOf("40000.00", { eps_enabled: false }), setup_at_joining: setupOf("20000.00") });
    expect(off.details.pf).toMatchObject({ employer_eps: "0.00", employer_epf: "1800.00", eps_exclusion: "not_member" });
  });
});

describe("ESI coverage follows the contribution period (wage at its start decides)", () => {
  const setupOf = (ctc: string) => employee({ ctc }).setup;
  const month = (m: number) => {
    const mm = String(m).padStart(2, "0");
    const end = new Date(Date.UTC(2027, m, 0)).getUTCDate();
    return { year: 2027, month: m, start: `2027-${mm}-01`, end: `2027-${mm}-${end}` };
  };
  it("20 000 on 1 April, 25 000 from June: covered through September on full wages, not from October", () => {
    // all three components are ESI wages: gross = CTC
    const april = setupOf("20000.00");
    const june = computeSlip(structure, settings, month(6), employee({ ctc: "25000.00", setup_at_esi_period_start: april }));
    expect(june.details.esi).toMatchObject({ covered: true, wages: "25000.00", period_start_wages: "20000.00" });
    expect(june.details.esi).toMatchObject({ employee: "188.00", employer: "813.00" }); // 187.50 → 188, 812.50 → 813
    const sept = computeSlip(structure, settings, month(9), employee({ ctc: "25000.00", setup_at_esi_period_start: april }));
    expect(sept.details.esi).toMatchObject({ covered: true, employee: "188.00", employer: "813.00" });
    // October: the new period starts on 25 000
    const oct = computeSlip(structure, settings, month(10), employee({ ctc: "25000.00", setup_at_esi_period_start: setupOf("25000.00") }));
    expect(oct.details.esi).toMatchObject({ covered: false, employee: "0.00", employer: "0.00", period_start_wages: "25000.00" });
  });

  it("a raise within the period does not cover someone above the threshold at its start; a cut does not end coverage", () => {
    const start = setupOf("22000.00");
    const cut = computeSlip(structure, settings, month(7), employee({ ctc: "20000.00", setup_at_esi_period_start: start }));
    expect(cut.details.esi).toMatchObject({ covered: false, employee: "0.00" });
    const dis = { ...setupOf("24000.00"), disabled: true };
    const disabled = computeSlip(structure, settings, month(7), employee({ ctc: "30000.00", setup_at_esi_period_start: dis }));
    expect(disabled.details.esi).toMatchObject({ covered: true, employee: "225.00", employer: "975.00" });
    expect(esiPeriodAnchor(2027, 7, "2020-01-01")).toBe("2027-04-01");
    expect(esiPeriodAnchor(2027, 7, "2027-05-20")).toBe("2027-05-20");
    expect(esiPeriodAnchor(2027, 2, "2020-01-01")).toBe("2026-10-01");
  });
});
