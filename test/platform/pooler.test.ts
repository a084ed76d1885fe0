// The server behind PgBouncer in transaction mode (docs/operations.md, "Connection pooler"): a real
// server process with DATABASE_URL through PgBouncer (2 server connections for a pool of 6) and
// DATABASE_DIRECT_URL to the database. What needs a session goes direct - the migrations' advisory
// lock, the identity cache's LISTEN (a role change made elsewhere takes effect at once), the job
// worker - and the requests' statements, whose consecutive statements land on any of the pooler's
// server connections, use no named prepared statements (the employee profile and attendance reads,
// the leave balances page with its generic plan) and no settings at connect. Needs Debian's
// pgbouncer (`make verify` installs it for the cluster); listed as skipped where it is missing.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type PgBouncer, pgbouncerBinary, startPgBouncer } from "../../scripts/measure/pgbouncer.ts";
import { useTestApp } from "../support/app.ts";
import { leaveWorld } from "../leave/fixtures.ts";
import { type ServerProcess, startServerProcess } from "../support/server-process.ts";
import { serverArgs } from "../support/server-entry.ts";
import { eventually } from "../support/eventually.ts";
import { api, type ResponseBody } from "../support/api.ts";

const t = useTestApp();
const root = path.resolve(import.meta.dirname, "../..");
let bouncer: PgBouncer | undefined;
let server: ServerProcess | undefined;
const dir = mkdtempSync(path.join(tmpdir(), "hrms-pgbouncer-"));

afterAll(async () => {
  if (server && server.proc.exitCode === null) {
    const gone = new Promise((resolve) => server!.proc.once("exit", resolve));
    server.proc.kill("SIGTERM");
    await gone;
  }
  bouncer?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!pgbouncerBinary())("getEmployee, listLeaveBalances, getReadiness: behind PgBouncer in transaction mode", () => {
  it("serves every request through the pooler, with what needs a session on the direct connection", async () => {
    const world = await leaveWorld(t);
    bouncer = await startPgBouncer(t.url, dir, { poolSize: 2, lockTimeoutMs: t.config.databaseTransactionTimeoutMs });
    server = await startServerProcess(serverArgs(), {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "development",
        SESSION_SECRET: t.config.sessionSecret,
        DATABASE_URL: bouncer.url,
        DATABASE_DIRECT_URL: t.url,
        DATABASE_POOL_SIZE: "6",
        MIGRATE_ON_START: "true",
        RUN_WORKER: "true",
        IDENTITY_CACHE_TTL_MS: "60000",
        LOG_LEVEL: "warn",
      },
    });
    const base = server.base;
    // ready: migrations read, job worker started (on the direct connection)
    expect(await eventually(async () => (await fetch(`${base}/api/health/ready`)).status === 200)).toBe(true);
    const ready = (await (await fetch(`${base}/api/health/ready`)).json()) as ResponseBody<"getReadiness", 200>;
    expect(ready.data).toEqual({ status: "ready" });

    const signIn = await fetch(`${base}/api/auth/sign-in`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ email: world.hr.email, password: world.hr.password }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ");
    const get = (p: string) =>
      fetch(`${base}${p}`, { headers: { cookie } }).then(async (r) => ({ status: r.status, body: await r.text() }));

    // many at once: 6 client connections over the pooler's 2 server connections, statements of one
    // connection landing on either - named prepared statements would fail here ("does not exist")
    const paths = [
      `/api/employees/${world.employeeId}`,
      `/api/employees/${world.managerEmployeeId}`,
      `/api/leave-balances?period_id=${world.periodId}`,
      "/api/auth/session",
      `/api/attendance?employee_id=${world.employeeId}`,
      "/api/attendance",
    ];
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => get(paths[i % paths.length])));
    const statuses = answers.map((a, i) => `${paths[i % paths.length]} ${a.status}`);
    expect(
      statuses.filter((s) => !s.endsWith(" 200")),
      JSON.stringify(answers.find((a) => a.status !== 200)),
    ).toEqual([]);

    // the identity cache listens on the direct connection: a role change made by another process
    // (the test's own app) takes effect here at once
    expect((await get("/api/configuration/members")).status).toBe(200);
    expect((await get("/api/configuration/members")).status).toBe(200); // cached now
    await api(world.owner.agent)
      .op("updateMember", { params: { userId: world.hr.userId }, body: { role: "employee" } })
      .expect(200);
    expect(await eventually(async () => (await get("/api/configuration/members")).status === 403)).toBe(true);
  });
});
