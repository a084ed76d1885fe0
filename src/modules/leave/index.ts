// The leave area's public face: what other areas (attendance, payroll) and the job registry may use.
// Everything else in this folder is internal (scripts/checks/check-dependencies.ts).
export { maxDate, monthRange } from "./calendar.ts";
export {
  type ExitEncashment,
  type ExitLeaveBalance,
  encashOnExit,
  exitLeaveBalances,
  priceEncashments,
  priceUnpaidEncashment,
} from "./exit-encashment.ts";
export { accrualJob, expiryJob } from "./jobs.ts";
export { employeeName } from "./json.ts";
export { holidayApplies } from "./off-days.ts";
export {
  type ApprovedLeave,
  approvedLeaveBetween,
  approvedLeaveOn,
  approvedTimeOff,
  approvedWfhOn,
  approvedWfhOnDays,
  companyHolidays,
  type EncashmentToPay,
  employeesOnLeave,
  leaveFilesInUse,
  encashmentsToPay,
  type MandatoryHoliday,
  mandatoryHolidaysBetween,
  pendingLeaveRequestsByEmployee,
} from "./facts.ts";
// bulk imports and exports (src/modules/bulk/): the single-create use cases, run once per row
export { addHoliday } from "./holidays.ts";
export { allocateLeave } from "./allocations.ts";
export { ALLOCATION_EXPORT_COLUMNS, allocationsForExport, HOLIDAY_EXPORT_COLUMNS, holidaysForExport } from "./exports.ts";
