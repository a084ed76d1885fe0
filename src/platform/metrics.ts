// The process's metrics for Prometheus (prom-client) on their own port (docs/operations.md, "Metrics").
// Names by Prometheus' conventions (`hrms_`, base units, `_total`); label values from closed sets only,
// never a path, an id or a tenant. Recorded where they happen; pools, replica lag and backlogs read when
// scraped (metrics-db.ts, metrics-backlog.ts).
import client from "prom-client";
import { registerPoolMetrics, registerReplicaMetrics } from "./metrics-db.ts";
import { readBacklog, registerQueueMetrics } from "./metrics-backlog.ts";

/** The registry the metrics endpoint serves (not prom-client's global one). */
export const registry = new client.Registry();
// event-loop delay (nodejs_eventloop_lag_*), heap and RSS, CPU, open handles, GC durations
client.collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 10 });
// three gauges prom-client names like counters (`_total`), which `promtool check metrics` refuses
for (const name of ["nodejs_active_handles_total", "nodejs_active_requests_total", "nodejs_active_resources_total"])
  registry.removeSingleMetric(name);

const METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** The `method` label: one of the methods the API serves, else `other` (a client may send any token). */
export const methodLabel = (method: string): string => (METHODS.has(method) ? method : "other");

/** The `operation` label of a request that matched no operation of the document (404s, /docs, /openapi.json). */
export const NO_OPERATION = "none";

const requests = new client.Counter({
  name: "hrms_http_requests_total",
  help: "HTTP requests answered, by operationId of the document (none: no operation matched), method and status code.",
  labelNames: ["operation", "method", "status"] as const,
  registers: [registry],
});

const requestDuration = new client.Histogram({
  name: "hrms_http_request_duration_seconds",
  help: "Time from a request's arrival to the end of its response, by operationId and method.",
  labelNames: ["operation", "method"] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [registry],
});

/** Records one answered request (src/http/middleware.ts, requestIdAndLog: the one place). */
export function recordRequest(operation: string, method: string, status: number, seconds: number): void {
  const m = methodLabel(method);
  // a status outside 100-599 is no HTTP status: one label value for all of them
  const s = status >= 100 && status <= 599 ? String(status) : "other";
  requests.inc({ operation, method: m, status: s });
  requestDuration.observe({ operation, method: m }, seconds);
}

/** Why admission control refused or cut off a request (src/http/admission.ts). */
export type RefusalReason = "queue_full" | "queue_timeout" | "body_reads" | "body_timeout" | "write_timeout" | "body_memory";
export const REFUSAL_REASONS: readonly RefusalReason[] = [
  "queue_full",
  "queue_timeout",
  "body_reads",
  "body_timeout",
  "write_timeout",
  "body_memory",
];

const refusals = new client.Counter({
  name: "hrms_admission_rejections_total",
  help:
    "Requests admission control refused (503 queue_full, queue_timeout, body_memory; 429 body_reads; 408 body_timeout) or cut off " +
    "(write_timeout: response not written in time).",
  labelNames: ["reason"] as const,
  registers: [registry],
});
for (const reason of REFUSAL_REASONS) refusals.inc({ reason }, 0);

export function recordRefusal(reason: RefusalReason): void {
  refusals.inc({ reason });
}

/** What admission control reports of its load (the app's; src/http/metrics-server.ts names it). */
export interface AdmissionLoad {
  active: number;
  queued: number;
  readingBodies: number;
  limit: number;
}
let admissionLoad: (() => AdmissionLoad) | undefined;
/** The admission control whose load the gauges report (the process's app). */
export function reportAdmission(load: () => AdmissionLoad): void {
  admissionLoad = load;
}

new client.Gauge({
  name: "hrms_admission_requests",
  help: "API requests of this process by state: in_progress (holding a slot), queued (waiting for one), reading_body (holding none).",
  labelNames: ["state"] as const,
  registers: [registry],
  collect() {
    const l = admissionLoad?.();
    if (!l) return;
    this.set({ state: "in_progress" }, l.active);
    this.set({ state: "queued" }, l.queued);
    this.set({ state: "reading_body" }, l.readingBodies);
  },
});
new client.Gauge({
  name: "hrms_admission_max_concurrent_requests",
  help: "Requests this process works on at once at most (MAX_CONCURRENT_REQUESTS).",
  registers: [registry],
  collect() {
    const l = admissionLoad?.();
    if (l) this.set(l.limit);
  },
});

// ─── database pools ───
registerPoolMetrics(registry);

// ─── read replica ───
registerReplicaMetrics(registry);

// ─── job queues and the outbox: one query each per scrape ───
registerQueueMetrics(registry);

// ─── mail ───
const mailSent = new client.Counter({
  name: "hrms_mail_sent_total",
  help: "Mails of the outbox the SMTP server accepted (sent by this process).",
  registers: [registry],
});
const mailFailed = new client.Counter({
  name: "hrms_mail_failed_attempts_total",
  help: "Delivery attempts that failed (retried later with backoff; never dropped), by this process.",
  registers: [registry],
});
const mailLag = new client.Histogram({
  name: "hrms_mail_delivery_lag_seconds",
  help: "Time from a mail's queueing (its outbox row) to its acceptance by the SMTP server.",
  buckets: [0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600],
  registers: [registry],
});
mailSent.inc(0);
mailFailed.inc(0);

/** A mail was accepted by the SMTP server `lagSeconds` after it was queued. */
export function recordMailSent(lagSeconds: number): void {
  mailSent.inc();
  mailLag.observe(Math.max(0, lagSeconds));
}

export function recordMailFailed(): void {
  mailFailed.inc();
}

new client.Gauge({
  name: "hrms_mail_outbox_pending",
  help: "Mails in the outbox not sent yet (due or waiting for their retry).",
  registers: [registry],
  async collect() {
    this.reset();
    const o = (await readBacklog()).outbox;
    if (o) this.set(o.pending);
  },
});
new client.Gauge({
  name: "hrms_mail_outbox_oldest_pending_age_seconds",
  help: "Age of the oldest mail in the outbox not sent yet (0: none).",
  registers: [registry],
  async collect() {
    this.reset();
    const o = (await readBacklog()).outbox;
    if (o) this.set(o.oldest);
  },
});

// ─── webhooks ───
const webhookAttempts = new client.Counter({
  name: "hrms_webhook_delivery_attempts_total",
  help:
    "Webhook delivery attempts made by this process, by result: succeeded (2xx), retry (tried again later), " +
    "failed (given up: 410, or the retry window over).",
  labelNames: ["result"] as const,
  registers: [registry],
});
const webhookLag = new client.Histogram({
  name: "hrms_webhook_delivery_lag_seconds",
  help: "Time from an event's creation to its successful delivery to an endpoint.",
  buckets: [0.1, 0.5, 1, 2, 5, 10, 30, 60, 300, 1800, 3600, 21600, 86400],
  registers: [registry],
});
for (const result of ["succeeded", "retry", "failed"] as const) webhookAttempts.inc({ result }, 0);

/** A webhook delivery attempt ended: `lagSeconds` since its event was created, when it succeeded. */
export function recordWebhookAttempt(result: "succeeded" | "retry" | "failed", lagSeconds?: number): void {
  webhookAttempts.inc({ result });
  if (result === "succeeded" && lagSeconds !== undefined) webhookLag.observe(Math.max(0, lagSeconds));
}

new client.Gauge({
  name: "hrms_webhook_deliveries_pending",
  help: "Webhook deliveries not made yet (due, or waiting for their retry), every company's.",
  registers: [registry],
  async collect() {
    this.reset();
    const w = (await readBacklog()).webhooks;
    if (w) this.set(w.pending);
  },
});
new client.Gauge({
  name: "hrms_webhook_oldest_pending_age_seconds",
  help: "Age of the oldest webhook delivery not made yet (0: none).",
  registers: [registry],
  async collect() {
    this.reset();
    const w = (await readBacklog()).webhooks;
    if (w) this.set(w.oldest);
  },
});

// ─── readiness ───
let readiness: (() => boolean) | undefined;
/** What the readiness gauge reports (the process's lifecycle, src/platform/lifecycle.ts). */
export function reportReadiness(ready: () => boolean): void {
  readiness = ready;
}
new client.Gauge({
  name: "hrms_ready",
  help: "1 while this process is ready for traffic by its own state (started, not draining, job worker running when it should), else 0.",
  registers: [registry],
  collect() {
    this.reset();
    if (readiness) this.set(readiness() ? 1 : 0);
  },
});

/** The exposition text and its content type. */
export async function exposition(): Promise<{ contentType: string; body: string }> {
  return { contentType: registry.contentType, body: await registry.metrics() };
}
