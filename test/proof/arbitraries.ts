// fast-check arbitraries from the document's JSON schemas: `valid(schema)` produces values the
// schema accepts (with unicode, injection-like strings, boundary numbers and long strings where
// the schema allows them); `invalid(schema)` produces values it must refuse, each with the reason
// (wrong type, missing required, out of range, too long, not in the enum, bad format, extra field).
// Wrong types for any value are ones no reading of text could make right (an object for a scalar, a
// string for an object or array): path, query and header values are text, read as their declared type.
// A JSON body's values are never converted, so its properties also get the scalar of another JSON type
// that conversion would have accepted (`false` for a string, `"1"` for an integer, `"true"` for a boolean).
import fc from "fast-check";
import { effective, types, type Schema } from "./openapi.ts";

/** Strings that break naive code: SQL/NoSQL/template/path injection, markup, control characters. */
export const NASTY = [
  "' OR '1'='1",
  "'; DROP TABLE users; --",
  '" OR ""="',
  "1; SELECT pg_sleep(5)",
  "$where: '1 == 1'",
  '{"$gt": ""}',
  "${jndi:ldap://x/a}",
  "{{7*7}}",
  "<script>alert(1)</script>",
  "../../../../etc/passwd",
  "%00%0d%0a",
  "\u0000",
  "nul\u0000inside",
  "\r\nSet-Cookie: x=1",
  "\u202eevil\u202c",
  "ｆｕｌｌｗｉｄｔｈ",
  "👩‍👩‍👧‍👦🏳️‍🌈",
  "Zalgo: Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫǧ̗͚̚o̙̔ͮ̇͐̇",
  "\uFEFFbom",
  "null",
  "undefined",
  "true",
  "-1",
  "1e309",
  " ",
  "",
];

const cpLength = (s: string) => [...s].length;

/**
 * A pattern of one repeated atom (`^[A-Za-z0-9_-]+$`) with the schema's length bounds written into
 * it (`^[A-Za-z0-9_-]{20,100}$`): fast-check's stringMatching draws short repetitions, and filtering
 * them by a minLength of 20 would almost never succeed (the generator would spin for ever).
 */
export function boundedPattern(pattern: string, min: number, max: number): string {
  const m = /^\^(\[(?:\\.|[^\]\\])+\]|\\[dDwWsS]|\.)([+*])\$$/.exec(pattern);
  if (!m || (min === 0 && max >= 5000)) return pattern;
  const lo = Math.max(min, m[2] === "+" ? 1 : 0);
  return `^${m[1]}{${lo},${Math.max(lo, Math.min(max, lo + 60))}}$`;
}

function stringArb(s: Schema): fc.Arbitrary<string> {
  const min = s.minLength ?? 0;
  const max = Math.min(s.maxLength ?? 5000, 20_000);
  const fmt = s.format as string | undefined;
  if (fmt === "email") return emailArb().filter((e) => e.length >= min && e.length <= (s.maxLength ?? 254));
  if (fmt === "uuid") return fc.uuid();
  if (fmt === "date") return dateArb();
  if (fmt === "date-time")
    return fc
      .date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("2199-12-31T23:59:59Z"), noInvalidDate: true })
      .map((d) => d.toISOString());
  if (fmt === "binary") return fc.constant("");
  if (fmt === "uri")
    return fc
      .webUrl({ withQueryParameters: true, withFragments: true })
      .filter((u) => u.length >= min && u.length <= max && (!s.pattern || new RegExp(s.pattern).test(u)));
  if (s.pattern)
    return fc.stringMatching(new RegExp(boundedPattern(s.pattern, min, max))).filter((x) => cpLength(x) >= min && cpLength(x) <= max);
  const fits = (x: string) => cpLength(x) >= min && cpLength(x) <= max;
  return fc
    .oneof(
      { weight: 4, arbitrary: fc.string({ unit: "grapheme", minLength: min, maxLength: Math.min(max, Math.max(min, 40)) }) },
      { weight: 2, arbitrary: fc.string({ unit: "binary", minLength: min, maxLength: Math.min(max, Math.max(min, 40)) }) },
      { weight: 2, arbitrary: fc.constantFrom(...NASTY) },
      { weight: 1, arbitrary: fc.constantFrom(min, max).map((n) => "x".repeat(n)) },
      { weight: 1, arbitrary: fc.integer({ min, max }).map((n) => "é".repeat(n)) },
    )
    .filter(fits);
}

function emailArb(): fc.Arbitrary<string> {
  const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,20}[a-z0-9])?$/);
  const local = fc.stringMatching(/^[a-z0-9_+-]{1,10}(?:\.[a-z0-9_+-]{1,10}){0,2}$/);
  return fc
    .tuple(local, fc.array(label, { minLength: 1, maxLength: 2 }), fc.constantFrom("test", "example", "co"))
    .map(([l, d, tld]) => `${l}@${d.join(".")}.${tld}`);
}

const pad = (n: number, w: number) => String(n).padStart(w, "0");
function dateArb(): fc.Arbitrary<string> {
  const days = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
  const ymd = (yr: fc.Arbitrary<number>) =>
    fc
      .tuple(yr, fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 31 }))
      .map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(Math.min(d, days(y, m)), 2)}`);
  // mostly realistic years, sometimes the extremes the format allows
  return fc.oneof(
    { weight: 5, arbitrary: ymd(fc.integer({ min: 1990, max: 2060 })) },
    { weight: 1, arbitrary: ymd(fc.integer({ min: 0, max: 9999 })) },
  );
}

function numberArb(s: Schema, integer: boolean): fc.Arbitrary<number> {
  let min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + (integer ? 1 : 1e-9) : undefined);
  let max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - (integer ? 1 : 1e-9) : undefined);
  if (integer) {
    min = min === undefined ? Number.MIN_SAFE_INTEGER : Math.ceil(min);
    max = max === undefined ? Number.MAX_SAFE_INTEGER : Math.floor(max);
    const edges = [min, max, Math.min(Math.max(0, min), max), Math.min(min + 1, max)];
    return fc.oneof(
      fc.constantFrom(...edges),
      fc.integer({ min: Math.max(min, -1000), max: Math.max(Math.min(max, 1000), Math.max(min, -1000)) }),
      fc.integer({ min, max }),
    );
  }
  if (s.multipleOf) {
    // n × multipleOf within the bounds (e.g. experience in half years)
    const step = s.multipleOf as number;
    const lo = Math.ceil((min ?? -1e9) / step);
    const hi = Math.floor((max ?? 1e9) / step);
    return fc.integer({ min: lo, max: Math.max(lo, hi) }).map((n) => Number((n * step).toFixed(10)));
  }
  return fc.double({ min: min ?? -1e12, max: max ?? 1e12, noNaN: true, noDefaultInfinity: true });
}

/** Values the schema accepts. */
export function valid(schema: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const s = effective(schema);
  if (s.const !== undefined) return fc.constant(s.const);
  if (s.enum) return fc.constantFrom(...s.enum);
  if (s.oneOf || s.anyOf) return fc.oneof(...(s.oneOf ?? s.anyOf).map((x: Schema) => valid(x, depth + 1)));
  const ts = types(s);
  const nonNull = ts.filter((x) => x !== "null");
  const arbs: fc.Arbitrary<unknown>[] = nonNull.map((t) => typed(s, t, depth));
  if (ts.includes("null")) arbs.push(fc.constant(null));
  if (!arbs.length) return fc.oneof(fc.string(), fc.integer(), fc.boolean());
  return arbs.length === 1 ? arbs[0] : fc.oneof(...arbs);
}

function typed(s: Schema, t: string, depth: number): fc.Arbitrary<unknown> {
  switch (t) {
    case "string":
      return stringArb(s);
    case "integer":
      return numberArb(s, true);
    case "number":
      return numberArb(s, false);
    case "boolean":
      return fc.boolean();
    case "array": {
      const item = valid(s.items ?? {}, depth + 1);
      const c = { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 4, (s.minItems ?? 0) + 4) };
      return s.uniqueItems ? fc.uniqueArray(item, { ...c, selector: (v) => JSON.stringify(v) }) : fc.array(item, c);
    }
    case "object": {
      const props: Record<string, Schema> = s.properties ?? {};
      const required: string[] = (s.required ?? []).filter((k: string) => k in props);
      if (depth > 4) return fc.constant(Object.fromEntries(required.map((k) => [k, null])));
      const model = Object.fromEntries(
        Object.entries(props)
          .filter(([, p]) => effective(p).format !== "binary")
          .map(([k, p]) => [k, valid(p, depth + 1)]),
      );
      const minProps = s.minProperties ?? 0;
      // conditional requirements (if/then/else, dependentRequired): the keys they ask for are
      // taken from a record with every property
      const conditional = s.if || s.dependentRequired;
      const arb = conditional
        ? fc
            .tuple(fc.record(model, { requiredKeys: required }), fc.record(model))
            .map(([o, all]) => withConditionalKeys(s, o as Record<string, unknown>, all as Record<string, unknown>))
        : fc.record(model, { requiredKeys: required });
      return arb.filter((o) => Object.keys(o).length >= minProps && Object.keys(o).length <= (s.maxProperties ?? Infinity));
    }
    default:
      return fc.string();
  }
}

/** Whether an object meets the `required` / `not: { required }` condition of an `if`. */
function meets(cond: Schema, o: Record<string, unknown>): boolean {
  const has = (ks: string[] | undefined) => (ks ?? []).every((k) => k in o);
  return has(cond.required) && (!cond.not || !has(cond.not.required));
}

/** `o` with the keys its schema's if/then/else and dependentRequired ask for, taken from `all`. */
function withConditionalKeys(s: Schema, o: Record<string, unknown>, all: Record<string, unknown>): Record<string, unknown> {
  const out = { ...o };
  for (let changed = true, round = 0; changed && round < 8; round++) {
    changed = false;
    const need = (ks: string[] | undefined) => {
      for (const k of ks ?? [])
        if (!(k in out) && k in all) {
          out[k] = all[k];
          changed = true;
        }
    };
    if (s.if) need(meets(s.if, out) ? s.then?.required : s.else?.required);
    for (const [k, deps] of Object.entries<string[]>(s.dependentRequired ?? {})) if (k in out) need(deps);
  }
  return out;
}

// ───────────────────────────── invalid values ─────────────────────────────

export interface Invalid {
  value: unknown;
  why: string;
}

/** A value of the wrong type that coercion cannot turn into the right one. */
function wrongType(s: Schema): unknown[] {
  const ts = types(s);
  const out: unknown[] = [];
  if (!ts.includes("object")) out.push({ unexpected: "object" });
  if (!ts.includes("string") && (ts.includes("object") || ts.includes("array"))) out.push("not-an-object-or-array");
  if (ts.includes("object") && !ts.includes("array")) out.push([1, 2, 3]);
  return out;
}

/** The scalar of another JSON type that type conversion would have accepted for this one (none for mixed types). */
export function convertibleWrongType(s: Schema): Invalid[] {
  const ts = types(s).filter((x) => x !== "null");
  if (ts.length !== 1) return [];
  if (ts[0] === "string") return [{ value: false, why: "a boolean for a string" }];
  if (ts[0] === "integer" || ts[0] === "number") return [{ value: String(s.minimum ?? 1), why: "a number as a string" }];
  if (ts[0] === "boolean") return [{ value: "true", why: "a boolean as a string" }];
  return [];
}

/** Ways this (scalar or array) value schema can be violated, without touching siblings. */
export function violations(schema: Schema | undefined): Invalid[] {
  const s = effective(schema);
  if (s.oneOf || s.anyOf || !types(s).length) return wrongType(s).map((value) => ({ value, why: "wrong type" }));
  const out: Invalid[] = wrongType(s).map((value) => ({ value, why: "wrong type" }));
  const ts = types(s);
  if (s.enum && ts.includes("string")) out.push({ value: "not-in-enum-✗", why: "not in enum" });
  if (ts.includes("string") && !s.enum) {
    if (s.maxLength !== undefined) {
      out.push({ value: "y".repeat(s.maxLength + 1), why: `longer than maxLength ${s.maxLength}` });
      out.push({ value: "ü".repeat(s.maxLength + 10_000), why: "huge string" });
    }
    if (s.minLength) out.push({ value: "z".repeat(s.minLength - 1), why: `shorter than minLength ${s.minLength}` });
    if (s.pattern && !new RegExp(s.pattern).test("§ not matching §"))
      out.push({ value: "§ not matching §", why: `not matching ${s.pattern}` });
    const bad: Record<string, string[]> = {
      email: ["not-an-email", "a@", "@b.test", "a b@c.test"],
      uuid: ["not-a-uuid", "12345", "00000000-0000-0000-0000-00000000000g", "' OR 1=1 --"],
      date: ["2026-02-30", "2026-13-01", "2026-00-10", "26-01-01", "yesterday", "2026-01-01T00:00:00Z"],
      "date-time": ["yesterday", "2026-01-01", "2026-13-01T00:00:00Z"],
    };
    for (const v of bad[s.format] ?? []) out.push({ value: v, why: `not a valid ${s.format}` });
  }
  if ((ts.includes("integer") || ts.includes("number")) && !s.enum) {
    if (s.minimum !== undefined) out.push({ value: s.minimum - 1, why: `below minimum ${s.minimum}` });
    if (s.maximum !== undefined) out.push({ value: s.maximum + 1, why: `above maximum ${s.maximum}` });
    if (s.exclusiveMinimum !== undefined) out.push({ value: s.exclusiveMinimum, why: `not above exclusiveMinimum ${s.exclusiveMinimum}` });
    if (ts.includes("integer") && !ts.includes("number")) out.push({ value: 1.5, why: "not an integer" });
    if (!ts.includes("string")) out.push({ value: "twelve", why: "not a number" });
  }
  if (ts.includes("boolean") && !ts.includes("string")) out.push({ value: "maybe", why: "not a boolean" });
  if (ts.includes("array") && s.maxItems !== undefined)
    out.push({ value: Array.from({ length: s.maxItems + 1 }, (_, i) => i), why: `more than maxItems ${s.maxItems}` });
  if (ts.includes("array") && s.items)
    for (const v of violations(s.items).slice(0, 2)) out.push({ value: [v.value], why: `item ${v.why}` });
  if (ts.includes("array") && s.uniqueItems && s.items && (effective(s.items).enum?.length ?? 2) > 0) {
    const item = effective(s.items).enum?.[0];
    if (item !== undefined) out.push({ value: [item, item], why: "duplicate items" });
  }
  return out;
}

/**
 * An invalid object for an object schema: one valid base value with exactly one violation - a
 * missing required property, a property violating its schema, an extra property where
 * additionalProperties is false, fewer properties than minProperties, or the wrong root type.
 */
export function invalidObject(schema: Schema): fc.Arbitrary<Invalid> {
  const s = effective(schema);
  const props: Record<string, Schema> = s.properties ?? {};
  const base = valid(s) as fc.Arbitrary<Record<string, unknown>>;
  const mutations: fc.Arbitrary<Invalid>[] = [];
  for (const r of s.required ?? []) mutations.push(base.map((o) => ({ value: omit(o, r), why: `missing required ${r}` })));
  for (const [k, p] of Object.entries(props)) {
    if (effective(p).format === "binary") continue;
    const vs = [...violations(p), ...convertibleWrongType(effective(p))];
    if (vs.length)
      mutations.push(fc.tuple(base, fc.constantFrom(...vs)).map(([o, v]) => ({ value: { ...o, [k]: v.value }, why: `${k}: ${v.why}` })));
  }
  if (s.additionalProperties === false)
    mutations.push(
      fc
        .tuple(base, fc.constantFrom("unexpected_field", "__proto__x", "tenant_id", "id", "isAdmin"))
        .map(([o, k]) => ({ value: { ...o, [k]: "x" }, why: `extra field ${k}` })),
    );
  if ((s.minProperties ?? 0) > 0) mutations.push(fc.constant({ value: {}, why: "fewer properties than minProperties" }));
  mutations.push(
    fc.constantFrom<Invalid>(
      { value: [1, 2], why: "root is an array" },
      { value: "text", why: "root is a string" },
      { value: 42, why: "root is a number" },
    ),
  );
  return fc.oneof(...mutations);
}

function omit(o: Record<string, unknown>, k: string): Record<string, unknown> {
  const c = { ...o };
  delete c[k];
  return c;
}
