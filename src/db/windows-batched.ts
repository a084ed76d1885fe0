// The batched backend of the window store, for limits counted on every request (rate limits): counted in
// memory, synced by one statement per sync never awaited by a request (docs/operations.md, "Limits and the 429").
import { logger } from "../log.ts";
import { exactWindows, secondsUntil, type Verdict, type WindowLimit } from "./windows.ts";

interface Counter {
  /** every process's uses as of the last sync (ours included) */
  shared: number;
  /** uses counted here since, not yet added to the shared counter */
  pending: number;
  /** uses being added by the sync under way */
  adding: number;
  /** when the window ends (machine time, ms) */
  endsAt: number;
  windowSeconds: number;
}

/** The counters of one app, in memory, shared with the other processes through the exact backend. */
export class BatchedWindows {
  private readonly counters = new Map<string, Counter>();
  private lastSync = 0;
  private syncing: Promise<void> | null = null;

  private counterOf(limit: WindowLimit, at: number): Counter {
    let c = this.counters.get(limit.key);
    if (!c || at >= c.endsAt) {
      c = { shared: 0, pending: 0, adding: c?.adding ?? 0, endsAt: at + limit.windowSeconds * 1000, windowSeconds: limit.windowSeconds };
      this.counters.set(limit.key, c);
    }
    return c;
  }

  /**
   * Counts one use against every limit, or none when one of them is used up (the refusal names the
   * one whose window ends last). The states are each limit's after this use.
   */
  take(limits: readonly WindowLimit[], at: number): Verdict {
    const seen = limits.map((limit) => {
      const c = this.counterOf(limit, at);
      return { limit, c, used: c.shared + c.pending + c.adding };
    });
    let refused: Verdict["refused"] = null;
    for (const s of seen)
      if (s.used >= s.limit.max) {
        const wait = Math.max(1, secondsUntil(s.c.endsAt, at));
        if (!refused || wait > refused.retryAfterSeconds) refused = { limit: s.limit, retryAfterSeconds: wait };
      }
    if (!refused) for (const s of seen) s.c.pending++;
    const counted = refused ? 0 : 1;
    return {
      refused,
      states: seen.map((s) => ({
        limit: s.limit,
        used: s.used + counted,
        remaining: Math.max(0, s.limit.max - s.used - counted),
        resetSeconds: secondsUntil(s.c.endsAt, at),
      })),
    };
  }

  /** The refusal `limit` would give now when it is used up, else null (counts nothing). */
  usedUp(limit: WindowLimit, at: number): Verdict["refused"] {
    const c = this.counters.get(limit.key);
    if (!c || at >= c.endsAt || c.shared + c.pending + c.adding < limit.max) return null;
    return { limit, retryAfterSeconds: Math.max(1, secondsUntil(c.endsAt, at)) };
  }

  /** Starts a sync when one is due and none is under way (never awaited by a request). */
  maybeSync(at: number, everyMs: number): void {
    if (this.syncing || at - this.lastSync < everyMs) return;
    this.lastSync = at;
    this.syncing = this.sync().finally(() => {
      this.syncing = null;
    });
  }

  /** Adds this process's counts to the shared counters and reads the totals back (tests await it). */
  async sync(at = Date.now()): Promise<void> {
    if (this.syncing) await this.syncing.catch(() => {});
    const batch: { key: string; uses: number; windowSeconds: number }[] = [];
    for (const [key, c] of this.counters) {
      if (c.pending > 0) {
        c.adding += c.pending;
        batch.push({ key, uses: c.pending, windowSeconds: c.windowSeconds });
        c.pending = 0;
      } else if (at >= c.endsAt && c.adding === 0) this.counters.delete(key);
    }
    if (!batch.length) return;
    try {
      for (const row of await exactWindows.add(batch, at)) {
        const c = this.counters.get(row.key);
        if (!c) continue;
        c.adding = 0;
        c.shared = row.uses;
        c.endsAt = row.endsAt;
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
