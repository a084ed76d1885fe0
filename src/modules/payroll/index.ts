// The payroll area's public face: what the job registry may use.
export { PAYROLL_RUNS_JOB, runQueuedPayrollRuns } from "./jobs.ts";
