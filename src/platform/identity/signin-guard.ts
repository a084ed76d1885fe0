// Password checks under the sign-in limits, and the browsers a user has proven themselves from
// (docs/security.md, "Sign-in lockout"): failures pause only the client that failed for that account,
// unknown clients together have a higher bound, a known browser with the right password passes, a reset
// lifts every pause, and the owner is mailed when a pause begins. Locking the account for everyone
// would let anyone lock anyone out.
import { randomBytes } from "node:crypto";
import type { Request, Response } from "express";
import { appUrl, config } from "../../config.ts";
import { systemDb } from "../../db/client.ts";
import { clientKey } from "../../lib/ip.ts";
import type { AppError } from "../errors.ts";
import { queueEmail } from "../mail/outbox.ts";
import {
  type AttemptLimit,
  accountAllLimiter,
  accountLimiter,
  blockedBy,
  countFailures,
  ipLimiter,
  lockoutNoticeLimiter,
} from "./limiter.ts";
import { dummyHash, hashPassword, needsRehash, verifyPassword } from "./passwords.ts";
import { hashToken } from "./tokens.ts";

/** The cookie that marks a browser a user has signed in from (HttpOnly, SameSite=Lax, Secure in production, one year). */
export const CLIENT_COOKIE = "hrms.client";
/** Its name: `__Host-hrms.client` where cookies are Secure (production), as the session cookie's (session.ts). */
export const clientCookieName = (): string => (config().isProduction ? `__Host-${CLIENT_COOKIE}` : CLIENT_COOKIE);
const CLIENT_MAX_AGE_MS = 365 * 24 * 3600 * 1000;
/** Known clients kept per user (the most recently used). */
const CLIENTS_PER_USER = 20;

/** The `hrms.client` token the request carries, or null. */
function clientToken(req: Request): string | null {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === clientCookieName()) {
      const value = part.slice(eq + 1).trim();
      return /^[A-Za-z0-9_-]{43}$/.test(value) ? value : null;
    }
  }
  return null;
}

/** The id of the request's known client for `userId`, or null when it carries none of theirs. */
async function knownClientOf(req: Request, userId: string): Promise<string | null> {
  const token = clientToken(req);
  if (!token) return null;
  const row = await systemDb.knownClient.findUnique({ where: { token_hash: hashToken(token) }, select: { id: true, user_id: true } });
  return row?.user_id === userId ? row.id : null;
}

/**
 * Marks the request's browser as a known client of `userId` (after it proved itself: a sign-in,
 * a confirmed signup, an accepted invitation, a password reset): its cookie is kept when it is
 * already one of the user's, else a new one is set.
 */
export async function rememberClient(req: Request, userId: string): Promise<void> {
  const token = clientToken(req);
  if (token) {
    const touched = await systemDb.knownClient.updateMany({
      where: { token_hash: hashToken(token), user_id: userId },
      data: { last_used_at: new Date() }, // machine time: when it was last seen
    });
    if (touched.count) return;
  }
  const fresh = randomBytes(32).toString("base64url");
  await systemDb.knownClient.create({ data: { user_id: userId, token_hash: hashToken(fresh) } });
  const old = await systemDb.knownClient.findMany({
    where: { user_id: userId },
    orderBy: [{ last_used_at: "desc" }, { id: "desc" }],
    skip: CLIENTS_PER_USER,
    select: { id: true },
  });
  if (old.length) await systemDb.knownClient.deleteMany({ where: { id: { in: old.map((o) => o.id) } } });
  const res = req.res;
  if (!res) return;
  const set = () =>
    res.cookie(clientCookieName(), fresh, {
      httpOnly: true,
      sameSite: "lax",
      secure: config().isProduction,
      maxAge: CLIENT_MAX_AGE_MS,
      path: "/",
    });
  if (lateCookie.has(res)) lateCookie.set(res, set);
  else set();
}

/** The client cookie to write when the response's headers go, after the session's (see clientCookieLast). */
const lateCookie = new WeakMap<Response, (() => void) | null>();

/**
 * Before the session middleware: the client cookie is then written after the session's, so a client that
 * takes a sign-in's first `Set-Cookie` for the session's keeps working.
 */
export function clientCookieLast(res: Response): void {
  lateCookie.set(res, null);
  const writeHead = res.writeHead;
  res.writeHead = function (this: Response, ...args: unknown[]) {
    lateCookie.get(res)?.();
    lateCookie.delete(res);
    return (writeHead as (...a: unknown[]) => Response).apply(this, args);
  } as typeof res.writeHead;
}

/** Forgets every known client of the user (a password reset: a browser proves itself again). */
export async function forgetClients(userId: string): Promise<void> {
  await systemDb.knownClient.deleteMany({ where: { user_id: userId } });
}

export interface PasswordAttempt {
  req: Request;
  ip: string;
  /** The address tried (lower case). */
  email: string;
  /** The account of the address, or null (the same work and answers as for one). */
  user: { id: string; email: string; name: string; password_hash: string } | null;
  /** The password given (none: a failure). */
  password: string | undefined;
  /** The error of a wrong password (or of an address without an account), after what it records. */
  wrong: () => AppError | Promise<AppError>;
}

/**
 * Checks a password under the sign-in limits: a 429 while the client is paused for the account,
 * the `wrong` error for a wrong password (counted, and the owner mailed when it starts a pause);
 * returns normally for the right one (its client's failures for the account cleared).
 */
export async function checkPasswordAttempt(a: PasswordAttempt): Promise<void> {
  const known = a.user ? await knownClientOf(a.req, a.user.id) : null;
  const accountKey = `${a.email}|${known ? `client:${known}` : `ip:${clientKey(a.ip)}`}`;
  const checks: [AttemptLimit, string][] = [[accountLimiter, accountKey]];
  if (!known) checks.push([ipLimiter, a.ip], [accountAllLimiter, a.email]);
  const blocked = await blockedBy(checks);
  if (blocked) throw blocked;
  const valid = a.password !== undefined && (await verifyPassword(a.password, a.user?.password_hash ?? (await dummyHash())));
  if (a.user && valid) {
    await accountLimiter.clear(accountKey);
    if (needsRehash(a.user.password_hash)) await rehash(a.user.id, a.user.password_hash, a.password!);
    return;
  }
  // the same limits the check read (for an unknown client: its IP's and the account's across clients), in one statement
  const [forClient, , forAll = 0] = await countFailures(checks);
  if (a.user && (forClient === accountLimiter.max || forAll === accountAllLimiter.max))
    await noticePause(a.user, a.ip, forAll === accountAllLimiter.max ? "all" : "client");
  throw await a.wrong();
}

/**
 * The right password of a hash made at another cost (PASSWORD_HASH_COST changed since) is hashed again
 * at the configured one; only if the hash is still the one verified (a reset meanwhile wins).
 */
async function rehash(userId: string, verified: string, password: string): Promise<void> {
  const fresh = await hashPassword(password);
  await systemDb.user.updateMany({ where: { id: userId, password_hash: verified }, data: { password_hash: fresh } });
}

/** Tells the owner their sign-ins were paused (at most once an hour per account). */
async function noticePause(user: { email: string; name: string }, ip: string, scope: "client" | "all"): Promise<void> {
  if (await lockoutNoticeLimiter.attempt(user.email)) return;
  const base = appUrl(); // the client application (APP_URL): its sign-in and forgot-password paths
  const paused =
    scope === "client"
      ? `Sign-ins to your account from that address are paused for 15 minutes.`
      : `Sign-ins to your account from browsers and devices you have not signed in from before are paused for 15 minutes.`;
  await queueEmail(systemDb, {
    to: user.email,
    subject: "Failed sign-ins to your HRMS account",
    text:
      `Hello ${user.name},\n\nThere were several failed attempts to sign in to your HRMS account, the last from the address ` +
      `${ip}. Nobody signed in, and nothing changed in your account. ${paused}\n\n` +
      `You can still sign in with your password from a browser or device you have signed in from before. ` +
      `Resetting your password lifts every pause at once: ${base}/forgot-password\n\n` +
      `If these attempts were yours, wait 15 minutes or reset your password. If not, someone may be guessing ` +
      `your password: choose a strong one you use nowhere else.\n`,
  });
}

/** Forgets known clients unused for longer than their cookie lives (a year). Run hourly. */
export async function pruneKnownClients(): Promise<number> {
  const before = new Date(Date.now() - CLIENT_MAX_AGE_MS); // machine time: the cookie's own lifetime
  const { count } = await systemDb.knownClient.deleteMany({ where: { last_used_at: { lt: before } } });
  return count;
}
