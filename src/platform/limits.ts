// Usage limits: how many times a user or a company may use something (an upload, an AI helper)
// within a window. Fixed-window counters in PostgreSQL (`usage_counters`), so every server process
// shares them and they survive restarts. A counter's window starts at its first use and lasts
// `windowMs`; the use after it starts a new window.
//
// `takeUse` counts one use against several limits at once (the caller's and the company's) or
// against none: in one transaction each counter is incremented (rows locked in key order, so two
// takers never deadlock and never both get the last use), and when one of them is past its
// maximum the transaction is rolled back - a refused use costs no budget. The answer says how many
// seconds remain of the window of the limit that refused (the `Retry-After` of the 429).
import { systemDb } from "../db/client.ts";
import { type AppError, rateLimited } from "./errors.ts";

export interface UsageLimit {
  /** The counter, e.g. `upload:user:<id>` (one name per limit and subject). */
  key: string;
  /** Uses allowed within a window (at least 1). */
  max: number;
  windowMs: number;
  /** Who or what the limit applies to, for the refusal's message, e.g. "per user per hour". */
  label?: string;
}

export type UseAnswer = { allowed: true } | { allowed: false; retryAfterSeconds: number; limit: UsageLimit };

class Refused extends Error {
  constructor(
    readonly limit: UsageLimit,
    readonly retryAfterSeconds: number,
  ) {
    super("usage limit reached");
  }
}

/** Counts one use against every limit (or, when one of them is used up, against none). */
export async function takeUse(limits: readonly UsageLimit[]): Promise<UseAnswer> {
  const ordered = [...limits].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  try {
    await systemDb.$transaction(async (tx) => {
      for (const limit of ordered) {
        const seconds = limit.windowMs / 1000;
        // not tenant-owned: the key names its subject (user or company)
        const [row] = await tx.$queryRaw<{ uses: number; remaining: number }[]>`
          INSERT INTO usage_counters AS c (key, uses, window_ends)
          VALUES (${limit.key}, 1, now() + make_interval(secs => ${seconds}))
          ON CONFLICT (key) DO UPDATE SET
            uses = CASE WHEN c.window_ends <= now() THEN 1 ELSE c.uses + 1 END,
            window_ends = CASE WHEN c.window_ends <= now() THEN EXCLUDED.window_ends ELSE c.window_ends END
          RETURNING uses, EXTRACT(EPOCH FROM (window_ends - now()))::float8 AS remaining`;
        if (row.uses > limit.max) throw new Refused(limit, Math.max(1, Math.ceil(row.remaining)));
      }
    });
    return { allowed: true };
  } catch (err) {
    if (err instanceof Refused) return { allowed: false, retryAfterSeconds: err.retryAfterSeconds, limit: err.limit };
    throw err;
  }
}

/** `takeUse`, throwing the 429 `rate_limited` (with `Retry-After`) of a refusal; `what` names the thing limited. */
export async function useOrRefuse(limits: readonly UsageLimit[], what: string): Promise<void> {
  const answer = await takeUse(limits);
  if (answer.allowed) return;
  throw refusal(answer, what);
}

/** The 429 of a refused use: "<what> limit reached (<max> <label>); retry in <n> s". */
export function refusal(answer: Extract<UseAnswer, { allowed: false }>, what: string): AppError {
  const { limit, retryAfterSeconds } = answer;
  return rateLimited(
    retryAfterSeconds,
    { name: policyName(limit.key), limit: limit.max, windowSeconds: limit.windowMs / 1000 },
    `${what} limit reached (${limit.max}${limit.label ? ` ${limit.label}` : ""}); retry in ${retryAfterSeconds} s`,
  );
}

/** The policy name of a limit's 429 (RateLimit headers): its key without the subject, `upload:user:<id>` -> `upload-user`. */
export function policyName(key: string): string {
  return key.split(":").slice(0, 2).join("-");
}

/** Removes counters whose window has ended (run by the scheduled job). */
export async function pruneUsageCounters(): Promise<number> {
  return systemDb.$executeRaw`DELETE FROM usage_counters WHERE window_ends < now()`;
}

export const HOUR_MS = 60 * 60_000;

/** A batch of uses to add to counters (`addUses`): `uses` more in the counter `key`, whose window lasts `windowSeconds`. */
export interface UsesToAdd {
  key: string;
  uses: number;
  windowSeconds: number;
}

/**
 * Adds uses to many counters in one statement, without refusing any (the request rate limits of
 * src/http/rate-limit.ts count in memory and add their counts here every RATE_LIMIT_SYNC_MS): a
 * counter whose window has ended starts a new one. Returns each counter as it is now, every
 * process's uses included, with the seconds left of its window. Keys in order, so two processes
 * adding to the same counters never deadlock.
 */
export async function addUses(batch: readonly UsesToAdd[]): Promise<{ key: string; uses: number; remaining: number }[]> {
  if (!batch.length) return [];
  const ordered = [...batch].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  // not tenant-owned: the key names its subject (company, caller or client address)
  return systemDb.$queryRaw<{ key: string; uses: number; remaining: number }[]>`
    INSERT INTO usage_counters AS c (key, uses, window_ends)
    SELECT x.k, x.u, now() + make_interval(secs => x.w)
      FROM unnest(${ordered.map((b) => b.key)}::text[], ${ordered.map((b) => b.uses)}::int[],
                  ${ordered.map((b) => b.windowSeconds)}::float8[]) AS x(k, u, w)
     ORDER BY x.k
    ON CONFLICT (key) DO UPDATE SET
      uses = CASE WHEN c.window_ends <= now() THEN EXCLUDED.uses ELSE c.uses + EXCLUDED.uses END,
      window_ends = CASE WHEN c.window_ends <= now() THEN EXCLUDED.window_ends ELSE c.window_ends END
    RETURNING key, uses, EXTRACT(EPOCH FROM (window_ends - now()))::float8 AS remaining`;
}
