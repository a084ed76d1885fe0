// The utilities area's background jobs (discovered by `make generate`, registered by src/modules/jobs.ts).
import type { JobDefinition } from "../../platform/jobs/queue.ts";
import { REMOVE_ORPHAN_FILES_JOB, removeOrphanFiles } from "./index.ts";

export const jobs: JobDefinition[] = [
  // Uploads nothing refers to, older than ORPHAN_FILE_GRACE_HOURS: rows and bytes, hourly.
  { name: REMOVE_ORPHAN_FILES_JOB, cron: "40 * * * *", run: () => removeOrphanFiles() },
];
