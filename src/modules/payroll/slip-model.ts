// What a payslip calculation takes (components, salary setups, the period, the employee's month)
// and gives (lines, the slip's figures, its details): the types of compute.ts, no code.
import type { DateString } from "../../lib/dates.ts";
import type { Decimal } from "../../lib/money.ts";
import type { DayRateJson } from "./figures.ts";
import type { ESI_DEFAULTS, GRATUITY_DEFAULTS, PF_DEFAULTS, PT_DEFAULTS } from "./statutory.ts";
import type { CodeWageFigures, WageClass, WageRule, WageSettings } from "./wages.ts";

export interface ComponentDef {
  id: string;
  code: string;
  name: string;
  type: "earning" | "deduction";
  calculation: "fixed" | "formula";
  amount: string | null;
  formula: string | null;
  pf_wage: boolean;
  /** Under the labour codes' definition of wages; absent (a structure built outside the database): from `pf_wage` (wageClassOf). */
  wage_class?: WageClass;
  esi_applicable: boolean;
  depends_on_payment_days: boolean;
  position: number;
  active: boolean;
}

export interface SetupInput {
  monthly_ctc: string | null;
  all_components: boolean;
  pf_enabled: boolean;
  eps_enabled: boolean;
  esi_enabled: boolean;
  pt_enabled: boolean;
  pt_state: string | null;
  disabled: boolean;
  /** Already a member of the pension scheme from earlier employment (EPS applies whatever the joining date and wage). */
  existing_eps_member?: boolean;
  /** component id → the employee's amount (null = the component's default). */
  lines: Map<string, string | null>;
}

export interface PeriodInput {
  year: number;
  month: number;
  start: DateString;
  end: DateString;
}

export interface StatutorySettings {
  pf: typeof PF_DEFAULTS;
  esi: typeof ESI_DEFAULTS;
  pt: typeof PT_DEFAULTS;
  /** Read for the optional monthly gratuity provision (absent: no provision). */
  gratuity?: typeof GRATUITY_DEFAULTS;
  /** The labour codes' wage rule and its dates (absent: the statutory defaults, WAGE_DEFAULTS). */
  wages?: WageSettings;
}

export interface LoanDue {
  loan_id: string;
  loan_number: string;
  installment_ids: string[];
  amount: string;
}
export interface ClaimDue {
  claim_id: string;
  claim_number: string;
  category: string;
  amount: string;
}
export interface EncashmentDue {
  encashment_id: string;
  leave_type: string;
  days: string;
}

export interface EmployeeInput {
  id: string;
  employee_code: string;
  name: string;
  department: string;
  designation: string;
  gender: string | null;
  date_of_birth: DateString | null;
  joining_date: DateString;
  last_working_day: DateString | null;
  state: string | null;
  setup: SetupInput;
  /** Unpaid leave days within the employment range of the month. */
  leave_lop_days: Decimal;
  /** Absent / half-day attendance days within the employment range, not covered by leave. */
  absent_days: Decimal;
  /**
   * The salary setup in force on the date of joining (the earliest one when none was): decides
   * EPS eligibility of a member who joined from 1 Sep 2014. Null = unknown: only `eps_enabled`
   * and the age limit decide (a run always passes it: every employee it pays has a setup).
   */
  setup_at_joining?: SetupInput | null;
  /**
   * The salary setup in force at the start of the month's ESI contribution period (or on the date
   * of joining when the employee joined during the period; the earliest one when none was):
   * decides ESI coverage for the whole period. Null = the setup of the month.
   */
  setup_at_esi_period_start?: SetupInput | null;
  loans: LoanDue[];
  claims: ClaimDue[];
  encashments: EncashmentDue[];
  /**
   * The salary setups in force during the slip's range when more than one was (a revision within
   * the month), in order; `setup` is then the last of them (in force on the slip's last day), and
   * `leave_lop_days` / `absent_days` their totals. Absent or one: `setup` for the whole range.
   */
  setup_periods?: SetupPeriod[];
}

/** A part of a slip's range with one salary setup in force (SalaryPeriod of the document). */
export interface SetupPeriod {
  effective_from: DateString;
  from: DateString;
  to: DateString;
  setup: SetupInput;
  leave_lop_days: Decimal;
  absent_days: Decimal;
}

/** SalaryPeriod of the document: a part of the month paid at one salary setup. */
export interface SalaryPeriodJson {
  effective_from: DateString;
  from: DateString;
  to: DateString;
  days: number;
  lop_days: string;
  payable_days: string;
  monthly_ctc: string | null;
  full_month_gross: string;
  gross: string;
}

export interface Line {
  component_id: string;
  code: string;
  name: string;
  full_amount: string;
  amount: string;
}

export interface SlipResult {
  employee_id: string;
  employee_code: string;
  employee_name: string;
  department: string;
  designation: string;
  pay_start: DateString;
  pay_end: DateString;
  days_in_period: number;
  payable_days: Decimal;
  lop_days: Decimal;
  gross: Decimal;
  total_deductions: Decimal;
  net_pay: Decimal;
  pf_employee: Decimal;
  esi_employee: Decimal;
  professional_tax: Decimal;
  loan_deduction: Decimal;
  reimbursements: Decimal;
  leave_encashment: Decimal;
  employer_cost: Decimal;
  /** Income tax deducted at source (income-tax/monthly.ts); absent where the company withholds none. */
  income_tax?: Decimal;
  details: SlipDetails;
}

export interface SlipDetails {
  earnings: Line[];
  deductions: Line[];
  full_month_gross: string;
  lop: { leave_days: string; absent_days: string };
  pf: {
    applicable: boolean;
    wages: string;
    base: string;
    employee: string;
    employer_total: string;
    employer_epf: string;
    employer_eps: string;
    edli: string;
    admin_charges: string;
    eps_applicable: boolean;
    eps_exclusion: EpsExclusion | null;
  };
  esi: {
    applicable: boolean;
    covered: boolean;
    wages: string;
    employee: string;
    employer: string;
    /** Full-month ESI wages at the start of the contribution period (what decided `covered`). */
    period_start_wages: string;
  };
  professional_tax: { state: string | null; amount: string };
  loans: LoanDue[];
  reimbursements: ClaimDue[];
  encashments: (EncashmentDue & { amount: string })[];
  employer_contributions: string;
  /** The employer's gratuity provision of the month: present only when the company's monthly provision is on. */
  gratuity_provision?: string;
  /** The slip's wages under the labour codes (absent on slips calculated before they were shown). */
  code_wages?: SlipCodeWages;
  /** Present when more than one salary setup was in force in the slip's range: each part and what it paid. */
  salary_periods?: SalaryPeriodJson[];
  /** The rate leave encashment is paid at on this slip (the company's encashment basis and divisor). */
  encashment_rate?: DayRateJson;
  /** Income tax at source (SlipIncomeTax of the document); absent where the company withholds none. */
  income_tax?: SlipIncomeTaxJson;
}

/** SlipIncomeTax of the document. */
export interface SlipIncomeTaxJson {
  tax_year: string;
  regime: "new" | "old";
  has_pan: boolean;
  taxable_salary: string;
  tds: string;
  taxable_salary_to_date: string;
  tds_to_date: string;
  projected_taxable_salary: string;
  annual_tax: string;
  remaining_months: number;
  /** Basic + DA, HRA and LTA paid this month (what later months' HRA and LTA exemptions count). */
  basic_da: string;
  hra: string;
  lta: string;
}

/** SlipCodeWages of the document. */
export interface SlipCodeWages extends WageRule {
  code_wages_from: DateString;
  pf_code_wages_from: DateString;
  exclusion_limit_percent: string;
  month: CodeWageFigures;
  full_month: CodeWageFigures;
  day_wage: string;
}

/** Why EPS is nil for an employee (null = EPS applies). */
export type EpsExclusion = "not_member" | "age_limit" | "joined_above_wage_ceiling";
