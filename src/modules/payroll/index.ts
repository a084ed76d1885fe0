// The payroll area's public face: what other areas (utilities) and the job registry may use.
export { PAYROLL_RUNS_JOB, runQueuedPayrollRuns } from "./jobs.ts";
export { payrollFilesInUse } from "./facts.ts";
// bulk imports and exports (src/modules/bulk/)
export { saveSalarySetup } from "./salary-setup.ts";
export { SALARY_SETUP_EXPORT_COLUMNS, salarySetupsForExport } from "./exports.ts";
// privacy (src/modules/privacy/): the retention schedule's salary slips
export { deleteSlipsIn, slipsOfEmployee } from "./privacy.ts";
// income tax at source: the year's records per employee (Form 16 / Form 130 Part B, the quarterly return 24Q / Form 138)
export { taxYearRecords, type TaxYearRecord } from "./income-tax/projection.ts";
