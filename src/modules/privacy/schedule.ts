// The privacy area's background jobs (discovered by `make generate`, registered by src/modules/jobs.ts).
import type { JobDefinition } from "../../platform/jobs/queue.ts";
import { PURGE_JOB, purgeEverywhere } from "./erasure.ts";

export const jobs: JobDefinition[] = [
  // Records kept past an erasure are purged once their retention period is over, and candidates not
  // hired are erased once theirs is (each company on its own date); hourly, so that every time zone's
  // midnight is met within the hour.
  { name: PURGE_JOB, cron: "25 * * * *", run: () => purgeEverywhere() },
];
