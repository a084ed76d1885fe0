// Webhook deliveries (issue 31), the job `integrations.deliver-webhooks` (kicked after every operation or job
// that wrote an event, and swept every minute):
//
// 1. The sequencer gives committed events their place in the feed (`seq`) and queues a delivery
//    for each enabled endpoint subscribed to the type - one statement, one sequencer at a time
//    (a transaction-scoped advisory lock), so the numbers follow the order the sequencer saw the
//    events committed in and a reader of the feed never finds a new event behind one it has read.
// 2. Due deliveries are claimed with a lease (`locked_until`, `attempts + 1` in the same statement:
//    an attempt is counted exactly once, and only one process sends a delivery at a time; a
//    process that dies mid-send leaves the lease to expire and the delivery is sent again, with the
//    same `webhook-id`, so receivers can deduplicate) in batches (FOR UPDATE SKIP LOCKED), and sent
//    concurrently: WEBHOOK_CONCURRENCY at a time per process, WEBHOOK_CONCURRENCY_PER_ENDPOINT to one endpoint.
// 3. Each request is signed per Standard Webhooks v1: `webhook-id` (the event's id, the same on
//    every attempt and replay), `webhook-timestamp` (seconds, the machine's clock: receivers check
//    it against theirs), `webhook-signature: v1,<base64 HMAC-SHA256 of "id.timestamp.body">` with
//    the endpoint's secret - and with the previous one too during a rotation (space-separated).
// 4. Only to public addresses: the agents' `lookup` refuses a name that resolves to any loopback
//    (unless WEBHOOK_ALLOW_LOOPBACK), private, link-local, shared, documentation, multicast or
//    reserved address, at connect time - every connection, whatever the name resolved to before;
//    an address written in the URL is checked the same way. No redirect is followed (a 3xx is a
//    failure), the answer is read up to 64 KiB (1 024 characters kept in the log), the whole
//    exchange ends after WEBHOOK_TIMEOUT_MS.
// 5. Outcome: 2xx succeeded (the endpoint's failure streak ends); 410 - the endpoint is disabled
//    (`gone`); 429/503 with `Retry-After` - retried then (at most a day later); otherwise
//    exponential backoff with full jitter (5 s doubling, at most 6 h) until WEBHOOK_RETRY_HOURS after
//    the first attempt, then failed; an endpoint failing that long without a success is disabled
//    (`failing`) and the company's owners are mailed.
import { createHmac } from "node:crypto";
import dns from "node:dns";
import http from "node:http";
import https from "node:https";
import net from "node:net";
import type pg from "pg";
import { config } from "../../config.ts";
import { getPool } from "../../db/client.ts";
import { logger } from "../../log.ts";
import { jobs } from "../jobs/queue.ts";
import { recordWebhookAttempt } from "../metrics.ts";
import { openSecret } from "./secret-box.ts";

const MAX_RESPONSE_BYTES = 64 * 1024;
const LOG_RESPONSE_CHARS = 1024;
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
const SEQUENCER_LOCK = 31_0031; // pg advisory lock key of the sequencer (issue 31)

// ─── where a delivery may go ───

const V4_BLOCKED: [string, number][] = [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
];
const V6_BLOCKED: [string, number][] = [
  ["::", 128],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
];
const blocked = new net.BlockList();
for (const [a, p] of V4_BLOCKED) blocked.addSubnet(a, p, "ipv4");
for (const [a, p] of V6_BLOCKED) blocked.addSubnet(a, p, "ipv6");
const loopback = new net.BlockList();
loopback.addSubnet("127.0.0.0", 8, "ipv4");
loopback.addAddress("::1", "ipv6");

/** An IPv4 address an IPv6 one carries (`::ffff:a.b.c.d`, `::a.b.c.d`), else null. */
function embeddedV4(address: string): string | null {
  const lower = address.toLowerCase();
  for (const prefix of ["::ffff:", "::"]) {
    if (!lower.startsWith(prefix)) continue;
    const rest = lower.slice(prefix.length);
    if (net.isIPv4(rest)) return rest;
    const parts = rest.split(":");
    if (parts.length === 2 && parts.every((p) => /^[0-9a-f]{1,4}$/.test(p))) {
      const [hi, lo] = parts.map((p) => Number.parseInt(p, 16));
      return [hi >> 8, hi & 255, lo >> 8, lo & 255].join(".");
    }
  }
  return null;
}

/** Why a delivery may not connect to `address`, or null when it may. */
export function refusedAddress(address: string, allowLoopback: boolean): string | null {
  const v4 = net.isIPv4(address) ? address : net.isIPv6(address) ? embeddedV4(address) : null;
  const [a, family] = v4 ? [v4, "ipv4" as const] : [address, "ipv6" as const];
  if (!net.isIP(a)) return `not an IP address: ${address}`;
  if (loopback.check(a, family)) return allowLoopback ? null : `loopback address ${address}`;
  if (blocked.check(a, family)) return `non-public address ${address}`;
  return null;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

/** dns.lookup that refuses a name with any address a delivery may not connect to (the agents' `lookup`). */
function publicLookup(allowLoopback: boolean) {
  return (hostname: string, options: dns.LookupOptions, cb: LookupCallback) => {
    dns.lookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return cb(err, "");
      const list = addresses as dns.LookupAddress[];
      const refused = list.map((a) => refusedAddress(a.address, allowLoopback)).find((r) => r !== null);
      if (refused || !list.length) {
        const e: NodeJS.ErrnoException = new Error(`refused: ${hostname} resolves to a ${refused ?? "no address"}`);
        e.code = "EREFUSEDADDRESS";
        return cb(e, "");
      }
      if (options.all) return cb(null, list);
      cb(null, list[0].address, list[0].family);
    });
  };
}

const agents = new Map<boolean, { http: http.Agent; https: https.Agent }>();
function agentsFor(allowLoopback: boolean) {
  let a = agents.get(allowLoopback);
  if (!a) {
    const options = { keepAlive: true, maxSockets: 64, lookup: publicLookup(allowLoopback) as unknown as net.LookupFunction };
    a = { http: new http.Agent(options), https: new https.Agent(options) };
    agents.set(allowLoopback, a);
  }
  return a;
}

/** Why a URL may not be an endpoint (scheme, an address written in it), or null. Registration and every send. */
export function refusedUrl(raw: string, allowLoopback = config().webhookAllowLoopback): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return "is not a URL";
  }
  if (u.protocol !== "https:" && u.protocol !== "http:") return "must be an http(s) URL";
  if (u.username || u.password) return "must not carry credentials";
  const host = u.hostname.startsWith("[") ? u.hostname.slice(1, -1) : u.hostname;
  if (net.isIP(host)) return refusedAddress(host, allowLoopback);
  if (!allowLoopback && (host === "localhost" || host.endsWith(".localhost"))) return "loopback name";
  return null;
}

// ─── signing ───

/** The `webhook-signature` value: `v1,<base64>` for each secret (`whsec_<base64 key>`), space-separated. */
export function signatures(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((s) => {
      const key = Buffer.from(s.startsWith("whsec_") ? s.slice(6) : s, "base64");
      return `v1,${createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64")}`;
    })
    .join(" ");
}

// ─── sequencing ───

/**
 * Numbers committed events and queues their deliveries; returns how many it numbered. With
 * `onlyIfFree`, does nothing while another sequencer runs (the feed: that one numbers them).
 */
export async function sequenceEvents(client: pg.PoolClient, limit = 5000, onlyIfFree = false): Promise<number> {
  await client.query("BEGIN");
  try {
    if (onlyIfFree) {
      const { rows } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_xact_lock($1) AS ok", [SEQUENCER_LOCK]);
      if (!rows[0].ok) {
        await client.query("COMMIT");
        return 0;
      }
    } else await client.query("SELECT pg_advisory_xact_lock($1)", [SEQUENCER_LOCK]);
    // cross-tenant: the sequencer numbers every company's events in one order
    const { rowCount } = await client.query(
      `WITH next AS (
         SELECT tenant_id, id, row_number() OVER (ORDER BY created_at, id) AS n
           FROM (SELECT tenant_id, id, created_at FROM events WHERE seq IS NULL ORDER BY created_at, id LIMIT $1) e
       ), top AS (SELECT coalesce(max(seq), 0) AS s FROM events),
       numbered AS (
         UPDATE events e SET seq = top.s + next.n FROM next, top
          WHERE e.tenant_id = next.tenant_id AND e.id = next.id
         RETURNING e.tenant_id, e.id, e.type, e.endpoint_id
       ), queued AS (
         INSERT INTO webhook_deliveries (tenant_id, endpoint_id, event_id)
         SELECT n.tenant_id, w.id, n.id FROM numbered n
           JOIN webhook_endpoints w ON w.tenant_id = n.tenant_id
          WHERE (n.endpoint_id IS NULL AND w.enabled AND (cardinality(w.event_types) = 0 OR n.type = ANY (w.event_types)))
             OR n.endpoint_id = w.id
         RETURNING 1
       )
       SELECT (SELECT count(*) FROM queued) AS queued FROM numbered`,
      [limit],
    );
    await client.query("COMMIT");
    return rowCount ?? 0;
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  }
}

/** Numbers what has committed before a read of the feed (unless a sequencer is at it already). */
export async function sequencePending(): Promise<void> {
  const client = await getPool().connect();
  try {
    await sequenceEvents(client, 5000, true);
  } finally {
    client.release();
  }
}

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
 * Claims a batch of due deliveries - at most `limit`, at most `perEndpoint` of one endpoint - in
 * one statement: rows another process holds are skipped (FOR UPDATE SKIP LOCKED), each claimed one
 * gets a lease and its attempt counted. Candidates are locked four times the batch deep so that one
 * busy endpoint does not fill it; those not taken are free again when the statement ends.
 */
async function claim(limit: number, perEndpoint: number, leaseS: number, skipEndpoints: string[]): Promise<Claimed[]> {
  // cross-tenant: the worker sends every company's due deliveries
  const { rows } = await getPool().query<Claimed>(
    `WITH candidates AS (
       SELECT tenant_id, id, endpoint_id, next_attempt_at FROM webhook_deliveries
        WHERE status = 'pending' AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())
          AND NOT (endpoint_id = ANY ($4::uuid[]))
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

export interface SendResult {
  status: number | null;
  body: string | null;
  error: string | null;
  retryAfterS: number | null;
  ms: number;
}

/** One signed POST of `body` to `url`; never throws. */
export async function post(url: string, headers: Record<string, string>, body: string): Promise<SendResult> {
  const { webhookAllowLoopback, webhookTimeoutMs } = config();
  const started = process.hrtime.bigint();
  const elapsed = () => Math.round(Number(process.hrtime.bigint() - started) / 1e6);
  const refused = refusedUrl(url, webhookAllowLoopback);
  if (refused) return { status: null, body: null, error: `refused: ${refused}`, retryAfterS: null, ms: 0 };
  const u = new URL(url);
  const a = agentsFor(webhookAllowLoopback);
  return new Promise((resolve) => {
    let done = false;
    const finish = (r: Omit<SendResult, "ms">) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ ...r, ms: elapsed() });
    };
    const req = (u.protocol === "https:" ? https : http).request(
      u,
      {
        method: "POST",
        agent: u.protocol === "https:" ? a.https : a.http,
        headers: {
          ...headers,
          "content-type": "application/json",
          "content-length": Buffer.byteLength(body),
          "user-agent": "hrms-webhooks/1",
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const end = () => {
          const text = Buffer.concat(chunks).toString("utf8").slice(0, LOG_RESPONSE_CHARS);
          const ra = Number(res.headers["retry-after"]);
          finish({ status: res.statusCode ?? null, body: text, error: null, retryAfterS: Number.isFinite(ra) && ra >= 0 ? ra : null });
        };
        res.on("data", (c: Buffer) => {
          size += c.length;
          if (size <= MAX_RESPONSE_BYTES) chunks.push(c);
          else {
            res.destroy(); // enough: the rest is not read
            end();
          }
        });
        res.on("end", end);
        res.on("error", end);
      },
    );
    // machine time: the exchange's deadline
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${webhookTimeoutMs} ms`));
    }, webhookTimeoutMs);
    req.on("error", (err) => finish({ status: null, body: null, error: err.message.slice(0, 500), retryAfterS: null }));
    req.end(body);
  });
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
    // machine time: the grace of a rotated secret
    if (d.previous_secret && d.previous_secret_expires_at && d.previous_secret_expires_at.getTime() > Date.now())
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
  const client = await getPool().connect();
  let disabled = false;
  try {
    await client.query("BEGIN");
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
    await client.query("COMMIT");
  } catch (err) {
    await client.query("ROLLBACK").catch(() => {});
    throw err;
  } finally {
    client.release();
  }
  if (disabled) jobs.kick("mail.deliver");
}

/**
 * The job: sequence, then send what is due until nothing is or the run's budget is spent. Due
 * deliveries are claimed in batches (`claim`: twice WEBHOOK_CONCURRENCY, at most twice
 * WEBHOOK_CONCURRENCY_PER_ENDPOINT of one endpoint) and sent concurrently, at most
 * WEBHOOK_CONCURRENCY at once in this process and WEBHOOK_CONCURRENCY_PER_ENDPOINT to one endpoint.
 * The next batch is claimed as soon as a slot is free and nothing claimed can take it - without the
 * endpoints this run already holds twice WEBHOOK_CONCURRENCY_PER_ENDPOINT of (so a slow endpoint
 * neither holds up the others nor gathers leases it cannot use: a claimed delivery waits at most
 * two rounds of its endpoint's sends). What a run has claimed it sends, even past its budget.
 */
export async function deliverDueWebhooks(): Promise<number> {
  const client = await getPool().connect();
  try {
    while ((await sequenceEvents(client)) > 0);
  } finally {
    client.release();
  }
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
