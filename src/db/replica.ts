// The read replica (DATABASE_REPLICA_URL): operations marked `x-read-replica: true` run with it as "the
// database" (`onReplica`) while it is up, within DATABASE_REPLICA_MAX_LAG_MS, and has replayed the
// caller's latest write (read-your-writes); anything else uses the primary (docs/scaling.md). Its
// connections are read-only, so a stray write fails instead of landing on a standby.
import { AsyncLocalStorage } from "node:async_hooks";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
import { PrismaClient } from "../../generated/prisma/client.ts";
import { logger } from "../log.ts";
import { forgetPool, observePool } from "./pool-stats.ts";

/** A WAL position (pg_lsn) as a number. */
export type Lsn = bigint;

/** `16/B374D848` → bigint; null for anything else. */
export function parseLsn(text: string | null | undefined): Lsn | null {
  if (!text) return null;
  const [hi, lo, extra] = text.split("/");
  if (extra !== undefined || !/^[0-9A-Fa-f]{1,8}$/.test(hi ?? "") || !/^[0-9A-Fa-f]{1,8}$/.test(lo ?? "")) return null;
  return (BigInt(`0x${hi}`) << 32n) + BigInt(`0x${lo}`);
}

export function formatLsn(lsn: Lsn): string {
  return `${(lsn >> 32n).toString(16).toUpperCase()}/${(lsn & 0xffffffffn).toString(16).toUpperCase()}`;
}

/** How the replica's replay position is read (the tests put a replica "behind" with setReplayProbe). */
export type ReplayProbe = (replica: pg.Pool) => Promise<Lsn | null>;

// A standby's replay position; a server that is not in recovery (a test using the primary's own
// database as its "replica") has replayed everything it has.
const REPLAY_LSN = "SELECT (CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() ELSE pg_current_wal_insert_lsn() END)::text AS lsn";
const defaultProbe: ReplayProbe = async (p) => parseLsn((await p.query<{ lsn: string | null }>(REPLAY_LSN)).rows[0]?.lsn);
let replayProbe: ReplayProbe = defaultProbe;

const PROBE_INTERVAL_MS = 1000;

interface Replica {
  pool: pg.Pool;
  client: PrismaClient;
  primary: pg.Pool;
  maxLagMs: number;
  /** the last probe reached the replica */
  up: boolean;
  /** its replay position at the last probe */
  replayLsn: Lsn | null;
  /** the primary's positions of the last probes (time, position), oldest first */
  history: { at: number; lsn: Lsn }[];
  timer: NodeJS.Timeout;
  refreshing?: Promise<void>;
  probing?: Promise<void>;
}

let replica: Replica | undefined;
const route = new AsyncLocalStorage<Replica>();

export interface ReplicaOptions {
  max: number;
  maxLagMs: number;
  transactionTimeoutMs: number;
}

/** Opens the replica's pool and client (connections on first use) and starts probing it every second. */
export function initReplica(url: string, primary: pg.Pool, opts: ReplicaOptions): void {
  if (replica) return;
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max,
    // a replica that does not answer soon is skipped (the primary serves), not waited for
    connectionTimeoutMillis: 1000,
    idleTimeoutMillis: 30000,
    lock_timeout: opts.transactionTimeoutMs,
    application_name: "hrms-replica",
    options: "-c default_transaction_read_only=on",
  });
  pool.on("error", (err) => logger.warn({ err: err.message }, "idle replica connection error"));
  observePool("replica", pool, opts.max);
  const client = new PrismaClient({
    adapter: new PrismaPg(pool),
    transactionOptions: { maxWait: 1000, timeout: opts.transactionTimeoutMs },
  });
  const timer = setInterval(() => void probe(r), PROBE_INTERVAL_MS);
  timer.unref();
  const r: Replica = { pool, client, primary, maxLagMs: opts.maxLagMs, up: false, replayLsn: null, history: [], timer };
  replica = r;
  void probe(r);
}

export async function closeReplica(): Promise<void> {
  const r = replica;
  replica = undefined;
  if (!r) return;
  clearInterval(r.timer);
  forgetPool("replica", r.pool);
  await r.probing?.catch(() => {});
  await r.client.$disconnect().catch(() => {});
  await r.pool.end().catch(() => {});
}

export const replicaConfigured = (): boolean => replica !== undefined;

/** Replaces how the replay position is read (tests); undefined restores pg_last_wal_replay_lsn(). */
export function setReplayProbe(fn: ReplayProbe | undefined): void {
  replayProbe = fn ?? defaultProbe;
}

function probe(r: Replica): Promise<void> {
  r.probing ??= (async () => {
    const [primary, standby] = await Promise.allSettled([
      // what the primary has flushed: what a replica can have (its "behind" measure)
      r.primary.query<{ lsn: string }>("SELECT pg_current_wal_flush_lsn()::text AS lsn"),
      replayProbe(r.pool),
    ]);
    const now = Date.now();
    if (primary.status === "fulfilled") {
      const lsn = parseLsn(primary.value.rows[0]?.lsn);
      if (lsn !== null) r.history.push({ at: now, lsn });
      // what "too far behind" needs: the positions of the last max-lag window and one before it
      while (r.history.length > 2 && now - r.history[1].at > r.maxLagMs) r.history.shift();
    }
    const wasUp = r.up;
    r.up = standby.status === "fulfilled" && standby.value !== null;
    r.replayLsn = standby.status === "fulfilled" ? standby.value : null;
    if (wasUp !== r.up)
      logger.warn(
        { replica: r.up ? "up" : "down", err: standby.status === "rejected" ? String(standby.reason?.message) : undefined },
        r.up ? "read replica answers: reads go to it again" : "read replica unavailable: reads go to the primary",
      );
  })().finally(() => {
    r.probing = undefined;
  });
  return r.probing;
}

/**
 * The replica's lag at its last probe (the metrics): WAL bytes behind the primary's flush position, and
 * seconds since the primary flushed the oldest position not replayed. Undefined without a replica.
 */
export function replicaLag(): { up: boolean; bytes: number | null; seconds: number | null } | undefined {
  const r = replica;
  if (!r) return undefined;
  const latest = r.history.at(-1);
  if (!r.up || r.replayLsn === null || !latest) return { up: r.up, bytes: null, seconds: null };
  const replay = r.replayLsn;
  const bytes = latest.lsn > replay ? Number(latest.lsn - replay) : 0;
  const behind = r.history.find((h) => h.lsn > replay);
  return { up: true, bytes, seconds: behind ? Math.max(0, (Date.now() - behind.at) / 1000) : 0 };
}

/** Probes the replica now (tests: not to wait for the next second's probe). */
export async function probeReplica(): Promise<void> {
  if (replica) await probe(replica);
}

/** The replica has not replayed what the primary had written max-lag ago. */
function tooFarBehind(r: Replica): boolean {
  const now = Date.now();
  const old = r.history.filter((h) => now - h.at >= r.maxLagMs).at(-1);
  return old !== undefined && r.replayLsn !== null && r.replayLsn < old.lsn;
}

/** The replica's replay position read again now (concurrent callers share one query). */
function refreshReplay(r: Replica): Promise<void> {
  r.refreshing ??= replayProbe(r.pool)
    .then(
      (lsn) => {
        if (lsn !== null && (r.replayLsn === null || lsn > r.replayLsn)) r.replayLsn = lsn;
      },
      () => void probe(r),
    )
    .finally(() => {
      r.refreshing = undefined;
    });
  return r.refreshing;
}

/** Whether a read may use the replica now: up, not too far behind, and has replayed `after` (the caller's latest write). */
export async function replicaUsable(after: Lsn | null): Promise<boolean> {
  const r = replica;
  if (!r?.up || r.replayLsn === null || tooFarBehind(r)) return false;
  if (after === null || r.replayLsn >= after) return true;
  await refreshReplay(r);
  return r.replayLsn !== null && r.replayLsn >= after;
}

/** Runs `fn` with the replica as the database of every query it makes (see getPool / getBaseClient). */
export function onReplica<T>(fn: () => Promise<T>): Promise<T> {
  const r = replica;
  return r ? route.run(r, fn) : fn();
}

/** A read on the replica failed: probe it now (a replica that is gone is skipped from then on). */
export function replicaFailed(err: unknown): void {
  const r = replica;
  if (!r) return;
  logger.warn({ err: (err as Error)?.message }, "read on the replica failed: served by the primary");
  void probe(r);
}

/** The replica's pool and client when the caller runs inside onReplica, else undefined. */
export function routedReplica(): { pool: pg.Pool; client: PrismaClient } | undefined {
  const r = route.getStore();
  return r && r === replica ? r : undefined;
}

/** Whether the caller runs inside onReplica (tests, logs). */
export const onReplicaNow = (): boolean => routedReplica() !== undefined;

/**
 * The primary's WAL insert position (not pg_current_wal_lsn(): with synchronous_commit = off a commit
 * record can still be in the WAL buffers, ahead of it). At a page boundary it errs towards the primary.
 */
export async function primaryLsn(): Promise<Lsn | null> {
  const r = replica;
  if (!r) return null;
  return parseLsn((await r.primary.query<{ lsn: string }>("SELECT pg_current_wal_insert_lsn()::text AS lsn")).rows[0]?.lsn);
}
