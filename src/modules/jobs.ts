// Every background job of the service, registered once at start-up (server and tests). It lives
// beside the areas, not in src/jobs: the job queue is a shared service and imports no area; the
// areas' jobs are named here through each area's public face (index.ts).
import { pruneThrottle } from "../auth/limiter.ts";
import { registerJob as register } from "../jobs/queue.ts";
import { deliverDueEmails } from "../mail/deliver.ts";
import { deliverQueuedMail } from "../mail/outbox.ts";
import { COMPLETE_EXITS_JOB, completeDueExits } from "./employees/index.ts";
import { accrualJob, expiryJob } from "./leave/index.ts";
import { PAYROLL_RUNS_JOB, runQueuedPayrollRuns } from "./payroll/index.ts";
import { EXPIRE_OFFERS_JOB, expireOffersEverywhere } from "./recruitment/index.ts";

/** A job whose queued mail is delivered as soon as it has finished (like an operation's). */
const registerJob = (name: string, handler: () => Promise<unknown>, cron?: string) => register(name, () => deliverQueuedMail(handler), cron);

let registered = false;
export function registerAllJobs(): void {
  if (registered) return;
  registered = true;
  // Delivery is kicked after each commit that queues mail, and swept every minute so a mail
  // queued while no worker ran, or whose delivery failed, is retried until it is sent.
  registerJob("mail.deliver", () => deliverDueEmails(), "* * * * *");
  registerJob("auth.prune-throttle", () => pruneThrottle(), "17 * * * *");
  // Employees on notice become `exited` once their last working day has passed in their
  // company's time zone: hourly, so every time zone's midnight is handled within the hour.
  registerJob(COMPLETE_EXITS_JOB, () => completeDueExits(), "5 * * * *");
  // Leave: accrual parts that fell due, then lapses of expired carried-forward/comp-off days.
  // Both are idempotent (dedupe keys), so a repeated or concurrent run posts nothing twice.
  registerJob("leave.accrue", () => accrualJob(), "15 0 * * *");
  registerJob("leave.expire", () => expiryJob(), "30 0 * * *");
  // Sent offers not answered by their last day (in the company's time zone) become `expired`.
  registerJob(EXPIRE_OFFERS_JOB, () => expireOffersEverywhere(), "10 * * * *");
  // Large payroll runs: kicked when a calculation or processing is queued, and swept every minute
  // so a run queued while no worker ran (or whose worker died) is executed all the same.
  registerJob(PAYROLL_RUNS_JOB, () => runQueuedPayrollRuns(), "* * * * *");
}
