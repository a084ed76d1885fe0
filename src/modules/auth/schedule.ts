// The auth area's background jobs (discovered by `make generate`, registered by src/modules/jobs.ts).
import type { JobDefinition } from "../../platform/jobs/queue.ts";
import { mailPasswordResets, PASSWORD_RESET_REQUESTS_JOB } from "./accounts.ts";
import { mailSignupRequests, pruneSignupRequests, SIGNUP_REQUESTS_JOB } from "./signup.ts";

export const jobs: JobDefinition[] = [
  // Kicked by each signup and reset request (the work the request leaves for after its answer),
  // and swept every minute so that none is left behind when no worker ran at the time.
  { name: SIGNUP_REQUESTS_JOB, cron: "* * * * *", run: () => mailSignupRequests() },
  { name: PASSWORD_RESET_REQUESTS_JOB, cron: "* * * * *", run: () => mailPasswordResets() },
  // Unconfirmed signups whose token expired.
  { name: "auth.prune-signup-requests", cron: "23 * * * *", run: () => pruneSignupRequests() },
];
