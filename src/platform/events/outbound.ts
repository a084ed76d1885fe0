// Where a webhook delivery may go and the one signed POST (src/platform/events/deliver.ts sends through it):
// only to public addresses, checked at connect time by the agents' `lookup` (WEBHOOK_ALLOW_LOOPBACK
// for tests and development); no redirect followed; the answer read up to 64 KiB; one deadline.
import { createHmac } from "node:crypto";
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import { config } from "../../config.ts";

const MAX_RESPONSE_BYTES = 64 * 1024;
const LOG_RESPONSE_CHARS = 1024;

// ─── where a delivery may go ───

const V4_BLOCKED: [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];
const V6_BLOCKED: [string, number][] = [
  ["::", 128],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
];
const blocked = new net.BlockList();
for (const [a, p] of V4_BLOCKED) blocked.addSubnet(a, p, "ipv4");
for (const [a, p] of V6_BLOCKED) blocked.addSubnet(a, p, "ipv6");
const loopback = new net.BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/** An IPv4 address an IPv6 one carries (`::ffff:a.b.c.d`, `::a.b.c.d`), else null. */
function embeddedV4(address: string): string | null {
  const lower = address.toLowerCase();
  for (const prefix of ["::ffff:", "::"]) {
    if (!lower.startsWith(prefix)) continue;
    const rest = lower.slice(prefix.length);
    if (net.isIPv4(rest)) return rest;
    const parts = rest.split(":");
    if (parts.length === 2 && parts.every((p) => /^[0-9a-f]{1,4}$/.test(p))) {
      const [hi, lo] = parts.map((p) => Number.parseInt(p, 16));
      return [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
    }
  }
  return null;
}

/** Why a delivery may not connect to `address`, or null when it may. */
export function refusedAddress(address: string, allowLoopback: boolean): string | null {
  const v4 = net.isIPv4(address) ? address : net.isIPv6(address) ? embeddedV4(address) : null;
  const [a, family] = v4 ? [v4, "ipv4" as const] : [address, "ipv6" as const];
  if (!net.isIP(a)) return `not an IP address: ${address}`;
  if (loopback.check(a, family)) return allowLoopback ? null : `loopback address ${address} (${LOOPBACK_HINT})`;
  if (blocked.check(a, family)) return `non-public address ${address}`;
  return null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** dns.lookup that refuses a name with any address a delivery may not connect to (the agents' `lookup`; `resolve` for tests). */
export function publicLookup(allowLoopback: boolean, resolve: typeof dns.lookup = dns.lookup) {
  return (hostname: string, options: dns.LookupOptions, cb: LookupCallback) => {
    resolve(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return cb(err, "");
      const list = addresses as dns.LookupAddress[];
      const refused = list.some((a) => refusedAddress(a.address, allowLoopback) !== null);
      if (refused || !list.length) {
        // the delivery log is read by the company's admins: what an internal name resolves to is not theirs to learn
        const e: NodeJS.ErrnoException = new Error(`refused: ${hostname} resolves to ${refused ? "a non-public address" : "no address"}`);
        e.code = "EREFUSEDADDRESS";
        return cb(e, "");
      }
      if (options.all) return cb(null, list);
      cb(null, list[0].address, list[0].family);
    });
  };
}

const agents = new Map<boolean, { http: http.Agent; https: https.Agent }>();
function agentsFor(allowLoopback: boolean) {
  let a = agents.get(allowLoopback);
  if (!a) {
    const options = { keepAlive: true, maxSockets: 64, lookup: publicLookup(allowLoopback) as unknown as net.LookupFunction };
    a = { http: new http.Agent(options), https: new https.Agent(options) };
    agents.set(allowLoopback, a);
  }
  return a;
}

/** What a loopback refusal says to do: the setting that allows it, on a development machine only. */
const LOOPBACK_HINT =
  "webhooks go to public addresses only; for a receiver on this machine during development set WEBHOOK_ALLOW_LOOPBACK=true " +
  "(the default outside production and tests)";

/** Why a URL may not be an endpoint (scheme, an address written in it), or null. Registration and every send. */
export function refusedUrl(raw: string, allowLoopback = config().webhookAllowLoopback): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return "is not a URL";
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return "must be an http(s) URL";
  if (u.username || u.password) return "must not carry credentials";
  const host = u.hostname.startsWith("[") ? u.hostname.slice(1, -1) : u.hostname;
  if (net.isIP(host)) return refusedAddress(host, allowLoopback);
  if (!allowLoopback && (host === "localhost" || host.endsWith(".localhost"))) return `is a loopback name (${host}): ${LOOPBACK_HINT}`;
  return null;
}

// ─── signing ───

/** The `webhook-signature` value: `v1,<base64>` for each secret (`whsec_<base64 key>`), space-separated. */
export function signatures(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((s) => {
      const key = Buffer.from(s.startsWith("whsec_") ? s.slice(6) : s, "base64");
      return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
    })
    .join(" ");
}

export interface SendResult {
  status: number | null;
  body: string | null;
  error: string | null;
  retryAfterS: number | null;
  ms: number;
}

/** One signed POST of `body` to `url`; never throws. */
export async function post(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
  const { webhookAllowLoopback, webhookTimeoutMs } = config();
  const started = process.hrtime.bigint();
  const elapsed = () => Math.round(Number(process.hrtime.bigint() - started) / 1e6);
  const refused = refusedUrl(url, webhookAllowLoopback);
  if (refused) return { status: null, body: null, error: `refused: ${refused}`, retryAfterS: null, ms: 0 };
  const u = new URL(url);
  const a = agentsFor(webhookAllowLoopback);
  return new Promise((resolve) => {
    let done = false;
    const finish = (r: Omit<SendResult, "ms">) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ ...r, ms: elapsed() });
    };
    const req = (u.protocol === "https:" ? https : http).request(
      u,
      {
        method: "POST",
        agent: u.protocol === "https:" ? a.https : a.http,
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "user-agent": "hrms-webhooks/1",
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const end = () => {
          const text = Buffer.concat(chunks).toString("utf8").slice(0, LOG_RESPONSE_CHARS);
          const ra = Number(res.headers["retry-after"]);
          finish({ status: res.statusCode ?? null, body: text, error: null, retryAfterS: Number.isFinite(ra) && ra >= 0 ? ra : null });
        };
        res.on("data", (c: Buffer) => {
          size += c.length;
          if (size <= MAX_RESPONSE_BYTES) chunks.push(c);
          else {
            res.destroy(); // enough: the rest is not read
            end();
          }
        });
        res.on("end", end);
        res.on("error", end);
      },
    );
    // machine time: the exchange's deadline
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${webhookTimeoutMs} ms`));
    }, webhookTimeoutMs);
    req.on("error", (err) => finish({ status: null, body: null, error: err.message.slice(0, 500), retryAfterS: null }));
    req.end(body);
  });
}
