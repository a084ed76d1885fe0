// The utilities area's public face: what the job registry and the metrics listener may use.
export { REMOVE_ORPHAN_FILES_JOB, removeOrphanFiles } from "./cleanup.ts";
export { readiness } from "./health.ts";
