// Every background job of the service, registered once at start-up (server and tests).
import { pruneThrottle } from "../auth/limiter.ts";
import { deliverDueEmails } from "../mail/deliver.ts";
import { registerJob } from "./queue.ts";

let registered = false;
export function registerAllJobs(): void {
  if (registered) return;
  registered = true;
  // Delivery is kicked after each commit that queues mail, and swept every minute so a mail
  // queued while no worker ran, or whose delivery failed, is retried until it is sent.
  registerJob("mail.deliver", () => deliverDueEmails(), "* * * * *");
  registerJob("auth.prune-throttle", () => pruneThrottle(), "17 * * * *");
}
