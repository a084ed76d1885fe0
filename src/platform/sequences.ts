// Per-tenant human-readable numbers (TKT-00042 …): a counter row bumped inside the caller's
// transaction, so concurrent creates never get the same number and a rolled-back create
// does not consume one.
import { query, sql, tenant } from "../db/sql.ts";
import type { ScopedTx } from "../db/tenancy.ts";

export async function nextNumber(
  tx: Pick<ScopedTx, "$queryRaw" | "$executeRaw">,
  name: string,
  prefix: string,
  width = 5,
): Promise<string> {
  const rows = await query<{ last_value: number }>(
    sql`
    INSERT INTO number_sequences (tenant_id, name, last_value) VALUES (${tenant}::uuid, ${name}, 1)
    ON CONFLICT (tenant_id, name) DO UPDATE SET last_value = number_sequences.last_value + 1
    RETURNING last_value`,
    tx,
  );
  return `${prefix}${String(rows[0].last_value).padStart(width, "0")}`;
}
