// Prisma's `contains`/`startsWith`/`endsWith` (and insensitive `equals`) do not escape LIKE wildcards
// (prisma/prisma#10810, #19506): literalPatterns() escapes `\`, `%` and `_` so they match literally;
// the scoped client applies it to every query (src/db/tenancy.ts).
type Json = Record<string, unknown>;

const LIKE_KEYS = ["contains", "startsWith", "endsWith"] as const;
/** Argument keys that hold row data, not filters: never rewritten. */
const DATA_KEYS = new Set(["data", "create", "update"]);

/** `s` with LIKE's escape character and wildcards escaped (PostgreSQL's default escape is `\`). */
export const escapeLike = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v) && !(v instanceof Date);

function rewrite(v: unknown): unknown {
  if (Array.isArray(v)) {
    let changed = false;
    const out = v.map((x) => {
      const r = rewrite(x);
      if (r !== x) changed = true;
      return r;
    });
    return changed ? out : v;
  }
  if (!isObject(v) || Object.getPrototypeOf(v) !== Object.prototype) return v;
  let out: Json | undefined;
  const set = (k: string, value: unknown) => {
    out ??= { ...v };
    out[k] = value;
  };
  for (const k of LIKE_KEYS) if (typeof v[k] === "string") set(k, escapeLike(v[k] as string));
  if (v.mode === "insensitive" && typeof v.equals === "string") set("equals", escapeLike(v.equals));
  for (const [k, x] of Object.entries(v)) {
    if (DATA_KEYS.has(k) || (LIKE_KEYS as readonly string[]).includes(k) || k === "equals") continue;
    const r = rewrite(x);
    if (r !== x) set(k, r);
  }
  return out ?? v;
}

/** The query's arguments with every LIKE-based string filter matching its text literally. */
export function literalPatterns<T>(args: T): T {
  return rewrite(args) as T;
}
