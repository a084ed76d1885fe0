// The recruitment area's background jobs (discovered by `make generate`, registered by src/modules/jobs.ts).
import type { JobDefinition } from "../../platform/jobs/queue.ts";
import { EXPIRE_OFFERS_JOB, expireOffersEverywhere } from "./index.ts";

export const jobs: JobDefinition[] = [
  // Sent offers not answered by their last day (in the company's time zone) become `expired`.
  { name: EXPIRE_OFFERS_JOB, cron: "10 * * * *", run: () => expireOffersEverywhere() },
];
