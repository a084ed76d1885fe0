// The counting limits' one refusal: a 429 `rate_limited` naming the limit and the wait, with its
// `Retry-After` and RateLimit fields (docs/operations.md, "Limits and the 429").
import { exactWindows, type Refusal, type WindowLimit } from "../db/windows.ts";
import { type AppError, rateLimited } from "./errors.ts";

export type { WindowLimit } from "../db/windows.ts";

export const HOUR_S = 3600;
export const DAY_S = 24 * HOUR_S;

/** The 429 of a refusal: "<what> limit reached (<max> <per>); retry in <n> s". */
export function refusal({ limit, retryAfterSeconds }: Refusal): AppError {
  return rateLimited(
    retryAfterSeconds,
    { name: limit.policy, limit: limit.max, windowSeconds: limit.windowSeconds },
    `${limit.what} limit reached (${limit.max} ${limit.per}); retry in ${retryAfterSeconds} s`,
  );
}

/** Counts one use against every limit (a budget: a refused use counts nothing), or throws the 429. */
export async function useOrRefuse(limits: readonly WindowLimit[]): Promise<void> {
  const { refused } = await exactWindows.take(limits);
  if (refused) throw refusal(refused);
}

/** Removes counters whose window has ended (run by the scheduled job). */
export function pruneCounters(): Promise<number> {
  return exactWindows.prune();
}
