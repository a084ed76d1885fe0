// Employees: the JSON shapes of the document - the directory entry, the complete record (bank
// account and IBAN masked for managers), the exit with its checklist, documents.
import type { components } from "../../../generated/api-types.ts";
import type { Employee, EmployeeDocument, EmployeeExit, ExitChecklistItem, StoredFile } from "../../../generated/prisma/client.ts";
import { mask } from "../../platform/audit.ts";
import { toDateString } from "../../lib/dates.ts";
import { fileJson } from "../../platform/storage/files.ts";
import type { Access } from "./access.ts";

type S = components["schemas"];
export type ExitWithChecklist = EmployeeExit & { checklist: ExitChecklistItem[] };
export type DocumentType = S["DocumentType"];

export const dateOf = (v: Date | string): string => (typeof v === "string" ? v : toDateString(v));
export const dateOrNull = (v: Date | string | null): string | null => (v === null ? null : dateOf(v));

/** Fields of the directory projection (also the columns the list query selects). */
export interface DirectoryFields {
  id: string;
  employee_code: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  department: string;
  designation: string;
  joining_date: Date | string;
  status: string;
  reports_to: string | null;
  branch_id: string | null;
  work_location_id: string | null;
}

export function directoryJson(e: DirectoryFields): S["EmployeeDirectoryEntry"] {
  return {
    view: "directory" as const,
    id: e.id,
    employee_code: e.employee_code,
    first_name: e.first_name,
    last_name: e.last_name,
    full_name: `${e.first_name} ${e.last_name}`,
    email: e.email,
    phone: e.phone,
    department: e.department,
    designation: e.designation,
    joining_date: dateOf(e.joining_date),
    status: e.status as S["EmployeeStatus"],
    reports_to: e.reports_to,
    branch_id: e.branch_id,
    work_location_id: e.work_location_id,
  };
}

export const CHECKLIST_ITEMS = ["asset_return", "knowledge_transfer", "clearance", "final_settlement"] as const;
type ChecklistItem = (typeof CHECKLIST_ITEMS)[number];
export const CHECKLIST_TITLES: Record<ChecklistItem, string> = {
  asset_return: "Return company assets",
  knowledge_transfer: "Hand over work and knowledge",
  clearance: "Department and IT clearance",
  final_settlement: "Full and final settlement",
};

/** Who may tick each item (updateExitChecklistItem); final_settlement is payroll's once a settlement exists. */
export const CHECKLIST_OWNERS: Record<ChecklistItem, "hr" | "manager"> = {
  asset_return: "hr",
  knowledge_transfer: "manager",
  clearance: "hr",
  final_settlement: "hr",
};

export const checklistOwner = (c: Pick<ExitChecklistItem, "item" | "reference">): "hr" | "manager" | "payroll" =>
  c.reference ? "payroll" : (CHECKLIST_OWNERS[c.item as ChecklistItem] ?? "hr");

type ExitJson = S["EmployeeExit"];

export function exitJson(x: ExitWithChecklist): ExitJson {
  return {
    id: x.id,
    employee_id: x.employee_id,
    resignation_date: dateOf(x.resignation_date),
    last_working_day: dateOf(x.last_working_day),
    reason: x.reason,
    status: x.status as ExitJson["status"],
    submitted_by: x.submitted_by,
    completed_at: x.completed_at?.toISOString() ?? null,
    completed_by: x.completed_by,
    override_reason: x.override_reason,
    checklist: [...x.checklist]
      .sort((a, b) => a.position - b.position)
      .map((c) => ({
        id: c.id,
        item: c.item as ChecklistItem,
        title: c.title,
        owner: checklistOwner(c),
        status: c.status as ExitJson["checklist"][number]["status"],
        completed_at: c.completed_at?.toISOString() ?? null,
        completed_by: c.completed_by,
        notes: c.notes,
        reference: c.reference,
      })),
    created_at: x.created_at.toISOString(),
  };
}

/** The complete record; `masked` hides the identifiers of pay and statutory accounts (managers reading their reports). */
export function employeeJson(
  e: Employee,
  opts: { access: Exclude<Access, "directory">; exit: ExitWithChecklist | null; userId: string | null },
): S["Employee"] {
  const hide = (field: string, v: string | null) => (opts.access === "masked" ? (mask(field, v) as string | null) : v);
  return {
    ...directoryJson(e),
    view: "full" as const,
    date_of_birth: dateOrNull(e.date_of_birth),
    gender: e.gender as S["Gender"] | null,
    employment_type: e.employment_type as S["EmploymentType"],
    bank_name: e.bank_name,
    bank_account_number: hide("bank_account_number", e.bank_account_number),
    bank_ifsc: hide("bank_ifsc", e.bank_ifsc),
    bank_iban: hide("bank_iban", e.bank_iban),
    bank_routing_code: hide("bank_routing_code", e.bank_routing_code),
    labour_card_number: hide("labour_card_number", e.labour_card_number),
    pan_number: hide("pan_number", e.pan_number),
    uan: hide("uan", e.uan),
    esi_number: hide("esi_number", e.esi_number),
    state: e.state,
    user_id: opts.userId,
    exit: opts.exit ? exitJson(opts.exit) : null,
    created_at: e.created_at.toISOString(),
    updated_at: e.updated_at.toISOString(),
  };
}

export function documentJson(d: EmployeeDocument & { file: StoredFile }): S["EmployeeDocument"] {
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
