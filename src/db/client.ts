// The one PostgreSQL pool and the one base Prisma client of the process. Tenant-owned data is reached
// only through `db` (src/db/tenancy.ts); `systemDb` (central tables, cross-tenant platform paths) is not
// imported by areas.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../../generated/prisma/client.ts";
import { config } from "../config.ts";
import { logger } from "../log.ts";
import { PinnablePool } from "./pinned.ts";
import { forgetPool, observePool } from "./pool-stats.ts";
import { closeReplica, initReplica, routedReplica } from "./replica.ts";

// DATE columns as plain `YYYY-MM-DD` strings for raw queries (no time-zone shifts).
pg.types.setTypeParser(1082, (v: string) => v);

let pool: pg.Pool | undefined;
let healthPool: pg.Pool | undefined;
let base: PrismaClient | undefined;
let poolUrl: string | undefined;
/** DATABASE_DIRECT_URL: DATABASE_URL is a transaction-mode pooler, this the database itself. */
let directUrl: string | undefined;

export interface DbOptions {
  /** connections of the pool (DATABASE_POOL_SIZE) */
  max?: number;
  /** how long a query waits for a connection (DATABASE_POOL_TIMEOUT_MS) */
  connectionTimeoutMillis?: number;
  /** interactive transaction timeout and lock wait of every statement (DATABASE_TRANSACTION_TIMEOUT_MS) */
  transactionTimeoutMs?: number;
  /** a streaming replica for the reads that may use one (DATABASE_REPLICA_URL; null: none), src/db/replica.ts */
  replicaUrl?: string | null;
  /** how far behind the replica may be (DATABASE_REPLICA_MAX_LAG_MS) */
  replicaMaxLagMs?: number;
  /** DATABASE_DIRECT_URL, when `connectionString` is a transaction-mode pooler (null: it is direct). */
  directUrl?: string | null;
}

/**
 * Defaults: DATABASE_POOL_SIZE, DATABASE_POOL_TIMEOUT_MS, DATABASE_TRANSACTION_TIMEOUT_MS. Every connection
 * waits for a lock at most the transaction timeout (`lock_timeout`, sent at connect), so a request blocked
 * behind another's lock ends as a 503 instead of holding its connection (docs/configuration.md).
 */
export function initDb(connectionString: string, opts: DbOptions = {}): void {
  if (base) return;
  const txTimeout = opts.transactionTimeoutMs ?? config().databaseTransactionTimeoutMs;
  const connectWait = opts.connectionTimeoutMillis ?? config().databasePoolTimeoutMs;
  poolUrl = connectionString;
  directUrl = (opts.directUrl === undefined ? config().databaseDirectUrl : opts.directUrl) ?? undefined;
  // a step on one connection (src/db/primitives.ts onOneConnection) keeps every query of its own on it
  pool = new PinnablePool({
    connectionString,
    max: opts.max ?? config().databasePoolSize,
    connectionTimeoutMillis: connectWait,
    idleTimeoutMillis: 30000,
    // a setting of the session: through a transaction-mode pooler the pooler sets it on its server
    // connections (PgBouncer refuses startup parameters it does not track; docs/operations.md)
    ...(directUrl ? {} : { lock_timeout: txTimeout }),
  });
  pool.on("error", (err) => logger.warn({ err: err.message }, "idle database connection error"));
  observePool("primary", pool, opts.max ?? config().databasePoolSize);
  base = new PrismaClient({ adapter: new PrismaPg(pool), transactionOptions: { maxWait: connectWait, timeout: txTimeout } });
  const replicaUrl = opts.replicaUrl === undefined ? config().databaseReplicaUrl : opts.replicaUrl;
  if (replicaUrl) useReplica(replicaUrl, opts);
}

/** Reads marked for the replica go to the server at `url` from now on (initDb does it for DATABASE_REPLICA_URL). */
export function useReplica(url: string, opts: DbOptions = {}): void {
  initReplica(url, getPool(), {
    max: opts.max ?? config().databasePoolSize,
    maxLagMs: opts.replicaMaxLagMs ?? config().databaseReplicaMaxLagMs,
    transactionTimeoutMs: opts.transactionTimeoutMs ?? config().databaseTransactionTimeoutMs,
  });
}

/** The pool: the replica's while the caller runs on it (onReplica of src/db/replica.ts), else the primary's. */
export function getPool(): pg.Pool {
  if (!pool) throw new Error("database not initialised (initDb)");
  return routedReplica()?.pool ?? pool;
}

/**
 * Connections of their own for the health check, so it answers while an overload holds the main
 * pool. Four, not two: on 2 cores, ten concurrent checks answered about 1 800/s on two and 3 000/s on four.
 */
export const HEALTH_POOL_SIZE = 4;

export function getHealthPool(): pg.Pool {
  if (!poolUrl) throw new Error("database not initialised (initDb)");
  if (!healthPool) {
    healthPool = new pg.Pool({
      connectionString: poolUrl,
      max: HEALTH_POOL_SIZE,
      connectionTimeoutMillis: 2000,
      idleTimeoutMillis: 30000,
      // through a pooler: no session setting at connect; databaseUp's own 2 s deadline still holds
      ...(directUrl ? {} : { statement_timeout: 2000 }),
    });
    healthPool.on("error", (err) => logger.warn({ err: err.message }, "idle health-check connection error"));
    observePool("health", healthPool, HEALTH_POOL_SIZE);
  }
  return healthPool;
}

/**
 * The connection string for connections of their own that need a session (a LISTEN): the direct
 * one (DATABASE_DIRECT_URL) when the pool goes through a transaction-mode pooler, else the pool's.
 */
export function databaseUrl(): string | undefined {
  return directUrl ?? poolUrl;
}

/** Whether the pools go through a transaction-mode pooler: no named prepared statements then (src/db/sql.ts). */
export function viaPooler(): boolean {
  return directUrl !== undefined;
}

const closeHooks = new Set<() => Promise<void>>();
/** Runs `hook` when the database is closed (closeDb), before the pools end. */
export function onCloseDb(hook: () => Promise<void>): void {
  closeHooks.add(hook);
}

/** The base client: the replica's while the caller runs on it (onReplica), else the primary's. */
export function getBaseClient(): PrismaClient {
  if (!base) throw new Error("database not initialised (initDb)");
  return routedReplica()?.client ?? base;
}

export async function closeDb(): Promise<void> {
  const b = base;
  const p = pool;
  const h = healthPool;
  base = undefined;
  pool = undefined;
  healthPool = undefined;
  poolUrl = undefined;
  directUrl = undefined;
  forgetPool("primary", p);
  forgetPool("health", h);
  for (const hook of [...closeHooks]) await hook().catch(() => {});
  await closeReplica();
  await b?.$disconnect().catch(() => {});
  await p?.end().catch(() => {});
  await h?.end().catch(() => {});
}

/** Central (not tenant-scoped) access. Only platform code (auth, sessions, mail) uses it. */
export const systemDb = new Proxy({} as PrismaClient, {
  get: (_t, prop) => Reflect.get(getBaseClient(), prop),
});
