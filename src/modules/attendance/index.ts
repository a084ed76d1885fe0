// The attendance area's public face: what other areas (the dashboard) may use.
export { pendingRegularizationsByEmployee } from "./facts.ts";
