// Employee salary setup: versions (effective dates) of CTC, components and statutory flags.
import { storedState } from "../../lib/indian-states.ts";
import { audit } from "../../platform/audit.ts";
import { db, tenantTx, byId } from "../../db/tenancy.ts";
import { badRequest, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { parseDate, toDateString } from "../../lib/dates.ts";
import { Decimal, moneyString, moneyStringOrNull } from "../../lib/money.ts";
import { assertNotOwnRecord, OWN_RECORD, selfDecision } from "../shared/access.ts";
import { loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";
import { componentDef } from "./components.ts";
import {
  AmountOutOfRange,
  assertFits,
  buildStructure,
  type ComponentDef,
  fits,
  fullAmounts,
  LARGEST_AMOUNT,
  type SetupInput,
  type Structure,
} from "./compute.ts";
import { parseFormula, variablesOf } from "./formula.ts";

/** The employee's salary setup: the version in force today and every version, newest first. */
// size: the current version and the history, with their lines and components, as the API shows them
export async function salarySetupOf(employeeId: string) {
  const e = await db.employee.findFirst({
    where: { id: employeeId, deleted_at: null },
    select: { id: true, employee_code: true, first_name: true, last_name: true },
  });
  if (!e) throw notFound("Employee");
  const [versions, components, settings] = await Promise.all([
    db.employeeSalarySetup.findMany({ where: { employee_id: e.id }, include: { components: true }, orderBy: { effective_from: "desc" } }),
    db.salaryComponent.findMany({ orderBy: [{ position: "asc" }, { code: "asc" }] }),
    loadAttendanceSettings(),
  ]);
  const defs = components.map(componentDef);
  const structure = buildStructure(defs);
  const today = tenantToday(settings);
  const history = versions.map((v) => {
    const lines = new Map(v.components.map((l) => [l.component_id, l.amount?.toString() ?? null]));
    const applied = v.all_components ? structure.components : defs.filter((c) => lines.has(c.id));
    // a version stored before the range checks (or made incalculable by a later formula change)
    // still reads back: its amounts show 0.00 and `calculation_error` says why
    const calc = monthlyFigures(structure, applied, { ...v, monthly_ctc: v.monthly_ctc?.toString() ?? null, lines });
    const zero = new Decimal(0);
    const rows = applied.map((c) => ({
      component_id: c.id,
      code: c.code,
      name: c.name,
      type: c.type,
      calculation: c.calculation,
      amount: moneyStringOrNull(lines.get(c.id) ?? null),
      monthly_amount: moneyString(("error" in calc ? null : calc.full.get(c.code)) ?? zero),
    }));
    const { gross, deductions } = "error" in calc ? { gross: zero, deductions: zero } : calc;
    return {
      id: v.id,
      effective_from: toDateString(v.effective_from),
      monthly_ctc: moneyStringOrNull(v.monthly_ctc),
      all_components: v.all_components,
      pf_enabled: v.pf_enabled,
      eps_enabled: v.eps_enabled,
      existing_eps_member: v.existing_eps_member,
      esi_enabled: v.esi_enabled,
      pt_enabled: v.pt_enabled,
      pt_state: v.pt_state,
      disabled: v.disabled,
      notes: v.notes,
      components: rows,
      monthly_gross: moneyString(gross),
      monthly_deductions: moneyString(deductions),
      calculation_error: "error" in calc ? `The amounts cannot be calculated: ${calc.error}` : null,
      created_by: v.created_by,
      created_at: v.created_at.toISOString(),
      updated_at: v.updated_at.toISOString(),
    };
  });
  return {
    employee_id: e.id,
    employee_code: e.employee_code,
    employee_name: `${e.first_name} ${e.last_name}`.trim(),
    current: history.find((h) => h.effective_from <= today) ?? null,
    history,
  };
}

/** A version's full-month amounts and sums, or why not (a figure beyond LARGEST_AMOUNT). */
function monthlyFigures(
  structure: Structure,
  applied: ComponentDef[],
  setup: SetupInput,
): { full: Map<string, Decimal>; gross: Decimal; deductions: Decimal } | { error: string } {
  try {
    const full = fullAmounts(structure, setup);
    let gross = new Decimal(0);
    let deductions = new Decimal(0);
    for (const c of applied) {
      const amount = full.get(c.code) ?? new Decimal(0);
      if (c.type === "earning") gross = gross.plus(amount);
      else deductions = deductions.plus(amount);
    }
    assertFits([
      ["the monthly gross", gross],
      ["the monthly deductions", deductions],
    ]);
    return { full, gross, deductions };
  } catch (err) {
    if (err instanceof AmountOutOfRange) return { error: err.message };
    throw err;
  }
}

/** Saves the version of the employee's salary setup effective from a date (replacing that date's version). */
// size: one transaction read top to bottom: the checks under its row locks, the write, the audit and the notices, in order
export async function saveSalarySetup(auth: AuthContext, employeeId: string, body: RequestBody<"setEmployeeSalarySetup">) {
  const e = await db.employee.findFirst({ where: { id: employeeId, deleted_at: null }, select: { id: true } });
  if (!e) throw notFound("Employee");
  const self = assertNotOwnRecord(auth, e.id, `You cannot set your own salary: ${OWN_RECORD}`);
  const components = (await db.salaryComponent.findMany()).map(componentDef);
  const componentById = new Map(components.map((c) => [c.id, c]));
  const allComponents = body.components === undefined;
  const seen = new Set<string>();
  const lines = (body.components ?? []).map((l, i) => {
    const c = componentById.get(l.component_id);
    if (!c) throw invalidField(`body.components.${i}.component_id`, "is not a salary component of the company");
    if (seen.has(c.id)) throw invalidField(`body.components.${i}.component_id`, `lists ${c.code} twice`);
    seen.add(c.id);
    if (c.calculation === "formula" && l.amount != null)
      throw invalidField(`body.components.${i}.amount`, `must be empty: ${c.code} is calculated by its formula`);
    if (c.calculation === "fixed" && l.amount == null && c.amount === null)
      throw invalidField(`body.components.${i}.amount`, `is required: ${c.code} has no default amount`);
    return { component_id: c.id, amount: c.calculation === "fixed" ? (l.amount ?? null) : null };
  });
  const applied = allComponents ? components.filter((c) => c.active) : lines.map((l) => componentById.get(l.component_id)!);
  if (allComponents) {
    const missing = applied.filter((c) => c.calculation === "fixed" && c.amount === null);
    if (missing.length)
      throw invalidField(
        "body.components",
        `are required: ${missing.map((c) => c.code).join(", ")} ha${missing.length > 1 ? "ve" : "s"} no default amount`,
      );
  }
  if (body.monthly_ctc == null) {
    const usesCtc = applied.filter((c) => c.calculation === "formula" && c.formula && variablesOf(parseFormula(c.formula)).has("CTC"));
    if (usesCtc.length)
      throw invalidField("body.monthly_ctc", `is required: the formula of ${usesCtc.map((c) => c.code).join(", ")} uses CTC`);
  }
  if (body.monthly_ctc != null && !fits(new Decimal(body.monthly_ctc)))
    throw invalidField("body.monthly_ctc", `must be at most the largest amount ${LARGEST_AMOUNT.toFixed(2)}`);
  lines.forEach((l, i) => {
    if (l.amount != null && !fits(new Decimal(l.amount)))
      throw invalidField(`body.components.${i}.amount`, `must be at most the largest amount ${LARGEST_AMOUNT.toFixed(2)}`);
  });
  // calculated before anything is saved: a version whose figures cannot be stored or shown is refused
  const lineAmounts = new Map(lines.map((l) => [l.component_id, l.amount]));
  const calc = monthlyFigures(buildStructure(components), applied, {
    monthly_ctc: body.monthly_ctc ?? null,
    all_components: allComponents,
    pf_enabled: true,
    eps_enabled: true,
    esi_enabled: true,
    pt_enabled: true,
    pt_state: null,
    disabled: false,
    lines: lineAmounts,
  });
  if ("error" in calc) throw badRequest(`The salary setup cannot be saved: ${calc.error}`, [{ path: "body", message: calc.error }]);
  const effective = parseDate(body.effective_from);
  const data = {
    monthly_ctc: body.monthly_ctc ?? null,
    all_components: allComponents,
    pf_enabled: body.pf_enabled ?? true,
    eps_enabled: body.eps_enabled ?? true,
    esi_enabled: body.esi_enabled ?? true,
    pt_enabled: body.pt_enabled ?? true,
    pt_state: storedState(body.pt_state ?? null), // a code (MH) is stored as the name
    disabled: body.disabled ?? false,
    notes: body.notes ?? null,
  };
  await tenantTx(async (tx) => {
    const existing = await tx.employeeSalarySetup.findFirst({ where: { employee_id: e.id, effective_from: effective } });
    // a fact about the person, not this version: when not given, as in the version in force before
    const before =
      body.existing_eps_member === undefined
        ? await tx.employeeSalarySetup.findFirst({
            where: { employee_id: e.id, effective_from: { lt: effective } },
            orderBy: { effective_from: "desc" },
            select: { existing_eps_member: true },
          })
        : null;
    const existingEpsMember = body.existing_eps_member ?? before?.existing_eps_member ?? false;
    let setupId: string;
    if (existing) {
      await tx.employeeSalaryComponent.deleteMany({ where: { setup_id: existing.id } });
      await tx.employeeSalarySetup.update({
        where: byId(existing.id),
        data: { ...data, existing_eps_member: existingEpsMember, created_by: auth.userId },
      });
      setupId = existing.id;
    } else {
      setupId = (
        await tx.employeeSalarySetup.create({
          data: { ...data, existing_eps_member: existingEpsMember, employee_id: e.id, effective_from: effective, created_by: auth.userId },
        })
      ).id;
    }
    if (lines.length) await tx.employeeSalaryComponent.createMany({ data: lines.map((l) => ({ ...l, setup_id: setupId })) });
    await audit(
      {
        action: existing ? "salary_setup.replaced" : "salary_setup.created",
        entity_type: "employee",
        entity_id: e.id,
        changes: {
          effective_from: body.effective_from,
          monthly_ctc: data.monthly_ctc,
          eps_enabled: data.eps_enabled,
          existing_eps_member: existingEpsMember,
          components: allComponents ? "all" : applied.map((c) => c.code),
          ...selfDecision(self),
        },
      },
      tx,
    );
  });
  return salarySetupOf(e.id);
}
