// Fault: the database goes away in the middle of mixed traffic (reads, multi-row writes, signups
// with their confirmation)
// - the TCP proxy of test/support/proxy.ts cuts every connection at once, and a disposable
// PostgreSQL server of its own is stopped (fast shutdown) and started again. While it is down every
// request answers a 503 `unavailable` envelope quickly and health reports it; nothing is half
// written (every committed change has all of its rows); when it returns, the same process
// serves again without a restart.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, initDb } from "../../src/db/client.ts";
import { startEmbeddedServer, startThrowawayServer } from "../../src/db/embedded.ts";
import { deployMigrations } from "../../src/db/migrations.ts";
import { createApp } from "../../src/http/app.ts";
import { signupTenant, uniqueEmail, useTestApp, type TenantSession, type TestContext, type AuditChanges } from "../support/app.ts";
import { startDbProxy, type DbProxy } from "../support/proxy.ts";
import { signupToken } from "../support/signup.ts";
import { isEnvelope } from "./world.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
let proxy: DbProxy;
let owner: TenantSession;

beforeAll(async () => {
  proxy = await startDbProxy(t.url);
  await closeDb();
  initDb(proxy.url, { max: 8 });
  t.app = createApp({ validateResponses: true });
  t.request = () => supertest.agent(t.app);
  owner = await signupTenant(t, { company: "Outage Co" });
});
afterAll(async () => {
  await closeDb();
  await proxy.close();
  initDb(t.url);
});

/** A traffic worker's pause between two requests. */
const PACE_MS = 10;

interface Sample {
  action: string;
  phase: "up" | "down" | "restoring" | "recovered";
  status: number;
  ms: number;
  body: unknown;
  sentAt: number;
}

/** A signup and its confirmation (the multi-row write); the signup's answer when it is not a 202. */
async function signUp(ctx: Pick<TestContext, "request" | "query">): Promise<supertest.Response> {
  const email = uniqueEmail("outage.signup");
  const started = await api(ctx.request()).op("signup", {
    body: { name: "Outage Signup", email, password: "outage-password", company_name: "Outage signup" },
  });
  if (started.status !== 202) return started;
  // the test's own connection may be down too (the server-stopped drill)
  const token = await signupToken(ctx.query, email).catch(() => null);
  if (!token) return started;
  return api(ctx.request()).op("confirmSignup", { body: { token, password: "outage-password" } });
}

const actionsOf = (
  ctx: Pick<TestContext, "request" | "query">,
  owner: TenantSession,
): [string, () => PromiseLike<supertest.Response>][] => [
  ["read settings", () => api(owner.agent).op("getCompanySettings")],
  ["list activity", () => api(owner.agent).op("listActivityLog", { query: { limit: 5 } })],
  ["update settings", () => api(owner.agent).op("updateCompanySettings", { body: { name: `Outage Co ${Date.now()}` } })],
  ["invite member", () => api(owner.agent).op("inviteMember", { body: { email: uniqueEmail("outage.invitee"), role: "employee" } })],
  ["signup", () => signUp(ctx)],
  ["health", () => api(ctx.request()).op("getHealth")],
];

/** Nothing half-written: every committed signup, invitation and settings change has all of its rows. */
async function expectNothingHalfWritten(q: TestContext["query"], owner: TenantSession): Promise<void> {
  expect(
    await q(`SELECT t.id FROM tenants t WHERE NOT EXISTS (SELECT 1 FROM memberships m WHERE m.tenant_id = t.id AND m.role = 'owner')`),
    "tenant without owner",
  ).toEqual([]);
  expect(
    await q(`SELECT u.email FROM users u WHERE NOT EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = u.id)`),
    "user without membership",
  ).toEqual([]);
  expect(
    await q(
      `SELECT t.id FROM tenants t WHERE NOT EXISTS (SELECT 1 FROM audit_logs a WHERE a.tenant_id = t.id AND a.action = 'tenant.created')`,
    ),
    "tenant without its audit entry",
  ).toEqual([]);
  expect(
    await q(
      `SELECT i.email FROM invitations i WHERE NOT EXISTS (SELECT 1 FROM email_outbox o WHERE o.to_address = i.email) ` +
        `OR NOT EXISTS (SELECT 1 FROM audit_logs a WHERE a.entity_id = i.id AND a.action = 'member.invited')`,
    ),
    "invitation without its mail or audit entry",
  ).toEqual([]);
  expect(
    await q(
      `SELECT o.to_address FROM email_outbox o WHERE o.to_address LIKE 'outage.invitee%' ` +
        `AND NOT EXISTS (SELECT 1 FROM invitations i WHERE i.email = o.to_address)`,
    ),
    "mail without its invitation",
  ).toEqual([]);
  const [{ name }] = await q(`SELECT name FROM tenants WHERE id = $1`, [owner.tenantId]);
  const [last] = await q<{ changes: AuditChanges }>(
    `SELECT changes FROM audit_logs WHERE tenant_id = $1 AND action = 'settings.updated' ORDER BY created_at DESC, id DESC LIMIT 1`,
    [owner.tenantId],
  );
  expect(last.changes.name.to, "settings and their audit entry committed together").toBe(name);
}

/**
 * Mixed traffic from 4 workers; the database goes down (`goDown`) and, 3 s later, comes back
 * (`comeBack`): only 503 envelopes while down, quickly; health 503 then 200 without a restart;
 * everything works afterwards (sessions survive); nothing half-written.
 */
async function outageDrill(
  ctx: Pick<TestContext, "request" | "query">,
  owner: TenantSession,
  outage: { what: string; goDown: () => unknown; comeBack: () => unknown },
): Promise<void> {
  const actions = actionsOf(ctx, owner);
  const samples: Sample[] = [];
  let phase: Sample["phase"] = "up";
  let cutAt = 0;
  let running = true;
  let n = 0;
  const worker = async () => {
    while (running) {
      const [action, fire] = actions[n++ % actions.length];
      const sentAt = Date.now();
      const p = phase;
      const res = await fire();
      samples.push({ action, phase: p, status: res.status, ms: Date.now() - sentAt, body: res.body, sentAt });
      // paced: while the database is down a 503 takes a millisecond, and an unpaced loop only burns CPU
      await new Promise((r) => setTimeout(r, PACE_MS));
    }
  };
  const workers = Array.from({ length: 4 }, worker);
  // Phases end on what was seen, not on a clock tuned to a quiet machine: traffic succeeds before
  // the cut, at least 3 s and 8 answered requests while down, and requests after the recovery.
  const until = async (what: string, done: () => boolean) => {
    const guard = Date.now() + 120_000; // a hang guard only
    while (!done()) {
      if (Date.now() > guard) throw new Error(`outage drill (${outage.what}): timed out waiting for ${what}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  await new Promise((r) => setTimeout(r, 1500));
  await until("successful traffic before the outage", () => samples.some((s) => s.phase === "up" && s.status < 300));
  await outage.goDown();
  cutAt = Date.now();
  phase = "down";
  await new Promise((r) => setTimeout(r, 3000));
  await until("requests answered while down", () => samples.filter((s) => s.phase === "down" && s.sentAt > cutAt + 200).length >= 8);
  const health = await api(ctx.request()).op("getHealth");
  expect(isEnvelope(health, 503, ["unavailable"])).toBe(true);
  phase = "restoring";
  await outage.comeBack();
  const restoredAt = Date.now();
  // the same process recovers by itself
  for (const guard = restoredAt + 120_000; ; ) {
    if ((await api(ctx.request()).op("getHealth")).status === 200) break;
    if (Date.now() > guard)
      throw new Error(`outage drill (${outage.what}): health did not answer 200 within 120 s of the database's return`);
    await new Promise((r) => setTimeout(r, 200));
  }
  phase = "recovered";
  const recoveredAt = Date.now();
  await new Promise((r) => setTimeout(r, 1500));
  await until("requests after the recovery", () => samples.filter((s) => s.phase === "recovered" && s.sentAt > recoveredAt).length >= 4);
  running = false;
  await Promise.all(workers);

  const bad = samples.filter(
    (s) => s.status >= 500 && !(s.status === 503 && isEnvelope({ status: s.status, body: s.body }, 503, ["unavailable"])),
  );
  expect(bad, "only 503 `unavailable` envelopes may be 5xx").toEqual([]);
  // sent after the cut had settled, answered before the database returned
  const settled = samples.filter((s) => s.phase === "down" && s.sentAt > cutAt + 200 && s.sentAt + s.ms < restoredAt);
  expect(settled.length).toBeGreaterThan(0);
  expect(
    settled.filter((s) => s.status !== 503),
    "every request sent while the database is down answers 503",
  ).toEqual([]);
  expect(Math.max(...settled.map((s) => s.ms)), "503 comes quickly").toBeLessThan(5000);
  const after = samples.filter((s) => s.phase === "recovered" && s.sentAt > recoveredAt);
  expect(after.length).toBeGreaterThan(0);
  expect(
    after.filter((s) => s.status >= 300).map((s) => `${s.action} ${s.status}`),
    "after recovery everything works again (sessions survive the outage)",
  ).toEqual([]);
  expect(samples.filter((s) => s.phase === "up" && s.status < 300).length).toBeGreaterThan(0);
  console.log(
    `[faults] database ${outage.what}: ${samples.length} requests (${samples.filter((s) => s.phase === "up").length} before ` +
      `it went down, ${samples.filter((s) => s.phase === "down").length} while down - ` +
      `max ${Math.max(...settled.map((s) => s.ms))} ms to a ` +
      `503, ${samples.filter((s) => s.phase !== "up" && s.phase !== "down").length} after the database returned; ` +
      `recovered in ${recoveredAt - restoredAt} ms)`,
  );

  await expectNothingHalfWritten(ctx.query, owner);
}

describe("database connections cut mid-traffic", () => {
  it("answers 503 quickly while down, writes all-or-nothing, recovers without a restart", async () => {
    await outageDrill(t, owner, { what: "connections cut", goDown: () => proxy.cut(), comeBack: () => proxy.restore() });
  });

  // The random cut above lands wherever the traffic happens to be. Here one write at a time is cut
  // after 0 ms, then a little later each time until past its uncut duration (connections closed, then
  // reset), so the cut falls into each step of it in turn (session load, membership,
  // BEGIN, the row lock, the writes, the audit entry, COMMIT, the session save): every answer is the
  // success or a 503 `unavailable` envelope, and nothing is half-written.
  it("a cut at every moment of a write: the success or a 503, never a 500 or half a write", async () => {
    const writes = actionsOf(t, owner).filter(([action]) => ["update settings", "invite member", "signup"].includes(action));
    const seen: Record<string, number> = {};
    const warm = async () => {
      // connections warm again (a cut closes them all), so the delay measures time inside the write
      while ((await api(owner.agent).op("getCompanySettings")).status !== 200) await new Promise((r) => setTimeout(r, PACE_MS));
    };
    const STEPS = 16;
    for (const [action, fire] of writes) {
      // sweep from 0 to a bit past how long the write takes uncut on this machine
      await warm();
      // measured as the sweep runs it: right after a cut and the warm-up that follows it
      const times: number[] = [];
      for (let i = 0; i < 3; i++) {
        proxy.cut();
        proxy.restore();
        await warm();
        const started = Date.now();
        expect((await fire()).status, `${action} uncut`).toBeLessThan(300);
        times.push(Date.now() - started);
      }
      const took = times.sort((a, b) => a - b)[1]; // the median
      for (let step = 0; step < STEPS; step++)
        for (const how of ["close", "reset"] as const) {
          const ms = Math.round((step * took * 1.5) / STEPS);
          await warm();
          const answer = fire().then((r) => r);
          await new Promise((r) => setTimeout(r, ms));
          proxy.cut(how);
          const res = await answer;
          proxy.restore();
          const outcome =
            res.status === 503 && isEnvelope(res, 503, ["unavailable"])
              ? "503"
              : res.status < 300
                ? "2xx"
                : `${res.status} ${JSON.stringify(res.body)}`;
          seen[outcome] = (seen[outcome] ?? 0) + 1;
          expect(outcome === "503" || outcome === "2xx", `${action} cut (${how}) after ${ms} ms (of ${took} ms uncut): ${outcome}`).toBe(
            true,
          );
        }
    }
    console.log(
      `[faults] cut at every moment of a write: ${Object.entries(seen)
        .map(([k, n]) => `${k}×${n}`)
        .join(", ")}`,
    );
    expect(seen["2xx"], "some writes finished before their cut").toBeGreaterThan(0);
    expect(seen["503"], "some writes were cut").toBeGreaterThan(0);
    await expectNothingHalfWritten(t.query, owner);
  });
});

// The real thing: a PostgreSQL server of this test's own (embedded, in a temporary folder) is shut
// down the way an operator or a failover does it (SIGINT: fast shutdown - open sessions get 57P01
// "terminating connection due to administrator command", new ones are refused) and started again
// on the same data.
describe("database server stopped and started again", () => {
  it("answers 503 while the server is down and recovers when it is back, without a restart", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "hrms-stop-pg-"));
    const dataDir = path.join(dir, "data");
    let server: Awaited<ReturnType<typeof startEmbeddedServer>> | undefined;
    let pool: pg.Pool | undefined;
    try {
      const first = await startThrowawayServer(dataDir, true);
      const port = first.port;
      server = first;
      const url = server.url.replace(/\/postgres$/, "/hrms_stop");
      const admin = new pg.Client({ connectionString: server.url });
      await admin.connect();
      await admin.query("CREATE DATABASE hrms_stop");
      await admin.end();
      await deployMigrations(url);
      await closeDb();
      initDb(url, { max: 8 });
      const app = createApp({ validateResponses: true });
      // the invariants are read after the restart, through a pool of their own
      const query: TestContext["query"] = async (sql, params) => {
        if (!pool) {
          pool = new pg.Pool({ connectionString: url, max: 2 });
          // its idle connections are cut when the drill stops the server on purpose: pg emits that
          // on the pool (an unhandled 'error' would end the test process); the next query reconnects
          pool.on("error", () => {});
        }
        return (await pool.query(sql, params as unknown[])).rows;
      };
      const ctx = { app, request: () => supertest.agent(app), query } as TestContext;
      const owner = await signupTenant(ctx, { company: "Stopped server Co" });
      await outageDrill(ctx, owner, {
        what: "server stopped",
        goDown: () => server!.stop(),
        comeBack: async () => {
          server = await startEmbeddedServer(dataDir, port, true);
        },
      });
    } finally {
      await pool?.end();
      await closeDb();
      await server?.stop().catch(() => {});
      rmSync(dir, { recursive: true, force: true });
      initDb(proxy.url, { max: 8 });
    }
  });
});
