// The password rule, wherever a password is set (signup, accepting an invitation as a new user, a
// reset): common and breached passwords, simple patterns and the e-mail's local part are refused
// with a 400 naming the password field; a password that is hard to guess is taken. The longest
// password the document allows is scored without freezing the server.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerAllJobs } from "../../src/modules/jobs.ts";
import { passwordWeakness } from "../../src/platform/identity/passwords.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { expectDetails, signupTenant, uniqueEmail, useTestApp } from "../support/app.ts";
import { startMailSink, tokenMailed, type MailSink } from "../support/mail.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
let mail: MailSink;

beforeAll(async () => {
  mail = await startMailSink();
  registerAllJobs();
  await jobs.start(t.url, t.configWith({ smtpUrl: mail.url }));
});
afterAll(async () => {
  await jobs.stop();
  await mail.close();
});

const WEAK = ["12345678", "password", "aaaaaaaa", "P@ssw0rd1", "qwertyuiop", "summer2024"];
const STRONG = "granite-otter-lantern-94";

function expectWeak(res: { status: number; body: unknown }) {
  const body = expectDetails(res, 400, "validation_failed");
  expect(body.details).toEqual([{ path: "body.password", message: expect.stringMatching(/choose a longer or less predictable password/) }]);
  return body;
}

describe("signup: guessable passwords are refused", () => {
  it("refuses common passwords, patterns and the e-mail's local part with a 400 on the password field; takes a strong one", async () => {
    for (const password of WEAK) {
      const email = uniqueEmail("weak");
      expectWeak(await api(t.request()).op("signup", { body: { name: "Weak Pw", email, password, company_name: "Weak Co" } }));
      expect(await t.query("SELECT 1 FROM users WHERE email = $1", [email])).toHaveLength(0);
    }
    const own = expectWeak(
      await api(t.request()).op("signup", {
        body: { name: "Ravi", email: "ravi.shankar@example.test", password: "Ravi.Shankar-1987", company_name: "Own Co" },
      }),
    );
    expect(own.details[0].message).toMatch(/e-mail/);
    await signupTenant(t, { password: STRONG });
  });
});

describe("inviteMember, acceptInvite: a new member's password follows the same rule", () => {
  it("refuses 12345678, password and aaaaaaaa for the new account, and accepts a strong one", async () => {
    const o = await signupTenant(t);
    const email = uniqueEmail("invited");
    await api(o.agent)
      .op("inviteMember", { body: { email, role: "employee" } })
      .expect(201);
    const token = await tokenMailed(mail, email, "Invitation token");
    for (const password of WEAK) expectWeak(await api(t.request()).op("acceptInvite", { body: { token, name: "New Member", password } }));
    expect(await t.query("SELECT 1 FROM users WHERE email = $1", [email])).toHaveLength(0);
    const ok = await api(t.request())
      .op("acceptInvite", { body: { token, name: "New Member", password: STRONG } })
      .expect(200);
    expect(ok.body.data.active_tenant_id).toBe(o.tenantId);
  });
});

describe("forgotPassword, resetPassword: the new password follows the same rule", () => {
  it("refuses 12345678, password and aaaaaaaa without using the token, and accepts a strong one", async () => {
    const o = await signupTenant(t);
    await api(t.request())
      .op("forgotPassword", { body: { email: o.email } })
      .expect(200);
    const token = await tokenMailed(mail, o.email, "Reset token");
    for (const password of WEAK) expectWeak(await api(t.request()).op("resetPassword", { body: { token, password } }));
    await api(t.request())
      .op("signIn", { body: { email: o.email, password: o.password } })
      .expect(200);
    await api(t.request())
      .op("resetPassword", { body: { token, password: STRONG } })
      .expect(200);
    await api(t.request())
      .op("signIn", { body: { email: o.email, password: STRONG } })
      .expect(200);
  });
});

describe("signup: the longest password the document allows", () => {
  it("is scored without freezing the event loop (the bound only catches a freeze)", async () => {
    const longest = 200; // Password.yaml maxLength
    const longestOf = (p: string) => p.repeat(longest).slice(0, longest);
    // runs of l33t characters, digits and dates: what zxcvbn's matchers work hardest on
    const repeats = ["p@$$w0rd", "1234567890", "19901231", "aA1!", "@"].map(longestOf);
    const l33tRun = longestOf("4@3$1!0|7+(");
    for (const p of repeats) expect(passwordWeakness(p)).toMatch(/repeats/);
    expect(passwordWeakness(`${STRONG}-${"x".repeat(longest - STRONG.length - 1)}`)).toBeNull();
    const h = monitorEventLoopDelay({ resolution: 10 });
    h.enable();
    for (const password of repeats)
      expectWeak(
        await api(t.request()).op("signup", { body: { name: "Long Pw", email: uniqueEmail("long"), password, company_name: "Long Co" } }),
      );
    await signupTenant(t, { password: l33tRun });
    h.disable();
    expect(h.max / 1e6).toBeLessThan(1000);
  });
});
