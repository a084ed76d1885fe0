// Every background job of the service, registered once at start-up (server and tests).
import { deliverDueEmails } from "../mail/deliver.ts";
import { accrualJob, expiryJob } from "../modules/leave/jobs.ts";
import { registerJob } from "./queue.ts";

let registered = false;
export function registerAllJobs(): void {
  if (registered) return;
  registered = true;
  // Delivery is kicked after each commit that queues mail, and swept every minute so a mail
  // queued while no worker ran, or whose delivery failed, is retried until it is sent.
  registerJob("mail.deliver", () => deliverDueEmails(), "* * * * *");
  // Leave: accrual parts that fell due, then lapses of expired carried-forward/comp-off days.
  // Both are idempotent (dedupe keys), so a repeated or concurrent run posts nothing twice.
  registerJob("leave.accrue", () => accrualJob(), "15 0 * * *");
  registerJob("leave.expire", () => expiryJob(), "30 0 * * *");
}
