// Anyone could lock anyone out: five wrong passwords locked a known account for
// everyone, the right password then got a 429, and a password reset did not lift it. Now a pause is
// per account and client, a correct password from a known client (the `hrms.client` cookie of an
// earlier sign-in) gets through the account-wide pause, a successful reset lifts every pause, and
// the owner is mailed when a pause begins. Clients are told apart by the address a trusted proxy
// reports (TRUST_PROXY=1 here); mail stays in the outbox.
import { describe, expect, it } from "vitest";
import { registerAllJobs } from "../../src/modules/jobs.ts";
import { pruneKnownClients } from "../../src/platform/identity/signin-guard.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { appWith, expectError, signupTenant, useTestApp } from "../support/app.ts";
import { expectRateLimitHeaders } from "../support/rate-limit.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
registerAllJobs();
const WINDOW_S = 15 * 60;

const notices = (email: string) =>
  t.query<{ text_body: string }>(
    "SELECT text_body FROM email_outbox WHERE to_address = $1 AND subject = 'Failed sign-ins to your HRMS account'",
    [email],
  );

describe("signIn: a pause is per account and client, never for everyone", () => {
  it("five wrong passwords from one client pause that client only; the owner elsewhere signs in, and is told", async () => {
    const o = await signupTenant(t);
    const app = appWith(t, { trustProxy: 1 });
    const from = (ip: string, password: string) =>
      app.as(t.request()).post("/api/auth/sign-in").set("X-Forwarded-For", ip).send({ email: o.email, password });
    for (let i = 0; i < 5; i++) expectError(await from("198.51.100.10", `wrong-guess-${i}`), 401, "unauthenticated");
    // the client that guessed stays paused for this account, even with the right password
    const paused = await from("198.51.100.10", o.password);
    expectError(paused, 429, "rate_limited");
    expectRateLimitHeaders(paused, { name: "account", limit: 5, windowSeconds: WINDOW_S });
    // the owner, from anywhere else, is not
    await from("203.0.113.10", o.password).expect(200);
    // and was told, once
    const [notice, ...more] = await notices(o.email);
    expect(more).toEqual([]);
    expect(notice.text_body).toContain("198.51.100.10");
    expect(notice.text_body).toMatch(/forgot-password/);
    for (let i = 0; i < 5; i++) expectError(await from("198.51.100.11", `wrong-again-${i}`), 401, "unauthenticated");
    expect(await notices(o.email)).toHaveLength(1);
  });

  it("past the account-wide bound unknown clients are paused, a known client with the right password is not", async () => {
    const o = await signupTenant(t);
    const app = appWith(t, { trustProxy: 1, signinMaxFailuresPerAccountAllClients: 6 });
    // the owner's browser signs in once (and becomes a known client), then signs out
    const browser = t.request();
    await app
      .as(browser)
      .post("/api/auth/sign-in")
      .set("X-Forwarded-For", "203.0.113.20")
      .send({ email: o.email, password: o.password })
      .expect(200);
    await app.as(browser).post("/api/auth/sign-out").set("X-Forwarded-For", "203.0.113.20").expect(200);
    // guesses from three addresses, two each: no client reaches its own pause, the account-wide one is reached
    for (const ip of ["198.51.100.21", "198.51.100.22", "198.51.100.23"])
      for (let i = 0; i < 2; i++)
        expectError(
          await app
            .as(t.request())
            .post("/api/auth/sign-in")
            .set("X-Forwarded-For", ip)
            .send({ email: o.email, password: `guess-${ip}-${i}` }),
          401,
        );
    const stranger = await app
      .as(t.request())
      .post("/api/auth/sign-in")
      .set("X-Forwarded-For", "203.0.113.21")
      .send({ email: o.email, password: o.password });
    expectRateLimitHeaders(stranger, { name: "account-all", limit: 6, windowSeconds: WINDOW_S });
    // the known browser, even from another address, signs in with the right password
    const signedIn = await app
      .as(browser)
      .post("/api/auth/sign-in")
      .set("X-Forwarded-For", "198.51.100.21")
      .send({ email: o.email, password: o.password })
      .expect(200);
    expect(signedIn.body.data.user.email).toBe(o.email);
    await api(app.as(browser)).op("getSession").expect(200);
  });
});

describe("forgotPassword, resetPassword: a successful reset lifts every pause of the account", () => {
  it("the paused client and unknown clients sign in with the new password after the reset", async () => {
    const o = await signupTenant(t);
    const app = appWith(t, { trustProxy: 1, signinMaxFailuresPerAccountAllClients: 5 });
    const signIn = (ip: string, password: string) =>
      app.as(t.request()).post("/api/auth/sign-in").set("X-Forwarded-For", ip).send({ email: o.email, password });
    for (let i = 0; i < 5; i++) expectError(await signIn("198.51.100.30", `wrong-${i}`), 401);
    expectError(await signIn("198.51.100.30", o.password), 429, "rate_limited");
    expectError(await signIn("203.0.113.30", o.password), 429, "rate_limited"); // the account-wide bound (5 here)

    await api(t.request())
      .op("forgotPassword", { body: { email: o.email } })
      .expect(200);
    await jobs.runNow("auth.password-reset-requests");
    const [mail] = await t.query<{ text_body: string }>(
      "SELECT text_body FROM email_outbox WHERE to_address = $1 AND subject = 'Reset your HRMS password'",
      [o.email],
    );
    const token = /Reset token: ([A-Za-z0-9_-]+)/.exec(mail.text_body)![1];
    const reset = await api(t.request())
      .op("resetPassword", { body: { token, password: "after-the-reset-lantern-8" } })
      .expect(200);
    expect(String(reset.headers["set-cookie"])).toMatch(/^hrms\.client=[A-Za-z0-9_-]{43}; .*HttpOnly/);

    await signIn("198.51.100.30", "after-the-reset-lantern-8").expect(200);
    await signIn("203.0.113.30", "after-the-reset-lantern-8").expect(200);
  });
});

describe("acceptInvite: an existing user's password is checked under the same per-client pause", () => {
  it("another client's failures do not stop the invitee from accepting", async () => {
    const a = await signupTenant(t);
    const b = await signupTenant(t);
    await api(b.agent)
      .op("inviteMember", { body: { email: a.email, role: "hr" } })
      .expect(201);
    const [invite] = await t.query<{ text_body: string }>(
      "SELECT text_body FROM email_outbox WHERE to_address = $1 AND text_body LIKE '%Invitation token:%'",
      [a.email],
    );
    const token = /Invitation token: ([A-Za-z0-9_-]+)/.exec(invite.text_body)![1];
    const app = appWith(t, { trustProxy: 1 });
    for (let i = 0; i < 5; i++)
      expectError(
        await app
          .as(t.request())
          .post("/api/auth/sign-in")
          .set("X-Forwarded-For", "198.51.100.40")
          .send({ email: a.email, password: `no-${i}` }),
        401,
      );
    expectError(
      await app
        .as(t.request())
        .post("/api/auth/accept-invite")
        .set("X-Forwarded-For", "198.51.100.40")
        .send({ token, password: a.password }),
      429,
      "rate_limited",
    );
    const accepted = await app
      .as(t.request())
      .post("/api/auth/accept-invite")
      .set("X-Forwarded-For", "203.0.113.40")
      .send({ token, password: a.password })
      .expect(200);
    expect(accepted.body.data.active_tenant_id).toBe(b.tenantId);
  });
});

describe("known clients: forgotten after a year unused (auth.prune-known-clients)", () => {
  it("removes the rows of browsers unused for longer than their cookie lives, and keeps the others", async () => {
    const o = await signupTenant(t);
    await api(t.request())
      .op("signIn", { body: { email: o.email, password: o.password } })
      .expect(200);
    const rows = await t.query<{ id: string }>("SELECT id FROM known_clients WHERE user_id = $1", [o.userId]);
    expect(rows.length).toBeGreaterThan(1);
    const [stale, ...fresh] = rows.map((r) => r.id);
    await t.query("UPDATE known_clients SET last_used_at = now() - interval '366 days' WHERE id = $1", [stale]);
    await pruneKnownClients();
    const left = (await t.query<{ id: string }>("SELECT id FROM known_clients WHERE user_id = $1", [o.userId])).map((r) => r.id);
    expect(left.sort()).toEqual([...fresh].sort());
  });
});
