// Sessions: express-session rows in PostgreSQL (connect-pg-simple, table `session` declared in the
// Prisma schema). Cookie `hrms.sid`: HttpOnly, SameSite=Lax, Secure in production. Sessions are
// not touched on every request (no write per request); they last 7 days from sign-in.
import connectPgSimple from "connect-pg-simple";
import type { Request } from "express";
import session from "express-session";
import { config, isProduction, isTest } from "../config.ts";
import { getPool, systemDb } from "../db/client.ts";

declare module "express-session" {
  interface SessionData {
    userId: string;
    tenantId: string | null;
  }
}

export const SESSION_COOKIE = "hrms.sid";
export const SESSION_MAX_AGE_MS = 7 * 24 * 3600 * 1000;

export function sessionMiddleware() {
  const PgStore = connectPgSimple(session);
  return session({
    name: SESSION_COOKIE,
    secret: config.sessionSecret,
    store: new PgStore({ pool: getPool(), tableName: "session", createTableIfMissing: false, disableTouch: true, pruneSessionInterval: isTest ? false : 900 }),
    resave: false,
    saveUninitialized: false,
    rolling: false,
    // "keep": with "destroy", a request whose session could not be loaded (database briefly down)
    // ends with req.session unset, and express-session then deletes the session row - signing the
    // user out. Sign-out destroys the session explicitly (destroySession).
    unset: "keep",
    cookie: { httpOnly: true, sameSite: "lax", secure: isProduction, maxAge: SESSION_MAX_AGE_MS, path: "/" },
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
export async function endUserSessions(userId: string, keepSid?: string, client: { $executeRaw: typeof systemDb.$executeRaw } = systemDb): Promise<number> {
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
