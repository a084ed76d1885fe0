// Employees: handlers translate HTTP to one use case and back.
import { ack, created, listed, ok } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { sendStoredFile } from "../../platform/storage/files.ts";
import { employeeDirectory } from "./directory.ts";
import { addEmployeeDocument, employeeDocumentFile, employeeDocuments } from "./documents.ts";
import { completeExitNow, resign, tickChecklistItem } from "./exits.ts";
import { employeeActivity, employeeProfile } from "./profile.ts";
import { addEmployee, changeEmployee, removeEmployee } from "./records.ts";

export const handlers = {
  async listEmployees({ operationId, query, walk, auth }) {
    return listed(operationId, await employeeDirectory(query, walk, auth));
  },

  async createEmployee({ body }) {
    return created(await addEmployee(body), "Employee created");
  },

  async getEmployee({ params, auth }) {
    return ok(await employeeProfile(auth, params.employeeId));
  },

  async updateEmployee({ params, body, auth }) {
    return ok(await changeEmployee(auth, params.employeeId, body), "Employee updated");
  },

  async deleteEmployee({ params }) {
    await removeEmployee(params.employeeId);
    return ack("Employee deleted");
  },

  async listEmployeeDocuments({ operationId, params, query, auth }) {
    const { rows, page, total } = await employeeDocuments(auth, params.employeeId, query);
    return listed(operationId, { rows, page, total });
  },

  async uploadEmployeeDocument({ params, body, files, auth }) {
    const doc = await addEmployeeDocument(
      auth,
      params.employeeId,
      files.find((f) => f.fieldname === "file"),
      body,
    );
    return created(doc, "Document uploaded");
  },

  async downloadEmployeeDocument({ params, auth, res }) {
    await sendStoredFile(res, await employeeDocumentFile(auth, params.employeeId, params.documentId));
    return { sent: true as const };
  },

  async getEmployeeActivityLog({ operationId, params, query, auth, walk }) {
    return listed(operationId, await employeeActivity(auth, params.employeeId, query, walk));
  },

  async submitResignation({ params, body, auth }) {
    return created(await resign(auth, params.employeeId, body), "Resignation submitted; exit process started");
  },

  async updateExitChecklistItem({ params, body, auth }) {
    return ok(await tickChecklistItem(auth, params.employeeId, params.itemId, body), "Checklist item updated");
  },

  async completeExit({ params, body, auth }) {
    return ok(await completeExitNow(auth, params.employeeId, body), "Exit completed");
  },
} satisfies Partial<AreaHandlers<"employees">>;
