// The raw SQL of loans beyond the ORM: deferring moves every pending installment one month on.
import { type ScannedKey, type Walk, type WalkKey, walkAnd, walkKey, walkOrder } from "../../../db/keyset.ts";
import { execute, read, sql, tenant } from "../../../db/sql.ts";
import type { ScopedTx } from "../../../db/tenancy.ts";

type Client = Pick<ScopedTx, "$queryRaw" | "$executeRaw">;

/** Every pending installment of the loan one month later; the deferred one (`nextId`) counts a deferral. */
export function deferPendingInstallments(client: Client, loanId: string, nextId: string): Promise<number> {
  return execute(
    sql`UPDATE loan_installments SET due_month = (due_month + interval '1 month')::date,
      deferrals = deferrals + CASE WHEN id = ${nextId}::uuid THEN 1 ELSE 0 END
         WHERE tenant_id = ${tenant}::uuid AND loan_id = ${loanId}::uuid AND status = 'pending'`,
    client,
  );
}

/** The next `n` keys of a walk of the loans and advances (src/db/keyset.ts walkPage; the list's filters are applied to them). */
export function loanKeys(w: Walk, after: WalkKey | null, n: number): Promise<ScannedKey[]> {
  return read<ScannedKey>(sql`SELECT id, ${walkKey()} FROM loan_advances
      WHERE tenant_id = ${tenant}::uuid AND ${walkAnd({ ...w, after }, { softDeleted: false })} ORDER BY ${walkOrder()} LIMIT ${n}`);
}

/** The next `n` keys of a walk of the expense claims (src/db/keyset.ts walkPage; the list's filters are applied to them). */
export function claimKeys(w: Walk, after: WalkKey | null, n: number): Promise<ScannedKey[]> {
  return read<ScannedKey>(sql`SELECT id, ${walkKey()} FROM expense_claims
      WHERE tenant_id = ${tenant}::uuid AND ${walkAnd({ ...w, after }, { softDeleted: false })} ORDER BY ${walkOrder()} LIMIT ${n}`);
}
