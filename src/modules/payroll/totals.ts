// A payroll run's totals, slip by slip.
import { Decimal } from "../../lib/money.ts";
import { m2, ZERO } from "./figures.ts";
import type { SlipResult, StatutorySettings } from "./slip-model.ts";
import type { Structure } from "./structure.ts";

export interface RunTotals {
  employee_count: number;
  gross: string;
  total_deductions: string;
  net_pay: string;
  reimbursements: string;
  leave_encashment: string;
  loan_deductions: string;
  employer_cost: string;
  pf: {
    members: number;
    wages: string;
    employee: string;
    employer_epf: string;
    employer_eps: string;
    edli: string;
    admin_charges: string;
    admin_charges_minimum_applied: boolean;
  };
  esi: { members: number; wages: string; employee: string; employer: string };
  professional_tax: string;
  /** Present when some slip of the run withholds income tax. */
  income_tax?: string;
  components: { code: string; name: string; type: "earning" | "deduction"; amount: string }[];
}

/** Totals of a run; the PF admin-charge minimum (per establishment per month) is applied here. */
export function runTotals(slips: SlipResult[], structure: Structure, pfSettings: StatutorySettings["pf"]): RunTotals {
  const totals = totalsOf(structure, pfSettings);
  for (const s of slips) totals.add(s);
  return totals.result();
}

/** The run's totals, slip by slip (calculation.ts adds each slip as it is computed, with turns of the event loop in between). */
// size: the run's totals, one accumulator per figure of RunTotals, added slip by slip
export function totalsOf(
  structure: Structure,
  pfSettings: StatutorySettings["pf"],
): { add: (s: SlipResult) => void; result: () => RunTotals } {
  let count = 0;
  let pfMembers = 0;
  let esiMembers = 0;
  const keys = [
    "gross",
    "total_deductions",
    "net_pay",
    "reimbursements",
    "leave_encashment",
    "loan_deduction",
    "employer_cost",
    "pf_wages",
    "pf_employee",
    "employer_epf",
    "employer_eps",
    "edli",
    "admin",
    "esi_wages",
    "esi_employee",
    "esi_employer",
    "professional_tax",
    "income_tax",
  ] as const;
  const sums = Object.fromEntries(keys.map((k) => [k, ZERO])) as Record<(typeof keys)[number], Decimal>;
  const add = (k: (typeof keys)[number], v: Decimal.Value) => (sums[k] = sums[k].plus(v));
  const compTotals = new Map<string, Decimal>();
  let withholding = false;
  return {
    add(s) {
      count++;
      if (s.details.pf.applicable) pfMembers++;
      if (s.details.esi.covered) esiMembers++;
      add("gross", s.gross);
      add("total_deductions", s.total_deductions);
      add("net_pay", s.net_pay);
      add("reimbursements", s.reimbursements);
      add("leave_encashment", s.leave_encashment);
      add("loan_deduction", s.loan_deduction);
      add("employer_cost", s.employer_cost);
      add("pf_wages", s.details.pf.wages);
      add("pf_employee", s.pf_employee);
      add("employer_epf", s.details.pf.employer_epf);
      add("employer_eps", s.details.pf.employer_eps);
      add("edli", s.details.pf.edli);
      add("admin", s.details.pf.admin_charges);
      add("esi_wages", s.details.esi.covered ? s.details.esi.wages : 0);
      add("esi_employee", s.esi_employee);
      add("esi_employer", s.details.esi.employer);
      add("professional_tax", s.professional_tax);
      if (s.income_tax) {
        withholding = true;
        add("income_tax", s.income_tax);
      }
      for (const l of [...s.details.earnings, ...s.details.deductions])
        compTotals.set(l.code, (compTotals.get(l.code) ?? ZERO).plus(l.amount));
    },
    result() {
      const adminRaw = sums.admin;
      const adminMin = pfMembers > 0 && adminRaw.lt(pfSettings.admin_charge_minimum);
      const admin = adminMin ? new Decimal(pfSettings.admin_charge_minimum) : adminRaw;
      const employerCost = sums.employer_cost.plus(admin.minus(adminRaw));
      return {
        employee_count: count,
        gross: m2(sums.gross),
        total_deductions: m2(sums.total_deductions),
        net_pay: m2(sums.net_pay),
        reimbursements: m2(sums.reimbursements),
        leave_encashment: m2(sums.leave_encashment),
        loan_deductions: m2(sums.loan_deduction),
        employer_cost: m2(employerCost),
        pf: {
          members: pfMembers,
          wages: m2(sums.pf_wages),
          employee: m2(sums.pf_employee),
          employer_epf: m2(sums.employer_epf),
          employer_eps: m2(sums.employer_eps),
          edli: m2(sums.edli),
          admin_charges: m2(admin),
          admin_charges_minimum_applied: adminMin,
        },
        esi: { members: esiMembers, wages: m2(sums.esi_wages), employee: m2(sums.esi_employee), employer: m2(sums.esi_employer) },
        professional_tax: m2(sums.professional_tax),
        ...(withholding ? { income_tax: m2(sums.income_tax) } : {}),
        components: structure.components
          .filter((c) => compTotals.has(c.code))
          .map((c) => ({ code: c.code, name: c.name, type: c.type, amount: m2(compTotals.get(c.code)!) })),
      };
    },
  };
}

/** Totals of a run that has no calculation (yet, or any more: a queued or failed run). */
export function emptyTotals(): RunTotals & { employees_without_setup: number } {
  const zero = "0.00";
  return {
    employee_count: 0,
    employees_without_setup: 0,
    gross: zero,
    total_deductions: zero,
    net_pay: zero,
    reimbursements: zero,
    leave_encashment: zero,
    loan_deductions: zero,
    employer_cost: zero,
    pf: {
      members: 0,
      wages: zero,
      employee: zero,
      employer_epf: zero,
      employer_eps: zero,
      edli: zero,
      admin_charges: zero,
      admin_charges_minimum_applied: false,
    },
    esi: { members: 0, wages: zero, employee: zero, employer: zero },
    professional_tax: zero,
    components: [],
  };
}
