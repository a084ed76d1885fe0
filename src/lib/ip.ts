// Client addresses as keys of per-client limits, and CIDR arithmetic. One IPv6 host routinely has a whole
// /64, so a per-client key is the /64, or else it would have 2^64 budgets (docs/security.md, "Per-client
// limits and IPv6").
import { isIP } from "node:net";

/** The 128 bits of an IPv6 address (without a zone), or null when `ip` is not one. */
export function ipv6Bits(ip: string): bigint | null {
  const addr = ip.split("%")[0];
  if (isIP(addr) !== 6) return null;
  let text = addr;
  // a trailing dotted IPv4 part (::ffff:1.2.3.4) as two groups
  const dotted = /^(.*:)(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const v4 = ipv4Bits(dotted[2]);
    if (v4 === null) return null;
    text = `${dotted[1]}${(v4 >> 16n).toString(16)}:${(v4 & 0xffffn).toString(16)}`;
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined];
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill("0"), ...right];
  if (groups.length !== 8) return null;
  return groups.reduce((acc, g) => (acc << 16n) | BigInt(Number.parseInt(g, 16)), 0n);
}

/** The 32 bits of an IPv4 address, or null when `ip` is not one. */
export function ipv4Bits(ip: string): bigint | null {
  if (isIP(ip) !== 4) return null;
  return ip.split(".").reduce((acc, o) => (acc << 8n) | BigInt(Number(o)), 0n);
}

const MAPPED_PREFIX = 0xffffn << 32n; // ::ffff:0:0/96, IPv4-mapped IPv6 addresses

/** The IPv4 address an IPv4-mapped IPv6 address stands for, or null. */
function mappedIpv4(bits: bigint): string | null {
  if (bits >> 32n !== 0xffffn) return null;
  return [24n, 16n, 8n, 0n].map((s) => String((bits >> s) & 0xffn)).join(".");
}

/** The key a per-client limit counts `ip` under (IPv4-mapped IPv6 as IPv4, other IPv6 as its /64); no address as given. */
export function clientKey(ip: string | undefined | null): string {
  if (!ip) return "unknown";
  if (isIP(ip) === 4) return ip;
  const bits = ipv6Bits(ip);
  if (bits === null) return ip;
  const v4 = mappedIpv4(bits);
  if (v4) return v4;
  const groups = [48n, 32n, 16n, 0n].map((s) => (((bits >> 64n) >> s) & 0xffffn).toString(16));
  return `${groups.join(":")}::/64`;
}

export interface Range {
  family: 4 | 6;
  /** The first address of the range. */
  base: bigint;
  prefix: number;
}

/** An address or CIDR (`10.0.0.0/8`, `2001:db8::/32`, `::1`) as a range, or null when it is not one. */
export function parseRange(s: string): Range | null {
  const [addr, prefixText, extra] = s.split("/");
  if (extra !== undefined) return null;
  const family = isIP(addr);
  if (family !== 4 && family !== 6) return null;
  const bitsLength = family === 4 ? 32 : 128;
  if (prefixText !== undefined && !/^[0-9]{1,3}$/.test(prefixText)) return null;
  const prefix = prefixText === undefined ? bitsLength : Number(prefixText);
  if (prefix > bitsLength) return null;
  const bits = family === 4 ? ipv4Bits(addr) : ipv6Bits(addr);
  if (bits === null) return null;
  const hostBits = BigInt(bitsLength - prefix);
  return { family, base: (bits >> hostBits) << hostBits, prefix };
}

/** Does `outer` contain all of `inner` (same family)? */
export function rangeContains(outer: Range, inner: Range): boolean {
  if (outer.family !== inner.family || inner.prefix < outer.prefix) return false;
  const hostBits = BigInt((outer.family === 4 ? 32 : 128) - outer.prefix);
  return inner.base >> hostBits === outer.base >> hostBits;
}

/**
 * The IPv4 range an IPv6 range covers through IPv4-mapped addresses (`::ffff:10.0.0.0/104` is
 * `10.0.0.0/8`; `::/64` holds every mapped address, all of IPv4), or null when it holds none.
 */
export function mappedIpv4Range(r: Range): Range | null {
  if (r.family !== 6) return null;
  const mapped: Range = { family: 6, base: MAPPED_PREFIX, prefix: 96 };
  if (rangeContains(r, mapped)) return { family: 4, base: 0n, prefix: 0 };
  if (rangeContains(mapped, r)) return { family: 4, base: r.base & 0xffffffffn, prefix: r.prefix - 96 };
  return null;
}
