// Sessions: express-session rows in PostgreSQL (connect-pg-simple, table `session`), 7 days from sign-in,
// not touched per request (no write per request). Cookie: docs/security.md, "Cookies and cross-site writes".
import connectPgSimple from "connect-pg-simple";
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Request, RequestHandler } from "express";
import session from "express-session";
import { config } from "../../config.ts";
import { databaseUrl, getPool, onCloseDb, systemDb } from "../../db/client.ts";
import { type RequestInfo, requestContext } from "../../request-context.ts";
import { type CachedIdentity, type IdentityRow, identityCache, stopIdentityCache } from "./identity-cache.ts";

onCloseDb(stopIdentityCache);

declare module "express-session" {
  interface SessionData {
    userId: string;
    tenantId: string | null;
  }
}

export const SESSION_COOKIE = "hrms.sid";

/** `__Host-hrms.sid` where cookies are Secure; the other name is never read (docs/security.md, "Cookies and cross-site writes"). */
export const sessionCookieName = (): string => (config().isProduction ? `__Host-${SESSION_COOKIE}` : SESSION_COOKIE);

/** The session cookie's attributes (also to clear it: a `__Host-` cookie is only replaced by one with the same). */
export const sessionCookieOptions = () => ({
  httpOnly: true,
  sameSite: "lax" as const,
  secure: config().isProduction,
  path: "/",
});
export const SESSION_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

/** The membership read with the session row (one round trip), on the context itself: a WeakMap would keep it past young collections. */
const PREFETCHED = Symbol("membership read with the session");
type WithPrefetched = RequestInfo & { [PREFETCHED]?: PrefetchedAuth };
export const prefetchedAuthOf = (info: RequestInfo | undefined) => (info as WithPrefetched | undefined)?.[PREFETCHED];

export interface PrefetchedAuth {
  sid: string;
  userId: string;
  tenantId: string;
  row: IdentityRow | null;
}

/** Every record the membership `m` was ever linked to (the own-record rule, src/modules/shared/access.ts). */
export const OWN_EMPLOYEE_IDS = `ARRAY(SELECT l.employee_id FROM employee_user_links l
                     WHERE l.tenant_id = m.tenant_id AND l.user_id = m.user_id ORDER BY l.employee_id)::text[]`;

// ids cast only when they are UUIDs: a damaged row reads as "no membership" rather than failing
const SESSION_WITH_MEMBERSHIP = `
  WITH s AS (
    SELECT sess::text AS sess, (extract(epoch FROM expire::timestamptz) * 1000)::float8 AS expire_ms,
           CASE WHEN sess->>'userId' ~ '^[0-9a-fA-F-]{36}$' THEN (sess->>'userId')::uuid END AS user_id,
           CASE WHEN sess->>'tenantId' ~ '^[0-9a-fA-F-]{36}$' THEN (sess->>'tenantId')::uuid END AS tenant_id
      FROM "session" WHERE sid = $1 AND expire >= now()
  )
  SELECT s.sess, s.expire_ms, m.role, m.employee_id, t.modules, u.email, u.name,
         ${OWN_EMPLOYEE_IDS} AS own_employee_ids
    FROM s
    LEFT JOIN memberships m ON m.user_id = s.user_id AND m.tenant_id = s.tenant_id
    LEFT JOIN tenants t ON t.id = m.tenant_id
    LEFT JOIN users u ON u.id = m.user_id`;

/** connect-pg-simple that also reads the session's membership in the same query; a role change counts from the next request. */
function identityStore() {
  const PgStore = connectPgSimple(session);
  class IdentityStore extends PgStore {
    override get(sid: string, fn: (err: unknown, sess?: session.SessionData | null) => void): void {
      const cache = identityCache(databaseUrl());
      const hit = cache?.get(sid);
      if (hit) {
        this.resolved(sid, hit, fn);
        return;
      }
      const token = cache?.token() ?? 0;
      getPool()
        .query(SESSION_WITH_MEMBERSHIP, [sid])
        .then(({ rows }) => {
          if (!rows.length) return fn(null, null);
          const r = rows[0];
          const found: CachedIdentity = {
            sess: r.sess,
            expire: r.expire_ms,
            row: r.role
              ? {
                  role: r.role,
                  employee_id: r.employee_id,
                  modules: r.modules,
                  email: r.email,
                  name: r.name,
                  own_employee_ids: r.own_employee_ids ?? [],
                }
              : null,
          };
          if (this.resolved(sid, found, fn)) cache?.set(sid, found, token);
        }, fn);
    }

    /** Hands the session to express-session and its membership to the guard; false for an unreadable row. */
    private resolved(sid: string, found: CachedIdentity, fn: (err: unknown, sess?: session.SessionData | null) => void): boolean {
      let sess: session.SessionData;
      try {
        sess = JSON.parse(found.sess) as session.SessionData;
      } catch {
        this.destroy(sid, (err) => fn(err ?? null, null)); // an unreadable row ends that session, as connect-pg-simple does
        return false;
      }
      const info = requestContext.getStore();
      if (info && sess.userId && sess.tenantId)
        (info as WithPrefetched)[PREFETCHED] = { sid, userId: sess.userId, tenantId: sess.tenantId, row: found.row };
      fn(null, sess);
      return true;
    }
  }
  return new IdentityStore({
    pool: getPool(),
    tableName: "session",
    createTableIfMissing: false,
    disableTouch: true,
    pruneSessionInterval: config().sessionPruneSeconds || false,
  });
}

/** The session id of a `hrms.sid` cookie signed with `secret` (as express-session signs it), or null. */
export function signedSessionId(cookieHeader: string | undefined, secret: string, name = sessionCookieName()): string | null {
  if (!cookieHeader) return null;
  let raw: string | undefined;
  for (const part of cookieHeader.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      raw = part.slice(eq + 1).trim();
      break; // the first, as express-session's cookie parser takes it
    }
  }
  if (!raw) return null;
  let value: string;
  try {
    value = decodeURIComponent(raw.startsWith('"') && raw.endsWith('"') ? raw.slice(1, -1) : raw);
  } catch {
    return null;
  }
  if (!value.startsWith("s:")) return null;
  const dot = value.lastIndexOf(".");
  if (dot < 3) return null;
  const sid = value.slice(2, dot);
  const mac = Buffer.from(value.slice(dot + 1));
  // regex-bounded: a SHA-256 digest in base64 is 44 characters
  const expected = Buffer.from(createHmac("sha256", secret).update(sid).digest("base64").replace(/=+$/, ""));
  return mac.length === expected.length && timingSafeEqual(mac, expected) ? sid : null;
}

/**
 * `full`: express-session, for operations that set the session cookie; `lean`: the signed cookie checked and
 * the session loaded, without express-session's per-request machinery a request that never saves does not use.
 */
const VERIFIED_MAX = 10_000;
const VERIFIED_HEADER_MAX = 512;

export function sessionMiddlewares(): { full: RequestHandler; lean: RequestHandler } {
  const store = identityStore();
  const full = sessionMiddleware(store);
  const secret = config().sessionSecret;
  const cookieName = sessionCookieName();
  // a client sends the same header every request: its HMAC once (valid short headers, at most VERIFIED_MAX)
  const verified = new Map<string, string>();
  const sessionIdOf = (header: string | undefined): string | null => {
    if (!header) return null;
    const known = verified.get(header);
    if (known) return known;
    const sid = signedSessionId(header, secret, cookieName);
    if (sid && header.length <= VERIFIED_HEADER_MAX) {
      if (verified.size >= VERIFIED_MAX) verified.clear();
      verified.set(header, sid);
    }
    return sid;
  };
  const lean: RequestHandler = (req, _res, next) => {
    const sid = sessionIdOf(req.headers.cookie);
    if (!sid) return next();
    store.get(sid, (err, sess) => {
      if (err) return next(err);
      if (sess) {
        req.sessionID = sid;
        req.session = sess as Request["session"];
      }
      next();
    });
  };
  return { full, lean };
}

function sessionMiddleware(store: session.Store) {
  return session({
    name: sessionCookieName(),
    secret: config().sessionSecret,
    store,
    resave: false,
    saveUninitialized: false,
    rolling: false,
    // "destroy" would delete the row of a session that failed to load (database briefly down): a sign-out
    unset: "keep",
    cookie: { ...sessionCookieOptions(), maxAge: SESSION_MAX_AGE_MS },
  });
}

/** Rotates the session id and stores the signed-in user and active tenant. */
export async function startSession(req: Request, userId: string, tenantId: string | null): Promise<void> {
  await new Promise<void>((resolve, reject) => req.session.regenerate((err) => (err ? reject(err) : resolve())));
  req.session.userId = userId;
  req.session.tenantId = tenantId;
  await saveSession(req);
}

export function saveSession(req: Request): Promise<void> {
  return new Promise<void>((resolve, reject) => req.session.save((err) => (err ? reject(err) : resolve())));
}

export function destroySession(req: Request): Promise<void> {
  return new Promise<void>((resolve, reject) => req.session.destroy((err) => (err ? reject(err) : resolve())));
}

/** Ends every session of a user, except `keepSid` when given. */
export async function endUserSessions(
  userId: string,
  keepSid?: string,
  client: { $executeRaw: typeof systemDb.$executeRaw } = systemDb,
): Promise<number> {
  return keepSid
    ? client.$executeRaw`DELETE FROM "session" WHERE sess->>'userId' = ${userId} AND sid <> ${keepSid}`
    : client.$executeRaw`DELETE FROM "session" WHERE sess->>'userId' = ${userId}`;
}

export interface SessionInfoData {
  user: { id: string; email: string; name: string; created_at: string };
  tenants: { id: string; name: string; role: "owner" | "admin" | "hr" | "manager" | "employee" }[];
  active_tenant_id: string | null;
  role: "owner" | "admin" | "hr" | "manager" | "employee" | null;
  employee_id: string | null;
  modules: ("payroll" | "recruitment" | "helpdesk" | "assets")[];
}

/** The user's memberships, oldest first (the first is the default active tenant). */
export async function membershipsOf(userId: string) {
  return systemDb.membership.findMany({
    where: { user_id: userId },
    include: { tenant: { select: { id: true, name: true, modules: true } } },
    orderBy: { created_at: "asc" },
  });
}

export async function buildSessionInfo(userId: string, activeTenantId: string | null): Promise<SessionInfoData> {
  const [user, memberships] = await Promise.all([systemDb.user.findUniqueOrThrow({ where: { id: userId } }), membershipsOf(userId)]);
  const active = memberships.find((m) => m.tenant_id === activeTenantId) ?? null;
  return {
    user: { id: user.id, email: user.email, name: user.name, created_at: user.created_at.toISOString() },
    tenants: memberships.map((m) => ({ id: m.tenant.id, name: m.tenant.name, role: m.role as SessionInfoData["role"] & string })),
    active_tenant_id: active?.tenant_id ?? null,
    role: (active?.role as SessionInfoData["role"]) ?? null,
    employee_id: active?.employee_id ?? null,
    modules: (active?.tenant.modules ?? []) as SessionInfoData["modules"],
  };
}
