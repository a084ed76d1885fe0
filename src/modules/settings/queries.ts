// The settings area's raw SQL (src/db/sql.ts): the company row (the active tenant's) inside a
// transaction - locked while it changes, and read back after the change.
import { type ScannedKey, type Walk, type WalkKey, walkAnd, walkKey, walkOrder } from "../../db/keyset.ts";
import { empty, query, read, sql, tenant } from "../../db/sql.ts";
import type { ScopedTx } from "../../db/tenancy.ts";

export interface CompanyRow {
  id: string;
  name: string;
  legal_name: string | null;
  address: string | null;
  currency: string;
  timezone: string;
  weekly_offs: number[];
  fiscal_year_start_month: number;
  modules: string[];
  updated_at: Date;
}

/** The company row, locked for the rest of the transaction when `lock`. */
export async function companyRow(tx: ScopedTx, opts: { lock?: boolean } = {}): Promise<CompanyRow> {
  const [row] = await query<CompanyRow>(
    sql`SELECT t.id, t.name, t.legal_name, t.address, t.currency, t.timezone,
      t.weekly_offs, t.fiscal_year_start_month, t.modules, t.updated_at
          FROM tenants t WHERE t.id = ${tenant}::uuid ${opts.lock ? sql`FOR UPDATE` : empty}`,
    tx,
  );
  return row;
}

/** The next `n` keys of a walk of the activity log (src/db/keyset.ts walkPage; the list's filters are applied to them). */
export function auditKeys(w: Walk, after: WalkKey | null, n: number): Promise<ScannedKey[]> {
  return read<ScannedKey>(sql`SELECT id, ${walkKey()} FROM audit_logs
      WHERE tenant_id = ${tenant}::uuid AND ${walkAnd({ ...w, after }, { softDeleted: false })} ORDER BY ${walkOrder()} LIMIT ${n}`);
}
