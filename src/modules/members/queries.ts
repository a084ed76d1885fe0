// The members area's raw SQL (src/db/sql.ts): the owners' memberships, locked.
import { query, sql, tenant } from "../../db/sql.ts";
import type { ScopedTx } from "../../db/tenancy.ts";

/** Locks the owners' memberships and returns their ids, so concurrent demotions cannot remove the last owner. */
export async function lockOwners(tx: ScopedTx): Promise<string[]> {
  const rows = await query<{ user_id: string }>(
    sql`SELECT m.user_id FROM memberships m WHERE m.tenant_id = ${tenant}::uuid AND m.role = 'owner' FOR UPDATE`,
    tx,
  );
  return rows.map((r) => r.user_id);
}
