// The notifications area's raw SQL (src/db/sql.ts): the keys of a walk of the inbox.
import { type ScannedKey, type Walk, type WalkKey, walkAnd, walkKey, walkOrder } from "../../db/keyset.ts";
import { read, sql, tenant } from "../../db/sql.ts";

/** The next `n` keys of a walk of the notifications (src/db/keyset.ts walkPage; the list's filters are applied to them). */
export function notificationKeys(w: Walk, after: WalkKey | null, n: number): Promise<ScannedKey[]> {
  return read<ScannedKey>(sql`SELECT id, ${walkKey()} FROM notifications
      WHERE tenant_id = ${tenant}::uuid AND ${walkAnd({ ...w, after }, { softDeleted: false })} ORDER BY ${walkOrder()} LIMIT ${n}`);
}
