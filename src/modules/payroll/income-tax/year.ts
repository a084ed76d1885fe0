// One tax year's facts per employee, read set-based (profiles, declarations, processed slips): what the
// monthly deduction (runs), the projection sheet and the year's records (taxYearRecords) compute from.
import { readByIdChunks } from "../../../db/id-chunks.ts";
import type { ScopedTx } from "../../../db/tenancy.ts";
import { Decimal } from "../../../lib/money.ts";
import { paidSlipStamps, paidSlips } from "../queries/income-tax.ts";
import type { ComponentDef, SlipResult } from "../slip-model.ts";
import type { DeclarationSection } from "./declarations.ts";
import { proofCutoff } from "./declarations.ts";
import { type ClassOf, classesOf, type EmployeeTaxFacts, monthPay, type MonthPay, withholdOnSlip } from "./monthly.ts";
import { incomeTaxSettings, profileFacts, taxCompany } from "./profile.ts";
import type { InputsDigest } from "../inputs-digest.ts";
import { rulesOf, type TaxRules, taxYearBounds, taxYearOf } from "./rates.ts";

type Client = Pick<ScopedTx, "$queryRaw" | "$executeRaw" | "taxProfile" | "taxDeclaration" | "employee">;

/** Which declaration amounts count on a date: all but rejected ones until the proof cut-off, verified ones after it. */
export type Counting = "declared" | "verified";

export async function countingOn(taxYear: string, date: string): Promise<{ counting: Counting; cutoff: string }> {
  const cutoff = proofCutoff(await incomeTaxSettings(), taxYear);
  return { counting: date > cutoff ? "verified" : "declared", cutoff };
}

/**
 * The facts of each employee for the tax year: the profile, the declarations counted, and the months
 * paid by processed runs before (year, month) - every month of the year when `before` is null.
 * `digest` takes what was read, a paid slip as its id and change stamp (any change of the row moves
 * it); with `digestOnly` (processing comparing a draft's inputs) the slips' figures are not read.
 */
export async function yearFacts(
  client: Client,
  taxYear: string,
  employees: { id: string; date_of_birth: Date | string | null }[],
  before: { year: number; month: number } | null,
  counting: Counting,
  classOf: ClassOf,
  digest?: InputsDigest,
  digestOnly = false,
): Promise<Map<string, EmployeeTaxFacts>> {
  const ids = employees.map((e) => e.id);
  const { startYear } = taxYearBounds(taxYear);
  const until = before ? before.year * 100 + before.month : (startYear + 1) * 100 + 4;
  const from = startYear * 100 + 4;
  // a run's whole company: a slice of employees per statement (src/db/id-chunks.ts)
  const [profiles, declarations, slipsOrStamps, pans] = await Promise.all([
    readByIdChunks(ids, (chunk) => client.taxProfile.findMany({ where: { tax_year: taxYear, employee_id: { in: chunk } } })),
    readByIdChunks(ids, (chunk) =>
      client.taxDeclaration.findMany({
        where: {
          tax_year: taxYear,
          employee_id: { in: chunk },
          status: counting === "verified" ? "verified" : { in: ["submitted", "verified"] },
        },
      }),
    ),
    digestOnly ? paidSlipStamps(client, ids, from, until) : paidSlips(client, ids, from, until),
    readByIdChunks(ids, (chunk) =>
      client.employee.findMany({ where: { id: { in: chunk }, pan_number: { not: null } }, select: { id: true, pan_number: true } }),
    ),
  ]);
  const slips = digestOnly ? null : (slipsOrStamps as Awaited<ReturnType<typeof paidSlips>>);
  const stamps = slips ? slips.map((s) => ({ id: s.id, stamp: s.stamp })) : slipsOrStamps;
  digest?.add("tax profiles", profiles).add("tax declarations", declarations).add("paid slips", stamps).add("PANs", pans);
  const facts = new Map<string, EmployeeTaxFacts>();
  if (!slips) return facts;
  for (const e of employees) facts.set(e.id, { profile: profileFacts(null), date_of_birth: e.date_of_birth, paid: [], declared: {} });
  for (const p of profiles) facts.get(p.employee_id)!.profile = profileFacts(p);
  // the PAN on the employee record serves until the profile of the year gives one
  for (const e of pans) {
    const f = facts.get(e.id)!;
    if (!f.profile.pan) f.profile = { ...f.profile, pan: e.pan_number };
  }
  for (const d of declarations) {
    const f = facts.get(d.employee_id)!;
    const amount = new Decimal((d.status === "verified" ? d.verified_amount : d.amount)?.toString() ?? 0);
    const s = d.section as DeclarationSection;
    f.declared[s] = (f.declared[s] ?? new Decimal(0)).plus(amount);
  }
  for (const s of slips) {
    const period = `${s.period_year}-${String(s.period_month).padStart(2, "0")}`;
    facts.get(s.employee_id)!.paid.push(paidMonth(period, s, classOf));
  }
  return facts;
}

/** A processed slip's month: its own figures when it carries them (income_tax), else read from its lines. */
function paidMonth(period: string, s: Awaited<ReturnType<typeof paidSlips>>[number], classOf: ClassOf): MonthPay {
  const m = monthPay(period, s.earnings, classOf, {
    gross: s.gross,
    encashment: s.leave_encashment,
    pf: s.pf_employee,
    pt: s.professional_tax,
    tds: s.income_tax,
  });
  const t = s.tax as { basic_da?: string; hra?: string; lta?: string } | null;
  if (t?.basic_da !== undefined)
    Object.assign(m, { basic_da: new Decimal(t.basic_da), hra: new Decimal(t.hra ?? 0), lta: new Decimal(t.lta ?? 0) });
  return m;
}

/** What a run needs to withhold income tax on each slip it computes; null where the company withholds none. */
export interface RunTax {
  apply(slip: SlipResult, e: { id: string; last_working_day: Date | null }): void;
}

export async function runIncomeTax(
  client: Client,
  run: { period_year: number; period_month: number; period_end: string },
  employees: { id: string; date_of_birth: Date | null }[],
  components: ComponentDef[],
  digest?: InputsDigest,
  digestOnly = false,
): Promise<RunTax | null> {
  const company = await taxCompany();
  const taxYear = taxYearOf(run.period_end);
  const rules: TaxRules | null = rulesOf(taxYear);
  digest?.add("tax company", { withholds: company.withholds, rules });
  if (!company.withholds || !rules || !employees.length) return null;
  const classOf = classesOf(components);
  const { counting } = await countingOn(taxYear, run.period_end);
  digest?.add("tax counting", counting);
  const before = { year: run.period_year, month: run.period_month };
  const facts = await yearFacts(client, taxYear, employees, before, counting, classOf, digest, digestOnly);
  return {
    apply(slip, e) {
      const f = facts.get(e.id);
      if (!f) return;
      const lwd = e.last_working_day ? e.last_working_day.toISOString().slice(0, 10) : null;
      withholdOnSlip(slip, f, { taxYear, rules, year: run.period_year, month: run.period_month, lastWorkingDay: lwd, classOf });
    },
  };
}
