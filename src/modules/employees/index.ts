// The employees area's public face: what other areas (recruitment, utilities) and the job registry may use.
export { COMPLETE_EXITS_JOB, completeDueExits } from "./exits.ts";
export { attachSettlementToChecklist, completeSettlementItem, type ExitFacts, exitOfEmployee } from "./exit-facts.ts";
export { attachDocumentIn } from "./documents.ts";
export { employeeFilesInUse, exitFigures, lastWorkingDays } from "./facts.ts";
export { fullEmployeeJson } from "./profile.ts";
export { createEmployeeIn, type EmployeeCreateInput } from "./records.ts";
export { createEmployeesIn, EMPLOYEE_EXPORT_COLUMNS, type EmployeeExportFilter, employeesForExport, type RowProblem } from "./bulk.ts";
// privacy (src/modules/privacy/): corrections through the record's own update rules, erasure
export { changeEmployee } from "./records.ts";
export { employeeDocumentsOf, employeeForPrivacy, pseudonymiseEmployeeIn } from "./privacy.ts";
