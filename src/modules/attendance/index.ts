// The attendance area's public face: what other areas (payroll) may use.
export { type Absence, absencesBetween } from "./facts.ts";
