// The attendance area's public face: what other areas (payroll, the dashboard) may use.
export { type Absence, absencesBetween, pendingRegularizationsByEmployee } from "./facts.ts";
