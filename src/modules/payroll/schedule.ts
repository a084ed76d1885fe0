// The payroll area's background jobs (discovered by `make generate`, registered by src/modules/jobs.ts).
import type { JobDefinition } from "../../platform/jobs/queue.ts";
import { PAYROLL_RUNS_JOB, runQueuedPayrollRuns } from "./index.ts";

export const jobs: JobDefinition[] = [
  // Large payroll runs: kicked when a calculation or processing is queued, and swept every minute
  // so a run queued while no worker ran (or whose worker died) is executed all the same.
  { name: PAYROLL_RUNS_JOB, cron: "* * * * *", run: () => runQueuedPayrollRuns() },
];
