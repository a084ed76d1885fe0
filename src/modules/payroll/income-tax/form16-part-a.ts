// Part A of Form 16 (Form 130 from the tax year 2026-27): the TRACES certificate of tax deposited, which
// hr uploads per employee and year. Each upload is a new audited version; a replaced or removed one keeps
// its row but lets go of its file, which the unattached-file cleanup removes (src/modules/utilities/cleanup.ts).
import { byId, db, type ScopedTx, tenantTx } from "../../../db/tenancy.ts";
import { lock, tenantLock } from "../../../db/primitives.ts";
import * as clock from "../../../lib/clock.ts";
import { audit } from "../../../platform/audit.ts";
import { AppError, conflict, notFound } from "../../../platform/errors.ts";
import { notify } from "../../../platform/notify.ts";
import { storeUpload } from "../../../platform/storage/files.ts";
import type { AuthContext, UploadedFile } from "../../../platform/use-case.ts";
import { assertVisible } from "../../shared/people.ts";
import { resolveTaxYear, taxCompany } from "./profile.ts";

const PDF = "application/pdf";

type PartARow = { id: string; version: number; file_name: string; size_bytes: number; created_at: Date };

/** The Part A object of getForm16: the current version and where to download it. */
export function partAJson(employeeId: string, taxYear: string, row: PartARow) {
  return {
    version: row.version,
    file_name: row.file_name,
    size_bytes: row.size_bytes,
    uploaded_at: row.created_at.toISOString(),
    download_url: `/api/payroll/form-16/${employeeId}/part-a?tax_year=${taxYear}`,
  };
}

const currentWhere = (employeeId: string, taxYear: string) => ({
  employee_id: employeeId,
  tax_year: taxYear,
  replaced_at: null,
  removed_at: null,
});

/** The current Part A of an employee's tax year, or null. */
export async function currentPartA(client: Pick<ScopedTx, "form16PartA">, employeeId: string, taxYear: string) {
  return client.form16PartA.findFirst({ where: currentWhere(employeeId, taxYear), include: { file: true } });
}

/** The employee (visible to the caller, not deleted), the company's tax year; a 409 where no income tax is withheld. */
async function target(auth: AuthContext, employeeId: string, requestedYear: string | undefined) {
  await assertVisible(auth, employeeId);
  const e = await db.employee.findFirst({ where: { id: employeeId, deleted_at: null }, select: { id: true } });
  if (!e) throw notFound("Employee");
  const company = await taxCompany();
  if (!company.withholds)
    throw conflict("This company withholds no income tax (its currency is not INR): there is no Form 16 and no Part A");
  return resolveTaxYear(requestedYear, company.timezone).taxYear;
}

const noPartA = (taxYear: string) =>
  new AppError("not_found", `No Part A of Form 16 was uploaded for this employee and the tax year ${taxYear}`);

/** Stores the TRACES PDF as the current Part A (a new version; the previous one is replaced), audited. */
export async function uploadPartA(
  auth: AuthContext,
  employeeId: string,
  requestedYear: string | undefined,
  file: UploadedFile | undefined,
) {
  const taxYear = await target(auth, employeeId, requestedYear);
  if (file && file.mimetype.split(";")[0].trim().toLowerCase() !== PDF)
    throw new AppError("unsupported_media_type", "Part A is the PDF that TRACES issues: upload a PDF (application/pdf)");
  const row = await tenantTx(async (tx) => {
    await lock(tx, tenantLock("payroll", "form16-part-a", employeeId, taxYear));
    const before = await currentPartA(tx, employeeId, taxYear);
    const last = await tx.form16PartA.aggregate({ where: { employee_id: employeeId, tax_year: taxYear }, _max: { version: true } });
    const stored = await storeUpload(file, { purpose: "form16_part_a", uploadedBy: auth.userId }, tx);
    // the same PDF again (a retried request): the current version stands, the new file row goes with the cleanup
    if (before?.sha256 === stored.sha256) return before;
    if (before) await tx.form16PartA.update({ where: byId(before.id), data: { replaced_at: clock.now(), file_id: null } });
    const saved = await tx.form16PartA.create({
      data: {
        employee_id: employeeId,
        tax_year: taxYear,
        version: (last._max.version ?? 0) + 1,
        file_id: stored.id,
        file_name: stored.original_name,
        size_bytes: stored.size_bytes,
        sha256: stored.sha256,
        uploaded_by: auth.userId,
        created_at: clock.now(),
      },
    });
    await audit(
      {
        action: "form16_part_a.uploaded",
        entity_type: "employee",
        entity_id: employeeId,
        changes: {
          tax_year: taxYear,
          part_a: {
            from: before ? { version: before.version, file_name: before.file_name, size_bytes: before.size_bytes } : null,
            to: { version: saved.version, file_name: saved.file_name, size_bytes: saved.size_bytes, sha256: saved.sha256 },
          },
        },
      },
      tx,
    );
    // the employee hears that their certificate's Part A can be downloaded
    const member = await tx.membership.findFirst({ where: { employee_id: employeeId }, select: { user_id: true } });
    if (member)
      await notify(tx, {
        userId: member.user_id,
        kind: "form16_part_a.uploaded",
        title: `Part A of your Form 16 for ${taxYear} is available`,
        link: `/api/payroll/form-16/${employeeId}/part-a?tax_year=${taxYear}`,
      });
    return saved;
  });
  return partAJson(employeeId, taxYear, row);
}

/** The current Part A's stored file (the employee their own, hr anyone's); 404 when none is uploaded. */
export async function partAFile(auth: AuthContext, employeeId: string, requestedYear: string | undefined) {
  const taxYear = await target(auth, employeeId, requestedYear);
  const row = await currentPartA(db, employeeId, taxYear);
  if (!row?.file) throw noPartA(taxYear);
  return row.file;
}

/** Removes the current Part A (its file goes with the cleanup), audited; 404 when none is uploaded. */
export async function removePartA(auth: AuthContext, employeeId: string, requestedYear: string | undefined) {
  const taxYear = await target(auth, employeeId, requestedYear);
  await tenantTx(async (tx) => {
    await lock(tx, tenantLock("payroll", "form16-part-a", employeeId, taxYear));
    const row = await currentPartA(tx, employeeId, taxYear);
    if (!row) throw noPartA(taxYear);
    await tx.form16PartA.update({
      where: byId(row.id),
      data: { removed_at: clock.now(), removed_by: auth.userId, file_id: null },
    });
    await audit(
      {
        action: "form16_part_a.removed",
        entity_type: "employee",
        entity_id: employeeId,
        changes: {
          tax_year: taxYear,
          part_a: { from: { version: row.version, file_name: row.file_name, size_bytes: row.size_bytes }, to: null },
        },
      },
      tx,
    );
  });
}
