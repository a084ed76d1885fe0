// The backlogs, read when scraped: the job queues (pg-boss), the mail outbox and the webhook deliveries,
// one query each per scrape, on the health check's own connections, with its 2-second limit.
// Registered by src/platform/metrics.ts.
import client from "prom-client";
import { getHealthPool } from "../db/client.ts";
import { logger } from "../log.ts";
import { JOB_SCHEMA, registeredJobNames } from "./jobs/queue.ts";

interface QueueRow {
  name: string;
  waiting: number;
  active: number;
  oldest: number;
}
interface Backlog {
  queues: QueueRow[] | null;
  outbox: { pending: number; oldest: number } | null;
  webhooks: { pending: number; oldest: number } | null;
}

// pg-boss's table: waiting jobs are `created` or `retry` (retries wait for their start_after); the
// age is that of the oldest job due to run (start_after passed), 0 when none is due.
const QUEUES_SQL = `SELECT name,
       count(*) FILTER (WHERE state < 'active')::int AS waiting,
       count(*) FILTER (WHERE state = 'active')::int AS active,
       COALESCE(EXTRACT(EPOCH FROM now() - min(start_after) FILTER (WHERE state < 'active' AND start_after <= now())), 0)::float8 AS oldest
  FROM ${JOB_SCHEMA}.job WHERE state <= 'active' AND name = ANY($1::text[]) GROUP BY name`;
const OUTBOX_SQL = `SELECT count(*)::int AS pending, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS oldest
  FROM email_outbox WHERE status = 'pending'`;

// cross-tenant: the deliveries of every company still to be made (the metric is the service's)
const WEBHOOKS_SQL = `SELECT count(*)::int AS pending, COALESCE(EXTRACT(EPOCH FROM now() - min(created_at)), 0)::float8 AS oldest
  FROM webhook_deliveries WHERE status = 'pending'`;

let backlog: Promise<Backlog> | undefined;

/**
 * The queues' and the outbox's figures, read once for the gauges of one scrape (the registry collects
 * every metric at once: they share the reading in flight).
 */
export function readBacklog(): Promise<Backlog> {
  backlog ??= (async (): Promise<Backlog> => {
    let pool: ReturnType<typeof getHealthPool>;
    try {
      pool = getHealthPool();
    } catch {
      return { queues: null, outbox: null, webhooks: null }; // no database yet
    }
    const names = registeredJobNames();
    const [queues, outbox, webhooks] = await Promise.allSettled([
      pool
        .query<{ exists: boolean }>("SELECT to_regclass($1) IS NOT NULL AS exists", [`${JOB_SCHEMA}.job`])
        .then(async (r) => (r.rows[0]?.exists ? (await pool.query<QueueRow>(QUEUES_SQL, [names])).rows : [])),
      pool.query<{ pending: number; oldest: number }>(OUTBOX_SQL).then((r) => r.rows[0] ?? { pending: 0, oldest: 0 }),
      pool.query<{ pending: number; oldest: number }>(WEBHOOKS_SQL).then((r) => r.rows[0] ?? { pending: 0, oldest: 0 }),
    ]);
    for (const r of [queues, outbox, webhooks])
      if (r.status === "rejected") logger.warn({ err: String(r.reason?.message ?? r.reason) }, "metrics: backlog not read");
    return {
      queues: queues.status === "fulfilled" ? queues.value : null,
      outbox: outbox.status === "fulfilled" ? outbox.value : null,
      webhooks: webhooks.status === "fulfilled" ? webhooks.value : null,
    };
  })().finally(() => {
    backlog = undefined;
  });
  return backlog;
}

/** Every registered queue with its figures (0 for a queue without jobs). */
async function queueFigures(): Promise<QueueRow[] | null> {
  const rows = (await readBacklog()).queues;
  if (!rows) return null;
  const byName = new Map(rows.map((r) => [r.name, r]));
  return registeredJobNames().map((name) => byName.get(name) ?? { name, waiting: 0, active: 0, oldest: 0 });
}

/** The job queues' gauges: depth, jobs being run, the oldest due job's age. */
export function registerQueueMetrics(registry: client.Registry): void {
  new client.Gauge({
    name: "hrms_job_queue_depth",
    help: "Jobs waiting in each queue (created, or waiting to be retried), shared by every process.",
    labelNames: ["queue"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const q of (await queueFigures()) ?? []) this.set({ queue: q.name }, q.waiting);
    },
  });
  new client.Gauge({
    name: "hrms_job_queue_active",
    help: "Jobs of each queue being run by a worker (of any process).",
    labelNames: ["queue"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const q of (await queueFigures()) ?? []) this.set({ queue: q.name }, q.active);
    },
  });
  new client.Gauge({
    name: "hrms_job_queue_oldest_age_seconds",
    help: "How long the oldest job of each queue that is due to run has waited for a worker (0: none due).",
    labelNames: ["queue"] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const q of (await queueFigures()) ?? []) this.set({ queue: q.name }, q.oldest);
    },
  });
}
