// The bulk area's public face: its job, for the registry.
export { BULK_IMPORTS_JOB, runQueuedImports } from "./import-job.ts";
export { PRUNE_IMPORTS_JOB, pruneImports } from "./records.ts";
export { exportAll } from "./exports.ts";
