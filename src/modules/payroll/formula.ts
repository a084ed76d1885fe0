// Salary component formulas: a small, safe expression language over component codes - never
// eval. Grammar (case-insensitive names, exact decimal arithmetic):
//   expr   := term (("+" | "-") term)*
//   term   := unary (("*" | "/") unary)*
//   unary  := "-" unary | "+" unary | atom
//   atom   := number | NAME | NAME "(" expr ("," expr)* ")" | "(" expr ")"
// Names are component codes or `CTC` (the employee's monthly CTC). Functions: min(a, b, …),
// max(a, b, …), round(x) / round(x, places), floor(x), ceil(x), abs(x).
// Division by zero yields 0, so a formula never fails at run time.
import { Decimal } from "../../lib/money.ts";

export type Node =
  | { k: "num"; v: Decimal }
  | { k: "var"; name: string }
  | { k: "neg"; a: Node }
  | { k: "bin"; op: "+" | "-" | "*" | "/"; a: Node; b: Node }
  | { k: "call"; fn: string; args: Node[] };

export class FormulaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "FormulaError";
  }
}

export const FUNCTIONS: Record<string, { min: number; max: number }> = {
  MIN: { min: 1, max: 20 },
  MAX: { min: 1, max: 20 },
  ROUND: { min: 1, max: 2 },
  FLOOR: { min: 1, max: 1 },
  CEIL: { min: 1, max: 1 },
  ABS: { min: 1, max: 1 },
};

/** Variables every formula may use besides component codes. */
export const BUILTIN_VARIABLES = new Set(["CTC"]);

export const CODE_PATTERN = /^[A-Z][A-Z0-9_]{0,29}$/;

type Token = { t: "num" | "name" | "op"; v: string; pos: number };

// Sticky (`y`) patterns match at `lastIndex` only: no copy of the rest of the formula per token,
// and each character is scanned a bounded number of times (linear in the formula's length).
const WS_RE = /\s/;
const NUM_RE = /\d+(?:\.\d+)?|\.\d+/y;
const NAME_RE = /[A-Za-z_][A-Za-z0-9_]*/y;

function tokenize(src: string): Token[] {
  const out: Token[] = [];
  let i = 0;
  const at = (re: RegExp) => {
    re.lastIndex = i;
    return re.exec(src);
  };
  while (i < src.length) {
    const c = src[i];
    if (WS_RE.test(c)) {
      i++;
      continue;
    }
    const num = at(NUM_RE);
    if (num) {
      out.push({ t: "num", v: num[0], pos: i });
      i += num[0].length;
      continue;
    }
    const name = at(NAME_RE);
    if (name) {
      out.push({ t: "name", v: name[0].toUpperCase(), pos: i });
      i += name[0].length;
      continue;
    }
    if ("+-*/(),".includes(c)) {
      out.push({ t: "op", v: c, pos: i });
      i++;
      continue;
    }
    throw new FormulaError(`unexpected character "${c}" at position ${i + 1}`);
  }
  return out;
}

/** Parses a formula; throws FormulaError with a human message on any syntax error. */
// size: a recursive-descent parser as one closure over its position, a rule per nested function
export function parseFormula(src: string): Node {
  if (src.length > 1000) throw new FormulaError("is too long (at most 1000 characters)");
  const toks = tokenize(src);
  let p = 0;
  const peek = () => toks[p];
  const where = () => (peek() ? `at position ${peek().pos + 1}` : "at the end");
  const expectOp = (v: string) => {
    const t = peek();
    if (t?.t !== "op" || t.v !== v) throw new FormulaError(`expected "${v}" ${where()}`);
    p++;
  };
  let depth = 0;
  function expr(): Node {
    if (++depth > 100) throw new FormulaError("is nested too deeply");
    let a = term();
    while (peek()?.t === "op" && (peek().v === "+" || peek().v === "-")) {
      const op = toks[p++].v as "+" | "-";
      a = { k: "bin", op, a, b: term() };
    }
    depth--;
    return a;
  }
  function term(): Node {
    let a = unary();
    while (peek()?.t === "op" && (peek().v === "*" || peek().v === "/")) {
      const op = toks[p++].v as "*" | "/";
      a = { k: "bin", op, a, b: unary() };
    }
    return a;
  }
  function unary(): Node {
    const t = peek();
    if (t?.t === "op" && (t.v === "-" || t.v === "+")) {
      p++;
      if (++depth > 100) throw new FormulaError("is nested too deeply");
      const a = unary();
      depth--;
      return t.v === "-" ? { k: "neg", a } : a;
    }
    return atom();
  }
  function atom(): Node {
    const t = peek();
    if (!t) throw new FormulaError("ends unexpectedly");
    if (t.t === "num") {
      p++;
      return { k: "num", v: new Decimal(t.v) };
    }
    if (t.t === "name") {
      p++;
      if (peek()?.t === "op" && peek().v === "(") {
        const spec = FUNCTIONS[t.v];
        if (!spec)
          throw new FormulaError(
            `uses unknown function ${t.v.toLowerCase()}() at position ${t.pos + 1} (allowed: min, max, round, floor, ceil, abs)`,
          );
        p++;
        const args = [expr()];
        while (peek()?.t === "op" && peek().v === ",") {
          p++;
          args.push(expr());
        }
        expectOp(")");
        if (args.length < spec.min || args.length > spec.max)
          throw new FormulaError(
            `${t.v.toLowerCase()}() takes ${spec.min === spec.max ? spec.min : `${spec.min} to ${spec.max}`} argument(s)`,
          );
        return { k: "call", fn: t.v, args };
      }
      return { k: "var", name: t.v };
    }
    if (t.v === "(") {
      p++;
      const e = expr();
      expectOp(")");
      return e;
    }
    throw new FormulaError(`unexpected "${t.v}" ${where()}`);
  }
  if (!toks.length) throw new FormulaError("is empty");
  const node = expr();
  if (p < toks.length) throw new FormulaError(`unexpected "${toks[p].v}" at position ${toks[p].pos + 1}`);
  return node;
}

export function variablesOf(node: Node, out = new Set<string>()): Set<string> {
  switch (node.k) {
    case "var":
      out.add(node.name);
      break;
    case "neg":
      variablesOf(node.a, out);
      break;
    case "bin":
      variablesOf(node.a, out);
      variablesOf(node.b, out);
      break;
    case "call":
      for (const a of node.args) variablesOf(a, out);
      break;
  }
  return out;
}

export function evaluate(node: Node, vars: (name: string) => Decimal): Decimal {
  switch (node.k) {
    case "num":
      return node.v;
    case "var":
      return vars(node.name);
    case "neg":
      return evaluate(node.a, vars).negated();
    case "bin": {
      const a = evaluate(node.a, vars);
      const b = evaluate(node.b, vars);
      if (node.op === "+") return a.plus(b);
      if (node.op === "-") return a.minus(b);
      if (node.op === "*") return a.times(b);
      return b.isZero() ? new Decimal(0) : a.div(b);
    }
    case "call": {
      const args = node.args.map((a) => evaluate(a, vars));
      switch (node.fn) {
        case "MIN":
          return Decimal.min(...args);
        case "MAX":
          return Decimal.max(...args);
        case "ROUND": {
          const places = args[1] ? Math.max(0, Math.min(6, args[1].toNumber() | 0)) : 0;
          return args[0].toDecimalPlaces(places, Decimal.ROUND_HALF_UP);
        }
        case "FLOOR":
          return args[0].floor();
        case "CEIL":
          return args[0].ceil();
        default:
          return args[0].abs();
      }
    }
  }
}

/** A cycle in a dependency graph (code → codes it uses) as `[A, B, …, A]`, or null; only edges within the graph count. */
export function findCycle(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, 1 | 2>();
  const stack: string[] = [];
  function visit(n: string): string[] | null {
    state.set(n, 1);
    stack.push(n);
    for (const m of graph.get(n) ?? []) {
      if (!graph.has(m)) continue;
      const s = state.get(m);
      if (s === 1) return [...stack.slice(stack.indexOf(m)), m];
      if (s === undefined) {
        const c = visit(m);
        if (c) return c;
      }
    }
    stack.pop();
    state.set(n, 2);
    return null;
  }
  for (const n of [...graph.keys()].sort()) {
    if (state.has(n)) continue;
    const c = visit(n);
    if (c) return c;
  }
  return null;
}

/** Codes in an order where every code comes after the codes it uses (graph must be acyclic). */
export function evaluationOrder(graph: Map<string, Set<string>>): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (n: string) => {
    if (seen.has(n)) return;
    seen.add(n);
    for (const m of [...(graph.get(n) ?? [])].sort()) if (graph.has(m)) visit(m);
    out.push(n);
  };
  for (const n of [...graph.keys()].sort()) visit(n);
  return out;
}
