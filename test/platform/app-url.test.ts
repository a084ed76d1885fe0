// APP_URL (src/config.ts): the links of the mails open the client application at its documented
// paths - accept-invite, signup/confirm, reset-password (sign-in and forgot-password in notices) -
// and its origin may make state-changing requests.
import { describe, expect, it } from "vitest";
import { withConfig } from "../../src/config.ts";
import { registerAllJobs } from "../../src/modules/jobs.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { expectError, signupTenant, uniqueEmail, useTestApp } from "../support/app.ts";
import { api } from "../support/api.ts";

const APP = "https://app.acme.example";
const t = useTestApp({ config: { appUrl: APP, publicUrl: "https://api.acme.example" } });
registerAllJobs();

async function mailTo(email: string): Promise<string> {
  const [row] = await t.query<{ text_body: string }>("SELECT text_body FROM email_outbox WHERE to_address = $1 ORDER BY created_at DESC", [
    email,
  ]);
  if (!row) throw new Error(`no mail to ${email}`);
  return row.text_body;
}

describe("inviteMember, signup, forgotPassword: mailed links open the client application (APP_URL)", () => {
  it("the invitation links to <APP_URL>/accept-invite?token=", async () => {
    const owner = await signupTenant(t);
    const email = uniqueEmail("invitee");
    await api(owner.agent)
      .op("inviteMember", { body: { email, role: "employee" } })
      .expect(201);
    const text = await mailTo(email);
    const token = /Invitation token: (\S+)/.exec(text)?.[1];
    expect(text).toContain(`${APP}/accept-invite?token=${encodeURIComponent(token as string)}`);
  });

  it("the signup confirmation links to <APP_URL>/signup/confirm?token=", async () => {
    const email = uniqueEmail("signup");
    await api(t.request())
      .op("signup", { body: { name: "Asha Kulkarni", email, company_name: "Kulkarni Textiles" } })
      .expect(202);
    await withConfig(t.config, () => jobs.runNow("auth.signup-requests"));
    const text = await mailTo(email);
    const token = /Confirmation token: (\S+)/.exec(text)?.[1];
    expect(text).toContain(`${APP}/signup/confirm?token=${encodeURIComponent(token as string)}`);
  });

  it("the password reset links to <APP_URL>/reset-password?token=", async () => {
    const owner = await signupTenant(t);
    await api(t.request())
      .op("forgotPassword", { body: { email: owner.email } })
      .expect(200);
    await withConfig(t.config, () => jobs.runNow("auth.password-reset-requests"));
    const text = await mailTo(owner.email);
    expect(text).toMatch(new RegExp(`${APP.replace(/\./g, "\\.")}/reset-password\\?token=\\S+`));
  });

  it("signIn: the client application's origin may make state-changing requests; another is refused", async () => {
    const owner = await signupTenant(t);
    await t.request().post("/api/auth/sign-in").set("Origin", APP).send({ email: owner.email, password: owner.password }).expect(200);
    const other = await t
      .request()
      .post("/api/auth/sign-in")
      .set("Origin", "https://evil.example")
      .send({ email: owner.email, password: owner.password });
    expectError(other, 403, "forbidden");
  });
});
