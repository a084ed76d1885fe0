// signup, forgotPassword in the first seconds after a start: the request is answered
// before the job worker is up, and the kick of its job used to be dropped (no worker yet), so the
// mail waited for the minute's sweep. Kicks made before the worker is up are sent as soon as it is
// (src/platform/jobs/queue.ts).
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { PASSWORD_RESET_REQUESTS_JOB } from "../../src/modules/auth/accounts.ts";
import { SIGNUP_REQUESTS_JOB } from "../../src/modules/auth/signup.ts";
import { registerAllJobs } from "../../src/modules/jobs.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { signupTenant, uniqueEmail, useTestApp } from "../support/app.ts";
import { startMailSink, type MailSink } from "../support/mail.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
let mail: MailSink;

beforeAll(async () => {
  mail = await startMailSink();
  registerAllJobs();
  await jobs.stop(); // no worker in this process: the start below is the server's, after the requests
});
afterAll(async () => {
  vi.restoreAllMocks();
  await jobs.stop();
  await mail.close();
});

describe("signup, forgotPassword before the job worker is up", () => {
  it("are mailed as soon as the worker is up, not at the minute's sweep", async () => {
    const owner = await signupTenant(t);
    const email = uniqueEmail("early");
    await api(t.request())
      .op("signup", { body: { name: "Early Bird", email, company_name: "Early Co" } })
      .expect(202);
    await api(t.request())
      .op("forgotPassword", { body: { email: owner.email } })
      .expect(200);

    const kick = vi.spyOn(jobs, "kick"); // calls through
    const started = Date.now();
    await jobs.start(t.url, t.configWith({ smtpUrl: mail.url }));
    // the kicks kept while no worker ran are sent by the start itself
    const kicked = kick.mock.calls.map((c) => c[0]);
    expect(kicked).toEqual(expect.arrayContaining([SIGNUP_REQUESTS_JOB, PASSWORD_RESET_REQUESTS_JOB]));

    // and the mails arrive within seconds (the sweep runs once a minute)
    const confirmation = await mail.waitFor(email, 30_000);
    expect(confirmation.text).toMatch(/Confirmation token: \S+/);
    await mail.waitFor(owner.email.toLowerCase(), 30_000, /reset/i);
    console.log(`[mail-kick-start] both mails ${Date.now() - started} ms after the worker's start`);
  });
});
