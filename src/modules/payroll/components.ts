// Salary components: CRUD with formula checks (syntax, unknown codes, self-reference, cycles).
import { audit, diff } from "../../platform/audit.ts";
import { db, tenantTx, byId } from "../../db/tenancy.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import type { QueryParams, RequestBody } from "../../platform/use-case.ts";
import { Decimal, moneyStringOrNull } from "../../lib/money.ts";
import { type ComponentDef, describeAmount, fits, LARGEST_AMOUNT } from "./compute.ts";
import { BUILTIN_VARIABLES, evaluate, evaluationOrder, findCycle, FormulaError, type Node, parseFormula, variablesOf } from "./formula.ts";
import { oneOf } from "./json.ts";
import { WAGE_CLASSES, type WageClass } from "./wages.ts";

type ComponentRow = Awaited<ReturnType<typeof db.salaryComponent.findFirstOrThrow>>;

/** The stored type and calculation as their unions (the columns hold only these values). */
const componentType = (t: string): "earning" | "deduction" => (t === "deduction" ? "deduction" : "earning");
const componentCalculation = (c: string): "fixed" | "formula" => (c === "formula" ? "formula" : "fixed");
const wageClass = (c: string): WageClass => oneOf(WAGE_CLASSES, c, "salary component wage class");

/**
 * The class a new component takes when the request gives none: `wages` for basic + DA (flagged
 * `pf_wage`), outside remuneration for a deduction, otherwise an exclusion (s.2(y) (a) to (i)) - the
 * rule the migration classified existing components by.
 */
const defaultWageClass = (type: string, pfWage: boolean): WageClass =>
  type === "deduction" ? "outside_remuneration" : pfWage ? "wages" : "excluded";

/** A component row as the calculation reads it (compute.ts). */
export const componentDef = (c: ComponentRow): ComponentDef => ({
  ...c,
  type: componentType(c.type),
  calculation: componentCalculation(c.calculation),
  amount: c.amount?.toString() ?? null,
  wage_class: wageClass(c.wage_class),
});

export const componentJson = (c: ComponentRow) => ({
  id: c.id,
  name: c.name,
  code: c.code,
  description: c.description,
  type: componentType(c.type),
  calculation: componentCalculation(c.calculation),
  amount: moneyStringOrNull(c.amount),
  formula: c.formula,
  pf_wage: c.pf_wage,
  wage_class: wageClass(c.wage_class),
  esi_applicable: c.esi_applicable,
  depends_on_payment_days: c.depends_on_payment_days,
  position: c.position,
  active: c.active,
  created_at: c.created_at.toISOString(),
  updated_at: c.updated_at.toISOString(),
});

/** Codes a formula uses; 400 naming `formula` for syntax errors and unknown or reserved names. */
function formulaDeps(formula: string, code: string, known: Set<string>): Set<string> {
  let vars: Set<string>;
  try {
    vars = variablesOf(parseFormula(formula));
  } catch (e) {
    if (e instanceof FormulaError) throw invalidField("body.formula", e.message);
    throw e;
  }
  if (vars.has(code)) throw invalidField("body.formula", `must not refer to its own component ${code}`);
  const unknown = [...vars].filter((v) => !known.has(v) && !BUILTIN_VARIABLES.has(v));
  if (unknown.length)
    throw invalidField("body.formula", `refers to unknown component code${unknown.length > 1 ? "s" : ""} ${unknown.join(", ")}`);
  return vars;
}

/** Validates the component as it would be after the change, against every other component. */
async function validate(next: { id?: string; code: string; calculation: string; amount: unknown; formula: string | null | undefined }) {
  if (BUILTIN_VARIABLES.has(next.code)) throw invalidField("body.code", `${next.code} is reserved for the employee's monthly CTC`);
  if (next.calculation === "formula") {
    if (!next.formula?.trim()) throw invalidField("body.formula", "is required for a formula component");
    if (next.amount !== null && next.amount !== undefined)
      throw invalidField("body.amount", "must be empty for a formula component (its amount is calculated)");
  } else if (next.formula) throw invalidField("body.formula", "must be empty for a fixed component");
  const others = await db.salaryComponent.findMany({
    where: next.id ? { NOT: { id: next.id } } : {},
    select: { code: true, calculation: true, formula: true },
  });
  const known = new Set(others.map((o) => o.code));
  if (known.has(next.code)) throw conflict(`A salary component with code ${next.code} already exists`);
  const graph = new Map<string, Set<string>>();
  for (const o of others) graph.set(o.code, o.calculation === "formula" && o.formula ? safeVars(o.formula) : new Set());
  graph.set(next.code, next.calculation === "formula" ? formulaDeps(next.formula!, next.code, known) : new Set());
  const cycle = findCycle(graph);
  if (cycle) throw invalidField("body.formula", `creates a cycle between formula components: ${cycle.join(" → ")}`);
  if (next.amount !== null && next.amount !== undefined && !fits(new Decimal(String(next.amount))))
    throw invalidField("body.amount", `must be at most the largest amount ${LARGEST_AMOUNT.toFixed(2)}`);
  const formulas = new Map<string, string>();
  for (const o of others) if (o.calculation === "formula" && o.formula) formulas.set(o.code, o.formula);
  if (next.calculation === "formula") formulas.set(next.code, next.formula!);
  else formulas.delete(next.code);
  assertFormulasBounded(graph, formulas, next.code);
}

/**
 * The formula of `code`, and every formula that uses it, must not amplify the amounts it uses:
 * with CTC and every fixed amount at LARGEST_AMOUNT and each formula worked out in dependency
 * order (a result counting as at most LARGEST_AMOUNT where another formula uses it - a figure
 * beyond it cannot be stored), a formula's result may be at most LARGEST_AMOUNT for each distinct
 * amount it uses (a sum of amounts may reach their total; a product of amounts, a large factor or
 * a division by a small number may not). 400 naming `formula` otherwise.
 */
function assertFormulasBounded(graph: Map<string, Set<string>>, formulas: Map<string, string>, code: string): void {
  const affected = new Set([code]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [c, deps] of graph)
      if (!affected.has(c) && [...deps].some((d) => affected.has(d))) {
        affected.add(c);
        grew = true;
      }
  }
  const values = new Map<string, Decimal>();
  const lookup = (name: string) => (name === "CTC" ? LARGEST_AMOUNT : Decimal.min(values.get(name) ?? LARGEST_AMOUNT, LARGEST_AMOUNT));
  for (const c of evaluationOrder(graph)) {
    const formula = formulas.get(c);
    if (formula === undefined) {
      values.set(c, LARGEST_AMOUNT);
      continue;
    }
    let node: Node;
    try {
      node = parseFormula(formula);
    } catch {
      values.set(c, LARGEST_AMOUNT); // an unparsable formula stored earlier: the run reports it
      continue;
    }
    const v = evaluate(node, lookup);
    const used = variablesOf(node).size;
    const bound = LARGEST_AMOUNT.times(Math.max(1, used));
    if (affected.has(c) && !(v.isFinite() && v.lte(bound))) {
      const at = `with CTC and every amount it uses at the largest amount ${LARGEST_AMOUNT.toFixed(2)} it gives ${describeAmount(v)}`;
      const limit = `more than ${used > 1 ? `${used} × that amount (one for each amount it uses)` : "that amount"}`;
      throw invalidField(
        "body.formula",
        c === code
          ? `can exceed the largest amount: ${at}, ${limit}`
          : `makes the formula of ${c} exceed the largest amount: ${at}, ${limit}`,
      );
    }
    values.set(c, v.isFinite() ? Decimal.max(0, v) : LARGEST_AMOUNT);
  }
}

function safeVars(formula: string): Set<string> {
  try {
    return variablesOf(parseFormula(formula));
  } catch {
    return new Set();
  }
}

async function load(id: string): Promise<ComponentRow> {
  const c = await db.salaryComponent.findFirst({ where: { id } });
  if (!c) throw notFound("Salary component");
  return c;
}

async function assertNameFree(name: string, exceptId?: string) {
  const clash = await db.salaryComponent.findFirst({
    where: { name: { equals: name.trim(), mode: "insensitive" }, ...(exceptId ? { NOT: { id: exceptId } } : {}) },
  });
  if (clash) throw conflict(`A salary component named "${name.trim()}" already exists`);
}

/** Components whose formulas use `code`. */
async function usersOf(code: string, exceptId: string): Promise<string[]> {
  const rows = await db.salaryComponent.findMany({
    where: { calculation: "formula", NOT: { id: exceptId } },
    select: { code: true, formula: true },
  });
  return rows.filter((r) => r.formula && safeVars(r.formula).has(code)).map((r) => r.code);
}

/** The create body as the schema's `allOf` guarantees it (name, code, type, calculation), which the generated type leaves optional. */
type NewComponent = RequestBody<"createSalaryComponent"> & {
  name: string;
  code: string;
  type: "earning" | "deduction";
  calculation: "fixed" | "formula";
};

/** The components, in slip order (position, code), optionally only active ones or one type. */
export async function componentList(filter: QueryParams<"listSalaryComponents">) {
  const rows = await db.salaryComponent.findMany({
    where: { ...(filter.active === undefined ? {} : { active: filter.active }), ...(filter.type ? { type: filter.type } : {}) },
    orderBy: [{ position: "asc" }, { code: "asc" }],
  });
  return rows.map(componentJson);
}

/** Adds a component: name and code unique, formula checked against every other component. */
export async function addComponent(input: RequestBody<"createSalaryComponent">) {
  const body = input as NewComponent;
  const code = body.code.toUpperCase();
  await assertNameFree(body.name);
  await validate({ code, calculation: body.calculation, amount: body.amount, formula: body.formula });
  const row = await tenantTx(async (tx) => {
    const c = await tx.salaryComponent.create({
      data: {
        name: body.name.trim(),
        code,
        description: body.description ?? null,
        type: body.type,
        calculation: body.calculation,
        amount: body.calculation === "fixed" ? (body.amount ?? null) : null,
        formula: body.calculation === "formula" ? body.formula!.trim() : null,
        pf_wage: body.pf_wage ?? false,
        wage_class: body.wage_class ?? defaultWageClass(body.type, body.pf_wage ?? false),
        esi_applicable: body.esi_applicable ?? true,
        depends_on_payment_days: body.depends_on_payment_days ?? true,
        position: body.position ?? 0,
        active: body.active ?? true,
      },
    });
    await audit(
      {
        action: "salary_component.created",
        entity_type: "salary_component",
        entity_id: c.id,
        changes: { code, name: c.name, calculation: c.calculation, formula: c.formula, wage_class: c.wage_class },
      },
      tx,
    );
    return c;
  });
  return componentJson(row);
}

export async function componentById(id: string) {
  return componentJson(await load(id));
}

/** Changes a component as the schema's partial update; the result is checked as a whole, a code in use elsewhere does not change. */
export async function changeComponent(id: string, body: RequestBody<"updateSalaryComponent">) {
  const before = await load(id);
  const code = body.code ? body.code.toUpperCase() : before.code;
  if (body.name !== undefined) await assertNameFree(body.name, before.id);
  if (code !== before.code) {
    const users = await usersOf(before.code, before.id);
    if (users.length) throw conflict(`The code ${before.code} is used in the formulas of ${users.join(", ")}; change those first`);
  }
  const calculation = body.calculation ?? before.calculation;
  const switched = calculation !== before.calculation;
  const next = {
    id: before.id,
    code,
    calculation,
    amount: body.amount !== undefined ? body.amount : switched ? null : before.amount,
    formula: body.formula !== undefined ? body.formula : switched ? null : before.formula,
  };
  await validate(next);
  const data: Record<string, unknown> = {
    ...body,
    code,
    calculation,
    amount: calculation === "fixed" ? (next.amount ?? null) : null,
    formula: calculation === "formula" ? String(next.formula).trim() : null,
  };
  if (typeof body.name === "string") data.name = body.name.trim();
  const row = await tenantTx(async (tx) => {
    const c = await tx.salaryComponent.update({ where: byId(before.id), data });
    const changes = diff(before as unknown as Record<string, unknown>, c as unknown as Record<string, unknown>, Object.keys(data));
    if (Object.keys(changes).length)
      await audit({ action: "salary_component.updated", entity_type: "salary_component", entity_id: c.id, changes }, tx);
    return c;
  });
  return componentJson(row);
}

/** Deletes a component no formula and no salary setup uses (409 otherwise: deactivate it instead). */
export async function removeComponent(id: string): Promise<void> {
  const c = await load(id);
  const users = await usersOf(c.code, c.id);
  if (users.length) throw conflict(`The code ${c.code} is used in the formulas of ${users.join(", ")}; deactivate the component instead`);
  const inSetups = await db.employeeSalaryComponent.count({ where: { component_id: c.id } });
  if (inSetups) throw conflict(`${inSetups} salary setup line(s) use ${c.code}; deactivate the component instead (active: false)`);
  await tenantTx(async (tx) => {
    await tx.salaryComponent.delete({ where: byId(c.id) });
    await audit(
      { action: "salary_component.deleted", entity_type: "salary_component", entity_id: c.id, changes: { code: c.code, name: c.name } },
      tx,
    );
  });
}
