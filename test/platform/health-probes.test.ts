// Liveness and readiness as a load balancer or orchestrator probes them (docs/operations.md,
// "Health probes"): liveness answers whenever the process does; readiness says no while starting
// (the job worker not running yet), while draining after SIGTERM (requests still served, each
// closing its connection, before the listener closes), while the job worker is not running where it
// should, and while a migration of the build is not applied.
import type http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import supertest from "supertest";
import { afterAll, describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app.ts";
import { createLifecycle, type Lifecycle } from "../../src/platform/lifecycle.ts";
import { createServer } from "../../src/http/server.ts";
import { expectError, useTestApp } from "../support/app.ts";
import { startServerProcess } from "../support/server-process.ts";
import { serverArgs } from "../support/server-entry.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
const root = path.resolve(import.meta.dirname, "../..");
const servers: http.Server[] = [];

afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

/** An app of the file's configuration with `lifecycle`, served as production serves it (the response recorder sees it). */
async function appWith(lifecycle: Lifecycle): Promise<(() => supertest.Agent) & { base: string }> {
  const server = createServer(createApp({ config: t.config, validateResponses: true, lifecycle }));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  servers.push(server);
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(() => supertest.agent(base), { base });
}

describe("getLiveness, getReadiness: the probes", () => {
  it("liveness is 200 without asking the database; readiness names what it checked", async () => {
    const live = await api(t.request()).op("getLiveness").expect(200);
    expect(live.body.data).toEqual({ status: "alive", uptime_seconds: expect.any(Number) });
    const ready = await api(t.request()).op("getReadiness").expect(200);
    // anyone may ask: the answer is the status alone (the reasons and the load: GET /ready of the metrics listener)
    expect(ready.body.data).toEqual({ status: "ready" });
  });

  it("readiness is 503 while starting, liveness 200", async () => {
    const lifecycle = createLifecycle({ starting: true });
    const request = await appWith(lifecycle);
    const res = await api(request()).op("getReadiness");
    expectError(res, 503, "unavailable");
    expect(res.body.error).toBe("Not ready, try again shortly");
    expect(res.headers["retry-after"]).toMatch(/^[1-9][0-9]*$/);
    await api(request()).op("getLiveness").expect(200);
    lifecycle.starting = false;
    await api(request()).op("getReadiness").expect(200);
  });

  it("readiness is 503 while the job worker of a process that should run one is not running", async () => {
    let running = false;
    const request = await appWith(createLifecycle({ workerExpected: true, workerRunning: () => running }));
    const res = await api(request()).op("getReadiness");
    expectError(res, 503, "unavailable");
    expect(res.body.error).not.toMatch(/job worker/);
    running = true;
    await api(request()).op("getReadiness").expect(200);
  });

  it("while draining: readiness 503, liveness 200, requests still served, each closing its connection", async () => {
    const lifecycle = createLifecycle();
    const request = await appWith(lifecycle);
    // a keep-alive client (fetch) keeps its connection while serving
    const before = await fetch(`${request.base}/api/server-time`);
    expect(before.status).toBe(200);
    expect(before.headers.get("connection")).toBe("keep-alive");
    await before.arrayBuffer();
    lifecycle.draining = true;
    const res = await api(request()).op("getReadiness");
    expectError(res, 503, "unavailable");
    expect(res.body.error).not.toMatch(/draining/);
    expect(res.headers.connection).toBe("close");
    const live = await api(request()).op("getLiveness").expect(200);
    expect(live.headers.connection).toBe("close");
    const served = await fetch(`${request.base}/api/server-time`);
    expect(served.status).toBe(200);
    expect(served.headers.get("connection")).toBe("close");
  });

  it("readiness is 503 while a migration of the build is not applied, 200 once it is", async () => {
    const [last] = await t.query("SELECT * FROM _prisma_migrations ORDER BY migration_name DESC LIMIT 1");
    const request = await appWith(createLifecycle());
    await t.query("DELETE FROM _prisma_migrations WHERE id = $1", [last.id]);
    try {
      const res = await api(request()).op("getReadiness");
      expectError(res, 503, "unavailable");
      expect(res.body.error).not.toContain(last.migration_name);
    } finally {
      const columns = Object.keys(last);
      const names = columns.map((c) => `"${c}"`).join(", ");
      const values = columns.map((_, i) => `$${i + 1}`).join(", ");
      await t.query(`INSERT INTO _prisma_migrations (${names}) VALUES (${values})`, Object.values(last));
    }
    await api(request()).op("getReadiness").expect(200);
  });
});

describe("getReadiness, getLiveness: a real server process shutting down", () => {
  it("after SIGTERM readiness is 503 while requests are still served, then the process stops cleanly", async () => {
    const server = await startServerProcess(serverArgs(), {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: "development",
        DATABASE_URL: t.url,
        MIGRATE_ON_START: "false",
        RUN_WORKER: "false",
        LOG_LEVEL: "warn",
        // long enough for this test to see the drain on a busy machine (a hang guard, not a timing claim)
        SHUTDOWN_DRAIN_MS: "8000",
      },
    });
    const exited = new Promise<number | null>((resolve) => server.proc.once("exit", (code) => resolve(code)));
    try {
      expect((await fetch(`${server.base}/api/health/ready`)).status).toBe(200);
      server.proc.kill("SIGTERM");
      let ready = 200;
      while (ready === 200) {
        ready = (await fetch(`${server.base}/api/health/ready`)).status;
        if (ready === 200) await new Promise((r) => setTimeout(r, 20));
      }
      expect(ready).toBe(503);
      // still serving, liveness included; every answer closes its connection
      const live = await fetch(`${server.base}/api/health/live`);
      expect(live.status).toBe(200);
      const time = await fetch(`${server.base}/api/server-time`);
      expect(time.status).toBe(200);
      expect(time.headers.get("connection")).toBe("close");
      expect(await exited).toBe(0);
    } finally {
      if (server.proc.exitCode === null) server.proc.kill("SIGKILL");
    }
  });
});
