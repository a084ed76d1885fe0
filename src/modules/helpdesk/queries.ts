// The helpdesk area's raw SQL (src/db/sql.ts): a ticket's row lock.
import { query, sql, tenant } from "../../db/sql.ts";
import type { ScopedTx } from "../../db/tenancy.ts";

/**
 * Locks the ticket for the rest of the transaction (two agents changing it are serialised) and
 * returns its status; null when it is gone - deleted by a request that held the lock first
 * (PostgreSQL re-checks `deleted_at IS NULL` on the row it waited for).
 */
export async function lockTicketStatus(tx: ScopedTx, id: string): Promise<string | null> {
  const [row] = await query<{ status: string }>(
    sql`SELECT t.status FROM helpdesk_tickets t
         WHERE t.tenant_id = ${tenant}::uuid AND t.id = ${id}::uuid AND t.deleted_at IS NULL FOR UPDATE`,
    tx,
  );
  return row?.status ?? null;
}
