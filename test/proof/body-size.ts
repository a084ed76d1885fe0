// The largest JSON body a request schema accepts, in bytes: compact JSON (no whitespace) with text
// written as UTF-8, every character of free text counted at 4 bytes (the most UTF-8 takes for one
// character; the schema's maxLength counts characters, not bytes). Strings bounded by a format, a
// pattern or an enum are counted as the ASCII they are. What no schema keyword bounds (a string
// without maxLength, format or anchored pattern, an array without maxItems, an object with free
// properties) makes the body unbounded: `unbounded` names where.
// Used by test/platform/body-limits.test.ts: every operation's `x-body-limit` must hold its largest
// valid body, so the body limit never refuses a request the schema accepts.
import { effective, type Schema } from "./openapi.ts";

export interface BodySize {
  bytes: number;
  unbounded: string[];
}

/** Bytes of the longest string of each format (ajv's "full" formats; no maxLength given). */
const FORMAT_BYTES: Record<string, number> = {
  uuid: 36,
  date: 10,
  // 2026-01-01T00:00:00.123456789+05:30 (ajv also takes more fraction digits; nobody sends them)
  "date-time": 35,
  time: 24,
  email: 254,
};
const BYTES_PER_CHAR = 4;

/**
 * The longest match of an anchored pattern (`^...$`) in characters, or Infinity. Handles literals,
 * escapes, classes, groups with alternatives and the quantifiers ?, *, +, {n}, {n,}, {n,m}.
 */
export function patternMaxLength(pattern: string): number {
  if (!pattern.startsWith("^") || !pattern.endsWith("$") || pattern.endsWith("\\$")) return Infinity;
  let i = 1;
  const end = pattern.length - 1;
  function alternatives(): number {
    let best = sequence();
    while (pattern[i] === "|") {
      i++;
      best = Math.max(best, sequence());
    }
    return best;
  }
  function sequence(): number {
    let total = 0;
    while (i < end && pattern[i] !== "|" && pattern[i] !== ")") total += quantified(atom());
    return total;
  }
  function atom(): number {
    const c = pattern[i];
    if (c === "(") {
      i++;
      if (pattern.startsWith("?:", i)) i += 2;
      const n = alternatives();
      if (pattern[i] !== ")") throw new Error(`unbalanced group in ${pattern}`);
      i++;
      return n;
    }
    if (c === "[") {
      i++;
      while (i < end && pattern[i] !== "]") i += pattern[i] === "\\" ? 2 : 1;
      i++;
      return 1;
    }
    i += c === "\\" ? 2 : 1;
    return 1;
  }
  function quantified(n: number): number {
    const c = pattern[i];
    if (c === "?" || c === "*" || c === "+") {
      i++;
      return c === "?" ? n : Infinity;
    }
    if (c === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(pattern.slice(i));
      if (!m) return n;
      i += m[0].length;
      const max = m[2] === undefined ? Number(m[1]) : m[3] === "" ? Infinity : Number(m[3]);
      return n * max;
    }
    return n;
  }
  const n = alternatives();
  return i === end ? n : Infinity;
}

const types = (s: Schema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

/** The largest compact JSON text `schema` accepts (see the file's head). */
export function largestBody(schema: Schema, at = "body", depth = 0): BodySize {
  const s = effective(schema);
  const unbounded: string[] = [];
  const of = (sub: Schema, where: string) => {
    const r = largestBody(sub, where, depth + 1);
    unbounded.push(...r.unbounded);
    return r.bytes;
  };
  if (depth > 40) return { bytes: Infinity, unbounded: [`${at} (recursive)`] };
  if (s.const !== undefined) return { bytes: Buffer.byteLength(JSON.stringify(s.const)), unbounded };
  if (Array.isArray(s.enum)) return { bytes: Math.max(...s.enum.map((v: unknown) => Buffer.byteLength(JSON.stringify(v)))), unbounded };
  const branches: Schema[] | undefined = s.oneOf ?? s.anyOf;
  if (branches) return { bytes: Math.max(...branches.map((b, n) => of(b, `${at}<${n}>`))), unbounded };
  let bytes = 0;
  const ts = types(s).length ? types(s) : s.properties ? ["object"] : [];
  if (!ts.length) return { bytes: Infinity, unbounded: [`${at} (any value)`] };
  for (const t of ts) {
    let n: number;
    if (t === "null") n = 4;
    else if (t === "boolean") n = 5;
    else if (t === "integer" || t === "number") {
      const bound = (v: unknown) => (typeof v === "number" ? String(v).length : Infinity);
      const digits = Math.max(bound(s.minimum ?? s.exclusiveMinimum), bound(s.maximum ?? s.exclusiveMaximum));
      // an unbounded number is still a number: at most what a double prints (-1.2345678901234567e+308)
      n = Number.isFinite(digits) && t === "integer" ? digits : 24;
    } else if (t === "string") {
      const pattern = typeof s.pattern === "string" ? patternMaxLength(s.pattern) : Infinity;
      const format = typeof s.format === "string" ? (FORMAT_BYTES[s.format] ?? Infinity) : Infinity;
      // a pattern of ASCII classes only matches ASCII; one with `.` or a negated class may not
      const wide = typeof s.pattern === "string" && /(^|[^\\])\.|\[\^|\\[DSW]/.test(s.pattern) ? BYTES_PER_CHAR : 1;
      if (Number.isFinite(format) || Number.isFinite(pattern)) n = 2 + wide * Math.min(format, pattern, s.maxLength ?? Infinity);
      else if (typeof s.maxLength === "number") n = 2 + BYTES_PER_CHAR * s.maxLength;
      else {
        unbounded.push(`${at} (string without maxLength)`);
        n = Infinity;
      }
    } else if (t === "array") {
      const items = s.items ? effective(s.items) : {};
      const distinct = s.uniqueItems && Array.isArray(items.enum) ? items.enum.length : Infinity;
      const count = Math.min(s.maxItems ?? Infinity, distinct);
      if (!Number.isFinite(count)) {
        unbounded.push(`${at} (array without maxItems)`);
        n = Infinity;
      } else n = 2 + count * (of(items, `${at}[]`) + 1);
    } else if (t === "object") {
      n = 2;
      for (const [k, p] of Object.entries<Schema>(s.properties ?? {})) n += Buffer.byteLength(JSON.stringify(k)) + 2 + of(p, `${at}.${k}`);
      if (s.additionalProperties !== false) {
        unbounded.push(`${at} (free properties)`);
        n = Infinity;
      }
    } else throw new Error(`unknown type ${t} at ${at}`);
    bytes = Math.max(bytes, n);
  }
  return { bytes, unbounded };
}

/**
 * The most objects and arrays (`containers`) and commas a body `schema` accepts may have - what
 * src/http/body.ts counts before parsing (jsonShape). Infinity where nothing bounds it.
 */
export function mostValues(schema: Schema, depth = 0): { containers: number; commas: number } {
  const s = effective(schema);
  if (depth > 40) return { containers: Infinity, commas: Infinity };
  if (s.const !== undefined || Array.isArray(s.enum)) return { containers: 0, commas: 0 };
  const branches: Schema[] | undefined = s.oneOf ?? s.anyOf;
  const most = (list: { containers: number; commas: number }[]) => ({
    containers: Math.max(0, ...list.map((x) => x.containers)),
    commas: Math.max(0, ...list.map((x) => x.commas)),
  });
  if (branches) return most(branches.map((b) => mostValues(b, depth + 1)));
  const ts = types(s).length ? types(s) : s.properties ? ["object"] : [];
  const out: { containers: number; commas: number }[] = [];
  for (const t of ts) {
    if (t === "array") {
      const items = s.items ? effective(s.items) : {};
      const distinct = s.uniqueItems && Array.isArray(items.enum) ? items.enum.length : Infinity;
      const count = Math.min(s.maxItems ?? Infinity, distinct);
      const each = mostValues(items, depth + 1);
      out.push({ containers: 1 + count * each.containers, commas: Math.max(0, count - 1) + count * each.commas });
    } else if (t === "object") {
      const props = Object.values<Schema>(s.properties ?? {}).map((p) => mostValues(p, depth + 1));
      const free = s.additionalProperties !== false ? Infinity : 0;
      out.push({
        containers: 1 + props.reduce((a, p) => a + p.containers, 0) + free,
        commas: Math.max(0, props.length - 1) + props.reduce((a, p) => a + p.commas, 0) + free,
      });
    } else out.push({ containers: 0, commas: 0 });
  }
  return most(out);
}
