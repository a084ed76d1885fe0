// The integrations area's background jobs (discovered by `make generate`, registered by src/modules/jobs.ts).
import { deliverDueWebhooks, pruneEvents } from "../../platform/events/deliver.ts";
import { DELIVER_JOB } from "../../platform/events/events.ts";
import { pruneAccessTokens } from "../../platform/identity/credentials.ts";
import type { JobDefinition } from "../../platform/jobs/queue.ts";

export const jobs: JobDefinition[] = [
  // Number committed events, send due webhook deliveries: kicked after each operation or job that
  // wrote an event, and swept every minute (retries, and events written while no worker ran).
  { name: DELIVER_JOB, cron: "* * * * *", run: () => deliverDueWebhooks() },
  // Events, delivery log and finished deliveries older than EVENT_RETENTION_DAYS, and OAuth access
  // tokens expired a day ago, hourly.
  {
    name: "integrations.prune-events",
    cron: "29 * * * *",
    run: async () => {
      await pruneEvents();
      await pruneAccessTokens();
    },
  },
];
