// Request rate limits (`tenant`, `caller`, `client`) stated on every answer in the IETF RateLimit fields, 429
// past a limit; a bearer request is authenticated before it is counted, after its address's budget. Policies
// and fields: docs/decisions/0007-integrations-internals.md, "Rate limits"; the batched window store and the
// 429: docs/operations.md, "Limits and the 429". Windows are machine time, not business time.
import type { NextFunction, Request, Response } from "express";
import { type Config, config } from "../config.ts";
import { bearerSecret, type CredentialIdentity } from "../platform/identity/credentials.ts";
import { authenticateBearer, credentialOf } from "./guards.ts";
import { operationOf } from "./routing.ts";
import { clientKey } from "../lib/ip.ts";
import { BatchedWindows } from "../db/windows-batched.ts";
import type { WindowLimit } from "../db/windows.ts";
import { refusal } from "../platform/limits.ts";

type Policy = WindowLimit & { policy: "tenant" | "caller" | "client" };

/** The counters of one app (its processes share them through PostgreSQL). */
export class RequestRateLimits extends BatchedWindows {}

/** A refusal's words for `per` ("caller"), written once per configuration (not per request). */
const wordsOf = new WeakMap<Config, Map<string, { what: string; per: string }>>();
function words(cfg: Config, per: string): { what: string; per: string } {
  let byPer = wordsOf.get(cfg);
  if (!byPer) {
    byPer = new Map();
    wordsOf.set(cfg, byPer);
  }
  let w = byPer.get(per);
  if (!w) {
    w = { what: "Request", per: `requests per ${per} per ${cfg.rateLimitWindowSeconds} s` };
    byPer.set(per, w);
  }
  return w;
}

/** The policy of a request without a session or credential: its client IP (IPv6 by its /64). */
const addressPolicy = (req: Request, cfg: Config): Policy => ({
  policy: "client",
  key: `rate:ip:${clientKey(req.ip ?? "")}`,
  max: cfg.rateLimitPerIp,
  windowSeconds: cfg.rateLimitWindowSeconds,
  ...words(cfg, "client IP"),
});

const tenantPolicy = (tenantId: string, cfg: Config): Policy => ({
  policy: "tenant",
  key: `rate:tenant:${tenantId}`,
  max: cfg.rateLimitPerTenant,
  windowSeconds: cfg.rateLimitWindowSeconds,
  ...words(cfg, "company"),
});

/** `key`: the signed-in user's or the API credential's counter. */
const callerPolicy = (key: string, cfg: Config): Policy => ({
  policy: "caller",
  key,
  max: cfg.rateLimitPerCaller,
  windowSeconds: cfg.rateLimitWindowSeconds,
  ...words(cfg, "caller"),
});

/** The policies of a request with an API credential: its company and the credential itself. */
const credentialPolicies = (cred: CredentialIdentity, cfg: Config): Policy[] => [
  tenantPolicy(cred.tenantId, cfg),
  callerPolicy(`rate:credential:${cred.id}`, cfg),
];

/** The policies of a request: the session's company and user, else the client IP. */
function policiesOf(req: Request, cfg: Config): Policy[] {
  const userId = req.session?.userId;
  if (userId) {
    const tenantId = req.session.tenantId;
    return [...(tenantId ? [tenantPolicy(tenantId, cfg)] : []), callerPolicy(`rate:user:${userId}`, cfg)];
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
  const shape = policies.map((p) => p.policy).join(",");
  let header = byShape.get(shape);
  if (header === undefined) {
    header = policies.map((p) => `"${p.policy}";q=${p.max};w=${cfg.rateLimitWindowSeconds}`).join(", ");
    byShape.set(shape, header);
  }
  return header;
}

/** Health probes are never counted or limited. */
export const unlimitedPath = (p: string) => p === "/api/health" || p.startsWith("/api/health/");

/** Runs once the session is known (src/http/app.ts, operationPath); errors carry the fields too. */
export function requestRateLimits(limits: RequestRateLimits) {
  return (req: Request, res: Response, next: NextFunction) => {
    if (unlimitedPath(req.path)) return next();
    const cfg = config();
    const op = operationOf(req);
    const secret = op && !op.isPublic && !credentialOf(req) ? bearerSecret(req.headers.authorization) : undefined;
    if (secret === undefined) return count(limits, cfg, res, next, policiesOf(req, cfg));
    // an API credential (docs/integrations.md): the address's budget first (no lookup past it), then the credential
    const address = addressPolicy(req, cfg);
    if (limits.usedUp(address, Date.now())) return count(limits, cfg, res, next, [address]);
    authenticateBearer(req, secret).then(
      () => count(limits, cfg, res, next, credentialPolicies(credentialOf(req)!, cfg)),
      (err) => count(limits, cfg, res, ((refusal?: unknown) => next(refusal ?? err)) as NextFunction, [address]),
    );
  };
}

/** Counts the request against `policies`, states them in the headers, and refuses past a limit. */
function count(limits: RequestRateLimits, cfg: Config, res: Response, next: NextFunction, policies: Policy[]): void {
  const now = Date.now();
  const { refused, states } = limits.take(policies, now);
  limits.maybeSync(now, cfg.rateLimitSyncMs);
  res.setHeader("RateLimit-Policy", policyHeader(cfg, policies));
  res.setHeader("RateLimit", states.map((s) => `"${s.limit.policy}";r=${s.remaining};t=${s.resetSeconds}`).join(", "));
  if (refused) next(refusal(refused));
  else next();
}
