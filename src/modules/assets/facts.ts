// What other areas read of asset data, read-only, through the assets area's public face (index.ts).
import { db } from "../../db/tenancy.ts";

/** Which of the uploads `ids` a damage report refers to (the unattached-file cleanup keeps those). */
export async function assetFilesInUse(ids: readonly string[]): Promise<string[]> {
  const rows = await db.assetDamageReport.findMany({ where: { file_id: { in: [...ids] } }, select: { file_id: true } });
  return rows.flatMap((r) => (r.file_id ? [r.file_id] : []));
}
