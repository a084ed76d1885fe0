// Employees: records, directory search, documents, activity log, resignation. The rules live in
// the modules next to this file; handlers check row-level access (access.ts) and shape replies.
import { auditEntryJson } from "../../audit.ts";
import { db } from "../../db/tenancy.ts";
import { ack, created, ok, pageOf, paginated } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { sendStoredFile } from "../../storage/files.ts";
import { accessTo, loadSelfOrPrivileged, loadVisibleEmployee } from "./access.ts";
import { documentJson, findDocument, listDocuments, uploadDocument } from "./documents.ts";
import { submitResignation } from "./exits.ts";
import { createEmployee, deleteEmployee, directoryJson, employeeJson, exitJson, exitOf, fullEmployeeJson, loadEmployeeWithUser, updateEmployee } from "./records.ts";
import { listEmployeeDirectory } from "./search.ts";

export const handlers = {
  async listEmployees({ query }) {
    const page = pageOf(query);
    const { rows, total } = await listEmployeeDirectory(query, page);
    return paginated(rows.map(directoryJson), page, total);
  },

  async createEmployee({ body }) {
    const e = await createEmployee(body);
    return created(employeeJson(e, { access: "full", exit: null, userId: null }), "Employee created");
  },

  async getEmployee({ params, auth }) {
    const e = await loadEmployeeWithUser(params.employeeId);
    const access = accessTo(auth, e);
    if (access === "directory") return ok(directoryJson(e));
    return ok(employeeJson(e, { access, exit: await exitOf(e), userId: e.user_id }));
  },

  async updateEmployee({ params, body }) {
    await updateEmployee(params.employeeId, body);
    return ok(await fullEmployeeJson(params.employeeId), "Employee updated");
  },

  async deleteEmployee({ params }) {
    await deleteEmployee(params.employeeId);
    return ack("Employee deleted");
  },

  async listEmployeeDocuments({ params, query, auth }) {
    await loadVisibleEmployee(auth, params.employeeId);
    const page = pageOf(query);
    const { rows, total } = await listDocuments(params.employeeId, page);
    return paginated(rows.map(documentJson), page, total);
  },

  async uploadEmployeeDocument({ params, body, files, auth }) {
    await loadSelfOrPrivileged(auth, params.employeeId);
    const doc = await uploadDocument(params.employeeId, files.find((f) => f.fieldname === "file"), body, auth.userId);
    return created(documentJson(doc), "Document uploaded");
  },

  async downloadEmployeeDocument({ params, auth, res }) {
    await loadVisibleEmployee(auth, params.employeeId);
    const d = await findDocument(params.employeeId, params.documentId);
    await sendStoredFile(res, d.file);
    return { sent: true as const };
  },

  async getEmployeeActivityLog({ params, query, auth }) {
    await loadVisibleEmployee(auth, params.employeeId);
    const page = pageOf(query);
    const where = { entity_type: "employee", entity_id: params.employeeId };
    const [rows, total] = await Promise.all([
      db.auditLog.findMany({ where, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: page.skip, take: page.limit }),
      db.auditLog.count({ where }),
    ]);
    return paginated(rows.map(auditEntryJson), page, total);
  },

  async submitResignation({ params, body, auth }) {
    await loadSelfOrPrivileged(auth, params.employeeId);
    const exit = await submitResignation(params.employeeId, body, auth.userId);
    return created(exitJson(exit), "Resignation submitted; exit process started");
  },
} satisfies AreaHandlers<"employees">;
