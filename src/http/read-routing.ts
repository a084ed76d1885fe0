// Which database serves an operation: `x-read-replica` reads on the replica unless it is down, behind, or
// has not replayed the caller's latest write (docs/scaling.md, "Several processes and a read replica").
// That write's position travels in the `hrms.lsn` cookie, encrypted and bound to the session, ignored when
// unreadable (docs/security.md, "Replica-read cookie"); a credential's is kept on its row.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from "node:crypto";
import type { Request, Response } from "express";
import { config } from "../config.ts";
import { formatLsn, type Lsn, onReplica, parseLsn, primaryLsn, replicaConfigured, replicaFailed, replicaUsable } from "../db/replica.ts";
import { logger } from "../log.ts";
import { requestContext } from "../request-context.ts";
import { rememberCredentialWrite } from "../platform/identity/credentials.ts";
import { AppError } from "../platform/errors.ts";

export const LSN_COOKIE = "hrms.lsn";
/** `__Host-hrms.lsn` where cookies are Secure (production), as the session cookie (sessionCookieName). */
const lsnCookieName = (): string => (config().isProduction ? `__Host-${LSN_COOKIE}` : LSN_COOKIE);
/** Long enough for any replica that is read from at all (DATABASE_REPLICA_MAX_LAG_MS is far shorter). */
const LSN_COOKIE_MAX_AGE_MS = 15 * 60 * 1000;
/** The longest cookie value read: 12 bytes of IV, at most 17 of position, 16 of tag, in base64url. */
const LSN_COOKIE_MAX_LENGTH = 64;

let keyOf: { secret: string; key: Buffer } | undefined;
/** The cookie's AES-256 key, derived from SESSION_SECRET (its own purpose: not the session's signing key). */
function lsnKey(): Buffer {
  const secret = config().sessionSecret;
  if (keyOf?.secret !== secret) keyOf = { secret, key: createHmac("sha256", secret).update("hrms.lsn cookie key v1").digest() };
  return keyOf.key;
}

/** The session the cookie is bound to ("" for a caller without one: a signup, a public link). */
const sessionOf = (req: Request | undefined): string => (typeof req?.sessionID === "string" ? req.sessionID : "");

/** The cookie's value for `lsn` in the caller's session. */
export function sealLsn(lsn: Lsn, sessionId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", lsnKey(), iv);
  cipher.setAAD(Buffer.from(`hrms.lsn:${sessionId}`));
  const body = Buffer.concat([cipher.update(formatLsn(lsn), "utf8"), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString("base64url");
}

/** The position a cookie value holds for this session, or null when it cannot be read (never throws). */
export function openLsn(value: string, sessionId: string): Lsn | null {
  try {
    if (value.length > LSN_COOKIE_MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(value)) return null;
    const raw = Buffer.from(value, "base64url");
    if (raw.length <= 28) return null;
    const decipher = createDecipheriv("aes-256-gcm", lsnKey(), raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(`hrms.lsn:${sessionId}`));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    const text = Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString("utf8");
    return parseLsn(text);
  } catch {
    return null;
  }
}

/** The position in the request's `hrms.lsn` cookie when it can be read in this session, else null. */
export function writtenLsn(req: Request): Lsn | null {
  // an API credential has no cookie jar: its last write's position is kept on the credential
  const credential = requestContext.getStore()?.credential;
  if (credential) return credential.lastWriteLsn ? parseLsn(credential.lastWriteLsn) : null;
  const header = req.headers.cookie;
  const name = lsnCookieName();
  if (!header?.includes(`${name}=`)) return null;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    return openLsn(part.slice(eq + 1).trim(), sessionOf(req));
  }
  return null;
}

/** After a state-changing request: the primary's position now, in the cookie (when a replica is configured). */
export async function rememberWrite(res: Response): Promise<void> {
  if (!replicaConfigured() || res.headersSent) return;
  const lsn = await primaryLsn().catch(() => null);
  const credential = requestContext.getStore()?.credential;
  // a bearer client's reads after its write wait for the replica to have it (docs/integrations.md), whichever process serves them
  if (lsn !== null && credential) return rememberCredentialWrite(credential.tenantId, credential.id, formatLsn(lsn)).catch(() => {});
  if (lsn === null || res.headersSent) return;
  res.cookie(lsnCookieName(), sealLsn(lsn, sessionOf(res.req)), {
    httpOnly: true,
    sameSite: "lax",
    secure: config().isProduction,
    path: "/",
    maxAge: LSN_COOKIE_MAX_AGE_MS,
    encode: String,
  });
}

/** SQLSTATE 25006 (a marked operation wrote): pg carries the code, Prisma's adapter only the message. */
export function isWriteOnReplica(err: unknown): boolean {
  type Chained = { code?: unknown; message?: unknown; cause?: unknown } | undefined;
  let e = err as Chained;
  for (let depth = 0; e && depth < 5; depth++) {
    if (e.code === "25006" || (typeof e.message === "string" && e.message.includes("in a read-only transaction"))) return true;
    e = e.cause as Chained;
  }
  return false;
}

/** A marked read on the replica when it may serve the caller; any failure but the operation's own 4xx runs again on the primary. */
export async function runRead<T>(req: Request, res: Response, fn: () => Promise<T>): Promise<T> {
  if (!replicaConfigured() || !(await replicaUsable(writtenLsn(req)))) return fn();
  try {
    return await onReplica(fn);
  } catch (err) {
    if ((err instanceof AppError && err.status < 500) || res.headersSent) throw err;
    if (isWriteOnReplica(err)) {
      // a mismatch with the document: served by the primary but logged, and a 500 where responses are validated
      logger.error({ err: (err as Error).message, path: req.path }, "an operation marked x-read-replica wrote: remove the mark");
      if (req.app.locals.validateResponses) throw err;
    } else replicaFailed(err);
    return fn();
  }
}
