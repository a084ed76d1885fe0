// Per-tenant human-readable numbers (TKT-00042 …): a counter row bumped inside the caller's
// transaction, so concurrent creates never get the same number and a rolled-back create
// does not consume one.
import { currentTenantId } from "../db/tenancy.ts";

type RawClient = { $queryRaw: <T>(q: TemplateStringsArray, ...v: unknown[]) => Promise<T> };

export async function nextNumber(tx: RawClient, name: string, prefix: string, width = 5): Promise<string> {
  const tenantId = currentTenantId();
  const rows = await tx.$queryRaw<{ last_value: number }[]>`
    INSERT INTO number_sequences (tenant_id, name, last_value) VALUES (${tenantId}::uuid, ${name}, 1)
    ON CONFLICT (tenant_id, name) DO UPDATE SET last_value = number_sequences.last_value + 1
    RETURNING last_value`;
  return `${prefix}${String(rows[0].last_value).padStart(width, "0")}`;
}
