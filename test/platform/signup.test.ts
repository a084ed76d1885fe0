// Signup and password-reset requests tell nobody which addresses have accounts: the same answer
// (status, body, headers) for an address with an account and one without, the same work in the
// request (the look-up and the mail happen after the answer, in the jobs auth.signup-requests and
// auth.password-reset-requests - run here with jobs.runNow, no worker), and signups are limited per
// client IP. The account is created by confirming the e-mailed token; the owner of an address that
// already has an account is mailed a notice instead. Mail stays in the outbox (no SMTP here).
import { productionLimits } from "../support/limits.ts";
import { describe, expect, it } from "vitest";
import { registerAllJobs } from "../../src/modules/jobs.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { appWith, expectError, signupTenant, uniqueEmail, useTestApp } from "../support/app.ts";
import { signupToken } from "../support/signup.ts";
import * as clock from "../../src/lib/clock.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
registerAllJobs();

const PASSWORD = "granite-otter-lantern-94";

/**
 * What a client sees of a response, apart from what differs between any two responses (date, request
 * id, and the numbers of `RateLimit`: the requests left and seconds to the window's end, which count
 * every request of the client alike - the header itself and its policies are still compared).
 */
function seen(res: { status: number; body: unknown; headers: Record<string, unknown> }) {
  const { date: _date, "x-request-id": _id, ...headers } = res.headers;
  if (typeof headers.ratelimit === "string") headers.ratelimit = headers.ratelimit.replace(/;r=\d+;t=\d+/g, ";r=<n>;t=<s>");
  return { status: res.status, body: res.body, headers };
}

async function outbox(email: string) {
  return t.query<{ subject: string; text_body: string }>("SELECT subject, text_body FROM email_outbox WHERE to_address = $1", [email]);
}

describe("signup, confirmSignup: the same answer whether or not the address has an account", () => {
  it("answers alike (status, body, headers, no session), mails the new address its token and the existing one a notice", async () => {
    const owner = await signupTenant(t, { name: "Existing Owner" });
    const fresh = uniqueEmail("fresh");
    const send = (email: string) =>
      api(t.request()).op("signup", { body: { name: "Someone", email, password: PASSWORD, company_name: "Signup Co" } });
    const forNew = await send(fresh);
    const forExisting = await send(owner.email.toUpperCase());
    expect(forNew.status).toBe(202);
    expect(seen(forExisting)).toEqual(seen(forNew));
    expect(forNew.headers["set-cookie"]).toBeUndefined();
    expect(forNew.body).toEqual({ data: null, message: expect.any(String) });
    // the request looked nothing up and mailed nothing yet: the job does
    expect(await outbox(fresh)).toEqual([]);
    expect(await outbox(owner.email)).toEqual([]);

    await jobs.runNow("auth.signup-requests");
    const [confirmation] = await outbox(fresh);
    expect(confirmation.subject).toBe("Confirm your HRMS account");
    const token = /Confirmation token: ([A-Za-z0-9_-]+)/.exec(confirmation.text_body)![1];
    const [notice] = await outbox(owner.email);
    expect(notice.subject).toBe("Someone tried to sign up with your HRMS address");
    expect(notice.text_body).toMatch(/forgot-password/);
    expect(notice.text_body).not.toMatch(/token/i);
    // nothing was created or changed for the existing address, and nothing of the attempt is kept
    expect(await t.query("SELECT 1 FROM users WHERE email = $1", [owner.email])).toHaveLength(1);
    expect(await t.query("SELECT 1 FROM signup_requests WHERE email = $1", [owner.email])).toEqual([]);
    expectError(await api(t.request()).op("signIn", { body: { email: owner.email, password: PASSWORD } }), 401);
    await api(t.request())
      .op("signIn", { body: { email: owner.email, password: owner.password } })
      .expect(200);

    // the new address's owner confirms: account, company, owner role, session
    const agent = t.request();
    const created = await api(agent)
      .op("confirmSignup", { body: { token, password: PASSWORD } })
      .expect(201);
    expect(created.headers["set-cookie"]?.[0]).toMatch(/^hrms\.sid=/);
    expect(created.body.data).toMatchObject({ user: { email: fresh, name: "Someone" }, role: "owner", modules: [] });
    const session = await api(agent).op("getSession").expect(200);
    expect(session.body.data.tenants).toEqual([{ id: created.body.data.active_tenant_id, name: "Signup Co", role: "owner" }]);
    await api(t.request())
      .op("signIn", { body: { email: fresh, password: PASSWORD } })
      .expect(200);
    const log = await api(agent)
      .op("listActivityLog", { query: { action: "tenant.created" } })
      .expect(200);
    expect(log.body.data).toHaveLength(1);
    // single use
    expectError(await api(t.request()).op("confirmSignup", { body: { token, password: PASSWORD } }), 400, "invalid_token");
    expect(await t.query("SELECT 1 FROM signup_requests WHERE email = $1", [fresh])).toEqual([]);
  });

  it("an unknown or expired token is a 400; an address that got an account meanwhile is a 409", async () => {
    expectError(
      await api(t.request()).op("confirmSignup", { body: { token: "no-such-token-at-all", password: PASSWORD } }),
      400,
      "invalid_token",
    );

    const late = uniqueEmail("late");
    await api(t.request())
      .op("signup", { body: { name: "Late", email: late, password: PASSWORD } })
      .expect(202);
    const token = await signupToken(t.query, late);
    // a second before the server's clock (src/lib/clock.ts), which the link's expiry follows
    await t.query("UPDATE signup_requests SET expires_at = $2::timestamptz - interval '1 second' WHERE email = $1", [late, clock.now()]);
    expectError(await api(t.request()).op("confirmSignup", { body: { token, password: PASSWORD } }), 400, "invalid_token");
    expect(await t.query("SELECT 1 FROM users WHERE email = $1", [late])).toEqual([]);

    // two signups of one address; it gets an account with the first, the second then finds it taken
    const twice = uniqueEmail("twice");
    await api(t.request())
      .op("signup", { body: { name: "First", email: twice, password: PASSWORD } })
      .expect(202);
    const first = await signupToken(t.query, twice);
    await api(t.request())
      .op("signup", { body: { name: "Second", email: twice, password: PASSWORD } })
      .expect(202);
    const second = await signupToken(t.query, twice);
    await api(t.request())
      .op("confirmSignup", { body: { token: second, password: PASSWORD } })
      .expect(201);
    expectError(await api(t.request()).op("confirmSignup", { body: { token: first, password: PASSWORD } }), 400, "invalid_token");
    const other = uniqueEmail("other");
    await api(t.request())
      .op("signup", { body: { name: "Other", email: other, password: PASSWORD } })
      .expect(202);
    const pending = await signupToken(t.query, other);
    await t.query("INSERT INTO users (email, name, password_hash) VALUES ($1, 'Invited Meanwhile', 'scrypt$00$00')", [other]);
    expectError(await api(t.request()).op("confirmSignup", { body: { token: pending, password: PASSWORD } }), 409, "conflict");
    expect(await t.query("SELECT 1 FROM signup_requests WHERE email = $1", [other])).toEqual([]);
  });

  it("mails one address at most 3 times in 15 minutes, however many signups name it", async () => {
    const victim = await signupTenant(t);
    for (let i = 0; i < 5; i++)
      await api(t.request())
        .op("signup", { body: { name: "Spam", email: victim.email, password: PASSWORD } })
        .expect(202);
    await jobs.runNow("auth.signup-requests");
    expect(await outbox(victim.email)).toHaveLength(3);
    expect(await t.query("SELECT 1 FROM signup_requests WHERE email = $1", [victim.email])).toEqual([]);
  });
});

describe("signup: limited per client IP", () => {
  it("counts every attempt of an IP (refused ones too) and answers 429 with Retry-After beyond SIGNUP_MAX_PER_IP", async () => {
    // the production default: fixtures sign up from one address under a higher one
    const max = productionLimits.signupMaxPerIp;
    const limited = appWith(t, { signupMaxPerIp: max, trustProxy: 1 });
    const from = (ip: string, body: object) => limited.as(t.request()).post("/api/auth/signup").set("X-Forwarded-For", ip).send(body);
    const body = () => ({ name: "Limited", email: uniqueEmail("limited"), password: PASSWORD });
    expectError(await from("203.0.113.7", { ...body(), password: "password" }), 400, "validation_failed");
    for (let i = 1; i < max; i++) await from("203.0.113.7", body()).expect(202);
    const refused = expectError(await from("203.0.113.7", body()), 429, "rate_limited");
    expect(refused.error).toMatch(new RegExp(`^Signup limit reached \\(${max} signups per client IP per 15 minutes\\); retry in \\d+ s$`));
    const res = await from("203.0.113.7", body());
    expect(res.status).toBe(429);
    expect(Number(res.headers["retry-after"])).toBeGreaterThan(800);
    expect(Number(res.headers["retry-after"])).toBeLessThanOrEqual(900);
    // another address is not limited by this one
    await from("203.0.113.8", body()).expect(202);
  });
});

describe("forgotPassword, resetPassword: the same answer and the same work for every address", () => {
  it("answers an existing and a missing address alike, mails only after the response, and only the existing one", async () => {
    const owner = await signupTenant(t);
    const missing = uniqueEmail("missing");
    const forExisting = await api(t.request()).op("forgotPassword", { body: { email: owner.email } });
    const forMissing = await api(t.request()).op("forgotPassword", { body: { email: missing } });
    expect(forExisting.status).toBe(200);
    expect(seen(forMissing)).toEqual(seen(forExisting));
    // the request only recorded it: no token and no mail yet, for either address
    expect(await t.query("SELECT 1 FROM password_reset_tokens WHERE user_id = $1", [owner.userId])).toEqual([]);
    expect(await outbox(owner.email)).toEqual([]);

    await jobs.runNow("auth.password-reset-requests");
    const [mail] = await outbox(owner.email);
    expect(mail.subject).toBe("Reset your HRMS password");
    expect(await outbox(missing)).toEqual([]);
    expect(await t.query("SELECT 1 FROM password_reset_requests")).toEqual([]);
    const token = /Reset token: ([A-Za-z0-9_-]+)/.exec(mail.text_body)![1];
    await api(t.request())
      .op("resetPassword", { body: { token, password: "another-granite-otter-7" } })
      .expect(200);
    await api(t.request())
      .op("signIn", { body: { email: owner.email, password: "another-granite-otter-7" } })
      .expect(200);
  });
});
