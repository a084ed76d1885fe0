// Configuration from the environment (README "Configuration" lists every variable).
import path from "node:path";
import { projectRoot } from "./root.ts";

const root = projectRoot;
const env = process.env;

function bool(v: string | undefined, dflt: boolean): boolean {
  if (v === undefined || v === "") return dflt;
  return !["0", "false", "no", "off"].includes(v.toLowerCase());
}

function positiveInt(name: string, dflt: number): number {
  const v = env[name];
  if (v === undefined || v === "") return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name} must be a positive integer, got ${JSON.stringify(v)}`);
  return n;
}

function nonNegativeInt(name: string, dflt: number): number {
  const v = env[name];
  if (v === undefined || v === "") return dflt;
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new Error(`${name} must be a non-negative integer, got ${JSON.stringify(v)}`);
  return n;
}

export const nodeEnv = env.NODE_ENV ?? "development";
export const isProduction = nodeEnv === "production";
export const isTest = nodeEnv === "test" || env.VITEST === "true";

export const config = {
  root,
  port: Number(env.PORT ?? 3000),
  databaseUrl: env.DATABASE_URL || undefined,
  /** Connections the server's pool may open (`DATABASE_POOL_SIZE`). */
  databasePoolSize: positiveInt("DATABASE_POOL_SIZE", 10),
  /**
   * How long a query may wait for a connection (a free one of the pool, or a new one being opened)
   * before the request is answered 503 `unavailable` (`DATABASE_POOL_TIMEOUT_MS`).
   */
  databasePoolTimeoutMs: positiveInt("DATABASE_POOL_TIMEOUT_MS", 3000),
  /**
   * How long an interactive transaction may stay open (Prisma's transaction timeout), and how long
   * any statement may wait for a lock (PostgreSQL `lock_timeout` of every pool connection) - past it
   * the request is a 503 `unavailable` (`DATABASE_TRANSACTION_TIMEOUT_MS`). The few bulk operations
   * that pass a longer timeout of their own get the same lock wait inside their transaction.
   */
  databaseTransactionTimeoutMs: positiveInt("DATABASE_TRANSACTION_TIMEOUT_MS", 5000),
  /**
   * Admission control (src/http/admission.ts): API requests in progress at once
   * (`MAX_CONCURRENT_REQUESTS`); further ones wait in a queue of at most `MAX_QUEUED_REQUESTS` for
   * up to `REQUEST_QUEUE_TIMEOUT_MS`, beyond which they are a 503 `unavailable` with Retry-After.
   * Health and the static reference (/docs, /openapi.json) bypass it.
   */
  maxConcurrentRequests: positiveInt("MAX_CONCURRENT_REQUESTS", 16),
  maxQueuedRequests: nonNegativeInt("MAX_QUEUED_REQUESTS", 64),
  requestQueueTimeoutMs: positiveInt("REQUEST_QUEUE_TIMEOUT_MS", 2000),
  sessionSecret: env.SESSION_SECRET ?? "dev-only-insecure-session-secret-change-me",
  publicUrl: (env.PUBLIC_URL ?? `http://localhost:${env.PORT ?? 3000}`).replace(/\/$/, ""),
  /** Extra origins allowed to make state-changing requests (comma separated). */
  allowedOrigins: (env.ALLOWED_ORIGINS ?? "").split(",").map((s) => s.trim()).filter(Boolean),
  smtpUrl: env.SMTP_URL || undefined,
  mailFrom: env.MAIL_FROM ?? "HRMS <no-reply@hrms.local>",
  uploadDir: path.resolve(root, env.UPLOAD_DIR ?? ".data/uploads"),
  embeddedDataDir: path.resolve(root, env.EMBEDDED_PG_DIR ?? ".data/postgres"),
  embeddedPort: Number(env.EMBEDDED_PG_PORT ?? 54329),
  billingWebhookSecret: env.BILLING_WEBHOOK_SECRET || undefined,
  aiBaseUrl: env.AI_BASE_URL || undefined,
  aiApiKey: env.AI_API_KEY || undefined,
  /** Model asked for by the OpenAI-compatible provider. */
  aiModel: env.AI_MODEL || "gpt-4o-mini",
  /** How long the AI provider may take to answer (ms). */
  aiTimeoutMs: Number(env.AI_TIMEOUT_MS ?? 20000),
  migrateOnStart: bool(env.MIGRATE_ON_START, true),
  validateResponses: bool(env.VALIDATE_RESPONSES, !isProduction),
  logLevel: env.LOG_LEVEL ?? (isTest ? "silent" : "info"),
  /**
   * Payroll runs of up to this many employees are calculated and processed within the request
   * (201/200); larger ones go to the job queue (202, progress on the run). 0 queues every run.
   */
  payrollSyncLimit: nonNegativeInt("PAYROLL_SYNC_LIMIT", 1000),
  /** Employees calculated and written per statement of a run (and per progress update). */
  payrollBatchSize: positiveInt("PAYROLL_BATCH_SIZE", 1000),
  /** Run the background job worker (mail delivery, scheduled jobs) in this process. */
  runWorker: bool(env.RUN_WORKER, true),
  trustProxy: bool(env.TRUST_PROXY, false),
  /**
   * How long a resolved identity (session + membership) may be served from memory at most
   * (`IDENTITY_CACHE_TTL_MS`, src/auth/identity-cache.ts); entries are dropped at once on any change,
   * in every process, through PostgreSQL LISTEN/NOTIFY. 0 turns the cache off (the tests' default).
   */
  identityCacheTtlMs: nonNegativeInt("IDENTITY_CACHE_TTL_MS", isTest ? 0 : 60_000),
  /** File the event-loop delay report is written to on SIGUSR2 and at shutdown (src/lib/event-loop-report.ts); unset: no report. */
  eventLoopReport: env.EVENT_LOOP_REPORT || undefined,
};

export function assertProductionConfig(): void {
  if (!isProduction) return;
  if (!env.SESSION_SECRET || env.SESSION_SECRET.length < 32 || env.SESSION_SECRET === config.sessionSecret && env.SESSION_SECRET.startsWith("dev-only"))
    throw new Error("SESSION_SECRET must be set to a random string of at least 32 characters in production");
  if (!env.PUBLIC_URL) throw new Error("PUBLIC_URL must be set in production (links in emails)");
}
