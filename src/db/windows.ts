// The window store: every counting limit is a fixed-window counter in `usage_counters`, with an exact
// backend (one statement a count) and a batched one (src/db/windows-batched.ts): docs/operations.md,
// "Limits and the 429". `at` (ms, machine time) is passed in so every process does the same arithmetic.
import type pg from "pg";
import { getPool } from "./client.ts";
import { rawTx } from "./primitives.ts";

/** At most `max` uses of the counter `key` within `windowSeconds` of its first use. */
export interface WindowLimit {
  /** the counter, e.g. `upload:user:<id>`: one per limit and subject */
  key: string;
  /** the limit's name as a refusal states it (`RateLimit-Policy`), e.g. `upload-user` */
  policy: string;
  /** uses allowed within a window (at least 1) */
  max: number;
  windowSeconds: number;
  /** what is limited, for a refusal's words: "Upload" -> "Upload limit reached (...)" */
  what: string;
  /** what is counted and whose, for a refusal's words: "uploads per user per hour" */
  per: string;
}

/** A limit's counter at one instant. */
export interface WindowState {
  limit: WindowLimit;
  /** uses in the current window (0 when it has ended) */
  used: number;
  /** uses left in the window */
  remaining: number;
  /** seconds until the window ends (0 when none is open) */
  resetSeconds: number;
}

/** The limit that refused, and the seconds until its window ends (at least 1). */
export interface Refusal {
  limit: WindowLimit;
  retryAfterSeconds: number;
}

/** What counting (or checking) found: each limit's state, and the refusal when one is used up. */
export interface Verdict {
  refused: Refusal | null;
  states: WindowState[];
}

/** A counter as the database holds it after a statement. */
export interface Counter {
  key: string;
  uses: number;
  /** when its window ends, ms since the epoch */
  endsAt: number;
}

/** `uses` more in the counter `key`, whose window (when this starts one) lasts `windowSeconds`. */
export interface UsesToAdd {
  key: string;
  uses: number;
  windowSeconds: number;
}

/** The seconds from `at` to `endsAt`, rounded up. */
export const secondsUntil = (endsAt: number, at: number) => Math.max(0, Math.ceil((endsAt - at) / 1000));

/** Limits in key order: statements lock counters in that order, so two counts never deadlock. */
const byKey = <T extends { key: string }>(items: readonly T[]) => [...items].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));

/**
 * The verdict of counters for `limits` at `at`: a limit is refused when its window holds more than
 * `allowed(limit)` uses; of several, the one whose window ends last (the longest wait).
 */
export function verdictOf(
  limits: readonly WindowLimit[],
  counters: ReadonlyMap<string, Counter>,
  at: number,
  allowed: (l: WindowLimit) => number,
): Verdict {
  let refused: Refusal | null = null;
  const states = limits.map((limit) => {
    const c = counters.get(limit.key);
    const open = c !== undefined && c.endsAt > at;
    const used = open ? c.uses : 0;
    const resetSeconds = open ? secondsUntil(c.endsAt, at) : 0;
    if (open && used > allowed(limit)) {
      const wait = Math.max(1, resetSeconds);
      if (!refused || wait > refused.retryAfterSeconds) refused = { limit, retryAfterSeconds: wait };
    }
    return { limit, used, remaining: Math.max(0, limit.max - used), resetSeconds };
  });
  return { refused, states };
}

const rowsToMap = (rows: Counter[]) => new Map(rows.map((r) => [r.key, r]));

/** Adds each entry's uses to its counter (a new window where it ended) and returns them: one statement, keys locked in order. */
async function addIn(q: pg.ClientBase | pg.Pool, batch: readonly UsesToAdd[], at: number): Promise<Counter[]> {
  const merged = new Map<string, UsesToAdd>();
  for (const b of batch) {
    const seen = merged.get(b.key);
    merged.set(b.key, seen ? { ...seen, uses: seen.uses + b.uses } : b);
  }
  const ordered = byKey([...merged.values()]);
  if (!ordered.length) return [];
  // not tenant-owned: each key names its subject (company, user, credential, address)
  const { rows } = await q.query<{ key: string; uses: number; ends_at: string }>(
    `INSERT INTO usage_counters AS c (key, uses, window_ends)
     SELECT x.k, x.u, $4::timestamptz + make_interval(secs => x.w)
       FROM unnest($1::text[], $2::int[], $3::float8[]) AS x(k, u, w)
      ORDER BY x.k
     ON CONFLICT (key) DO UPDATE SET
       uses = CASE WHEN c.window_ends <= $4::timestamptz THEN EXCLUDED.uses ELSE c.uses + EXCLUDED.uses END,
       window_ends = CASE WHEN c.window_ends <= $4::timestamptz THEN EXCLUDED.window_ends ELSE c.window_ends END
     RETURNING key, uses, (EXTRACT(EPOCH FROM window_ends) * 1000)::float8 AS ends_at`,
    [ordered.map((b) => b.key), ordered.map((b) => b.uses), ordered.map((b) => b.windowSeconds), new Date(at)],
  );
  return rows.map((r) => ({ key: r.key, uses: r.uses, endsAt: Number(r.ends_at) }));
}

class Refused extends Error {
  constructor(readonly verdict: Verdict) {
    super("limit used up");
  }
}

const one = (limits: readonly WindowLimit[]) => limits.map((l) => ({ key: l.key, uses: 1, windowSeconds: l.windowSeconds }));

/** The exact backend: each count one statement in PostgreSQL, shared by every process at once. */
export const exactWindows = {
  /** Budgets: one use against every limit, or none when one is used up (rolled back), so a refusal costs nothing. */
  async take(limits: readonly WindowLimit[], at = Date.now()): Promise<Verdict> {
    if (!limits.length) return { refused: null, states: [] };
    try {
      return await rawTx(async (client) => {
        const verdict = verdictOf(limits, rowsToMap(await addIn(client, one(limits), at)), at, (l) => l.max);
        if (verdict.refused) throw new Refused(verdict);
        return verdict;
      });
    } catch (err) {
      if (!(err instanceof Refused)) throw err;
      // the use was not counted: the states as they stand
      const states = err.verdict.states.map((s) => ({ ...s, used: s.used - 1, remaining: Math.max(0, s.limit.max - s.used + 1) }));
      return { refused: err.verdict.refused, states };
    }
  },

  /** Attempts: every attempt counts, refused ones too; refused past a limit's `max`. One statement. */
  async count(limits: readonly WindowLimit[], at = Date.now()): Promise<Verdict> {
    return verdictOf(limits, rowsToMap(await addIn(getPool(), one(limits), at)), at, (l) => l.max);
  },

  /** Counts nothing: refused when a limit has no use left in its window (the next attempt would be past it). */
  async check(limits: readonly WindowLimit[], at = Date.now()): Promise<Verdict> {
    if (!limits.length) return { refused: null, states: [] };
    const { rows } = await getPool().query<{ key: string; uses: number; ends_at: string }>(
      `SELECT key, uses, (EXTRACT(EPOCH FROM window_ends) * 1000)::float8 AS ends_at FROM usage_counters WHERE key = ANY($1::text[])`,
      [limits.map((l) => l.key)],
    );
    const counters = rowsToMap(rows.map((r) => ({ key: r.key, uses: r.uses, endsAt: Number(r.ends_at) })));
    return verdictOf(limits, counters, at, (l) => l.max - 1);
  },

  /** Adds a batch of uses without refusing any (the batched backend's sync); every counter as it is now. */
  add(batch: readonly UsesToAdd[], at = Date.now()): Promise<Counter[]> {
    return addIn(getPool(), batch, at);
  },

  /** Forgets counters: those of `keys`, and every one whose key starts with one of `prefixes`. */
  async clear(keys: readonly string[], prefixes: readonly string[] = []): Promise<void> {
    await getPool().query("DELETE FROM usage_counters WHERE key = ANY($1::text[]) OR key ^@ ANY($2::text[])", [keys, prefixes]);
  },

  /** Removes counters whose window ended before `at` (the hourly job `limits.prune-counters`). */
  async prune(at = Date.now()): Promise<number> {
    const { rowCount } = await getPool().query("DELETE FROM usage_counters WHERE window_ends < $1::timestamptz", [new Date(at)]);
    return rowCount ?? 0;
  },
};
