// The employees area's background jobs (discovered by `make generate`, registered by src/modules/jobs.ts).
import type { JobDefinition } from "../../platform/jobs/queue.ts";
import { COMPLETE_EXITS_JOB, completeDueExits } from "./index.ts";

export const jobs: JobDefinition[] = [
  // Employees on notice become `exited` once their last working day has passed in their
  // company's time zone: hourly, so every time zone's midnight is handled within the hour.
  { name: COMPLETE_EXITS_JOB, cron: "5 * * * *", run: () => completeDueExits() },
];
