// The assets area's raw SQL (src/db/sql.ts): the row locks that need more than lockRow - the asset
// with the state its transitions check, and the category held (shared) while an asset joins it.
import { type ScannedKey, type Walk, type WalkKey, walkAnd, walkKey, walkOrder } from "../../db/keyset.ts";
import { query, read, sql, tenant } from "../../db/sql.ts";
import type { ScopedTx } from "../../db/tenancy.ts";
import type { AssetCondition, AssetStatus } from "./common.ts";

export interface LockedAsset {
  id: string;
  asset_tag: string;
  name: string;
  status: AssetStatus;
  condition: AssetCondition;
  deleted_at: Date | null;
}

/** Locks the asset row (deleted or not) for the rest of the transaction and returns its state; undefined when missing. */
export async function lockAssetRow(tx: ScopedTx, id: string): Promise<LockedAsset | undefined> {
  const [row] = await query<LockedAsset>(
    sql`SELECT id, asset_tag::text AS asset_tag, name, status, "condition", deleted_at FROM assets
     WHERE tenant_id = ${tenant}::uuid AND id = ${id}::uuid FOR UPDATE`,
    tx,
  );
  return row;
}

/** Share-locks a live category for the rest of the transaction (it cannot be deleted meanwhile); false when there is none. */
export async function shareLockCategory(tx: ScopedTx, id: string): Promise<boolean> {
  const rows = await query<{ id: string }>(
    sql`SELECT id FROM asset_categories WHERE tenant_id = ${tenant}::uuid AND id = ${id}::uuid AND deleted_at IS NULL FOR SHARE`,
    tx,
  );
  return rows.length > 0;
}

/** The next `n` keys of a walk of the register (src/db/keyset.ts walkPage; the list's filters are applied to them). */
export function assetKeys(w: Walk, after: WalkKey | null, n: number): Promise<ScannedKey[]> {
  return read<ScannedKey>(sql`SELECT id, ${walkKey()} FROM assets
      WHERE tenant_id = ${tenant}::uuid AND ${walkAnd({ ...w, after }, { softDeleted: true })} ORDER BY ${walkOrder()} LIMIT ${n}`);
}
