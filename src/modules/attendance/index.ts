// The attendance area's public face: what other areas (payroll, the dashboard) may use.
export { type Absence, absencesBetween, pendingRegularizationsByEmployee } from "./facts.ts";
// bulk imports and exports (src/modules/bulk/)
export { importRecordsIn } from "./bulk.ts";
export { ATTENDANCE_EXPORT_COLUMNS, attendanceForExport } from "./exports.ts";
// privacy (src/modules/privacy/): the retention schedule's attendance records
export { attendanceDatesOf, deleteAttendanceIn } from "./privacy.ts";
