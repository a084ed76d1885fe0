// The helpdesk area's raw SQL (src/db/sql.ts): a ticket's row lock, the keys of a walk of the tickets.
import { type ScannedKey, type Walk, type WalkKey, walkAnd, walkKey, walkOrder } from "../../db/keyset.ts";
import { query, read, sql, tenant } from "../../db/sql.ts";
import type { ScopedTx } from "../../db/tenancy.ts";

/** Locks the ticket (agents serialised) and returns its status; null when a request holding the lock first deleted it. */
export async function lockTicketStatus(tx: ScopedTx, id: string): Promise<string | null> {
  const [row] = await query<{ status: string }>(
    sql`SELECT t.status FROM helpdesk_tickets t
         WHERE t.tenant_id = ${tenant}::uuid AND t.id = ${id}::uuid AND t.deleted_at IS NULL FOR UPDATE`,
    tx,
  );
  return row?.status ?? null;
}

/** The next `n` keys of a walk of the tickets (src/db/keyset.ts walkPage; the list's filters are applied to them). */
export function ticketKeys(w: Walk, after: WalkKey | null, n: number): Promise<ScannedKey[]> {
  return read<ScannedKey>(sql`SELECT id, ${walkKey()} FROM helpdesk_tickets
      WHERE tenant_id = ${tenant}::uuid AND ${walkAnd({ ...w, after }, { softDeleted: true })} ORDER BY ${walkOrder()} LIMIT ${n}`);
}
