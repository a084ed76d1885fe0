// Password-reset mails are capped per address, not only per client IP: reset
// requests for one address from many clients mail it at most 3 links in 15 minutes, and the links
// already mailed keep working (valid one hour), so the cap cannot lock the owner out of a reset.
import { describe, expect, it } from "vitest";
import { registerAllJobs } from "../../src/modules/jobs.ts";
import { RESET_MAILS_PER_ADDRESS } from "../../src/platform/identity/limiter.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { appWith, signupTenant, useTestApp } from "../support/app.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
registerAllJobs();

const resetMails = (email: string) =>
  t.query<{ text_body: string }>(
    "SELECT text_body FROM email_outbox WHERE to_address = $1 AND subject = 'Reset your HRMS password' ORDER BY created_at",
    [email],
  );

describe("forgotPassword, resetPassword: reset mails per address", () => {
  it("mails one address at most 3 reset links in 15 minutes, however many clients ask; a mailed link still works", async () => {
    const o = await signupTenant(t);
    const app = appWith(t, { trustProxy: 1 });
    // six clients (six addresses, each well within its own per-IP limit) ask for the same address
    for (let i = 1; i <= 6; i++)
      await app
        .as(t.request())
        .post("/api/auth/forgot-password")
        .set("X-Forwarded-For", `198.51.100.${i}`)
        .send({ email: o.email })
        .expect(200);
    await jobs.runNow("auth.password-reset-requests");
    const mails = await resetMails(o.email);
    expect(RESET_MAILS_PER_ADDRESS).toBe(3);
    expect(mails).toHaveLength(3);
    expect(await t.query("SELECT 1 FROM password_reset_requests")).toEqual([]);
    // the owner's own request is now refused too (answered alike), but the first link works
    await api(t.request())
      .op("forgotPassword", { body: { email: o.email.toUpperCase() } })
      .expect(200);
    await jobs.runNow("auth.password-reset-requests");
    expect(await resetMails(o.email)).toHaveLength(3);
    const token = /Reset token: ([A-Za-z0-9_-]+)/.exec(mails[0].text_body)![1];
    await api(t.request())
      .op("resetPassword", { body: { token, password: "quartz-heron-meadow-31" } })
      .expect(200);
    await api(t.request())
      .op("signIn", { body: { email: o.email, password: "quartz-heron-meadow-31" } })
      .expect(200);
  });
});
