// Every background job, registered once at start-up: the platform's and each area's `schedule.ts`
// (generated/jobs.ts). Here rather than in src/platform/jobs, which imports no area.
import { areaJobs } from "../../generated/jobs.ts";
import { pruneKnownClients } from "../platform/identity/signin-guard.ts";
import { pruneCounters } from "../platform/limits.ts";
import { pruneIdempotencyKeys } from "../platform/idempotency.ts";
import { type JobDefinition, registerJob, retireSchedule } from "../platform/jobs/queue.ts";
import { deliverDueEmails } from "../platform/mail/deliver.ts";
import { deliverQueuedMail } from "../platform/mail/outbox.ts";

const platformJobs: JobDefinition[] = [
  // Delivery is kicked after each operation or job that queued mail, and swept every minute so a
  // mail queued while no worker ran, or whose delivery failed, is retried until it is sent.
  { name: "mail.deliver", cron: "* * * * *", run: () => deliverDueEmails() },
  // the counters of every counting limit (src/db/windows.ts) whose window has ended
  { name: "limits.prune-counters", cron: "19 * * * *", run: () => pruneCounters() },
  { name: "auth.prune-known-clients", cron: "27 * * * *", run: () => pruneKnownClients() },
  // Idempotency keys past IDEMPOTENCY_KEY_TTL_HOURS (src/platform/idempotency.ts)
  { name: "idempotency.prune-keys", cron: "21 * * * *", run: () => pruneIdempotencyKeys() },
];

/** Every job, platform's first; names are unique. */
export function allJobs(): JobDefinition[] {
  const all = [...platformJobs, ...areaJobs];
  const names = new Set<string>();
  for (const j of all) {
    if (names.has(j.name)) throw new Error(`job ${j.name} is declared twice`);
    names.add(j.name);
  }
  return all;
}

let registered = false;
export function registerAllJobs(): void {
  if (registered) return;
  registered = true;
  // a job's queued mail is delivered as soon as it has finished (like an operation's)
  for (const job of allJobs()) registerJob(job.name, () => deliverQueuedMail(job.run), job.cron);
  // pruned auth_throttle, whose counters moved to the window store (docs/operations.md, "Limits and the 429")
  retireSchedule("auth.prune-throttle");
}
