// Request rate limits (docs/integrations-sync.md), stated on every answer of an operation with the IETF fields of
// draft-ietf-httpapi-ratelimit-headers (its current syntax, the one the 429s of the other limits
// already use, src/platform/errors.ts):
//   RateLimit-Policy: "tenant";q=30000;w=60, "caller";q=3000;w=60
//   RateLimit: "tenant";r=29410;t=42, "caller";r=2988;t=42
// Policies (src/config.ts): `tenant` (RATE_LIMIT_PER_TENANT: a company's callers together),
// `caller` (RATE_LIMIT_PER_CALLER: one signed-in user, or one API credential), both for a request
// with a session or a credential; `client` (RATE_LIMIT_PER_IP: one client IP, IPv6 by its /64) for a
// request with neither. A request with `Authorization: Bearer` is authenticated here, before it is
// counted, so that it counts against its credential's company and its credential; one whose
// credential is wrong counts against its address, and an address past its budget is refused before
// its credential is looked up (guessing secrets costs the address's budget, never a lookup past it).
// All in windows of RATE_LIMIT_WINDOW_SECONDS that start at a counter's first request. A request
// past a limit is a 429 `rate_limited` with `Retry-After` and the headers naming that policy alone;
// a refused request counts nothing. Health probes (`/api/health...`) are neither counted nor
// limited: a load balancer must always reach them.
//
// Shared across processes, cheap on the hot path: each process counts in memory and decides at once
// from the shared total it last read plus what it counted since; every RATE_LIMIT_SYNC_MS (started
// by a request, never awaited by one) it adds its counts to the shared counters in PostgreSQL
// (`usage_counters`, the table of the usage budgets: src/platform/limits.ts, addUses) in one
// statement and reads every process's totals back. So the limits hold across processes up to what
// the other processes served since the last sync; a database that cannot be reached leaves the
// counts in memory, to be added at the next sync.
//
// Times here are machine time (windows), not business time.
import type { NextFunction, Request, Response } from "express";
import { type Config, config } from "../config.ts";
import { bearerSecret, type CredentialIdentity } from "../platform/identity/credentials.ts";
import { authenticateBearer, credentialOf } from "./guards.ts";
import { operationOf } from "./routing.ts";
import { clientKey } from "../lib/ip.ts";
import { logger } from "../log.ts";
import { rateLimited } from "../platform/errors.ts";
import { addUses } from "../platform/limits.ts";

interface Counter {
  /** every process's uses as of the last sync (ours included) */
  shared: number;
  /** uses counted here since, not yet added to the shared counter */
  pending: number;
  /** uses being added by the sync under way */
  adding: number;
  /** when the window ends (machine time, ms) */
  windowEnds: number;
  windowSeconds: number;
}

interface Policy {
  name: "tenant" | "caller" | "client";
  key: string;
  max: number;
}

/** The counters of one app (its processes share them through PostgreSQL). */
export class RequestRateLimits {
  private readonly counters = new Map<string, Counter>();
  private lastSync = 0;
  private syncing: Promise<void> | null = null;

  /**
   * Counts one request against every policy, or none when one of them is used up (that policy is
   * returned as `refused`). Returns each policy's state for the headers.
   */
  take(policies: Policy[], windowSeconds: number, now: number) {
    const states = policies.map((p) => {
      let c = this.counters.get(p.key);
      if (!c || now >= c.windowEnds) {
        c = { shared: 0, pending: 0, adding: c?.adding ?? 0, windowEnds: now + windowSeconds * 1000, windowSeconds };
        this.counters.set(p.key, c);
      }
      return { policy: p, counter: c, used: c.shared + c.pending + c.adding };
    });
    const refused = states.find((s) => s.used >= s.policy.max);
    if (!refused) for (const s of states) s.counter.pending++;
    return {
      refused: refused && { policy: refused.policy, wait: Math.max(1, Math.ceil((refused.counter.windowEnds - now) / 1000)) },
      states: states.map((s) => ({
        policy: s.policy,
        remaining: Math.max(0, s.policy.max - s.used - (refused ? 0 : 1)),
        reset: Math.max(0, Math.ceil((s.counter.windowEnds - now) / 1000)),
      })),
    };
  }

  /** Seconds until `policy`'s window ends when it is used up, else null (counts nothing). */
  usedUp(policy: Policy, now: number): number | null {
    const c = this.counters.get(policy.key);
    if (!c || now >= c.windowEnds || c.shared + c.pending + c.adding < policy.max) return null;
    return Math.max(1, Math.ceil((c.windowEnds - now) / 1000));
  }

  /** Starts a sync when one is due and none is under way (never awaited by a request). */
  maybeSync(now: number, everyMs: number): void {
    if (this.syncing || now - this.lastSync < everyMs) return;
    this.lastSync = now;
    this.syncing = this.sync().finally(() => {
      this.syncing = null;
    });
  }

  /** Adds the counts of this process to the shared counters and reads the totals back (tests await it). */
  async sync(): Promise<void> {
    if (this.syncing) await this.syncing.catch(() => {});
    const batch: { key: string; uses: number; windowSeconds: number }[] = [];
    // machine time: windows of the rate limits
    const now = Date.now();
    for (const [key, c] of this.counters) {
      if (c.pending > 0) {
        c.adding += c.pending;
        batch.push({ key, uses: c.pending, windowSeconds: c.windowSeconds });
        c.pending = 0;
      } else if (now >= c.windowEnds && c.adding === 0) this.counters.delete(key);
    }
    if (!batch.length) return;
    try {
      const rows = await addUses(batch);
      // machine time: windows of the rate limits
      const at = Date.now();
      for (const row of rows) {
        const c = this.counters.get(row.key);
        if (!c) continue;
        c.adding = 0;
        c.shared = row.uses;
        c.windowEnds = at + row.remaining * 1000;
      }
    } catch (err) {
      for (const b of batch) {
        const c = this.counters.get(b.key);
        if (!c) continue;
        c.adding -= b.uses;
        c.pending += b.uses;
      }
      logger.warn({ err: (err as Error)?.message }, "rate limits: could not add the counts to the shared counters");
    }
  }
}

/** The policy of a request without a session or credential: its client IP (IPv6 by its /64). */
const addressPolicy = (req: Request, cfg: Config): Policy => ({
  name: "client",
  key: `rate:ip:${clientKey(req.ip ?? "")}`,
  max: cfg.rateLimitPerIp,
});

/** The policies of a request with an API credential: its company and the credential itself. */
const credentialPolicies = (cred: CredentialIdentity, cfg: Config): Policy[] => [
  { name: "tenant", key: `rate:tenant:${cred.tenantId}`, max: cfg.rateLimitPerTenant },
  { name: "caller", key: `rate:credential:${cred.id}`, max: cfg.rateLimitPerCaller },
];

/** The policies of a request: the session's company and user, else the client IP. */
function policiesOf(req: Request, cfg: Config): Policy[] {
  const userId = req.session?.userId;
  if (userId) {
    const tenantId = req.session.tenantId;
    return [
      ...(tenantId ? [{ name: "tenant" as const, key: `rate:tenant:${tenantId}`, max: cfg.rateLimitPerTenant }] : []),
      { name: "caller", key: `rate:user:${userId}`, max: cfg.rateLimitPerCaller },
    ];
  }
  return [addressPolicy(req, cfg)];
}

/** `RateLimit-Policy` of a list of policies, written once per configuration and shape (not per request). */
const policyHeaders = new WeakMap<Config, Map<string, string>>();
function policyHeader(cfg: Config, policies: Policy[]): string {
  let byShape = policyHeaders.get(cfg);
  if (!byShape) {
    byShape = new Map();
    policyHeaders.set(cfg, byShape);
  }
  const shape = policies.map((p) => p.name).join(",");
  let header = byShape.get(shape);
  if (header === undefined) {
    header = policies.map((p) => `"${p.name}";q=${p.max};w=${cfg.rateLimitWindowSeconds}`).join(", ");
    byShape.set(shape, header);
  }
  return header;
}

/** Health probes are never counted or limited. */
export const unlimitedPath = (p: string) => p === "/api/health" || p.startsWith("/api/health/");

/**
 * The middleware: counts the request, sets `RateLimit-Policy` and `RateLimit` on its answer (errors
 * included), refuses it with a 429 past a limit. Runs once the session is known (src/http/app.ts, operationPath).
 */
export function requestRateLimits(limits: RequestRateLimits) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (unlimitedPath(req.path)) return next();
    const cfg = config();
    const op = operationOf(req);
    const secret = op && !op.isPublic && !credentialOf(req) ? bearerSecret(req.headers.authorization) : undefined;
    if (secret === undefined) return count(limits, cfg, res, next, policiesOf(req, cfg));
    // an API credential (docs/integrations.md): the address's budget first (no lookup past it), then the credential
    const address = addressPolicy(req, cfg);
    // machine time: windows of the rate limits
    const wait = limits.usedUp(address, Date.now());
    if (wait !== null) return count(limits, cfg, res, next, [address]);
    authenticateBearer(req, secret).then(
      () => count(limits, cfg, res, next, credentialPolicies(credentialOf(req)!, cfg)),
      (err) => count(limits, cfg, res, ((refusal?: unknown) => next(refusal ?? err)) as NextFunction, [address]),
    );
  };
}

/** Counts the request against `policies`, states them in the headers, and refuses past a limit. */
function count(limits: RequestRateLimits, cfg: Config, res: Response, next: NextFunction, policies: Policy[]): void {
  const w = cfg.rateLimitWindowSeconds;
  // machine time: windows of the rate limits
  const now = Date.now();
  const { refused, states } = limits.take(policies, w, now);
  limits.maybeSync(now, cfg.rateLimitSyncMs);
  res.setHeader("RateLimit-Policy", policyHeader(cfg, policies));
  res.setHeader("RateLimit", states.map((s) => `"${s.policy.name}";r=${s.remaining};t=${s.reset}`).join(", "));
  if (!refused) {
    next();
    return;
  }
  next(
    rateLimited(
      refused.wait,
      { name: refused.policy.name, limit: refused.policy.max, windowSeconds: w },
      `Too many requests (${refused.policy.max} per ${w} s for this ` +
        `${refused.policy.name === "client" ? "address" : refused.policy.name}); retry in ${refused.wait} s`,
    ),
  );
}
