// Uploads nothing refers to are removed after ORPHAN_FILE_GRACE_HOURS (docs/operations.md, "Uploads and
// usage limits"): each table that refers to files answers through its area which of a page of old files it
// holds (FILE_REFERENCES, held to every `*file_id` column by a test). A soft reference attached in the very
// millisecond its file is swept keeps a dangling id (a 404): accepted, as it needs a day-old unattached upload.
import { config } from "../../config.ts";
import { tenantsWith } from "../../db/central.ts";
import { withTenant } from "../../db/tenancy.ts";
import { logger } from "../../log.ts";
import { deleteFileRow, filesCreatedBefore, removeContentIfUnused, removeStaleTemporaryFiles } from "../../platform/storage/files.ts";
import { assetFilesInUse } from "../assets/index.ts";
import { employeeFilesInUse } from "../employees/index.ts";
import { leaveFilesInUse } from "../leave/index.ts";
import { payrollFilesInUse } from "../payroll/index.ts";
import { recruitmentFilesInUse } from "../recruitment/index.ts";

export const REMOVE_ORPHAN_FILES_JOB = "utilities.remove-orphan-files";

/** Every column that refers to an uploaded file (`table.column`), with the area function that says which files it refers to. */
export const FILE_REFERENCES: readonly { columns: readonly string[]; inUse: (ids: readonly string[]) => Promise<string[]> }[] = [
  { columns: ["employee_documents.file_id"], inUse: employeeFilesInUse },
  { columns: ["expense_claims.receipt_file_id", "tax_declarations.proof_file_id", "form16_part_a.file_id"], inUse: payrollFilesInUse },
  { columns: ["leave_requests.attachment_file_id"], inUse: leaveFilesInUse },
  { columns: ["asset_damage_reports.file_id"], inUse: assetFilesInUse },
  {
    columns: ["candidates.resume_file_id", "talent_pool_candidates.resume_file_id", "appointment_documents.file_id"],
    inUse: recruitmentFilesInUse,
  },
];

const PAGE = 500;

/** Removes the active tenant's unreferenced files created before `before`; returns the content hashes of the rows removed. */
async function removeUnreferencedOf(before: Date): Promise<string[]> {
  const removed: string[] = [];
  let after: { created_at: Date; id: string } | null = null;
  for (;;) {
    const page = await filesCreatedBefore(before, after, PAGE);
    if (!page.length) break;
    after = page[page.length - 1];
    const ids = page.map((f) => f.id);
    const used = new Set((await Promise.all(FILE_REFERENCES.map((r) => r.inUse(ids)))).flat());
    for (const f of page) if (!used.has(f.id) && (await deleteFileRow(f.id, before))) removed.push(f.sha256);
    if (page.length < PAGE) break;
  }
  return removed;
}

/** The job: every company's unreferenced files older than the grace period, their bytes, and stale temporary files. */
// machine time: a file's age is measured against its row's created_at, the database's clock
export async function removeOrphanFiles(now = new Date()): Promise<{ files: number; contents: number; temporary: number }> {
  const before = new Date(now.getTime() - config().orphanFileGraceHours * 3_600_000);
  let files = 0;
  let failed = 0;
  const hashes = new Set<string>();
  for (const { tenant_id } of await tenantsWith("storedFile", { created_at: { lt: before } })) {
    try {
      const removed = await withTenant(tenant_id, () => removeUnreferencedOf(before));
      files += removed.length;
      for (const h of removed) hashes.add(h);
    } catch (err) {
      failed++;
      logger.error({ err: (err as Error).message, tenant_id }, "removing unreferenced files failed");
    }
  }
  let contents = 0;
  for (const h of hashes) if (await removeContentIfUnused(h)) contents++;
  const temporary = await removeStaleTemporaryFiles(before);
  if (files || temporary) logger.info({ files, contents, temporary }, "unreferenced uploads removed");
  if (failed) throw new Error(`removing unreferenced files failed for ${failed} compan${failed === 1 ? "y" : "ies"}`);
  return { files, contents, temporary };
}
