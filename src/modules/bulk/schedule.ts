// The bulk area's background job (discovered by `make generate`, registered by src/modules/jobs.ts).
import type { JobDefinition } from "../../platform/jobs/queue.ts";
import { BULK_IMPORTS_JOB, PRUNE_IMPORTS_JOB, pruneImports, runQueuedImports } from "./index.ts";

export const jobs: JobDefinition[] = [
  // Queued imports: kicked when one is queued, and swept every minute so an import queued while no
  // worker ran (or whose worker died: its lease ran out) is run all the same.
  { name: BULK_IMPORTS_JOB, cron: "* * * * *", run: () => runQueuedImports() },
  // imports that ended more than 30 days ago
  { name: PRUNE_IMPORTS_JOB, cron: "23 * * * *", run: () => pruneImports() },
];
