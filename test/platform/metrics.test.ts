// The Prometheus metrics (src/platform/metrics.ts) as an operator's Prometheus scrapes them: on the
// listener of their own (src/http/metrics-server.ts), never on the API's port; the requests by
// operationId, method and status with their latency histogram; the pools, admission control, the
// job queues, the outbox, readiness and Node's own figures; and only label values from closed sets
// (no ids, no raw paths), however the API is called.
import { randomUUID } from "node:crypto";
import type http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { PgBoss } from "pg-boss";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operationTable } from "../../generated/registry.ts";
import { createMetricsServer } from "../../src/http/metrics-server.ts";
import { registerAllJobs } from "../../src/modules/jobs.ts";
import { JOB_SCHEMA, registeredJobNames } from "../../src/platform/jobs/queue.ts";
import { REFUSAL_REASONS } from "../../src/platform/metrics.ts";
import { withConfig } from "../../src/config.ts";
import { deliverDueEmails } from "../../src/platform/mail/deliver.ts";
import { expectError, signupTenant, useTestApp } from "../support/app.ts";
import { startMailSink } from "../support/mail.ts";
import { startServerProcess } from "../support/server-process.ts";
import { serverArgs } from "../support/server-entry.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
const root = path.resolve(import.meta.dirname, "../..");
let metrics: http.Server;
let metricsUrl: string;

beforeAll(async () => {
  registerAllJobs();
  metrics = createMetricsServer(t.app);
  await new Promise<void>((resolve) => metrics.listen(0, "127.0.0.1", resolve));
  metricsUrl = `http://127.0.0.1:${(metrics.address() as AddressInfo).port}/metrics`;
});
afterAll(async () => {
  await new Promise((resolve) => metrics?.close(resolve));
});

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of an exposition text (the text format's sample lines). */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split("\n")) {
    if (!line || line.startsWith("#")) continue;
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const l of (m[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[l[1]] = l[2];
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return samples;
}

async function scrape(): Promise<{ text: string; samples: Sample[] }> {
  const res = await fetch(metricsUrl);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  return { text, samples: parse(text) };
}

const find = (samples: Sample[], name: string, labels: Record<string, string> = {}) =>
  samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
const value = (samples: Sample[], name: string, labels: Record<string, string> = {}) => {
  const found = find(samples, name, labels);
  if (found.length !== 1) throw new Error(`${name}${JSON.stringify(labels)}: ${found.length} samples`);
  return found[0].value;
};

describe("getHealth, getEmployee, listEmployees: metrics a Prometheus scrapes", () => {
  it("counts requests by operationId, method and status, with a latency histogram per operation", async () => {
    const before = (await scrape()).samples;
    const healthBefore = find(before, "hrms_http_requests_total", { operation: "getHealth", method: "GET", status: "200" })[0]?.value ?? 0;
    const owner = await signupTenant(t);
    await api(t.request()).op("getHealth").expect(200);
    await api(t.request()).op("getHealth").expect(200);
    await t.request().head("/api/health").expect(200);
    await api(owner.agent).op("listEmployees").expect(200);
    const missing = randomUUID();
    expectError(await api(owner.agent).op("getEmployee", { params: { employeeId: missing } }), 404, "not_found");
    const unmatched = `/api/no-such-area/${randomUUID()}`;
    expectError(await t.request().get(unmatched), 404, "not_found");

    const { text, samples } = await scrape();
    expect(value(samples, "hrms_http_requests_total", { operation: "getHealth", method: "GET", status: "200" })).toBe(healthBefore + 2);
    expect(value(samples, "hrms_http_requests_total", { operation: "getHealth", method: "HEAD", status: "200" })).toBeGreaterThanOrEqual(1);
    expect(value(samples, "hrms_http_requests_total", { operation: "listEmployees", method: "GET", status: "200" })).toBeGreaterThanOrEqual(
      1,
    );
    expect(value(samples, "hrms_http_requests_total", { operation: "getEmployee", method: "GET", status: "404" })).toBeGreaterThanOrEqual(
      1,
    );
    expect(value(samples, "hrms_http_requests_total", { operation: "none", method: "GET", status: "404" })).toBeGreaterThanOrEqual(1);
    // the histogram: cumulative buckets up to +Inf, whose count is the _count
    const buckets = find(samples, "hrms_http_request_duration_seconds_bucket", { operation: "listEmployees", method: "GET" });
    expect(buckets.map((b) => b.labels.le)).toContain("+Inf");
    const inf = buckets.find((b) => b.labels.le === "+Inf")!.value;
    expect(inf).toBe(value(samples, "hrms_http_request_duration_seconds_count", { operation: "listEmployees", method: "GET" }));
    expect(value(samples, "hrms_http_request_duration_seconds_sum", { operation: "listEmployees", method: "GET" })).toBeGreaterThan(0);
    for (let i = 1; i < buckets.length; i++) expect(buckets[i].value).toBeGreaterThanOrEqual(buckets[i - 1].value);
    // no id and no path in any series
    expect(text).not.toContain(missing);
    expect(text).not.toContain("no-such-area");
    expect(text).not.toContain(owner.tenantId);
    expect(text).not.toMatch(/="\/api\//);
  });

  it("GET /ready: readiness with its reasons and the load, which the public probe does not show", async () => {
    const ready = await fetch(metricsUrl.replace(/\/metrics$/, "/ready"));
    expect(ready.status).toBe(200);
    expect(ready.headers.get("cache-control")).toBe("no-store");
    expect(await ready.json()).toMatchObject({
      status: "ready",
      database: "up",
      migrations: "applied",
      worker: "off",
      requests: { in_progress: 0, limit: t.config.maxConcurrentRequests, saturated: false },
    });
    const lifecycle = t.app.locals.lifecycle as { starting: boolean };
    lifecycle.starting = true;
    try {
      const starting = await fetch(metricsUrl.replace(/\/metrics$/, "/ready"));
      expect(starting.status).toBe(503);
      expect(await starting.json()).toMatchObject({ status: "not_ready", reason: "Not ready: starting", requests: { in_progress: 0 } });
      const publicProbe = await api(t.request()).op("getReadiness");
      expectError(publicProbe, 503, "unavailable");
      expect(JSON.stringify(publicProbe.body)).not.toMatch(/starting|in_progress/);
    } finally {
      lifecycle.starting = false;
    }
    expect(JSON.stringify((await api(t.request()).op("getHealth").expect(200)).body)).not.toMatch(/in_progress|saturated/);
  });

  it("reports the pools, admission control, readiness and Node's own figures", async () => {
    await api(t.request()).op("getReadiness").expect(200);
    const { samples } = await scrape();
    for (const pool of ["primary", "health"]) {
      expect(value(samples, "hrms_db_pool_max_connections", { pool })).toBeGreaterThan(0);
      for (const state of ["in_use", "idle"]) expect(value(samples, "hrms_db_pool_connections", { pool, state })).toBeGreaterThanOrEqual(0);
      expect(value(samples, "hrms_db_pool_waiting", { pool })).toBe(0);
      expect(value(samples, "hrms_db_pool_connect_timeouts_total", { pool })).toBeGreaterThanOrEqual(0);
    }
    // the health check's own connection was used just now, and closes only after 30 s unused
    expect(value(samples, "hrms_db_pool_connections", { pool: "health", state: "idle" })).toBeGreaterThanOrEqual(1);
    for (const reason of REFUSAL_REASONS) expect(value(samples, "hrms_admission_rejections_total", { reason })).toBeGreaterThanOrEqual(0);
    // the scrape itself is no API request: nothing in progress
    expect(value(samples, "hrms_admission_requests", { state: "in_progress" })).toBe(0);
    expect(value(samples, "hrms_admission_max_concurrent_requests")).toBe(t.config.maxConcurrentRequests);
    expect(value(samples, "hrms_ready")).toBe(1);
    // no replica configured: no replica series
    expect(find(samples, "hrms_db_replica_up")).toEqual([]);
    for (const name of ["nodejs_eventloop_lag_p99_seconds", "process_resident_memory_bytes", "nodejs_heap_size_used_bytes"])
      expect(value(samples, name)).toBeGreaterThan(0);
  });

  it("reports each job queue's depth and oldest job, and the outbox", async () => {
    // a pg-boss client that only sends (no worker, no maintenance): the jobs wait in their queue
    const boss = new PgBoss({ connectionString: t.url, schema: JOB_SCHEMA, max: 2, supervise: false, schedule: false });
    await boss.start();
    try {
      await boss.createQueue("mail.deliver");
      await boss.send("mail.deliver", {});
      await boss.send("mail.deliver", {});
    } finally {
      await boss.stop({ graceful: false });
    }
    const to = `metrics.${randomUUID()}@example.test`;
    await t.query("INSERT INTO email_outbox (to_address, subject, text_body) VALUES ($1, 'Hello', 'Hello')", [to]);
    const { samples } = await scrape();
    expect(value(samples, "hrms_job_queue_depth", { queue: "mail.deliver" })).toBe(2);
    expect(value(samples, "hrms_job_queue_oldest_age_seconds", { queue: "mail.deliver" })).toBeGreaterThanOrEqual(0);
    expect(value(samples, "hrms_job_queue_active", { queue: "mail.deliver" })).toBe(0);
    // every registered queue has its series, the empty ones at 0
    expect(
      find(samples, "hrms_job_queue_depth")
        .map((s) => s.labels.queue)
        .sort(),
    ).toEqual(registeredJobNames().sort());
    expect(value(samples, "hrms_mail_outbox_pending")).toBeGreaterThanOrEqual(1);
    expect(value(samples, "hrms_mail_outbox_oldest_pending_age_seconds")).toBeGreaterThanOrEqual(0);
    expect(value(samples, "hrms_webhook_deliveries_pending")).toBeGreaterThanOrEqual(0);
    expect(value(samples, "hrms_webhook_oldest_pending_age_seconds")).toBeGreaterThanOrEqual(0);

    // delivery: refused once (a failed attempt), then sent (its lag observed)
    const sink = await startMailSink();
    try {
      const sent = value(samples, "hrms_mail_sent_total");
      const failed = value(samples, "hrms_mail_failed_attempts_total");
      const lags = value(samples, "hrms_mail_delivery_lag_seconds_count");
      sink.refuse();
      await withConfig(t.config, () => deliverDueEmails(sink.url));
      sink.accept();
      await t.query("UPDATE email_outbox SET next_attempt_at = now() WHERE status = 'pending'");
      while ((await withConfig(t.config, () => deliverDueEmails(sink.url))) > 0);
      await sink.waitFor(to);
      const after = (await scrape()).samples;
      expect(value(after, "hrms_mail_failed_attempts_total")).toBe(failed + 1);
      expect(value(after, "hrms_mail_sent_total")).toBeGreaterThanOrEqual(sent + 1);
      expect(value(after, "hrms_mail_delivery_lag_seconds_count")).toBe(lags + value(after, "hrms_mail_sent_total") - sent);
      expect(value(after, "hrms_mail_outbox_pending")).toBe(0);
    } finally {
      await sink.close();
    }
  });

  it("has label values from closed sets only, whatever the requests were", async () => {
    // requests a client shapes freely: paths, ids, methods, query strings
    for (let i = 0; i < 5; i++) {
      await t.request().get(`/api/${randomUUID()}?x=${randomUUID()}`);
      await api(t.request()).op("deleteEmployee", { params: { employeeId: randomUUID() } });
      await t.request().options(`/api/health/${randomUUID()}`);
    }
    const { samples } = await scrape();
    const operations = new Set([...Object.keys(operationTable), "none"]);
    const closed: Record<string, (v: string) => boolean> = {
      operation: (v) => operations.has(v),
      method: (v) => ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "other"].includes(v),
      status: (v) => /^[1-5][0-9]{2}$/.test(v),
      le: (v) => v === "+Inf" || Number.isFinite(Number(v)),
      pool: (v) => ["primary", "replica", "health"].includes(v),
      state: (v) => ["in_use", "idle", "in_progress", "queued", "reading_body"].includes(v),
      queue: (v) => registeredJobNames().includes(v),
      reason: (v) => (REFUSAL_REASONS as readonly string[]).includes(v),
      result: (v) => ["succeeded", "retry", "failed"].includes(v),
    };
    const ours = samples.filter((s) => s.name.startsWith("hrms_"));
    expect(ours.length).toBeGreaterThan(0);
    for (const s of ours)
      for (const [label, v] of Object.entries(s.labels)) {
        expect(closed[label], `${s.name}: label ${label} is not one of the closed sets`).toBeDefined();
        expect(closed[label](v), `${s.name}{${label}="${v}"}`).toBe(true);
      }
    // names: the prefix, base units, counters ending in _total (Prometheus' conventions)
    for (const name of new Set(ours.map((s) => s.name))) {
      expect(name).toMatch(/^hrms_[a-z_]+$/);
      expect(name).not.toMatch(/_(ms|milliseconds|kb|mb)(_|$)/);
    }
  });

  it("is not served on the API's port, and nothing but GET /metrics on its own", async () => {
    expect((await t.request().get("/metrics")).status).toBe(404);
    expectError(await t.request().get("/api/metrics"), 404, "not_found");
    expect((await fetch(metricsUrl.replace("/metrics", "/"))).status).toBe(404);
    expect((await fetch(metricsUrl, { method: "POST", body: "x" })).status).toBe(404);
    const head = await fetch(metricsUrl, { method: "HEAD" });
    expect(head.status).toBe(200);
  });
});

describe("getHealth: the server process serves its metrics on METRICS_PORT only", () => {
  it("a server started with METRICS_PORT=0 serves them on a port of their own, which it prints", async () => {
    const env = {
      ...process.env,
      NODE_ENV: "development",
      DATABASE_URL: t.url,
      MIGRATE_ON_START: "false",
      RUN_WORKER: "false",
      LOG_LEVEL: "warn",
    };
    const server = await startServerProcess(serverArgs(), { cwd: root, env: { ...env, METRICS_PORT: "0" } });
    try {
      const at = /Metrics: (http:\/\/127\.0\.0\.1:(\d+)\/metrics)/.exec(server.startOutput);
      expect(at, server.startOutput).not.toBeNull();
      expect(Number(at![2])).not.toBe(server.port);
      await fetch(`${server.base}/api/health`);
      const res = await fetch(at![1]);
      expect(res.status).toBe(200);
      const samples = parse(await res.text());
      expect(value(samples, "hrms_http_requests_total", { operation: "getHealth", method: "GET", status: "200" })).toBeGreaterThanOrEqual(
        1,
      );
      expect((await fetch(`${server.base}/metrics`)).status).toBe(404);
    } finally {
      const exited = new Promise((resolve) => (server.proc.exitCode !== null ? resolve(null) : server.proc.once("exit", resolve)));
      server.proc.kill("SIGTERM");
      await exited;
    }
  });
});
