// The reading functions of src/config.ts: each reads and checks one variable, recording what is wrong
// instead of throwing, so loadConfig reports every bad variable at once. scripts/build/docs-config.ts reads
// their parameters for docs/configuration.md.
import { mappedIpv4Range, parseRange, rangeContains } from "./lib/ip.ts";

/** The variables as the environment gives them. */
export type Env = Readonly<Record<string, string | undefined>>;

/** What one reading of the environment found wrong so far. */
export interface Reading {
  env: Env;
  problems: Error[];
}

/** The largest delay Node's timers take (longer ones fire at once). */
export const MAX_DELAY_MS = 2_147_483_647;
export const TRUE_WORDS = ["true", "1", "yes", "on"];
export const FALSE_WORDS = ["false", "0", "no", "off"];

export function value(r: Reading, name: string): string | undefined {
  const v = r.env[name];
  return v === undefined || v === "" ? undefined : v;
}

export function reject(r: Reading, message: string): undefined {
  r.problems.push(new Error(message));
  return undefined;
}

/** An AES-256 key: 64 hex digits or the base64 of 32 bytes (returned as written). */
export function secretKey(r: Reading, name: string): string | undefined {
  const v = value(r, name);
  if (v === undefined) return undefined;
  const bytes = /^[0-9a-fA-F]{64}$/.test(v) ? 32 : /^[A-Za-z0-9+/]{43}=?$/.test(v) ? Buffer.from(v, "base64").length : 0;
  return bytes === 32 ? v : reject(r, `${name} must be 32 bytes: 64 hex digits or 44 base64 characters (openssl rand -base64 32)`);
}

/** A whole number in decimal digits within [min, max]. */
export function integer(r: Reading, name: string, dflt: number, min: number, max: number, what: string): number {
  const v = value(r, name);
  if (v === undefined) return dflt;
  const n = /^[0-9]+$/.test(v) ? Number(v) : NaN;
  if (n >= min && n <= max) return n;
  reject(r, `${name} must be ${what}, got ${JSON.stringify(v)}`);
  return dflt;
}

export function positiveInt(r: Reading, name: string, dflt: number): number {
  return integer(r, name, dflt, 1, Number.MAX_SAFE_INTEGER, "a positive integer");
}

export function nonNegativeInt(r: Reading, name: string, dflt: number): number {
  return integer(r, name, dflt, 0, Number.MAX_SAFE_INTEGER, "a non-negative integer");
}

/** Milliseconds for a timer: at most what Node's timers take. */
export function durationMs(r: Reading, name: string, dflt: number, min: 0 | 1 = 1): number {
  return integer(
    r,
    name,
    dflt,
    min,
    MAX_DELAY_MS,
    `${min ? "a positive" : "a non-negative"} integer of milliseconds up to ${MAX_DELAY_MS}`,
  );
}

export function portNumber(r: Reading, name: string, dflt: number, min: 0 | 1): number {
  return integer(r, name, dflt, min, 65535, `an integer from ${min} to 65535`);
}

/** A port (0 to 65535; 0: a free one), or undefined when unset. */
export function optionalPort(r: Reading, name: string): number | undefined {
  return value(r, name) === undefined ? undefined : portNumber(r, name, 0, 0);
}

export type TrustProxy = false | number | readonly string[];

export const PROXY_PRESETS = ["loopback", "linklocal", "uniquelocal"];
/** More proxies in front than any real deployment has: a count this high believes what clients write. */
export const MAX_PROXY_HOPS = 5;
/** The widest range of public addresses TRUST_PROXY takes: a wider one holds clients, not only proxies. */
export const MAX_PROXY_RANGE = { 4: 8, 6: 16 } as const;
/** IPv6 ranges that are never public (unique local fc00::/7, link-local fe80::/10): any width of them is a private network. */
export const PRIVATE_V6 = [parseRange("fc00::/7")!, parseRange("fe80::/10")!];

/** An address or CIDR of a proxy in form (IPv4 or IPv6, prefix within the family's length), or a preset. */
export function isProxyAddress(s: string): boolean {
  return PROXY_PRESETS.includes(s) || parseRange(s) !== null;
}

/**
 * Why trusting the proxy range `s` (well-formed) would trust clients, or null when it names proxies:
 * a range over every address of a family (`0.0.0.0/0`, `::/0`, `::ffff:0:0/96`, which holds every
 * IPv4 client as an IPv4-mapped address) or wider than a /8 of IPv4 or a /16 of public IPv6.
 */
export function proxyRangeProblem(s: string): string | null {
  const parsed = parseRange(s);
  if (!parsed) return null;
  if (parsed.prefix === 0) return `${JSON.stringify(s)} trusts every IPv${parsed.family} address`;
  const range = mappedIpv4Range(parsed) ?? parsed;
  const family = range.family === 4 ? "IPv4" : "IPv6";
  const via = range === parsed ? "" : " (as IPv4-mapped IPv6 addresses)";
  if (range.prefix === 0) return `${JSON.stringify(s)} trusts every ${family} address${via}`;
  if (range.family === 6 && PRIVATE_V6.some((p) => rangeContains(p, range))) return null;
  if (range.prefix < MAX_PROXY_RANGE[range.family])
    return `${JSON.stringify(s)} is wider than a /${MAX_PROXY_RANGE[range.family]} of ${family}${via}: it holds clients, not only proxies`;
  return null;
}

/**
 * TRUST_PROXY: false / true (one hop) / a hop count (at most MAX_PROXY_HOPS) / a comma-separated
 * list of proxy addresses, CIDRs and presets, none of whose ranges trusts clients (proxyRangeProblem).
 */
export function trustProxy(r: Reading, name: string): TrustProxy {
  const v = value(r, name)?.trim();
  if (v === undefined || FALSE_WORDS.includes(v.toLowerCase())) return false;
  if (TRUE_WORDS.includes(v.toLowerCase())) return 1;
  const meaning = (why: string) =>
    reject(
      r,
      `${name}: ${why}. Any client could then write the address the limits and the audit trail take for its own into ` +
        "X-Forwarded-For: name only your proxies (their addresses or ranges), or the number of proxies in front",
    );
  if (/^[0-9]{1,2}$/.test(v)) {
    if (Number(v) <= MAX_PROXY_HOPS) return Number(v);
    meaning(`${v} proxy hops is more than any deployment has in front (at most ${MAX_PROXY_HOPS})`);
    return false;
  }
  const list = v
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);
  if (list.length && list.every(isProxyAddress)) {
    const problems = list.map(proxyRangeProblem).filter((p): p is string => p !== null);
    if (!problems.length) return list;
    meaning(problems.join("; "));
    return false;
  }
  reject(
    r,
    `${name} must be false, true (one proxy), a number of proxy hops, or the proxies' addresses/CIDRs ` +
      `(comma-separated; loopback, linklocal, uniquelocal), got ${JSON.stringify(v)}`,
  );
  return false;
}

export function bool(r: Reading, name: string, dflt: boolean): boolean {
  const v = value(r, name);
  if (v === undefined) return dflt;
  if (TRUE_WORDS.includes(v.toLowerCase())) return true;
  if (FALSE_WORDS.includes(v.toLowerCase())) return false;
  reject(r, `${name} must be true or false (or 1/0, yes/no, on/off), got ${JSON.stringify(v)}`);
  return dflt;
}

export function oneOf<T extends string>(r: Reading, name: string, values: readonly T[], dflt: T): T {
  const v = value(r, name);
  if (v === undefined) return dflt;
  if ((values as readonly string[]).includes(v)) return v as T;
  reject(r, `${name} must be one of ${values.join(", ")}, got ${JSON.stringify(v)}`);
  return dflt;
}

/**
 * A URL with one of `protocols`. Its value is not repeated in the error: it may hold a password
 * (DATABASE_URL, SMTP_URL).
 */
export function url(r: Reading, name: string, protocols: readonly string[]): string | undefined {
  const v = value(r, name);
  if (v === undefined) return undefined;
  const wanted = `a ${protocols.map((p) => `${p}//`).join(" or ")} URL`;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return reject(r, `${name} must be ${wanted} (its value does not parse as a URL)`);
  }
  if (!protocols.includes(u.protocol)) return reject(r, `${name} must be ${wanted}, got a ${u.protocol} URL`);
  return v;
}

/** Comma-separated http(s) origins, each exactly as a browser sends it in `Origin`. */
export function origins(r: Reading, name: string): string[] {
  const list = (value(r, name) ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = list.filter((o) => {
    try {
      const u = new URL(o);
      return !["http:", "https:"].includes(u.protocol) || u.origin !== o;
    } catch {
      return true;
    }
  });
  if (bad.length)
    reject(
      r,
      `${name} must be a comma-separated list of origins such as https://app.example.com (scheme, ` +
        `lower-case host and port only), got ${bad.map((b) => JSON.stringify(b)).join(", ")}`,
    );
  return list.filter((o) => !bad.includes(o));
}

/** An ISO 8601 instant with a date, a time and an offset (`Z` or `±hh:mm`). */
export function instant(r: Reading, name: string): string | undefined {
  const v = value(r, name);
  if (v === undefined) return undefined;
  const form = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,3})?)?(Z|[+-][0-9]{2}:[0-9]{2})$/;
  const day = v.slice(0, 10);
  const real = form.test(v) && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day); // not 2026-02-30
  if (real && Number.isFinite(Date.parse(v))) return new Date(v).toISOString();
  return reject(r, `${name} must be an ISO 8601 instant with its offset, such as 2026-11-28T12:00:00Z, got ${JSON.stringify(v)}`);
}

export function text(r: Reading, name: string): string | undefined;
export function text(r: Reading, name: string, dflt: string): string;
export function text(r: Reading, name: string, dflt?: string): string | undefined {
  return value(r, name) ?? dflt;
}
