// What other areas read of payroll data, read-only, through the payroll area's public face (index.ts).
import { db } from "../../db/tenancy.ts";

/** Uploads of `ids` that a claim, a tax declaration or a Form 16 Part A holds (the unattached-file cleanup keeps those). */
export async function payrollFilesInUse(ids: readonly string[]): Promise<string[]> {
  const [claims, proofs, partA] = await Promise.all([
    db.expenseClaim.findMany({ where: { receipt_file_id: { in: [...ids] } }, select: { receipt_file_id: true } }),
    db.taxDeclaration.findMany({ where: { proof_file_id: { in: [...ids] } }, select: { proof_file_id: true } }),
    db.form16PartA.findMany({ where: { file_id: { in: [...ids] } }, select: { file_id: true } }),
  ]);
  return [...claims.map((r) => r.receipt_file_id), ...proofs.map((r) => r.proof_file_id), ...partA.map((r) => r.file_id)].flatMap((id) =>
    id ? [id] : [],
  );
}
