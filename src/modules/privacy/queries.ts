// The privacy area's raw SQL (src/db/sql.ts): row locks of a request, a breach and a legal hold.
import { query, sql, tenant } from "../../db/sql.ts";
import type { ScopedTx } from "../../db/tenancy.ts";

/** Locks the request for the rest of the transaction (two deciders are serialised); its status, or null. */
export async function lockRequest(tx: ScopedTx, id: string): Promise<string | null> {
  const [row] = await query<{ status: string }>(
    sql`SELECT status FROM privacy_requests WHERE tenant_id = ${tenant}::uuid AND id = ${id}::uuid FOR UPDATE`,
    tx,
  );
  return row?.status ?? null;
}

/** Locks the breach for the rest of the transaction; false when it does not exist. */
export async function lockBreach(tx: ScopedTx, id: string): Promise<boolean> {
  const rows = await query<{ id: string }>(
    sql`SELECT id FROM privacy_breaches WHERE tenant_id = ${tenant}::uuid AND id = ${id}::uuid FOR UPDATE`,
    tx,
  );
  return rows.length > 0;
}

/** Locks the legal hold; whether it is still active (null when it does not exist). */
export async function lockHold(tx: ScopedTx, id: string): Promise<boolean | null> {
  const [row] = await query<{ active: boolean }>(
    sql`SELECT released_at IS NULL AS active FROM legal_holds WHERE tenant_id = ${tenant}::uuid AND id = ${id}::uuid FOR UPDATE`,
    tx,
  );
  return row ? row.active : null;
}
