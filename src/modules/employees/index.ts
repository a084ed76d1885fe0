// The employees area's public face: what other areas (recruitment) and the job registry may use.
export { COMPLETE_EXITS_JOB, completeDueExits } from "./exits.ts";
export { createEmployeeIn, type EmployeeCreateInput, fullEmployeeJson } from "./records.ts";
export { lastWorkingDays } from "./facts.ts";
