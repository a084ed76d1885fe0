// What the privacy area (src/modules/privacy) needs of an employee record: its documents, and its
// pseudonymisation when the person's data is erased while records a law requires remain.
import type { ScopedTx } from "../../db/tenancy.ts";
import { byId, db } from "../../db/tenancy.ts";
import { audit } from "../../platform/audit.ts";

/** The name, e-mail, status and exit date of an employee record (deleted ones too), or null. */
export async function employeeForPrivacy(id: string) {
  const e = await db.employee.findFirst({
    where: { id },
    select: { id: true, first_name: true, last_name: true, email: true, employee_code: true, status: true, deleted_at: true },
  });
  if (!e) return null;
  const exit = await db.employeeExit.findFirst({
    where: { employee_id: id },
    select: { last_working_day: true },
    orderBy: { created_at: "desc" },
  });
  return { ...e, name: `${e.first_name} ${e.last_name}`.trim(), last_working_day: exit?.last_working_day ?? null };
}

/** The documents of an employee (metadata) for the access bundle. */
export async function employeeDocumentsOf(id: string) {
  return db.employeeDocument.findMany({
    where: { employee_id: id },
    select: { id: true, document_type: true, title: true, created_at: true },
    orderBy: { created_at: "asc" },
  });
}

/**
 * Erases the employee's documents and pseudonymises the record, keeping the employee code (the key of the
 * wage records the payroll laws keep); soft-deleted. Returns the erased documents' ids.
 */
export async function pseudonymiseEmployeeIn(tx: ScopedTx, id: string, deletedAt: Date): Promise<string[]> {
  const docs = await tx.employeeDocument.findMany({ where: { employee_id: id }, select: { id: true } });
  await tx.employeeDocument.deleteMany({ where: { employee_id: id } });
  const e = await tx.employee.findFirst({ where: { id }, select: { employee_code: true, deleted_at: true } });
  if (!e) return [];
  await tx.employee.update({
    where: byId(id),
    data: {
      first_name: "Erased",
      last_name: e.employee_code,
      email: `erased-${id}@erased.invalid`,
      phone: null,
      date_of_birth: null,
      gender: null,
      bank_name: null,
      bank_account_number: null,
      bank_ifsc: null,
      bank_iban: null,
      bank_routing_code: null,
      labour_card_number: null,
      pan_number: null,
      uan: null,
      esi_number: null,
      state: null,
      search_text: e.employee_code.toLowerCase(),
      deleted_at: e.deleted_at ?? deletedAt,
    },
  });
  await tx.membership.updateMany({ where: { employee_id: id }, data: { employee_id: null } });
  await audit({ action: "employee.pseudonymised", entity_type: "employee", entity_id: id, changes: { documents_erased: docs.length } }, tx);
  return docs.map((d) => d.id);
}
