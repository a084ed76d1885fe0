// The database primitives every transaction, lock and work-table claim outside the ORM goes through
// (docs/architecture.md, "Database primitives"): a raw transaction on a connection of its own
// (`rawTx`), a step whose every query runs on that one connection (`onOneConnection`), advisory
// locks by typed key (`lock`, `tryLock`, `withLock`), and the lease that claims due rows of a work
// table (`claimDue`). None of them may span a network call: send outside, record in a new one.
import type pg from "pg";
import { getPool } from "./client.ts";
import { runPinned } from "./pinned.ts";

export type Client = pg.PoolClient;

/** BEGIN, `fn`, COMMIT (ROLLBACK when it throws) on a pooled connection held only for the transaction. */
export async function rawTx<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = await getPool().connect();
  let broken: Error | undefined;
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
    client.release(broken);
  }
}

/**
 * `fn` as one transaction on one connection: every query of its async context (the ORM's, raw
 * SQL, a nested transaction - a savepoint then) runs on it (src/db/pinned.ts). For a step that
 * must hold a lock while code written for the pool reads and writes: it never waits for a second
 * connection while holding one, so as many such steps as the pool has connections cannot stall it.
 */
export function onOneConnection<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  return rawTx((client) => runPinned(client, () => fn(client)));
}

/**
 * The advisory locks of the application, one kind each, and how each becomes PostgreSQL's 64-bit
 * key (unchanged from before this module: processes of two releases exclude each other).
 */
export type LockKey =
  /** the conditional writes of one resource (src/http/conditional.ts) */
  | { kind: "if-match"; tenantId: string; path: string }
  /** the event sequencer: one numbering at a time (src/platform/events/sequencer.ts) */
  | { kind: "event-sequencer" };

function keyOf(key: LockKey): { expr: string; value: string | number } {
  switch (key.kind) {
    case "if-match":
      return { expr: "hashtextextended($1, 32)", value: `if-match:${key.tenantId}:${key.path}` };
    case "event-sequencer":
      return { expr: "$1::bigint", value: 31_0031 };
  }
}

/** Takes `key`'s transaction-level lock on `client` (inside a transaction), waiting for it. */
export async function lock(client: Client, key: LockKey): Promise<void> {
  const { expr, value } = keyOf(key);
  await client.query(`SELECT pg_advisory_xact_lock(${expr})`, [value]);
}

/** Takes `key`'s transaction-level lock on `client` if it is free; false when another holds it. */
export async function tryLock(client: Client, key: LockKey): Promise<boolean> {
  const { expr, value } = keyOf(key);
  const { rows } = await client.query<{ ok: boolean }>(`SELECT pg_try_advisory_xact_lock(${expr}) AS ok`, [value]);
  return rows[0].ok;
}

/** `fn` in a transaction of its own on one connection, holding `key`'s lock until it commits. */
export function withLock<T>(key: LockKey, fn: (client: Client) => Promise<T>): Promise<T> {
  return onOneConnection(async (client) => {
    await lock(client, key);
    return fn(client);
  });
}

/**
 * A work table whose due rows are claimed with a lease: a claimed row's `leaseColumn` moves `leaseS`
 * seconds ahead, so no other worker claims it while it is worked on (outside any transaction), and
 * it is due again by itself if its worker dies before recording the outcome.
 */
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
