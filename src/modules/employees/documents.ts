// Employee documents: multipart uploads stored through src/storage/files.ts (size and type limits,
// content-addressed bytes on disk), metadata rows in employee_documents, audited.
import type { EmployeeDocument, StoredFile } from "../../../generated/prisma/client.ts";
import { audit } from "../../audit.ts";
import { db, tenantTx } from "../../db/tenancy.ts";
import type { Page } from "../../http/envelope.ts";
import { notFound } from "../../http/errors.ts";
import type { UploadedFile } from "../../http/types.ts";
import { fileJson, storeUpload } from "../../storage/files.ts";

export type DocumentType = "id_proof" | "address_proof" | "passport" | "visa" | "labour_card" | "education" | "experience" | "offer_letter" | "contract" | "payslip" | "tax" | "medical" | "other";

export function documentJson(d: EmployeeDocument & { file: StoredFile }) {
  return {
    id: d.id,
    employee_id: d.employee_id,
    document_type: d.document_type as DocumentType,
    title: d.title,
    file: fileJson(d.file),
    uploaded_by: d.uploaded_by,
    download_path: `/api/employees/${d.employee_id}/documents/${d.id}/download`,
    created_at: d.created_at.toISOString(),
  };
}

export async function uploadDocument(employeeId: string, file: UploadedFile | undefined, meta: { document_type: DocumentType; title: string }, uploadedBy: string) {
  return tenantTx(async (tx) => {
    const stored = await storeUpload(file, { purpose: "employee_document", uploadedBy }, tx);
    const doc = await tx.employeeDocument.create({
      data: { employee_id: employeeId, file_id: stored.id, document_type: meta.document_type, title: meta.title.trim(), uploaded_by: uploadedBy } as any,
      include: { file: true },
    });
    await audit(
      {
        action: "employee.document_uploaded",
        entity_type: "employee",
        entity_id: employeeId,
        changes: { documents: { from: null, to: { id: doc.id, document_type: doc.document_type, title: doc.title, file_name: stored.original_name, size_bytes: stored.size_bytes } } },
      },
      tx,
    );
    return doc;
  });
}

export async function listDocuments(employeeId: string, page: Page) {
  const where = { employee_id: employeeId };
  const [rows, total] = await Promise.all([
    db.employeeDocument.findMany({ where, include: { file: true }, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: page.skip, take: page.limit }),
    db.employeeDocument.count({ where }),
  ]);
  return { rows, total };
}

export async function findDocument(employeeId: string, documentId: string) {
  const d = await db.employeeDocument.findFirst({ where: { id: documentId, employee_id: employeeId }, include: { file: true } });
  if (!d) throw notFound("Document");
  return d;
}
