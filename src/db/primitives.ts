// The database primitives every transaction, lock and work-table claim outside the ORM goes through
// (docs/architecture.md, "Database primitives"). None may span a network call.
import type pg from "pg";
import { getPool } from "./client.ts";
import { runPinned } from "./pinned.ts";
import { currentTenantId, type ScopedTx } from "./tenancy.ts";

export type Client = pg.PoolClient;

/** BEGIN, `fn`, COMMIT (ROLLBACK when it throws) on a pooled connection held only for the transaction. */
export async function rawTx<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = await getPool().connect();
  let broken: Error | undefined;
  // a connection lost between two queries is an 'error' event of the client (the pool listens only
  // while it is idle): without a listener it would end the process; the next query fails instead
  const lost = (err: Error) => {
    broken = err;
  };
  client.on("error", lost);
  try {
    await client.query("BEGIN");
    const out = await fn(client);
    await client.query("COMMIT");
    return out;
  } catch (err) {
    // a connection whose transaction cannot even roll back is not given back to the pool
    await client.query("ROLLBACK").catch((e: Error) => {
      broken = e;
    });
    throw err;
  } finally {
    client.off("error", lost);
    client.release(broken);
  }
}

/**
 * `fn` as one transaction on one connection, which every query of its async context uses (src/db/pinned.ts):
 * a step holding a lock never waits for a second connection, so such steps cannot stall the pool.
 */
export function onOneConnection<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  return rawTx((client) => runPinned(client, () => fn(client)));
}

/** The tenant-owned things a transaction locks by name (`tenantLock`): one writer of each at a time per company. */
export type TenantLockName =
  | "attendance-settings"
  | "holidays"
  | "leave"
  | "leave-periods"
  | "leave-tenant"
  | "payroll"
  | "payroll-create"
  | "storage-quota";

/**
 * The advisory locks of the application, one kind each, and how each becomes PostgreSQL's 64-bit
 * key (the keys of the helpers they replace: processes of two releases exclude each other).
 */
export type LockKey =
  /** a company's `name` (and `parts`, e.g. an employee's id): tenantLock builds it */
  | { kind: "tenant"; name: TenantLockName; tenantId: string; parts: readonly string[] }
  /** the reporting lines of a company: no two changes build a cycle (src/modules/employees) */
  | { kind: "reporting-lines"; tenantId: string }
  /** the conditional writes of one resource (src/http/conditional.ts) */
  | { kind: "if-match"; tenantId: string; path: string }
  /** the stored bytes of one content hash, shared by every company that uploaded them */
  | { kind: "file-content"; sha256: string }
  /** the background execution of one payroll run: one worker at a time */
  | { kind: "payroll-run"; runId: string }
  /** the event sequencer: one numbering at a time (src/platform/events/sequencer.ts) */
  | { kind: "event-sequencer" };

function keyOf(key: LockKey): { expr: string; value: string | number } {
  const hashed = (value: string) => ({ expr: "hashtextextended($1::text, 0)", value });
  switch (key.kind) {
    case "tenant":
      return hashed([key.name, key.tenantId, ...key.parts].join(":"));
    case "reporting-lines":
      return hashed(`${key.tenantId}:employees.reports_to`);
    case "if-match":
      return { expr: "hashtextextended($1::text, 32)", value: `if-match:${key.tenantId}:${key.path}` };
    case "file-content":
      return hashed(`file-content:${key.sha256}`);
    case "payroll-run":
      return hashed(`payroll-run:${key.runId}`);
    case "event-sequencer":
      return { expr: "$1::bigint", value: 31_0031 };
  }
}

/** The lock of `name` (and `parts`) of the active company. */
export function tenantLock(name: TenantLockName, ...parts: string[]): LockKey {
  return { kind: "tenant", name, tenantId: currentTenantId(), parts };
}

/** A transaction that takes locks: a raw one (rawTx, onOneConnection) or the ORM's (tenantTx). */
export type Holder = Client | Pick<ScopedTx, "$executeRawUnsafe" | "$queryRawUnsafe">;

/**
 * Takes `key`'s transaction-level lock in `tx`, waiting for it: exclusive, or shared (`shared:
 * true`: many holders of the shared lock exclude one holder of the exclusive one).
 */
export async function lock(tx: Holder, key: LockKey, opts: { shared?: boolean } = {}): Promise<void> {
  const { expr, value } = keyOf(key);
  const text = `SELECT pg_advisory_xact_lock${opts.shared ? "_shared" : ""}(${expr})`;
  if ("query" in tx) await tx.query(text, [value]);
  else await tx.$executeRawUnsafe(text, value);
}

/** Takes `key`'s transaction-level lock in `tx` if it is free; false when another holds it. */
export async function tryLock(tx: Holder, key: LockKey): Promise<boolean> {
  const { expr, value } = keyOf(key);
  const text = `SELECT pg_try_advisory_xact_lock(${expr}) AS ok`;
  if ("query" in tx) return (await tx.query<{ ok: boolean }>(text, [value])).rows[0].ok;
  const [row] = await tx.$queryRawUnsafe<{ ok: boolean }[]>(text, value);
  return row.ok;
}

/** `fn` in a transaction of its own on one connection, holding `key`'s lock until it commits. */
export function withLock<T>(key: LockKey, fn: (client: Client) => Promise<T>): Promise<T> {
  return onOneConnection(async (client) => {
    await lock(client, key);
    return fn(client);
  });
}

// Webhook deliveries are claimed by a statement of their own (src/platform/events/deliver.ts): same rule,
// one statement, SKIP LOCKED, a lease.
/** Due rows claimed with a lease: `leaseColumn` moves `leaseS` ahead, and a dead worker's row is due again. */
export interface WorkTable {
  table: "email_outbox";
  /** the condition of a due row, besides its lease having run out */
  due: string;
  /** the timestamp that is both the row's due time and its lease */
  leaseColumn: "next_attempt_at";
  /** the order rows are claimed in */
  order: string;
  /** the columns the claim returns */
  returning: string;
}

/** Claims at most `limit` due rows of `work` for `leaseS` seconds (one statement; rows another worker holds are skipped). */
export async function claimDue<T extends pg.QueryResultRow>(work: WorkTable, opts: { limit: number; leaseS: number }): Promise<T[]> {
  const { table, due, leaseColumn: lease, order, returning } = work;
  const { rows } = await getPool().query<T>(
    `UPDATE ${table} w SET ${lease} = now() + make_interval(secs => $2)
       FROM (SELECT id FROM ${table} WHERE ${due} AND ${lease} <= now() ORDER BY ${order} FOR UPDATE SKIP LOCKED LIMIT $1) claimed
      WHERE w.id = claimed.id
     RETURNING ${returning}`,
    [opts.limit, opts.leaseS],
  );
  return rows;
}
