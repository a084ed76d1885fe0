// The settings area's raw SQL (src/db/sql.ts): the company row (the active tenant's) inside a
// transaction - locked while it changes, and read back after the change.
import { empty, query, sql, tenant } from "../../db/sql.ts";
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
