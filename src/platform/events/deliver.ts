import { config } from "../../config.ts";
import { getPool } from "../../db/client.ts";
import { rawTx } from "../../db/primitives.ts";
import * as clock from "../../lib/clock.ts";
import { logger } from "../../log.ts";
import { jobs } from "../jobs/queue.ts";
import { recordWebhookAttempt } from "../metrics.ts";
import { openSecret } from "./secret-box.ts";
import { post, signatures, type SendResult } from "./outbound.ts";
import { sequenceEvents } from "./sequencer.ts";

const BASE_BACKOFF_S = 5;
const MAX_BACKOFF_S = 6 * 3600;
const MAX_RETRY_AFTER_S = 24 * 3600;
/**
 * A claimed delivery is another process's again after this many seconds: longer than it can wait
 * in its batch (at most two rounds of sends to the process's bound, two to its endpoint's) plus
 * its own send (each at most WEBHOOK_TIMEOUT_MS), with room for recording it.
 */
export const leaseSeconds = (timeoutMs: number): number => Math.ceil((6 * timeoutMs) / 1000) + 30;
/** How long one run of the job keeps sending before it leaves the rest to the next. */
const RUN_BUDGET_MS = 50_000;
/** Tries to record a sent delivery's outcome (0.5 + 1 + 2 + 4 s apart: well within its lease). */
const RECORD_TRIES = 5;

// ─── sending ───

interface Claimed {
  tenant_id: string;
  id: string;
  endpoint_id: string;
  event_id: string;
  attempts: number;
  first_attempt_at: Date;
  url: string;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: Date | null;
  type: string;
  data: unknown;
  created_at: Date;
}

/**
 * Claims a batch of due deliveries in one statement (SKIP LOCKED, a lease, the attempt counted), at most
 * `perEndpoint` of one endpoint: candidates are locked four times the batch deep so one busy endpoint
 * does not fill it. Not claimDue, which has no per-endpoint share (src/db/primitives.ts).
 */
async function claim(limit: number, perEndpoint: number, leaseS: number, skipEndpoints: string[]): Promise<Claimed[]> {
  // cross-tenant: the worker sends every company's due deliveries
  const { rows } = await getPool().query<Claimed>(
    `WITH candidates AS (
       SELECT tenant_id, id, endpoint_id, next_attempt_at FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())
          AND NOT (endpoint_id = ANY ($4::uuid[]))
          -- a disabled endpoint's deliveries are parked (kept pending) until it is enabled again
          AND EXISTS (SELECT 1 FROM webhook_endpoints w
                       WHERE w.tenant_id = webhook_deliveries.tenant_id AND w.id = webhook_deliveries.endpoint_id AND w.enabled)
        ORDER BY next_attempt_at LIMIT $1 * 4 FOR UPDATE SKIP LOCKED
     ), due AS (
       SELECT tenant_id, id FROM (
         SELECT tenant_id, id, next_attempt_at,
                row_number() OVER (PARTITION BY tenant_id, endpoint_id ORDER BY next_attempt_at, id) AS n
           FROM candidates) c
        WHERE n <= $3 ORDER BY next_attempt_at LIMIT $1
     ), claimed AS (
       UPDATE webhook_deliveries d SET locked_until = now() + make_interval(secs => $2), attempts = d.attempts + 1,
              first_attempt_at = coalesce(d.first_attempt_at, now())
         FROM due WHERE d.tenant_id = due.tenant_id AND d.id = due.id
       RETURNING d.*
     )
     SELECT c.tenant_id, c.id, c.endpoint_id, c.event_id, c.attempts, c.first_attempt_at,
            w.url, w.secret, w.previous_secret, w.previous_secret_expires_at, e.type, e.data, e.created_at
       FROM claimed c
       JOIN webhook_endpoints w ON w.tenant_id = c.tenant_id AND w.id = c.endpoint_id
       JOIN events e ON e.tenant_id = c.tenant_id AND e.id = c.event_id`,
    [limit, leaseS, perEndpoint, skipEndpoints],
  );
  return rows;
}

/** Seconds until the next attempt after `attempts` failures: full jitter over 5 s · 2^(n-1), at most 6 h. */
export function backoffSeconds(attempts: number): number {
  const cap = Math.min(MAX_BACKOFF_S, BASE_BACKOFF_S * 2 ** Math.min(attempts - 1, 30));
  return Math.max(1, Math.round(cap / 2 + Math.random() * (cap / 2)));
}

async function send(d: Claimed): Promise<void> {
  const body = JSON.stringify({ type: d.type, timestamp: d.created_at.toISOString(), data: d.data });
  // machine time: receivers check webhook-timestamp against their own clock
  const timestamp = Math.floor(Date.now() / 1000);
  // stored encrypted with WEBHOOK_SECRET_KEY (secret-box.ts), opened only to sign
  let secrets: string[];
  try {
    secrets = [openSecret(d.secret)];
    // business time, as the rotation set the grace and as the endpoint's read reports it
    if (d.previous_secret && d.previous_secret_expires_at && d.previous_secret_expires_at.getTime() > clock.nowMs())
      secrets.push(openSecret(d.previous_secret));
  } catch (err) {
    // not sent: a failed attempt in the log (retried as any other), not a lease left to expire
    const error = `not sent: the signing secret cannot be opened (${(err as Error).message.slice(0, 200)})`;
    return record(d, { status: null, body: null, error, retryAfterS: null, ms: 0 });
  }
  const result = await post(
    d.url,
    {
      "webhook-id": d.event_id,
      "webhook-timestamp": String(timestamp),
      "webhook-signature": signatures(secrets, d.event_id, timestamp, body),
    },
    body,
  );
  // the receiver has it now: a failure to record it (the pool busy, the database briefly away) is
  // retried while the lease holds, or the delivery would be sent again
  for (let attempt = 1; ; attempt++) {
    try {
      return await record(d, result);
    } catch (err) {
      if (attempt >= RECORD_TRIES) throw err;
      await new Promise((r) => setTimeout(r, 250 * 2 ** attempt));
    }
  }
}

// size: one attempt's outcome in one transaction - the log row, the delivery's next state (done, gone,
// Retry-After, backoff or failed) and the endpoint's streak (disabled and its owners mailed) - in order
async function record(d: Claimed, r: SendResult): Promise<void> {
  const { webhookRetryHours } = config();
  const ok = r.status !== null && r.status >= 200 && r.status < 300;
  const gone = r.status === 410;
  // machine time: the retry window runs from the first attempt
  const windowOver = Date.now() - d.first_attempt_at.getTime() >= webhookRetryHours * 3600_000;
  const retryS = r.retryAfterS !== null && (r.status === 429 || r.status === 503) ? Math.min(r.retryAfterS, MAX_RETRY_AFTER_S) : null;
  const status = ok ? "succeeded" : gone || windowOver ? "failed" : "pending";
  // machine time: the lag of a delivery, for the metrics
  recordWebhookAttempt(status === "pending" ? "retry" : status, (Date.now() - d.created_at.getTime()) / 1000);
  const wait = retryS ?? backoffSeconds(d.attempts);
  const disabled = await rawTx(async (client) => {
    let disabled = false;
    // cross-tenant: by the delivery's own key (tenant_id, id)
    await client.query(
      `UPDATE webhook_deliveries SET status = $3, locked_until = NULL, next_attempt_at = now() + make_interval(secs => $4)
        WHERE tenant_id = $1 AND id = $2`,
      [d.tenant_id, d.id, status, wait],
    );
    await client.query(
      `INSERT INTO webhook_attempts (tenant_id, endpoint_id, delivery_id, event_id, event_type, attempt, status_code, latency_ms,
                                     response_body, error)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)`,
      [d.tenant_id, d.endpoint_id, d.id, d.event_id, d.type, d.attempts, r.status, r.ms, r.body, r.error],
    );
    if (ok)
      await client.query(
        `UPDATE webhook_endpoints SET failing_since = NULL WHERE tenant_id = $1 AND id = $2 AND failing_since IS NOT NULL`,
        [d.tenant_id, d.endpoint_id],
      );
    else {
      const { rows } = await client.query<{ disabled: boolean }>(
        `UPDATE webhook_endpoints SET failing_since = coalesce(failing_since, now()),
                enabled = CASE WHEN $3 OR coalesce(failing_since, now()) <= now() - make_interval(hours => $4) THEN false ELSE enabled END,
                disabled_reason = CASE WHEN NOT enabled THEN disabled_reason WHEN $3 THEN 'gone'
                                       WHEN coalesce(failing_since, now()) <= now() - make_interval(hours => $4) THEN 'failing'
                                       ELSE disabled_reason END
          WHERE tenant_id = $1 AND id = $2
         RETURNING (NOT enabled AND disabled_reason = 'failing' AND $3 = false) AS disabled`,
        [d.tenant_id, d.endpoint_id, gone, webhookRetryHours],
      );
      disabled = rows[0]?.disabled === true;
      if (disabled) {
        // the endpoint's pending deliveries stop with it; its owners are told
        await client.query(
          `UPDATE webhook_deliveries SET status = 'failed' WHERE tenant_id = $1 AND endpoint_id = $2 AND status = 'pending'`,
          [d.tenant_id, d.endpoint_id],
        );
        await client.query(
          `INSERT INTO email_outbox (to_address, subject, text_body)
           SELECT u.email, 'A webhook endpoint was disabled',
                  'Deliveries to ' || $3 || ' have failed for ' || $4 || ' hours without a success, so the endpoint was disabled. ' ||
                  'Its delivery log shows the answers; re-enable it (updateWebhookEndpoint, enabled: true) and replay what it missed.'
             FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.tenant_id = $1 AND m.role = 'owner' AND $2::uuid IS NOT NULL`,
          [d.tenant_id, d.endpoint_id, d.url, webhookRetryHours],
        );
      }
    }
    if (gone)
      await client.query(
        `UPDATE webhook_deliveries SET status = 'failed' WHERE tenant_id = $1 AND endpoint_id = $2 AND status = 'pending'`,
        [d.tenant_id, d.endpoint_id],
      );
    return disabled;
  });
  if (disabled) jobs.kick("mail.deliver");
}

/**
 * The job: sequence, then send what is due until nothing is or the run's budget is spent. Claimed in
 * batches and sent within WEBHOOK_CONCURRENCY (process) and WEBHOOK_CONCURRENCY_PER_ENDPOINT (endpoint);
 * endpoints this run already holds twice their share of are not claimed again, so a slow endpoint
 * neither holds up the others nor gathers leases it cannot use. What is claimed is sent, even past budget.
 */
// size: the pump is one closure over the run's state (waiting, in flight per endpoint, claiming, the budget); split, each piece
// would take and return all of it
export async function deliverDueWebhooks(): Promise<number> {
  while ((await sequenceEvents()) > 0);
  const { webhookConcurrency: concurrency, webhookConcurrencyPerEndpoint: perEndpoint, webhookTimeoutMs } = config();
  const batch = concurrency * 2;
  const leaseS = leaseSeconds(webhookTimeoutMs);
  // machine time: the run's budget
  const until = Date.now() + RUN_BUDGET_MS;
  const waiting: Claimed[] = [];
  const busy = new Map<string, number>(); // sends in flight per endpoint
  let active = 0;
  let sent = 0;
  let claiming = false;
  let exhausted = false;
  /** the last claim found nothing but the endpoints held: wait for a send to end before claiming again */
  let dry = false;
  const held = () => {
    const n = new Map(busy);
    for (const d of waiting) n.set(d.endpoint_id, (n.get(d.endpoint_id) ?? 0) + 1);
    return [...n].filter(([, k]) => k >= perEndpoint * 2).map(([id]) => id);
  };
  return new Promise<number>((resolve) => {
    const pump = () => {
      for (let i = 0; i < waiting.length && active < concurrency; ) {
        const d = waiting[i];
        const n = busy.get(d.endpoint_id) ?? 0;
        if (n >= perEndpoint) {
          i++;
          continue;
        }
        waiting.splice(i, 1);
        active++;
        busy.set(d.endpoint_id, n + 1);
        send(d)
          .catch((err) => logger.warn({ err: (err as Error).message, delivery: d.id }, "webhook delivery not recorded"))
          .finally(() => {
            active--;
            sent++;
            dry = false;
            const left = (busy.get(d.endpoint_id) ?? 1) - 1;
            if (left) busy.set(d.endpoint_id, left);
            else busy.delete(d.endpoint_id);
            pump();
          });
      }
      // machine time: the run's budget
      const open = !exhausted && Date.now() < until;
      // a free slot that nothing claimed can take (the loop above started every row it could)
      if (open && !claiming && !dry && active < concurrency) {
        claiming = true;
        const skip = held();
        claim(batch, perEndpoint * 2, leaseS, skip).then(
          (rows) => {
            claiming = false;
            // nothing but the endpoints held: claim again once a send has ended (or at once if none is left)
            if (!rows.length && skip.length) dry = active > 0 || waiting.length > 0;
            else if (!rows.length) exhausted = true;
            waiting.push(...rows);
            pump();
          },
          (err) => {
            claiming = false;
            exhausted = true;
            logger.warn({ err: (err as Error).message }, "webhook deliveries not claimed");
            pump();
          },
        );
      }
      if (!claiming && !active && !waiting.length && !(open && !exhausted)) resolve(sent);
    };
    pump();
  });
}

/** Events, the delivery log and finished deliveries older than EVENT_RETENTION_DAYS (hourly). */
export async function pruneEvents(): Promise<void> {
  const days = config().eventRetentionDays;
  // cross-tenant: retention is the same for every company
  await getPool().query(`DELETE FROM webhook_attempts WHERE created_at < now() - make_interval(days => $1)`, [days]);
  await getPool().query(`DELETE FROM webhook_deliveries WHERE status <> 'pending' AND created_at < now() - make_interval(days => $1)`, [
    days,
  ]);
  await getPool().query(
    `DELETE FROM events e WHERE e.created_at < now() - make_interval(days => $1) AND e.seq IS NOT NULL
        AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.tenant_id = e.tenant_id AND d.event_id = e.id AND d.status = 'pending')`,
    [days],
  );
}
