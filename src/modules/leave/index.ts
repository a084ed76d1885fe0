// The leave area's public face: what other areas (attendance, payroll) may use. Everything else in
// this folder is internal (scripts/check-dependencies.ts).
export { assertCanCancel, assertCanDecide, assertVisible, employeeFilter, employeeScopeSql, fullName, loadEmployee, targetEmployee, visibleEmployees } from "./access.ts";
export { maxDate, monthRange } from "./calendar.ts";
export { accrualJob, expiryJob } from "./jobs.ts";
export { employeeName } from "./json.ts";
export { notifyEmployee, notifyManager } from "./notices.ts";
export { holidayApplies, lockEmployees } from "./store.ts";
