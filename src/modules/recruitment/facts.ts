// What other areas read of recruitment data, read-only, through the recruitment area's public face (index.ts).
import { db } from "../../db/tenancy.ts";

/** Which of the uploads `ids` a resume or joining document refers to (the unattached-file cleanup keeps those). */
export async function recruitmentFilesInUse(ids: readonly string[]): Promise<string[]> {
  const list = [...ids];
  const [candidates, pool, joining] = await Promise.all([
    db.candidate.findMany({ where: { resume_file_id: { in: list } }, select: { resume_file_id: true } }),
    db.talentPoolCandidate.findMany({ where: { resume_file_id: { in: list } }, select: { resume_file_id: true } }),
    db.appointmentDocument.findMany({ where: { file_id: { in: list } }, select: { file_id: true } }),
  ]);
  return [
    ...candidates.flatMap((r) => (r.resume_file_id ? [r.resume_file_id] : [])),
    ...pool.flatMap((r) => (r.resume_file_id ? [r.resume_file_id] : [])),
    ...joining.map((r) => r.file_id),
  ];
}
