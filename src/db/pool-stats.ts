// The process's pools by name for the metrics (src/platform/metrics.ts): counted here, below the metrics
// library, so src/db needs nothing above it.
import type pg from "pg";

export type PoolName = "primary" | "replica" | "health";

interface Observed {
  pool: pg.Pool;
  max: number;
}

const pools = new Map<PoolName, Observed>();
const timeouts = new Map<PoolName, number>();

const isConnectTimeout = (err: unknown) => /timeout exceeded when trying to connect/i.test(String((err as Error)?.message ?? ""));

/**
 * Makes `pool` the process's pool `name` in the figures, and counts its connection-wait timeouts
 * (pool.query and the Prisma adapter both take their connections through `pool.connect`).
 */
export function observePool(name: PoolName, pool: pg.Pool, max: number): void {
  pools.set(name, { pool, max });
  timeouts.set(name, timeouts.get(name) ?? 0);
  const connect = pool.connect.bind(pool) as (cb?: (err: Error | undefined, ...rest: unknown[]) => void) => unknown;
  const counted = (err: unknown) => {
    if (isConnectTimeout(err) && pools.get(name)?.pool === pool) timeouts.set(name, (timeouts.get(name) ?? 0) + 1);
  };
  (pool as unknown as { connect: unknown }).connect = (cb?: (err: Error | undefined, ...rest: unknown[]) => void) => {
    if (cb)
      return connect((err, ...rest) => {
        counted(err);
        cb(err, ...rest);
      });
    return (connect() as Promise<unknown>).catch((err: unknown) => {
      counted(err);
      throw err;
    });
  };
}

/** A pool is no longer the process's (closeDb, closeReplica): it leaves the figures; its timeouts stay counted. */
export function forgetPool(name: PoolName, pool: pg.Pool | undefined): void {
  if (pool && pools.get(name)?.pool === pool) pools.delete(name);
}

export interface PoolFigures {
  name: PoolName;
  /** connections the pool may open */
  max: number;
  /** connections open */
  total: number;
  /** open and not lent out */
  idle: number;
  /** callers waiting for a connection */
  waiting: number;
  /** callers that gave up waiting, since the process started */
  timeouts: number;
}

/** The figures of every pool the process has (a pool not opened yet is left out; timeouts of all). */
export function poolFigures(): PoolFigures[] {
  return [...pools].map(([name, { pool, max }]) => ({
    name,
    max,
    total: pool.totalCount,
    idle: pool.idleCount,
    waiting: pool.waitingCount,
    timeouts: timeouts.get(name) ?? 0,
  }));
}

/** Timeouts counted per pool name (also of pools that are gone). */
export function poolTimeouts(): [PoolName, number][] {
  return [...timeouts];
}
