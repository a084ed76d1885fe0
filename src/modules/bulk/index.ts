// The bulk area's public face: its job, for the registry.
export { BULK_IMPORTS_JOB, PRUNE_IMPORTS_JOB, pruneImports, runQueuedImports } from "./imports.ts";
export { exportAll } from "./exports.ts";
