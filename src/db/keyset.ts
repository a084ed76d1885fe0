// Keyset walks over change stamps: the one query shape of every list walked by cursor, read in
// (change_xid, id) order below BOUND so that no row can appear behind a cursor
// (docs/decisions/0007-integrations-internals.md, "Syncing a list").
import { empty, join, type Sql, sql } from "./sql.ts";

/** The last row of a page: where the next page starts. */
export interface WalkKey {
  /** change_xid as decimal text */
  xid: string;
  id: string;
}

/** A walk of a list in the order of change, as the request's cursor and parameters give it. */
export interface Walk {
  /** Continue after this key (null: from the start). */
  after: WalkKey | null;
  limit: number;
  /** `updated_since`: rows changed at or after this instant only. */
  updatedSince: Date | null;
  /** `include_deleted=true`: tombstones (soft-deleted rows) come too. */
  includeDeleted: boolean;
  /** The cursor that continues the walk after `key` (null: the page was empty; continue from where it began). */
  cursorAfter(key: WalkKey | null): string;
  /** `has_more`, set by the page's reader; unset, a full page counts as "maybe more" (src/http/envelope.ts). */
  hasMore?: boolean;
}

/** The LIMIT of a walk's statement: one row more than the page, to know whether more remain (walkRows). */
export const walkLimit = (w: Walk): number => w.limit + 1;

/** The page of rows read with LIMIT walkLimit(w): the first `limit` of them, and whether more remain. */
export function walkRows<R>(w: Walk, rows: R[]): R[] {
  w.hasMore = rows.length > w.limit;
  return rows.slice(0, w.limit);
}

/**
 * Below it every change is final for the reading snapshot: the least of the snapshot's xmax and its
 * in-progress transactions, less those pg_stat_activity shows in another database (they cannot write
 * here, so another database's long transaction does not hold walks back). An initplan: an index condition.
 */
const BOUND = sql`(SELECT least(pg_snapshot_xmax(q.s), (SELECT min(x) FROM pg_snapshot_xip(q.s) AS x WHERE NOT EXISTS (
    SELECT 1 FROM pg_stat_get_activity(NULL) a WHERE a.backend_xid = xid(x)
       AND a.datid <> (SELECT oid FROM pg_database WHERE datname = current_database()))))
  FROM (SELECT pg_current_snapshot() AS s) q)`;

/** The walk's conditions on a stamped table (`t`: its alias, sql`e.`): past the cursor, below BOUND, changed since, live unless asked. */
export function walkAnd(w: Walk, opts: { t?: Sql; softDeleted: boolean }): Sql {
  const t = opts.t ?? empty;
  const conds = [sql`${t}change_xid < ${BOUND}`];
  if (w.after) conds.push(sql`(${t}change_xid, ${t}id) > (${w.after.xid}::xid8, ${w.after.id}::uuid)`);
  if (w.updatedSince) conds.push(sql`${t}changed_at >= ${w.updatedSince}::timestamptz`);
  if (opts.softDeleted && !w.includeDeleted) conds.push(sql`${t}deleted_at IS NULL`);
  return join(conds, " AND ");
}

/** The walk's order (the keyset index's columns after the tenant). */
export const walkOrder = (t: Sql = empty): Sql => sql`${t}change_xid, ${t}id`;

/** The row's key as a column `walk_xid` (with its `id`, what lastKey reads). */
export const walkKey = (t: Sql = empty): Sql => sql`${t}change_xid::text AS walk_xid`;

/** The key of the last row of a page (null for an empty page). */
export function lastKey(rows: readonly { id: string; walk_xid: string }[]): WalkKey | null {
  const last = rows.at(-1);
  return last ? { xid: last.walk_xid, id: last.id } : null;
}

/** A key as a scan of a stamped table returns it (walkKey's column and the row's id). */
export type ScannedKey = { id: string; walk_xid: string };

/**
 * A page of a walk whose filters are a Prisma `where`: `scan` reads keys in walk order from the stamped
 * table, `load` the rows of those ids that pass the filters; the scan reads on chunk by chunk until the
 * page is full plus one (exact `hasMore`). The cursor is the last key scanned, so filtered-out rows are not
 * read again; a row changed between scan and load comes again at its new key: repeated, never missed.
 */
export async function walkPage<R extends { id: string }>(
  w: Walk,
  scan: (after: WalkKey | null, n: number) => Promise<ScannedKey[]>,
  load: (ids: string[]) => Promise<R[]>,
): Promise<{ rows: R[]; last: WalkKey | null }> {
  const chunk = Math.max(2 * w.limit, 100);
  const rows: R[] = [];
  let after = w.after;
  let last: WalkKey | null = null;
  const done = (more: boolean) => {
    w.hasMore = more;
    return { rows, last };
  };
  for (;;) {
    const keys = await scan(after, chunk);
    if (!keys.length) return done(false);
    const passing = new Map((await load(keys.map((k) => k.id))).map((r) => [r.id, r]));
    for (const k of keys) {
      const row = passing.get(k.id);
      if (rows.length === w.limit) {
        if (row) return done(true);
        continue;
      }
      last = { xid: k.walk_xid, id: k.id };
      if (row) rows.push(row);
    }
    if (keys.length < chunk) return done(false);
    const end = keys[keys.length - 1];
    after = { xid: end.walk_xid, id: end.id };
  }
}

/** A row's JSON as a tombstone when it is deleted: with its `deleted_at` (walks with include_deleted). */
export function withDeletedAt<J extends object>(json: J, deletedAt: Date | null | undefined): J & { deleted_at?: string } {
  return deletedAt ? { ...json, deleted_at: deletedAt.toISOString() } : json;
}
