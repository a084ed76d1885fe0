// Statutory payroll settings: defaults are the Indian rules in force (EPF and EPS under the EPF &
// MP Act 1952 and the EPFO's rates, ESI under the ESI Act 1948, professional tax by state, gratuity
// under the Payment of Gratuity Act 1972 with its ₹20 lakh ceiling); a tenant's row stores only
// what it changed.
import type { components } from "../../../generated/api-types.ts";
import { storedState } from "../../lib/indian-states.ts";
import { invalidField } from "../../platform/errors.ts";
import { money } from "../../lib/money.ts";
import { readSettingsDoc, writeSettingsDoc } from "../../platform/tenant-settings.ts";
import { WAGE_DEFAULTS } from "./wages.ts";

export const PF_DEFAULTS = {
  enabled: true,
  employee_rate: "12.00",
  employer_rate: "12.00",
  eps_rate: "8.33",
  edli_rate: "0.50",
  admin_charge_rate: "0.50",
  admin_charge_minimum: "500.00",
  wage_ceiling: "15000.00",
  restrict_to_ceiling: true,
  eps_age_limit: 58,
};

export const ESI_DEFAULTS = {
  enabled: true,
  employee_rate: "0.75",
  employer_rate: "3.25",
  wage_threshold: "21000.00",
  disabled_wage_threshold: "25000.00",
  low_wage_daily_exemption: "176.00",
};

type Slab = {
  gender: "any" | "male" | "female";
  min_salary: string;
  max_salary: string | null;
  monthly_amount: string;
  february_amount: string;
};
/** The state by name or code on input, stored as the name (IndianState of the document). */
type PtState = { state: components["schemas"]["IndianState"]; slabs: Slab[] };

/** Maharashtra (Schedule I entry 1, from 1 Apr 2023) and Karnataka (Act 33 of 2025, from 1 Apr 2025). */
export const PT_DEFAULTS: { enabled: boolean; states: PtState[] } = {
  enabled: true,
  states: [
    {
      state: "Maharashtra",
      slabs: [
        { gender: "male", min_salary: "0.00", max_salary: "7500.00", monthly_amount: "0.00", february_amount: "0.00" },
        { gender: "male", min_salary: "7500.01", max_salary: "10000.00", monthly_amount: "175.00", february_amount: "175.00" },
        { gender: "male", min_salary: "10000.01", max_salary: null, monthly_amount: "200.00", february_amount: "300.00" },
        { gender: "female", min_salary: "0.00", max_salary: "25000.00", monthly_amount: "0.00", february_amount: "0.00" },
        { gender: "female", min_salary: "25000.01", max_salary: null, monthly_amount: "200.00", february_amount: "300.00" },
      ],
    },
    {
      state: "Karnataka",
      slabs: [
        { gender: "any", min_salary: "0.00", max_salary: "24999.99", monthly_amount: "0.00", february_amount: "0.00" },
        { gender: "any", min_salary: "25000.00", max_salary: null, monthly_amount: "200.00", february_amount: "300.00" },
      ],
    },
  ],
};

export const GRATUITY_DEFAULTS = {
  enabled: true,
  days_per_year: 15,
  divisor: 26,
  min_years: 5,
  fixed_term_min_years: 1,
  round_up_after_months: 6,
  cap: "2000000.00",
  monthly_provision: false,
  /**
   * The reading of five years' continuous service (gratuity.ts ContinuousServiceRule): the stricter
   * Andhra Pradesh High Court reading (five full years) by default; `four_years_240_days` the Madras
   * High Court's (four years + 240 days actually worked in the fifth; 190 under a six-day week).
   */
  continuous_service_rule: "five_full_years" as "five_full_years" | "four_years_240_days",
};

/** Each state once; within a state and gender, bands ordered and not overlapping. */
function validateProfessionalTax(patch: Record<string, unknown>): void {
  const states = patch.states as PtState[] | undefined;
  if (!states) return;
  const seen = new Set<string>();
  states.forEach((st, i) => {
    st.state = storedState(st.state); // a code (MH) is stored as the name, and duplicates its name
    const key = st.state.trim().toLowerCase();
    if (seen.has(key)) throw invalidField(`body.states.${i}.state`, `duplicates state ${st.state}`);
    seen.add(key);
    for (const gender of ["any", "male", "female"]) {
      const bands = st.slabs
        .map((s, j) => ({ ...s, j }))
        .filter((s) => s.gender === gender)
        .sort((a, b) => money(a.min_salary).cmp(money(b.min_salary)));
      bands.forEach((b, k) => {
        if (b.max_salary !== null && money(b.max_salary).lt(money(b.min_salary)))
          throw invalidField(`body.states.${i}.slabs.${b.j}.max_salary`, "must not be below min_salary");
        const next = bands[k + 1];
        if (next && (b.max_salary === null || money(next.min_salary).lte(money(b.max_salary))))
          throw invalidField(`body.states.${i}.slabs.${next.j}.min_salary`, `overlaps another ${gender} slab of ${st.state}`);
      });
    }
  });
}

// WAGE_DEFAULTS (wages.ts): the labour codes' definition of wages and the dates it applies from
// (code_wages_from 2025-11-21; pf_code_wages_from 2026-06-29, the EPF Scheme 2026; the 50 % limit).
const DEFAULTS = { pf: PF_DEFAULTS, esi: ESI_DEFAULTS, pt: PT_DEFAULTS, gratuity: GRATUITY_DEFAULTS, wages: WAGE_DEFAULTS };
const VALIDATORS: Partial<Record<keyof typeof DEFAULTS, (patch: Record<string, unknown>) => void>> = { pt: validateProfessionalTax };
type Kind = keyof typeof DEFAULTS;
const RATE_FIELDS = new Set(["employee_rate", "employer_rate", "eps_rate", "edli_rate", "admin_charge_rate", "exclusion_limit_percent"]);

export async function readSettings<K extends Kind>(kind: K): Promise<(typeof DEFAULTS)[K] & { updated_at: string | null }> {
  return readSettingsDoc(kind, DEFAULTS[kind]);
}

export async function changeSettings<K extends Kind>(kind: K, patch: Record<string, unknown>, userId: string) {
  for (const [k, v] of Object.entries(patch))
    if (RATE_FIELDS.has(k) && money(v as string).gt(100)) throw invalidField(`body.${k}`, "must be at most 100");
  VALIDATORS[kind]?.(patch);
  return writeSettingsDoc(kind, DEFAULTS[kind] as (typeof DEFAULTS)[K], patch as Partial<(typeof DEFAULTS)[K]>, userId);
}
