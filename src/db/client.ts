// The one PostgreSQL pool and the one base Prisma client of the process. Tenant-owned data is
// reached only through `db` (src/db/tenancy.ts); `systemDb` is for the central tables (users,
// tenants, sessions, outbox) and for the few platform paths that span tenants (sign-in lists
// a user's memberships) - it is not imported by area modules.
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../../generated/prisma/client.ts";
import { config } from "../config.ts";
import { logger } from "../log.ts";

// DATE columns as plain `YYYY-MM-DD` strings for raw queries (no time-zone shifts).
pg.types.setTypeParser(1082, (v: string) => v);

let pool: pg.Pool | undefined;
let base: PrismaClient | undefined;

/** Pool size and connection wait default to DATABASE_POOL_SIZE and DATABASE_POOL_TIMEOUT_MS. */
export function initDb(connectionString: string, opts: { max?: number; connectionTimeoutMillis?: number } = {}): void {
  if (base) return;
  pool = new pg.Pool({
    connectionString,
    max: opts.max ?? config.databasePoolSize,
    connectionTimeoutMillis: opts.connectionTimeoutMillis ?? config.databasePoolTimeoutMs,
    idleTimeoutMillis: 30000,
  });
  pool.on("error", (err) => logger.warn({ err: err.message }, "idle database connection error"));
  base = new PrismaClient({ adapter: new PrismaPg(pool) });
}

export function getPool(): pg.Pool {
  if (!pool) throw new Error("database not initialised (initDb)");
  return pool;
}

export function getBaseClient(): PrismaClient {
  if (!base) throw new Error("database not initialised (initDb)");
  return base;
}

export async function closeDb(): Promise<void> {
  const b = base;
  const p = pool;
  base = undefined;
  pool = undefined;
  await b?.$disconnect().catch(() => {});
  await p?.end().catch(() => {});
}

/** Central (not tenant-scoped) access. Only platform code (auth, sessions, mail) uses it. */
export const systemDb = new Proxy({} as PrismaClient, {
  get: (_t, prop) => Reflect.get(getBaseClient(), prop),
});
