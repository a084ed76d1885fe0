// The leave area's background jobs (discovered by `make generate`, registered by src/modules/jobs.ts).
import type { JobDefinition } from "../../platform/jobs/queue.ts";
import { accrualJob, expiryJob } from "./index.ts";

export const jobs: JobDefinition[] = [
  // Accrual parts that fell due, then lapses of expired carried-forward/comp-off days. Both are
  // idempotent (dedupe keys), so a repeated or concurrent run posts nothing twice.
  { name: "leave.accrue", cron: "15 0 * * *", run: () => accrualJob() },
  { name: "leave.expire", cron: "30 0 * * *", run: () => expiryJob() },
];
