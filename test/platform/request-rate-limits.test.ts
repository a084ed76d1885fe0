// Request rate limits (src/http/rate-limit.ts): every answer of an operation states the
// policies that apply (`RateLimit-Policy`) and their state (`RateLimit`) in the current syntax of
// draft-ietf-httpapi-ratelimit-headers; per company and per caller with a session, per client IP
// without; past a limit a 429 with Retry-After naming that policy, counting nothing; counts shared
// across processes through PostgreSQL.
import supertest from "supertest";
import { describe, expect, it, vi } from "vitest";
import { exactWindows } from "../../src/db/windows.ts";
import type { RequestRateLimits } from "../../src/http/rate-limit.ts";
import { addMember, appWith, expectError, signupTenant, useTestApp } from "../support/app.ts";
import { productionLimits } from "../support/limits.ts";
import { expectRateLimitHeaders } from "../support/rate-limit.ts";
import { api } from "../support/api.ts";

const WINDOW = 60;
const t = useTestApp({ config: { rateLimitPerTenant: 40, rateLimitPerCaller: 12, rateLimitPerIp: 500, rateLimitWindowSeconds: WINDOW } });

/** `RateLimit` as { policy: { r, t } }. */
function state(res: { headers: Record<string, unknown> }): Record<string, { r: number; t: number }> {
  const value = String(res.headers.ratelimit);
  return Object.fromEntries(
    value.split(", ").map((item) => {
      const m = /^"([a-z-]+)";r=(\d+);t=(\d+)$/.exec(item);
      if (!m) throw new Error(`RateLimit item ${item}`);
      return [m[1], { r: Number(m[2]), t: Number(m[3]) }];
    }),
  );
}

describe("listEmployees, getEmployee, getSession: RateLimit fields on every answer", () => {
  it("listEmployees: with a session the `tenant` and `caller` policies, one request fewer each time; errors carry them too", async () => {
    const owner = await signupTenant(t);
    const first = await api(owner.agent).op("listEmployees").expect(200);
    expect(first.headers["ratelimit-policy"]).toBe(`"tenant";q=40;w=${WINDOW}, "caller";q=12;w=${WINDOW}`);
    const a = state(first);
    expect(a.tenant.t).toBeGreaterThan(0);
    expect(a.tenant.t).toBeLessThanOrEqual(WINDOW);
    const second = await api(owner.agent).op("listEmployees").expect(200);
    expect(state(second).caller.r).toBe(a.caller.r - 1);
    expect(state(second).tenant.r).toBe(a.tenant.r - 1);
    // a 404 of an id the company does not have is counted and stated alike
    const missing = expectError(
      await api(owner.agent).op("getEmployee", { params: { employeeId: "00000000-0000-4000-8000-000000000000" } }),
      404,
    );
    expect(missing).toBeTruthy();
    const after404 = await api(owner.agent).op("listEmployees").expect(200);
    expect(state(after404).caller.r).toBe(a.caller.r - 3);
  });

  it("getSession: without a session the `client` policy; health probes are neither counted nor stated", async () => {
    const anonymous = await api(t.request()).op("getSession");
    expectError(anonymous, 401);
    expect(anonymous.headers["ratelimit-policy"]).toBe(`"client";q=500;w=${WINDOW}`);
    expect(state(anonymous).client.r).toBeLessThan(500);
    const health = await api(t.request()).op("getHealth");
    expect(health.headers.ratelimit).toBeUndefined();
    expect(health.headers["ratelimit-policy"]).toBeUndefined();
  });

  it("listEmployees: past the caller's limit a 429 naming `caller` with Retry-After, counting nothing; others go on", async () => {
    const owner = await signupTenant(t);
    const hr = await addMember(t, owner, "hr");
    let last = await api(owner.agent).op("listEmployees");
    while (last.status === 200) last = await api(owner.agent).op("listEmployees");
    expectError(last, 429, "rate_limited");
    const wait = expectRateLimitHeaders(last, { name: "caller", limit: 12, windowSeconds: WINDOW });
    expect(wait).toBeGreaterThan(0);
    // refused requests count nothing: still refused, still naming the caller's policy
    const again = await api(owner.agent).op("listEmployees");
    expectRateLimitHeaders(again, { name: "caller", limit: 12, windowSeconds: WINDOW });
    // hr of the same company has a budget of its own, and the company's shows the owner's requests
    const byHr = await api(hr.agent).op("listEmployees").expect(200);
    expect(state(byHr).caller.r).toBe(11);
    expect(state(byHr).tenant.r).toBeLessThanOrEqual(40 - 13);
  });

  it("listEmployees: past the company's limit every caller of that company is refused (`tenant`), another company is not", async () => {
    const owner = await signupTenant(t);
    const members = await Promise.all([addMember(t, owner, "hr"), addMember(t, owner, "admin"), addMember(t, owner, "hr")]);
    const other = await signupTenant(t);
    let refused: { status: number; headers: Record<string, unknown>; body: unknown } | undefined;
    for (let i = 0; i < 60 && !refused; i++) {
      const res = await api([owner, ...members][i % 4].agent).op("listEmployees");
      if (res.status === 429) refused = res;
    }
    expect(refused).toBeDefined();
    expectRateLimitHeaders(refused!, { name: "tenant", limit: 40, windowSeconds: WINDOW });
    const elsewhere = await api(other.agent).op("listEmployees").expect(200);
    expect(state(elsewhere).tenant.r).toBeGreaterThan(30);
  });

  it("listEmployees with an API credential: its company's and its own budget (`caller`), beside its creator's", async () => {
    const owner = await signupTenant(t);
    const made = await api(owner.agent)
      .op("createApiCredential", { body: { name: "Sync", scopes: ["employees:read"] } })
      .expect(201);
    const bearer = { Authorization: `Bearer ${made.body.data.secret}` };
    const first = await api(t.request()).op("listEmployees", { headers: bearer }).expect(200);
    expect(first.headers["ratelimit-policy"]).toBe(`"tenant";q=40;w=${WINDOW}, "caller";q=12;w=${WINDOW}`);
    expect(state(first).caller.r).toBe(11);
    let last: supertest.Response = first;
    while (last.status === 200) last = await api(t.request()).op("listEmployees", { headers: bearer });
    expectError(last, 429, "rate_limited");
    expectRateLimitHeaders(last, { name: "caller", limit: 12, windowSeconds: WINDOW });
    // its creator's own budget is untouched; the company's counted the credential's requests
    const byOwner = await api(owner.agent).op("listEmployees").expect(200);
    expect(state(byOwner).caller.r).toBeGreaterThan(0);
    expect(state(byOwner).tenant.r).toBeLessThanOrEqual(40 - 13);
  });

  it("a wrong Bearer secret counts against its address; past the address's budget it is refused before any lookup", async () => {
    const narrow = appWith(t, { rateLimitPerIp: 3, trustProxy: 1 });
    // an address of its own (the suite's requests all come from loopback)
    // (by hand below: X-Forwarded-For is the proxy's header, not one the document declares)
    const from = { "X-Forwarded-For": `203.0.113.${10 + (process.pid % 200)}` };
    const wrong = { Authorization: `Bearer hrms_abcdefghij_${"x".repeat(43)}` };
    const seen: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await supertest(narrow.app).get("/api/employees").set(from).set(wrong);
      expectError(res, 401, "unauthenticated");
      expect(res.headers["ratelimit-policy"]).toBe(`"client";q=3;w=${WINDOW}`);
      seen.push(state(res).client.r);
    }
    expect(seen).toEqual([2, 1, 0]);
    const refused = await supertest(narrow.app).get("/api/employees").set(from).set(wrong);
    expectError(refused, 429, "rate_limited");
    expectRateLimitHeaders(refused, { name: "client", limit: 3, windowSeconds: WINDOW });
    // refused before its secret is looked at: even a live credential from that address waits for the window
    const owner = await signupTenant(t);
    const made = await api(owner.agent)
      .op("createApiCredential", { body: { name: "Shared NAT", scopes: ["employees:read"] } })
      .expect(201);
    const live = await supertest(narrow.app)
      .get("/api/employees")
      .set(from)
      .set({ Authorization: `Bearer ${made.body.data.secret}` });
    expectError(live, 429, "rate_limited");
    expectRateLimitHeaders(live, { name: "client", limit: 3, windowSeconds: WINDOW });
    // through an app whose address budget is not spent, the credential is served, counted against its company and itself
    const elsewhere = await api(t.request())
      .op("listEmployees", { headers: { Authorization: `Bearer ${made.body.data.secret}` } })
      .expect(200);
    expect(elsewhere.headers["ratelimit-policy"]).toBe(`"tenant";q=40;w=${WINDOW}, "caller";q=12;w=${WINDOW}`);
  });

  it("listEmployees: counts are shared across processes through the database (two apps on one database)", async () => {
    const owner = await signupTenant(t);
    // a second process that syncs only when told to (after its first request)
    const second = appWith(t, { rateLimitSyncMs: 3_600_000 });
    const limitsOf = (app: { locals: Record<string, unknown> }) => app.locals.rateLimits as RequestRateLimits;
    for (let i = 0; i < 4; i++) await api(owner.agent).op("listEmployees").expect(200);
    await limitsOf(t.app).sync();
    // the second process learns of the first's requests at its first sync
    await api(second.as(owner.agent)).op("listEmployees").expect(200);
    await limitsOf(second.app).sync();
    const seen = await api(second.as(owner.agent)).op("listEmployees").expect(200);
    // sign-in requests of signupTenant count under `client`; the 4 + 1 + this one under `caller`
    expect(state(seen).caller.r).toBe(12 - 6);
    const [row] = await t.query<{ uses: number }>("SELECT uses FROM usage_counters WHERE key = $1", [`rate:user:${owner.userId}`]);
    expect(row.uses).toBe(5);
  });
});

describe("listEmployees: the request path writes nothing to the database for its rate limits", () => {
  it("requests are counted and refused in memory; one statement per sync adds them to the shared counter", async () => {
    const owner = await signupTenant(t);
    const quiet = appWith(t, { rateLimitSyncMs: 3_600_000 });
    const limitsOf = (app: { locals: Record<string, unknown> }) => app.locals.rateLimits as RequestRateLimits;
    await limitsOf(t.app).sync(); // the fixtures' counts of the file's app are in, and it serves nothing below
    await api(quiet.as(owner.agent)).op("listEmployees").expect(200); // its first request starts its first sync
    await limitsOf(quiet.app).sync();
    const key = `rate:user:${owner.userId}`;
    const stored = async () => (await t.query<{ uses: number }>("SELECT uses FROM usage_counters WHERE key = $1", [key]))[0].uses;
    const before = await stored();
    const store = [
      vi.spyOn(exactWindows, "add"),
      vi.spyOn(exactWindows, "take"),
      vi.spyOn(exactWindows, "count"),
      vi.spyOn(exactWindows, "check"),
    ];
    try {
      const left: number[] = [];
      for (let i = 0; i < 5; i++) left.push(state(await api(quiet.as(owner.agent)).op("listEmployees").expect(200)).caller.r);
      expect(left).toEqual([0, 1, 2, 3, 4].map((i) => left[0] - i));
      let last = await api(quiet.as(owner.agent)).op("listEmployees");
      while (last.status === 200) last = await api(quiet.as(owner.agent)).op("listEmployees");
      expectRateLimitHeaders(last, { name: "caller", limit: 12, windowSeconds: WINDOW });
      for (const spy of store) expect(spy).not.toHaveBeenCalled();
      expect(await stored()).toBe(before);
      await limitsOf(quiet.app).sync();
      expect(store[0]).toHaveBeenCalledTimes(1);
      expect(await stored()).toBe(12);
    } finally {
      for (const spy of store) spy.mockRestore();
    }
  });
});

describe("listEmployees, getSession: the production limits", () => {
  // The budgets a deployment has without settings; their windows are filled up to the last request
  // through the shared counters (a fleet of other processes), so the limits are not lowered to test them.
  const { rateLimitPerTenant, rateLimitPerCaller, rateLimitPerIp } = productionLimits;
  const limitsOf = (app: { locals: Record<string, unknown> }) => app.locals.rateLimits as RequestRateLimits;
  const spent = (key: string, uses: number) =>
    t.query(
      `INSERT INTO usage_counters (key, uses, window_ends) VALUES ($1, $2, now() + interval '60 seconds')
       ON CONFLICT (key) DO UPDATE SET uses = EXCLUDED.uses, window_ends = EXCLUDED.window_ends`,
      [key, uses],
    );

  it("a caller, its company and a client IP are refused past RATE_LIMIT_PER_CALLER, _PER_TENANT and _PER_IP's defaults", async () => {
    const production = appWith(t, { rateLimitPerTenant, rateLimitPerCaller, rateLimitPerIp, rateLimitSyncMs: 3_600_000, trustProxy: 1 });
    const owner = await signupTenant(t);
    const hr = await addMember(t, owner, "hr");
    await limitsOf(t.app).sync(); // the fixtures' requests counted by the file's app are added before the counters are set
    // the owner has used all but two of their budget elsewhere, the company all but five of its own
    await spent(`rate:user:${owner.userId}`, rateLimitPerCaller - 2);
    await spent(`rate:tenant:${owner.tenantId}`, rateLimitPerTenant - 5);
    const first = await api(production.as(owner.agent)).op("listEmployees").expect(200);
    expect(first.headers["ratelimit-policy"]).toBe(`"tenant";q=${rateLimitPerTenant};w=60, "caller";q=${rateLimitPerCaller};w=60`);
    await limitsOf(production.app).sync();
    const second = await api(production.as(owner.agent)).op("listEmployees").expect(200);
    expect(state(second).caller.r).toBe(0);
    expectRateLimitHeaders(await api(production.as(owner.agent)).op("listEmployees"), {
      name: "caller",
      limit: rateLimitPerCaller,
      windowSeconds: 60,
    });
    // the company has 3 requests left: hr spends them, then the company is refused whoever calls
    for (let i = 0; i < 3; i++) await api(production.as(hr.agent)).op("listEmployees").expect(200);
    expectRateLimitHeaders(await api(production.as(hr.agent)).op("listEmployees"), {
      name: "tenant",
      limit: rateLimitPerTenant,
      windowSeconds: 60,
    });
    // a client IP without a session
    const ip = `198.51.100.${10 + (process.pid % 200)}`;
    const anonymous = () => supertest(production.app).get("/api/auth/session").set("X-Forwarded-For", ip);
    await spent(`rate:ip:${ip}`, rateLimitPerIp - 2);
    expectError(await anonymous(), 401);
    await limitsOf(production.app).sync();
    expectError(await anonymous(), 401);
    expectRateLimitHeaders(await anonymous(), { name: "client", limit: rateLimitPerIp, windowSeconds: 60 });
  });
});
