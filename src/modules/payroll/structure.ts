// A run's salary structure: the active components' parsed formulas, the full-month amounts of a
// salary setup, and a setup's PF and ESI wages.
import type { DateString } from "../../lib/dates.ts";
import { Decimal } from "../../lib/money.ts";
import type { PreparedSettings } from "./contributions.ts";
import { AmountOutOfRange, fits, r2, ZERO } from "./figures.ts";
import { evaluate, evaluationOrder, parseFormula, variablesOf, type Node } from "./formula.ts";
import type { ComponentDef, SetupInput } from "./slip-model.ts";
import { addToParts, codeWages, noWageParts, wageClassOf, wageRuleOn } from "./wages.ts";

/** Parsed formulas of the active components, shared by every employee of a run. */
export interface Structure {
  components: ComponentDef[];
  byCode: Map<string, ComponentDef>;
  parsed: Map<string, Node>;
  deps: Map<string, Set<string>>;
}

export function buildStructure(components: ComponentDef[]): Structure {
  const active = components.filter((c) => c.active).sort((a, b) => a.position - b.position || a.code.localeCompare(b.code));
  const parsed = new Map<string, Node>();
  const deps = new Map<string, Set<string>>();
  for (const c of active) {
    if (c.calculation === "formula" && c.formula) {
      const n = parseFormula(c.formula);
      parsed.set(c.code, n);
      deps.set(c.code, variablesOf(n));
    } else deps.set(c.code, new Set());
  }
  return { components: active, byCode: new Map(active.map((c) => [c.code, c])), parsed, deps };
}

/**
 * Full monthly amounts of the components that apply to an employee (code → amount). A result
 * beyond LARGEST_AMOUNT (or not a number) is an AmountOutOfRange naming the component.
 */
export function fullAmounts(structure: Structure, setup: SetupInput): Map<string, Decimal> {
  const applies = structure.components.filter((c) => setup.all_components || setup.lines.has(c.id));
  const codes = new Set(applies.map((c) => c.code));
  const graph = new Map([...structure.deps].filter(([code]) => codes.has(code)));
  const values = new Map<string, Decimal>();
  const ctc = new Decimal(setup.monthly_ctc ?? 0);
  const lookup = (name: string) => (name === "CTC" ? ctc : (values.get(name) ?? ZERO));
  for (const code of evaluationOrder(graph)) {
    const c = structure.byCode.get(code)!;
    let v: Decimal;
    if (c.calculation === "formula") v = evaluate(structure.parsed.get(code)!, lookup);
    else v = new Decimal(setup.lines.get(c.id) ?? c.amount ?? 0);
    const amount = v.isNaN() ? v : Decimal.max(ZERO, r2(v));
    if (!fits(amount)) throw new AmountOutOfRange(`component ${code}`, amount);
    values.set(code, amount);
  }
  return values;
}

/**
 * Full-month PF and ESI wages of a salary setup (before proration): ESI wages are the earnings
 * flagged `esi_applicable`; PF wages by the PF rule in force on `on` (wageRuleOn) - the earnings
 * flagged `pf_wage`, or the labour codes' wage of the full month.
 */
export function setupWages(
  structure: Structure,
  setup: SetupInput,
  on: DateString,
  wages: Pick<PreparedSettings["wages"], "settings" | "limit">,
): { pf: Decimal; esi: Decimal } {
  const full = fullAmounts(structure, setup);
  let pf = ZERO;
  let esi = ZERO;
  const parts = noWageParts();
  for (const c of structure.components) {
    const f = full.get(c.code);
    if (f === undefined || c.type !== "earning") continue;
    if (c.pf_wage) pf = pf.plus(f);
    if (c.esi_applicable) esi = esi.plus(f);
    addToParts(parts, wageClassOf(c), f);
  }
  const rule = wageRuleOn(on, wages.settings, parts.wages.gt(0));
  return { pf: rule.pf_rule === "code" ? codeWages(parts, wages.limit).wage : pf, esi };
}
