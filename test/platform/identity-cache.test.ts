// The identity cache (src/platform/identity/identity-cache.ts) on, as in production: a signed-in request reads
// its session and membership from memory, and every change to them - made through this process's
// API, through another connection (another server process, psql), or lost with the LISTEN
// connection - takes effect with the next request. A second server process on the same database
// proves the cross-process case end to end.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signedSessionId } from "../../src/platform/identity/session.ts";
import { getPool } from "../../src/db/client.ts";
import { addMember, expectError, signupTenant, useTestApp, type TenantSession } from "../support/app.ts";
import { startServerProcess, type ServerProcess } from "../support/server-process.ts";
import { serverArgs } from "../support/server-entry.ts";
import { eventually } from "../support/eventually.ts";
import { appIdentityCache, settled } from "../support/identity-cache.ts";
import { api } from "../support/api.ts";

const t = useTestApp({ config: { identityCacheTtlMs: 60_000 } });
const root = path.resolve(import.meta.dirname, "../..");
let owner: TenantSession;
let other: ServerProcess | undefined;

/** The process's identity cache as the file's app uses it (its TTL). */
const appCache = () => appIdentityCache(t);

/** Session lookups (session row + membership) the API's pool has run so far. */
let queries = 0;

beforeAll(async () => {
  const pool = getPool();
  const query = pool.query.bind(pool) as (...a: unknown[]) => unknown;
  (pool as unknown as { query: unknown }).query = (...a: unknown[]) => {
    if (typeof a[0] === "string" && a[0].includes('FROM "session" WHERE sid')) queries++;
    return query(...a);
  };
  owner = await signupTenant(t);
  await appCache().ready();
});

afterAll(async () => {
  if (other?.proc.exitCode === null) {
    const exited = new Promise((r) => other!.proc.once("exit", r));
    other.proc.kill("SIGTERM");
    await exited;
  }
});

/** A signed-in read twice; returns the session lookups of the second (0 when served from the cache). */
async function queriesOfSecondRead(agent: TenantSession["agent"]): Promise<number> {
  await settled(t);
  await api(agent).op("listNotifications").expect(200);
  const before = queries;
  await api(agent).op("listNotifications").expect(200);
  return queries - before;
}

/** A session of its own for `member` (a fresh sign-in), as a Cookie header. */
async function signInCookie(member: TenantSession): Promise<string> {
  const res = await api(t.request())
    .op("signIn", { body: { email: member.email, password: member.password } })
    .expect(200);
  // the session cookie alone (a sign-in also sets the known-client cookie hrms.client)
  return (res.headers["set-cookie"] as unknown as string[])
    .map((c) => c.split(";")[0])
    .filter((c) => c.startsWith("hrms.sid="))
    .join("; ");
}

describe("reading the session cookie without express-session (signedSessionId)", () => {
  it("accepts the cookie express-session signed, and nothing altered or unsigned", async () => {
    const member = await addMember(t, owner, "employee");
    const cookie = await signInCookie(member); // hrms.sid=s%3A<sid>.<signature>
    const value = decodeURIComponent(cookie.slice("hrms.sid=".length));
    const sid = value.slice(2, value.lastIndexOf("."));
    expect(signedSessionId(cookie, t.config.sessionSecret)).toBe(sid);
    expect((await t.query(`SELECT count(*)::int AS n FROM session WHERE sid = $1`, [sid]))[0].n).toBe(1);
    // among other cookies, quoted; the first of two wins (as express-session's parser)
    expect(signedSessionId(`a=1; ${cookie}; b=2`, t.config.sessionSecret)).toBe(sid);
    expect(signedSessionId(`hrms.sid="${cookie.slice(9)}"`, t.config.sessionSecret)).toBe(sid);
    expect(signedSessionId(`${cookie}; hrms.sid=s%3Aother.sig`, t.config.sessionSecret)).toBe(sid);
    const sig = value.slice(value.lastIndexOf(".") + 1);
    const flipped = `hrms.sid=${encodeURIComponent(`s:${sid}.${sig[0] === "A" ? "B" : "A"}${sig.slice(1)}`)}`;
    for (const bad of [
      flipped,
      `hrms.sid=${encodeURIComponent(sid)}`,
      `hrms.sid=${encodeURIComponent(`s:${sid}`)}`,
      `hrms.sid=%E0%A4%A`,
      "hrms.sid=",
      "other=1",
    ]) {
      expect(signedSessionId(bad, t.config.sessionSecret)).toBeNull();
    }
    expect(signedSessionId(cookie, `${t.config.sessionSecret}-rotated`)).toBeNull();
    // through the API: the signed cookie reads as the member, the altered one as nobody
    await t.request().get("/api/notifications").set("cookie", cookie).expect(200);
    expect((await t.request().get("/api/notifications").set("cookie", flipped)).status).toBe(401);
  });
});

describe("identity cache", () => {
  it("serves a signed-in request without a database round trip", async () => {
    expect(await queriesOfSecondRead(owner.agent)).toBe(0);
  });

  it("a role change through the API takes effect with the member's next request", async () => {
    const member = await addMember(t, owner, "hr");
    await api(member.agent).op("listMembers").expect(200); // cached as hr
    expect(await queriesOfSecondRead(member.agent)).toBe(0);
    await api(owner.agent)
      .op("updateMember", { params: { userId: member.userId }, body: { role: "employee" } })
      .expect(200);
    expectError(await api(member.agent).op("listMembers"), 403, "forbidden");
  });

  it("a removal through the API ends access at once", async () => {
    const member = await addMember(t, owner, "admin");
    await api(member.agent).op("listMembers").expect(200);
    await api(owner.agent)
      .op("removeMember", { params: { userId: member.userId } })
      .expect(200);
    expect((await api(member.agent).op("listMembers")).status).toBe(401);
  });

  it("a module switched off answers module_disabled at once", async () => {
    await api(owner.agent)
      .op("updateCompanySettings", { body: { modules: ["payroll"] } })
      .expect(200);
    await api(owner.agent).op("listSalaryComponents").expect(200);
    expect(await queriesOfSecondRead(owner.agent)).toBe(0);
    await api(owner.agent)
      .op("updateCompanySettings", { body: { modules: [] } })
      .expect(200);
    expectError(await api(owner.agent).op("listSalaryComponents"), 403, "module_disabled");
  });

  it("a sign-out ends the session at once", async () => {
    const member = await addMember(t, owner, "manager");
    const cookie = await signInCookie(member);
    const read = () => t.request().get("/api/notifications").set("cookie", cookie);
    await settled(t);
    expect((await read()).status).toBe(200);
    const before = queries;
    expect((await read()).status).toBe(200);
    expect(queries - before).toBe(0); // cached
    await t.request().post("/api/auth/sign-out").set("cookie", cookie).expect(200);
    // the same cookie, replayed
    expect((await read()).status).toBe(401);
  });

  it("a change written by another connection (another process, psql) reaches the cache through NOTIFY", async () => {
    const member = await addMember(t, owner, "hr");
    await api(member.agent).op("listMembers").expect(200);
    expect(await queriesOfSecondRead(member.agent)).toBe(0);
    await t.query(`UPDATE memberships SET role = 'employee' WHERE tenant_id = $1 AND user_id = $2`, [owner.tenantId, member.userId]);
    expect(await eventually(async () => (await api(member.agent).op("listMembers")).status === 403)).toBe(true);
    // and the user's name, shown in what they write
    await t.query(`UPDATE users SET name = 'Renamed Person' WHERE id = $1`, [member.userId]);
    expect(await eventually(async () => (await api(member.agent).op("getSession")).body.data.user.name === "Renamed Person")).toBe(true);
  });

  it("reads from the database while the LISTEN connection is down, and caches again once it is back", async () => {
    const member = await addMember(t, owner, "hr");
    expect(await queriesOfSecondRead(member.agent)).toBe(0);
    // kill the listener's backend: a change made meanwhile could not be heard
    await t.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname ` +
        `= current_database() AND application_name = 'hrms identity cache'`,
    );
    expect(await eventually(async () => !appCache().active)).toBe(true);
    await t.query(`UPDATE memberships SET role = 'employee' WHERE tenant_id = $1 AND user_id = $2`, [owner.tenantId, member.userId]);
    expectError(await api(member.agent).op("listMembers"), 403, "forbidden");
    expect(await eventually(async () => appCache().active)).toBe(true);
    expect(await queriesOfSecondRead(member.agent)).toBe(0);
  });

  it("a role change made through one server process takes effect in another", async () => {
    other = await startServerProcess(serverArgs(), {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "development",
        SESSION_SECRET: t.config.sessionSecret,
        DATABASE_URL: t.url,
        MIGRATE_ON_START: "false",
        RUN_WORKER: "false",
        LOG_LEVEL: "warn",
        IDENTITY_CACHE_TTL_MS: "60000",
      },
    });
    const member = await addMember(t, owner, "hr");
    const cookie = await signInCookie(member);
    const viaOther = () => fetch(`${other!.base}/api/configuration/members`, { headers: { cookie } });
    expect((await viaOther()).status).toBe(200);
    expect((await viaOther()).status).toBe(200); // now cached over there
    await api(owner.agent)
      .op("updateMember", { params: { userId: member.userId }, body: { role: "employee" } })
      .expect(200);
    // the other process hears of it through NOTIFY (asynchronously, typically within a millisecond)
    expect(await eventually(async () => (await viaOther()).status === 403)).toBe(true);
  });
});
