// Every 429 carries the headers the document declares on it - Retry-After, RateLimit and
// RateLimit-Policy (IETF draft-ietf-httpapi-ratelimit-headers-08, the form of express-rate-limit's
// standardHeaders "draft-8") - naming the limit that refused: the sign-in throttle per account and
// per client IP (signIn, acceptInvite), reset requests per IP (forgotPassword) and signups per IP
// (signup). The upload and AI budgets: test/platform/uploads.test.ts, test/recruitment/ai-budget.test.ts.
// (The response recorder, test/support/recorder.ts, also flags any 429 of any test without them.)
import { productionLimits } from "../support/limits.ts";
import { describe, expect, it } from "vitest";
import { config } from "../../src/config.ts";
import { hashToken } from "../../src/platform/identity/tokens.ts";
import { appWith, expectError, signupTenant, uniqueEmail, useTestApp } from "../support/app.ts";
import { asObject, at, bundledDocument, deref, documentOperationsOf } from "../support/document.ts";
import { declared429Headers, declared429s, expectRateLimitHeaders } from "../support/rate-limit.ts";
import * as clock from "../../src/lib/clock.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
const WINDOW_S = 15 * 60;

describe("the document's 429 responses", () => {
  it("declare Retry-After, RateLimit and RateLimit-Policy, each required, on every 429 of every operation", () => {
    const with429 = documentOperationsOf().filter(({ op }) => asObject(op.responses)["429"]);
    expect(with429.length).toBeGreaterThanOrEqual(11);
    for (const { op } of with429) {
      const headers = asObject(deref(asObject(op.responses)["429"]).headers);
      const required = Object.entries(headers)
        .filter(([, h]) => deref(h).required === true)
        .map(([name]) => name);
      expect(required.sort(), String(op.operationId)).toEqual(["RateLimit", "RateLimit-Policy", "Retry-After"]);
    }
    expect(Object.keys(declared429Headers()).sort()).toEqual(["RateLimit", "RateLimit-Policy", "Retry-After"]);
  });

  it("is one response: every operation's 429 is components/responses/RateLimited, the only 429 component", () => {
    const all = declared429s();
    expect(Object.keys(all).length).toBeGreaterThan(300);
    for (const [op, response] of Object.entries(all)) expect(response, op).toEqual({ $ref: "#/components/responses/RateLimited" });
    const limitedResponses = Object.entries(asObject(asObject(bundledDocument().components).responses)).filter(
      ([, r]) => at(r, "content", "application/json", "example", "status") === 429,
    );
    expect(limitedResponses.map(([name]) => name)).toEqual(["RateLimited"]);
  });
});

describe("signIn, acceptInvite: the sign-in throttle's 429 names the limit that refused", () => {
  it("signIn: after SIGNIN_MAX_FAILURES_PER_ACCOUNT failures the account's policy (`account`, 15 minutes)", async () => {
    const o = await signupTenant(t);
    const max = config().signinMaxFailuresPerAccount;
    for (let i = 0; i < max; i++)
      expectError(await api(t.request()).op("signIn", { body: { email: o.email, password: `wrong-${i}` } }), 401);
    const res = await api(t.request()).op("signIn", { body: { email: o.email, password: o.password } });
    expectError(res, 429, "rate_limited");
    expectRateLimitHeaders(res, { name: "account", limit: max, windowSeconds: WINDOW_S });
  });

  it("signIn: after SIGNIN_MAX_FAILURES_PER_IP failures from one client IP the address's policy (`ip`)", async () => {
    const app = appWith(t, { trustProxy: 1 });
    const from = (email: string) =>
      app.as(t.request()).post("/api/auth/sign-in").set("X-Forwarded-For", "203.0.113.91").send({ email, password: "not-the-password" });
    const max = config().signinMaxFailuresPerIp;
    for (let i = 0; i < max; i++) expectError(await from(uniqueEmail("nobody")), 401);
    const res = await from(uniqueEmail("nobody"));
    expectRateLimitHeaders(res, { name: "ip", limit: max, windowSeconds: WINDOW_S });
  });

  it("acceptInvite: an existing user whose account is throttled gets the account's 429 with its headers", async () => {
    const a = await signupTenant(t);
    const b = await signupTenant(t);
    const token = `invite-${uniqueEmail("token")}`;
    await t.query(
      `INSERT INTO invitations (tenant_id, email, role, token_hash, expires_at)
       VALUES ($1, $2, 'employee', $3, $4::timestamptz + interval '1 day')`,
      [b.tenantId, a.email, hashToken(token), clock.now()],
    );
    const max = config().signinMaxFailuresPerAccount;
    for (let i = 0; i < max; i++)
      expectError(await api(t.request()).op("signIn", { body: { email: a.email, password: `wrong-${i}` } }), 401);
    const res = await api(t.request()).op("acceptInvite", { body: { token, password: a.password } });
    expectError(res, 429, "rate_limited");
    expectRateLimitHeaders(res, { name: "account", limit: max, windowSeconds: WINDOW_S });
  });
});

describe("forgotPassword, signup: the per-IP limits' 429", () => {
  it("forgotPassword: past FORGOT_PASSWORD_MAX_PER_IP requests of an IP, `reset-ip`", async () => {
    const app = appWith(t, { trustProxy: 1 });
    const from = () =>
      app
        .as(t.request())
        .post("/api/auth/forgot-password")
        .set("X-Forwarded-For", "203.0.113.92")
        .send({ email: uniqueEmail("who") });
    const max = config().forgotPasswordMaxPerIp;
    for (let i = 0; i < max; i++) await from().expect(200);
    const res = await from();
    expectError(res, 429, "rate_limited");
    expectRateLimitHeaders(res, { name: "reset-ip", limit: max, windowSeconds: WINDOW_S });
  });

  it("signup: past SIGNUP_MAX_PER_IP attempts of an IP, `signup-ip`", async () => {
    const max = productionLimits.signupMaxPerIp;
    const app = appWith(t, { signupMaxPerIp: max, trustProxy: 1 });
    const from = () =>
      app
        .as(t.request())
        .post("/api/auth/signup")
        .set("X-Forwarded-For", "203.0.113.93")
        .send({ name: "Limited", email: uniqueEmail("limited"), password: "granite-otter-lantern-94" });
    for (let i = 0; i < max; i++) await from().expect(202);
    const res = await from();
    expectError(res, 429, "rate_limited");
    const retryAfter = expectRateLimitHeaders(res, { name: "signup-ip", limit: max, windowSeconds: WINDOW_S });
    expect(retryAfter).toBeGreaterThan(WINDOW_S - 60);
  });
});
