// The utilities area's public face: what the job registry may use.
export { REMOVE_ORPHAN_FILES_JOB, removeOrphanFiles } from "./cleanup.ts";
