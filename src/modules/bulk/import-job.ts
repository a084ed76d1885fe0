// The queue of large imports (docs/integrations-bulk.md): an import of more than BULK_IMPORT_SYNC_ROWS
// rows is stored with its source and run by the job `bulk.imports` (kicked, and swept every minute),
// claimed by one conditional UPDATE with a lease, as its maker is authorized today.
import type { BulkImport } from "../../../generated/prisma/client.ts";
import { tenantsWith } from "../../db/central.ts";
import { db, withTenant } from "../../db/tenancy.ts";
import type { OperationId } from "../../../generated/registry.ts";
import { reauthorize } from "../../platform/identity/authorize.ts";
import type { AuthContext } from "../../platform/use-case.ts";
import * as clock from "../../lib/clock.ts";
import { logger } from "../../log.ts";
import { requestContext } from "../../request-context.ts";
import { AppError, forbidden } from "../../platform/errors.ts";
import { KINDS, type KindName } from "./kinds.ts";
import { LEASE_MS, markFailed, runImport } from "./import-run.ts";
import { csvRows, type Row } from "./rows.ts";

export const BULK_IMPORTS_JOB = "bulk.imports";
/** The longest transaction of an import: a queued all-or-nothing import of 100 000 rows. */
const JOB_TX_MS = 30 * 60_000;

/** The import's maker as they are now (role, own-record links, scopes), so the job runs by today's rules. */
async function makerOf(tenantId: string, imp: BulkImport): Promise<AuthContext> {
  if (!imp.created_by) throw forbidden("Not run: the member who made it is no longer known");
  const operation = `import${imp.kind.replace(/(^|_)([a-z])/g, (_m, _s, c: string) => c.toUpperCase())}` as OperationId;
  return reauthorize(tenantId, imp.created_by, imp.actor_credential_id, operation);
}

/** Runs every queued import (and running ones whose lease lapsed), oldest first; each claimed by one conditional UPDATE. */
export async function runQueuedImports(): Promise<number> {
  let done = 0;
  const tried = new Set<string>();
  for (;;) {
    let triedNow = 0;
    const now = clock.now();
    const waiting = { OR: [{ status: "queued" }, { status: "running", locked_until: { lt: now } }] };
    for (const { tenant_id } of await tenantsWith("bulkImport", waiting)) {
      const next = await withTenant(tenant_id, () =>
        db.bulkImport.findMany({
          where: { ...waiting, id: { notIn: [...tried] } },
          orderBy: { created_at: "asc" },
          select: { id: true },
          take: 10,
        }),
      );
      for (const { id } of next) {
        tried.add(id);
        triedNow++;
        if (await executeQueuedImport(tenant_id, id)) done++;
      }
    }
    if (!triedNow) break;
  }
  return done;
}

/** Claims and runs one import; false when another worker has it. */
export async function executeQueuedImport(tenantId: string, id: string): Promise<boolean> {
  return withTenant(tenantId, async () => {
    const now = clock.now();
    const claimed = await db.bulkImport.updateMany({
      where: { id, OR: [{ status: "queued" }, { status: "running", locked_until: { lt: now } }] },
      data: { status: "running", started_at: now, locked_until: new Date(now.getTime() + LEASE_MS) },
    });
    if (!claimed.count) return false;
    const imp = (await db.bulkImport.findFirst({ where: { id } }))!;
    const ctx = { requestId: `job:${BULK_IMPORTS_JOB}:${id}`, userId: imp.created_by ?? undefined, email: imp.actor_email ?? undefined };
    await requestContext.run(ctx, async () => {
      try {
        const auth = await makerOf(tenantId, imp);
        // checked as a whole when it was received; read again row by row
        const rows =
          imp.format === "csv" ? csvRows(KINDS[imp.kind as KindName], imp.source ?? "") : (JSON.parse(imp.source ?? "[]") as Row[]);
        await runImport(auth, imp, rows, JOB_TX_MS);
      } catch (err) {
        if (!(err instanceof AppError))
          logger.error({ err: (err as Error).message, tenant_id: tenantId, import_id: id }, "bulk import failed");
        await markFailed(id, err);
      }
    });
    return true;
  });
}
