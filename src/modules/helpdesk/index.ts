// The helpdesk area's public face: what other areas (employees: a completed exit) may use.
export { releaseTicketsOf } from "./tickets.ts";
