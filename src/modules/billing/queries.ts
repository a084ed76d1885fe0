// The billing area's raw SQL (src/db/sql.ts): the subscribing tenant's row, locked while an event
// is applied. The webhook starts outside any tenant; the statement runs as the event's tenant.
import { query, sql, tenant } from "../../db/sql.ts";
import { type ScopedTx, withTenant } from "../../db/tenancy.ts";

export interface BillingTenantRow {
  id: string;
  modules: string[];
  billing_event_at: Date | null;
}

/** Locks the tenant's row for the rest of the transaction; null when there is no such tenant. */
export async function lockBillingTenant(
  tx: Pick<ScopedTx, "$queryRaw" | "$executeRaw">,
  tenantId: string,
): Promise<BillingTenantRow | null> {
  const [row] = await withTenant(tenantId, () =>
    query<BillingTenantRow>(sql`SELECT t.id, t.modules, t.billing_event_at FROM tenants t WHERE t.id = ${tenant}::uuid FOR UPDATE`, tx),
  );
  return row ?? null;
}
