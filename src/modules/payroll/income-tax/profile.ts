// Income-tax profiles (one per employee and tax year) and the company's declaration and proof
// windows. Income tax is withheld only by a company paying in INR (India); elsewhere - the UAE taxes
// no salaries - there is no profile (null, not an error) and writing one is a 409.
import type { Prisma } from "../../../../generated/prisma/client.ts";
import type { components } from "../../../../generated/api-types.ts";
import { activeTenant } from "../../../db/central.ts";
import { byId, db, tenantTx } from "../../../db/tenancy.ts";
import type { AuthContext, RequestBody } from "../../../platform/use-case.ts";
import { toDateString } from "../../../lib/dates.ts";
import { moneyString } from "../../../lib/money.ts";
import { audit, diff } from "../../../platform/audit.ts";
import { conflict, invalidField, notFound } from "../../../platform/errors.ts";
import { readSettingsDoc, writeSettingsDoc } from "../../../platform/tenant-settings.ts";
import { isHr } from "../../shared/access.ts";
import { assertVisible } from "../../shared/people.ts";
import { tenantToday } from "../../shared/work-settings.ts";
import {
  type AgeBand,
  ageBandOf,
  EARLIEST_RATES_YEAR,
  isMetro,
  type Regime,
  rateRulesOf,
  rulesOf,
  type TaxRules,
  taxYearOf,
} from "./rates.ts";

/** The currency of the companies that withhold Indian income tax on salaries. */
export const WITHHOLDING_CURRENCY = "INR";

/** Whether the active company withholds income tax, and its time zone (for "today"). */
export async function taxCompany(): Promise<{ withholds: boolean; timezone: string }> {
  const t = await activeTenant({ currency: true, timezone: true });
  return { withholds: t.currency === WITHHOLDING_CURRENCY, timezone: t.timezone };
}

/** The tax year asked for (its rules on record), or the one of today in the company's time zone. */
export function resolveTaxYear(
  requested: string | undefined,
  timezone: string,
  path = "query.tax_year",
): { taxYear: string; rules: TaxRules } {
  const taxYear = requested ?? taxYearOf(tenantToday({ timezone }));
  if (Number(taxYear.slice(5)) !== (Number(taxYear.slice(0, 4)) + 1) % 100)
    throw invalidField(
      path,
      `must be a tax year of April to March: ${taxYear.slice(0, 4)}-${String((Number(taxYear.slice(0, 4)) + 1) % 100).padStart(2, "0")}`,
    );
  const rules = rulesOf(taxYear);
  if (!rules) throw invalidField(path, "has no income-tax rules on record: the first year on record is 2025-26");
  return { taxYear, rules };
}

type DeductorType = components["schemas"]["TdsDeductorType"];
type StatementAddress = components["schemas"]["TdsAddress"];
type ResponsiblePerson = components["schemas"]["TdsResponsiblePerson"];

export const INCOME_TAX_DEFAULTS = {
  declaration_opens: "04-01",
  declaration_closes: "04-30",
  joiner_declaration_days: 30,
  proof_opens: "01-01",
  proof_closes: "01-31",
  // the deductor on Form 16 / 130 and the quarterly return: its tax deduction account number and PAN
  deductor_tan: null as string | null,
  deductor_pan: null as string | null,
  // the rest of the deductor block of the quarterly statement (24Q / Form 138): category, address, contacts
  deductor_type: "K" as DeductorType,
  deductor_address: null as StatementAddress | null,
  deductor_email: null as string | null,
  deductor_phone: null as string | null,
  responsible_person: null as ResponsiblePerson | null,
};
export type IncomeTaxSettings = typeof INCOME_TAX_DEFAULTS;

export const incomeTaxSettings = () => readSettingsDoc("income_tax", INCOME_TAX_DEFAULTS);
export const changeIncomeTaxSettings = (patch: Partial<IncomeTaxSettings>, userId: string) =>
  writeSettingsDoc("income_tax", INCOME_TAX_DEFAULTS, patch, userId);

/** A month-day of a tax year as a date: April-December in its first calendar year, January-March in the second. */
export function dayOfTaxYear(taxYear: string, monthDay: string): string {
  const start = Number(taxYear.slice(0, 4));
  return `${Number(monthDay.slice(0, 2)) >= 4 ? start : start + 1}-${monthDay}`;
}

type ProfileRow = Awaited<ReturnType<typeof db.taxProfile.findFirstOrThrow>>;

/** What the engine and the runs need of a profile (the defaults when none is stored). */
export interface ProfileFacts {
  regime: Regime;
  pan: string | null;
  resident: boolean;
  age_band: AgeBand | null;
  city: string | null;
  parents_senior: boolean;
  previous_employer_salary: string;
  previous_employer_tds: string;
  previous_employer_pf: string;
  previous_employer_professional_tax: string;
  other_income: string;
  arrears: ProfileArrears[];
}

/** Salary of the year that is arrears of an earlier year (s.89(1), Form 10E): the employee's declared figures of that year. */
export interface ProfileArrears {
  relates_to: string;
  amount: string;
  total_income: string;
  regime: Regime;
}

export const DEFAULT_PROFILE: ProfileFacts = {
  regime: "new",
  pan: null,
  resident: true,
  age_band: null,
  city: null,
  parents_senior: false,
  previous_employer_salary: "0.00",
  previous_employer_tds: "0.00",
  previous_employer_pf: "0.00",
  previous_employer_professional_tax: "0.00",
  other_income: "0.00",
  arrears: [],
};

export function profileFacts(row: ProfileRow | null): ProfileFacts {
  if (!row) return DEFAULT_PROFILE;
  return {
    regime: row.regime === "old" ? "old" : "new",
    pan: row.pan,
    resident: row.resident,
    age_band: (row.age_band as AgeBand | null) ?? null,
    city: row.city,
    parents_senior: row.parents_senior,
    previous_employer_salary: moneyString(row.previous_employer_salary),
    previous_employer_tds: moneyString(row.previous_employer_tds),
    previous_employer_pf: moneyString(row.previous_employer_pf),
    previous_employer_professional_tax: moneyString(row.previous_employer_professional_tax),
    other_income: moneyString(row.other_income),
    arrears: Array.isArray(row.arrears) ? (row.arrears as unknown as ProfileArrears[]) : [],
  };
}

/**
 * The arrears as stored: each earlier year once, before this tax year, with rates on record (from
 * EARLIEST_RATES_YEAR), the new regime only from 2020-21 (s.115BAC); oldest first, amounts to the paisa.
 */
function arrearsOf(taxYear: string, input: NonNullable<RequestBody<"setTaxProfile">["arrears"]>): ProfileArrears[] {
  const seen = new Set<string>();
  return input
    .map((a, i) => {
      const path = `body.arrears[${i}]`;
      if (Number(a.relates_to.slice(5)) !== (Number(a.relates_to.slice(0, 4)) + 1) % 100)
        throw invalidField(`${path}.relates_to`, "must be a tax year of April to March, as 2024-25");
      if (a.relates_to >= taxYear)
        throw invalidField(`${path}.relates_to`, `must be a tax year before ${taxYear} (arrears of an earlier year)`);
      if (seen.has(a.relates_to)) throw invalidField(`${path}.relates_to`, `names ${a.relates_to} twice: give one entry per earlier year`);
      seen.add(a.relates_to);
      if (!rateRulesOf(a.relates_to))
        throw invalidField(
          `${path}.relates_to`,
          `has no income-tax rates on record: relief for arrears is computed for ${EARLIEST_RATES_YEAR} and later years`,
        );
      return {
        relates_to: a.relates_to,
        amount: moneyString(a.amount),
        total_income: moneyString(a.total_income),
        regime: a.regime ?? "new",
      };
    })
    .sort((a, b) => a.relates_to.localeCompare(b.relates_to));
}

function profileJson(
  employeeId: string,
  taxYear: string,
  rules: TaxRules,
  e: { date_of_birth: Date | null; pan_number: string | null },
  row: ProfileRow | null,
) {
  const birth = e.date_of_birth;
  // the PAN on the employee record serves until the profile of the year gives one
  const f = { ...profileFacts(row), ...(row?.pan ? {} : { pan: e.pan_number }) };
  return {
    employee_id: employeeId,
    tax_year: taxYear,
    stored: row !== null,
    ...f,
    age_band: f.age_band ?? ageBandOf(birth ? toDateString(birth) : null, taxYear, rules),
    age_band_from_birth_date: f.age_band === null,
    metro: isMetro(f.city, rules),
    updated_at: row?.updated_at.toISOString() ?? null,
  };
}

async function profileTarget(auth: AuthContext, employeeId: string) {
  await assertVisible(auth, employeeId);
  const e = await db.employee.findFirst({
    where: { id: employeeId, deleted_at: null },
    select: { id: true, date_of_birth: true, pan_number: true },
  });
  if (!e) throw notFound("Employee");
  return e;
}

/** The profile of a tax year (the defaults until saved); null where the company withholds no income tax. */
export async function taxProfileOf(auth: AuthContext, employeeId: string, requestedYear?: string) {
  const e = await profileTarget(auth, employeeId);
  const company = await taxCompany();
  if (!company.withholds) return null;
  const { taxYear, rules } = resolveTaxYear(requestedYear, company.timezone);
  const row = await db.taxProfile.findFirst({ where: { employee_id: employeeId, tax_year: taxYear } });
  return profileJson(employeeId, taxYear, rules, e, row);
}

/** Saves the fields given (the employee their own, hr anyone's); audited with from → to. */
export async function changeTaxProfile(
  auth: AuthContext,
  employeeId: string,
  requestedYear: string | undefined,
  input: RequestBody<"setTaxProfile">,
) {
  const e = await profileTarget(auth, employeeId);
  if (!isHr(auth) && auth.employeeId !== employeeId) throw notFound("Employee");
  const company = await taxCompany();
  if (!company.withholds) throw conflict("This company withholds no income tax (its currency is not INR): there is no tax profile");
  const { taxYear, rules } = resolveTaxYear(requestedYear, company.timezone);
  const { arrears, ...fields } = input;
  const data = {
    ...fields,
    ...(input.pan ? { pan: input.pan.toUpperCase() } : {}),
    ...(arrears ? { arrears: arrearsOf(taxYear, arrears) as unknown as Prisma.InputJsonValue } : {}),
  };
  const row = await tenantTx(async (tx) => {
    const before = await tx.taxProfile.findFirst({ where: { employee_id: employeeId, tax_year: taxYear } });
    const saved = before
      ? await tx.taxProfile.update({
          where: byId(before.id),
          data: { ...data, version: { increment: 1 }, updated_by: auth.userId },
        })
      : await tx.taxProfile.create({ data: { employee_id: employeeId, tax_year: taxYear, ...data, updated_by: auth.userId } });
    const changes = diff({ ...profileFacts(before) }, { ...profileFacts(saved) }, Object.keys(input));
    if (Object.keys(changes).length)
      await audit(
        {
          action: "tax_profile.changed",
          entity_type: "tax_profile",
          entity_id: saved.id,
          changes: { tax_year: taxYear, employee_id: employeeId, ...changes },
        },
        tx,
      );
    return saved;
  });
  return profileJson(employeeId, taxYear, rules, e, row);
}
