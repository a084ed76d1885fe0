// What an import's rows wrote (table import_records): kept with the chunk that wrote them, read into
// the import's answer (`records`), removed with the import when it is pruned.
import type { BulkImport } from "../../../generated/prisma/client.ts";
import { tenantsWith } from "../../db/central.ts";
import { db, type ScopedTx, withTenant } from "../../db/tenancy.ts";
import * as clock from "../../lib/clock.ts";

export type CreatedRecord = { row: number; id: string; code: string | null };

/** What the import's rows created or changed, in row order (none for a dry run or while queued). */
export async function createdRecords(i: BulkImport): Promise<CreatedRecord[]> {
  const rows = await db.bulkImportRecord.findMany({ where: { import_id: i.id }, orderBy: [{ row: "asc" }, { record_id: "asc" }] });
  return rows.map((r) => ({ row: r.row, id: r.record_id, code: r.code }));
}

/** Keeps what rows of the import created (with the chunk that wrote them). */
export async function keepRecords(tx: ScopedTx, importId: string, written: CreatedRecord[]) {
  if (written.length)
    await tx.bulkImportRecord.createMany({
      data: written.map((w) => ({ import_id: importId, row: w.row, record_id: w.id, code: w.code })),
    });
}

export const PRUNE_IMPORTS_JOB = "bulk.prune-imports";
/** How long a finished import stays readable. */
const KEEP_DAYS = 30;

/** Removes imports that ended more than KEEP_DAYS ago, company by company. */
export async function pruneImports(): Promise<number> {
  const before = new Date(clock.now().getTime() - KEEP_DAYS * 86_400_000);
  let removed = 0;
  for (const { tenant_id } of await tenantsWith("bulkImport", { finished_at: { lt: before } }))
    removed += await withTenant(tenant_id, async () => {
      const ended = (await db.bulkImport.findMany({ where: { finished_at: { lt: before } }, select: { id: true } })).map((i) => i.id);
      await db.bulkImportRecord.deleteMany({ where: { import_id: { in: ended } } });
      return (await db.bulkImport.deleteMany({ where: { id: { in: ended } } })).count;
    });
  return removed;
}
