// The employees area's public face: what other areas (recruitment, utilities) and the job registry may use.
export {
  attachSettlementToChecklist,
  COMPLETE_EXITS_JOB,
  completeDueExits,
  completeSettlementItem,
  type ExitFacts,
  exitOfEmployee,
} from "./exits.ts";
export { attachDocumentIn } from "./documents.ts";
export { employeeFilesInUse, exitFigures, lastWorkingDays } from "./facts.ts";
export { fullEmployeeJson } from "./profile.ts";
export { createEmployeeIn, type EmployeeCreateInput } from "./records.ts";
export { createEmployeesIn, EMPLOYEE_EXPORT_COLUMNS, type EmployeeExportFilter, employeesForExport, type RowProblem } from "./bulk.ts";
