// Employee documents: uploads stored by src/platform/storage/files.ts, metadata in employee_documents,
// audited; who may see them: access.ts.
import { audit } from "../../platform/audit.ts";
import { db, type ScopedTx, tenantTx } from "../../db/tenancy.ts";
import { type PageQuery, pageOf } from "../../platform/use-case.ts";
import { notFound } from "../../platform/errors.ts";
import type { AuthContext, UploadedFile } from "../../platform/use-case.ts";
import { storeUpload } from "../../platform/storage/files.ts";
import { loadSelfOrPrivileged, loadVisibleEmployee } from "./access.ts";
import { documentJson, type DocumentType } from "./views.ts";

/** Stores the upload and records it as the employee's document (their own record, or any for hr). */
export async function addEmployeeDocument(
  auth: AuthContext,
  employeeId: string,
  file: UploadedFile | undefined,
  meta: { document_type: DocumentType; title: string },
) {
  await loadSelfOrPrivileged(auth, employeeId);
  const doc = await tenantTx(async (tx) => {
    const stored = await storeUpload(file, { purpose: "employee_document", uploadedBy: auth.userId }, tx);
    const doc = await tx.employeeDocument.create({
      data: {
        employee_id: employeeId,
        file_id: stored.id,
        document_type: meta.document_type,
        title: meta.title.trim(),
        uploaded_by: auth.userId,
      },
      include: { file: true },
    });
    await audit(
      {
        action: "employee.document_uploaded",
        entity_type: "employee",
        entity_id: employeeId,
        changes: {
          documents: {
            from: null,
            to: {
              id: doc.id,
              document_type: doc.document_type,
              title: doc.title,
              file_name: stored.original_name,
              size_bytes: stored.size_bytes,
            },
          },
        },
      },
      tx,
    );
    return doc;
  });
  return documentJson(doc);
}

/** A page of the employee's documents (newest first). */
export async function employeeDocuments(auth: AuthContext, employeeId: string, query: PageQuery) {
  await loadVisibleEmployee(auth, employeeId);
  const page = pageOf(query);
  const where = { employee_id: employeeId };
  const [rows, total] = await Promise.all([
    db.employeeDocument.findMany({
      where,
      include: { file: true },
      orderBy: [{ created_at: "desc" }, { id: "desc" }],
      skip: page.skip,
      take: page.limit,
    }),
    db.employeeDocument.count({ where }),
  ]);
  return { rows: rows.map(documentJson), page, total };
}

/** The stored file of one of the employee's documents, or 404. */
export async function employeeDocumentFile(auth: AuthContext, employeeId: string, documentId: string) {
  await loadVisibleEmployee(auth, employeeId);
  const d = await db.employeeDocument.findFirst({ where: { id: documentId, employee_id: employeeId }, include: { file: true } });
  if (!d) throw notFound("Document");
  return d.file;
}

/** Adds an already stored file to an employee's documents in the caller's transaction, audited (a hired candidate's documents). */
export async function attachDocumentIn(
  tx: ScopedTx,
  employeeId: string,
  doc: { file_id: string; document_type: string; title: string; source: string },
): Promise<{ id: string }> {
  const row = await tx.employeeDocument.create({
    data: { employee_id: employeeId, file_id: doc.file_id, document_type: doc.document_type, title: doc.title, uploaded_by: null },
  });
  await audit(
    {
      action: "employee.document_uploaded",
      entity_type: "employee",
      entity_id: employeeId,
      changes: { documents: { from: null, to: { id: row.id, document_type: row.document_type, title: row.title, source: doc.source } } },
    },
    tx,
  );
  return { id: row.id };
}
