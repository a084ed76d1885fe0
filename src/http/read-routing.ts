// Which database serves an operation when a read replica is configured (src/db/replica.ts): the
// operations the document marks `x-read-replica: true` run on the replica, unless it is down, too
// far behind, or has not replayed the caller's own latest write; everything else on the primary.
//
// Read-your-writes: after every state-changing request the primary's WAL position is sent back in
// the signed cookie `hrms.lsn` (HMAC with SESSION_SECRET: a client cannot make another position
// look like the server's; forging one could only send its own reads to the primary); a marked read
// that carries it uses the replica only once the replica has replayed that position.
import { createHmac, timingSafeEqual } from "node:crypto";
import type { Request, Response } from "express";
import { config } from "../config.ts";
import { formatLsn, type Lsn, onReplica, parseLsn, primaryLsn, replicaConfigured, replicaFailed, replicaUsable } from "../db/replica.ts";
import { logger } from "../log.ts";
import { AppError } from "../platform/errors.ts";

export const LSN_COOKIE = "hrms.lsn";
/** Long enough for any replica that is read from at all (DATABASE_REPLICA_MAX_LAG_MS is far shorter). */
const LSN_COOKIE_MAX_AGE_MS = 15 * 60 * 1000;

function signature(value: string): string {
  return createHmac("sha256", config().sessionSecret).update(`lsn:${value}`).digest("base64url").slice(0, 27);
}

/** The position in the request's `hrms.lsn` cookie when its signature holds, else null. */
export function writtenLsn(req: Request): Lsn | null {
  const header = req.headers.cookie;
  if (!header?.includes(`${LSN_COOKIE}=`)) return null;
  for (const part of header.split(";")) {
    const [name, value] = part.trim().split("=", 2);
    if (name !== LSN_COOKIE || !value) continue;
    const [lsn, sig] = decodeURIComponent(value).split(".", 2);
    if (!lsn || !sig) return null;
    const expected = Buffer.from(signature(lsn));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    return parseLsn(lsn);
  }
  return null;
}

/** After a state-changing request: the primary's position now, in the cookie (when a replica is configured). */
export async function rememberWrite(res: Response): Promise<void> {
  if (!replicaConfigured() || res.headersSent) return;
  const lsn = await primaryLsn().catch(() => null);
  if (lsn === null || res.headersSent) return;
  const value = formatLsn(lsn);
  res.cookie(LSN_COOKIE, `${value}.${signature(value)}`, {
    httpOnly: true,
    sameSite: "lax",
    secure: config().isProduction,
    path: "/",
    maxAge: LSN_COOKIE_MAX_AGE_MS,
    encode: String,
  });
}

/**
 * A statement refused because the connection is read-only (SQLSTATE 25006): an operation marked
 * x-read-replica that writes. Through pg it carries the code; through Prisma's adapter the message.
 */
export function isWriteOnReplica(err: unknown): boolean {
  type Chained = { code?: unknown; message?: unknown; cause?: unknown } | undefined;
  let e = err as Chained;
  for (let depth = 0; e && depth < 5; depth++) {
    if (e.code === "25006" || (typeof e.message === "string" && e.message.includes("in a read-only transaction"))) return true;
    e = e.cause as Chained;
  }
  return false;
}

/**
 * Runs a marked read: on the replica when it may serve the caller, else on the primary. A failure
 * on the replica other than the operation's own answer (a 4xx AppError: 404, 403, 400...) - the
 * replica went away, a query cancelled by recovery - runs the read again on the primary, so the
 * caller never sees the replica's trouble.
 */
export async function runRead<T>(req: Request, res: Response, fn: () => Promise<T>): Promise<T> {
  if (!replicaConfigured() || !(await replicaUsable(writtenLsn(req)))) return fn();
  try {
    return await onReplica(fn);
  } catch (err) {
    if ((err instanceof AppError && err.status < 500) || res.headersSent) throw err;
    if (isWriteOnReplica(err)) {
      // the document marks an operation that writes: served by the primary, but said loudly - and
      // a 500 in the tests, whose role matrix runs every marked operation on a read-only "replica"
      logger.error({ err: (err as Error).message, path: req.path }, "an operation marked x-read-replica wrote: remove the mark");
      if (config().isTest) throw err;
    } else replicaFailed(err);
    return fn();
  }
}
