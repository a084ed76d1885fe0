// A delivered e-mail keeps no live token in email_outbox: once sent, the reset and invitation
// tokens (and the links that carry them) in its stored body are replaced by "[redacted]"; recipient,
// subject, the rest of the text, timestamps and the SMTP Message-ID stay for the record. The message
// itself (captured by a real SMTP sink) carried the token, and the token still works.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { PASSWORD_RESET_REQUESTS_JOB } from "../../src/modules/auth/accounts.ts";
import { SIGNUP_REQUESTS_JOB } from "../../src/modules/auth/signup.ts";
import { registerAllJobs } from "../../src/modules/jobs.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { deliverDueEmails } from "../../src/platform/mail/deliver.ts";
import { signupTenant, uniqueEmail, useTestApp } from "../support/app.ts";
import { startMailSink, tokenFrom, type MailSink } from "../support/mail.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
registerAllJobs();
let sink: MailSink;

beforeAll(async () => {
  sink = await startMailSink();
});
afterAll(async () => {
  await sink.close();
});

interface OutboxRow {
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string | null;
  status: string;
  sent_at: Date | null;
  created_at: Date;
  message_id: string | null;
}

/** Delivers every due mail to the sink (the job worker's step, run here directly). */
async function deliverAll(): Promise<void> {
  while ((await deliverDueEmails(sink.url)) > 0) {
    /* next batch */
  }
}

const outboxOf = async (to: string) =>
  (await t.query<OutboxRow>("SELECT * FROM email_outbox WHERE to_address = $1 ORDER BY created_at", [to.toLowerCase()]))[0];

describe("forgotPassword, resetPassword, inviteMember, acceptInvite: delivered e-mails keep no live token", () => {
  it("redacts the reset token and link of a delivered reset mail; the token mailed still works", async () => {
    const o = await signupTenant(t);
    await api(t.request())
      .op("forgotPassword", { body: { email: o.email } })
      .expect(200);
    await jobs.runNow(PASSWORD_RESET_REQUESTS_JOB); // the reset mail is written after the answer
    const pending = await outboxOf(o.email);
    expect(pending.status).toBe("pending");
    expect(pending.text_body).toMatch(/Reset token: \S+/); // readable until it is delivered (development without SMTP)
    await deliverAll();
    const mailed = await sink.waitFor(o.email);
    const token = tokenFrom(mailed, "Reset token");
    expect(mailed.text).toContain(`reset-password?token=${token}`);
    const row = await outboxOf(o.email);
    expect(row).toMatchObject({ status: "sent", subject: "Reset your HRMS password", html_body: null });
    expect(row.sent_at).toBeInstanceOf(Date);
    expect(row.message_id).toMatch(/^<.+@.+>$/);
    expect(row.text_body).not.toContain(token);
    expect(row.text_body).toContain("Reset token: [redacted]");
    expect(row.text_body).toContain("reset-password?token=[redacted]");
    expect(row.text_body).toContain("Someone (hopefully you) asked to reset your password");
    expect(JSON.stringify(await t.query("SELECT * FROM email_outbox WHERE to_address = $1", [o.email.toLowerCase()]))).not.toContain(token);
    await api(t.request())
      .op("resetPassword", { body: { token, password: "brand-new-password" } })
      .expect(200);
  });

  it("redacts the invitation token of a delivered invitation; the invitee accepts with the mailed one", async () => {
    const o = await signupTenant(t, { company: "Redact Co" });
    const email = uniqueEmail("invitee");
    await api(o.agent)
      .op("inviteMember", { body: { email, role: "hr" } })
      .expect(201);
    await deliverAll();
    const token = tokenFrom(await sink.waitFor(email), "Invitation token");
    const row = await outboxOf(email);
    expect(row.status).toBe("sent");
    expect(row.text_body).not.toContain(token);
    expect(row.text_body).toContain("Invitation token: [redacted]");
    expect(row.text_body).toContain("invited to join a company on HRMS as hr");
    expect(row.text_body).toContain('Company, as its administrators named it: "Redact Co"');
    await api(t.request())
      .op("acceptInvite", { body: { token, name: "Ira Invitee", password: "invitee-password" } })
      .expect(200);
  });

  it("redacts the token of a delivered signup confirmation; the mailed token still confirms", async () => {
    const email = uniqueEmail("signup");
    await api(t.request())
      .op("signup", { body: { name: "Sita Signup", email, password: "granite-otter-lantern-94" } })
      .expect(202);
    await jobs.runNow(SIGNUP_REQUESTS_JOB);
    await deliverAll();
    const token = tokenFrom(await sink.waitFor(email), "Confirmation token");
    const row = await outboxOf(email);
    expect(row.status).toBe("sent");
    expect(row.text_body).not.toContain(token);
    expect(row.text_body).toContain("Confirmation token: [redacted]");
    await api(t.request())
      .op("confirmSignup", { body: { token, password: "granite-otter-lantern-94" } })
      .expect(201);
  });

  it("every source file that mints a token for a mail declares it as the mail's secret", () => {
    // the class of the missed redaction: a new mail with a token must pass `secrets`
    const root = path.resolve(import.meta.dirname, "../../src");
    const files = (readdirSync(root, { recursive: true }) as string[]).filter((f) => f.endsWith(".ts"));
    const minting = files.filter((f) => {
      const text = readFileSync(path.join(root, f), "utf8");
      return text.includes("newToken()") && text.includes("queueEmail");
    });
    expect(minting.length).toBeGreaterThanOrEqual(4);
    for (const f of minting) {
      const text = readFileSync(path.join(root, f), "utf8");
      expect(text.split("newToken()").length - 1, f).toBeLessThanOrEqual(text.split("secrets: [token]").length - 1);
    }
  });
});
