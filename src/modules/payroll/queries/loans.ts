// The raw SQL of loans beyond the ORM: deferring moves every pending installment one month on.
import { execute, sql, tenant } from "../../../db/sql.ts";
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
