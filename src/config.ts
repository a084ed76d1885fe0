// Configuration. Every environment variable the server reads (README "Configuration
// (environment)" lists them) is parsed and checked once, at start, by `loadConfig`: integers within
// their range, URLs that parse with an allowed protocol, enumerations and booleans from their
// words only. A bad value stops the start with one error that names every bad variable. The result
// is a deeply frozen `Config`; an empty variable counts as unset.
//
// Code reads the configuration in force through `config()`: while an app serves a request, the one
// the app was created with (`createApp({ config })`); while the job worker runs a job, the one it
// was started with (`jobs.start(url, config)`) - both carried by AsyncLocalStorage (`withConfig`);
// anywhere else, the process's own (`processConfig`, from its environment). Nothing assigns to a
// configuration: other settings (tests) are another frozen configuration (`configWith`) passed to
// the app or worker.
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import { AsyncLocalStorage } from "node:async_hooks";
import path from "node:path";
import { projectRoot } from "./root.ts";

export const NODE_ENVS = ["development", "production", "test"] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];
/** pino's levels. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  /** `NODE_ENV` (development, production or test). */
  readonly nodeEnv: NodeEnv;
  /** `NODE_ENV=production`: Secure cookies, the production start-up requirements, no response validation. */
  readonly isProduction: boolean;
  /** `NODE_ENV=test`, or run by vitest (`VITEST=true`). */
  readonly isTest: boolean;
  /** The project folder (src/root.ts). */
  readonly root: string;
  readonly port: number;
  readonly databaseUrl: string | undefined;
  /**
   * A streaming replica of the database (`DATABASE_REPLICA_URL`): operations the document marks
   * `x-read-replica: true` read from it unless the caller's own latest write has not been replayed
   * there yet, or it is down or too far behind - then from the primary (src/db/replica.ts).
   */
  readonly databaseReplicaUrl: string | undefined;
  /** A replica more than this far behind the primary is not read from (`DATABASE_REPLICA_MAX_LAG_MS`). */
  readonly databaseReplicaMaxLagMs: number;
  /** Connections the server's pool may open (`DATABASE_POOL_SIZE`; default defaultPoolSize()). */
  readonly databasePoolSize: number;
  /**
   * How long a query may wait for a connection (a free one of the pool, or a new one being opened)
   * before the request is answered 503 `unavailable` (`DATABASE_POOL_TIMEOUT_MS`).
   */
  readonly databasePoolTimeoutMs: number;
  /**
   * How long an interactive transaction may stay open (Prisma's transaction timeout), and how long
   * any statement may wait for a lock (PostgreSQL `lock_timeout` of every pool connection) - past it
   * the request is a 503 `unavailable` (`DATABASE_TRANSACTION_TIMEOUT_MS`). The few bulk operations
   * that pass a longer timeout of their own get the same lock wait inside their transaction.
   */
  readonly databaseTransactionTimeoutMs: number;
  /**
   * Admission control (src/http/admission.ts): API requests in progress at once
   * (`MAX_CONCURRENT_REQUESTS`); further ones wait in a queue of at most `MAX_QUEUED_REQUESTS` for
   * up to `REQUEST_QUEUE_TIMEOUT_MS`, beyond which they are a 503 `unavailable` with Retry-After.
   * Health and the static reference (/docs, /openapi.json) bypass it.
   */
  readonly maxConcurrentRequests: number;
  readonly maxQueuedRequests: number;
  readonly requestQueueTimeoutMs: number;
  /**
   * Slow clients (src/http/server.ts, src/http/admission.ts): how long a request's headers may take
   * to arrive (`HEADERS_TIMEOUT_MS`, Node's headersTimeout), and the whole request, headers and body
   * (`REQUEST_TIMEOUT_MS`, Node's requestTimeout; at least HEADERS_TIMEOUT_MS); beyond either, a
   * 408 `request_timeout` and the connection is closed.
   */
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
  /**
   * An API request's body is read without an admission slot, each client IP at most
   * `BODY_READS_PER_CLIENT` bodies at once (beyond, a 429), within `BODY_READ_TIMEOUT_MS` plus one
   * second for every `BODY_MIN_BYTES_PER_SECOND` bytes received (a body arriving slower than that
   * rate runs out of time); past it, a 408 `request_timeout` and the connection is closed. At most
   * REQUEST_TIMEOUT_MS in all.
   */
  readonly bodyReadsPerClient: number;
  readonly bodyReadTimeoutMs: number;
  readonly bodyMinBytesPerSecond: number;
  /**
   * A response must be written to the client within `RESPONSE_WRITE_TIMEOUT_MS` of its headers
   * (a client that reads slowly or not at all); past it the connection is closed, which frees the
   * request's admission slot.
   */
  readonly responseWriteTimeoutMs: number;
  /**
   * How long a connection may stay open idle between two requests (`KEEP_ALIVE_TIMEOUT_MS`): longer
   * than the idle timeout of a load balancer in front (60 s on common ones), so that it never sends
   * a request on a connection the server is closing.
   */
  readonly keepAliveTimeoutMs: number;
  readonly sessionSecret: string;
  /** Base of the links in e-mails, without a trailing slash; its origin may make state-changing requests. */
  readonly publicUrl: string;
  /** Extra origins allowed to make state-changing requests (`ALLOWED_ORIGINS`, comma separated). */
  readonly allowedOrigins: readonly string[];
  readonly smtpUrl: string | undefined;
  readonly mailFrom: string;
  readonly uploadDir: string;
  readonly embeddedDataDir: string;
  readonly embeddedPort: number;
  readonly billingWebhookSecret: string | undefined;
  /**
   * `MODULES_FROM_BILLING`: only the billing webhook (the subscription) switches a company's
   * modules; company settings refuse a change of them (403). Off: owner/admin switch them
   * (self-hosted installations).
   */
  readonly modulesFromBilling: boolean;
  readonly aiBaseUrl: string | undefined;
  readonly aiApiKey: string | undefined;
  /** Model asked for by the OpenAI-compatible provider. */
  readonly aiModel: string;
  /** How long the AI provider may take to answer (ms). */
  readonly aiTimeoutMs: number;
  readonly migrateOnStart: boolean;
  readonly validateResponses: boolean;
  readonly logLevel: LogLevel;
  /**
   * Log lines are gathered up to this many bytes and written to stdout off the event loop (and at
   * least once a second, and at exit); 0 writes each line at once, synchronously.
   */
  readonly logBufferBytes: number;
  /**
   * Payroll runs of up to this many employees are calculated and processed within the request
   * (201/200); larger ones go to the job queue (202, progress on the run). 0 queues every run.
   */
  readonly payrollSyncLimit: number;
  /** Employees calculated and written per statement of a run (and per progress update). */
  readonly payrollBatchSize: number;
  /** Run the background job worker (mail delivery, scheduled jobs) in this process. */
  readonly runWorker: boolean;
  /**
   * Which proxies' `X-Forwarded-For` hops to believe (`TRUST_PROXY`), as Express's `trust proxy`:
   * false (none: the client IP is the socket's), a number of hops (`true` = 1, the one proxy in
   * front), or the proxies' addresses, CIDRs and the presets loopback / linklocal / uniquelocal.
   * Never every hop: the left part of the header is whatever the client sent.
   */
  readonly trustProxy: TrustProxy;
  /**
   * How long a resolved identity (session + membership) may be served from memory at most
   * (`IDENTITY_CACHE_TTL_MS`, src/platform/identity/identity-cache.ts); entries are dropped at once on any change,
   * in every process, through PostgreSQL LISTEN/NOTIFY. 0 turns the cache off (the tests' default).
   */
  readonly identityCacheTtlMs: number;
  /** File the event-loop delay report is written to on SIGUSR2 and at shutdown (src/lib/event-loop-report.ts); unset: no report. */
  readonly eventLoopReport: string | undefined;
  /**
   * Failed sign-ins per account and per IP, and password-reset requests per IP, within 15 minutes
   * before further ones are refused (src/platform/identity/limiter.ts; the process's limits, read at start).
   */
  readonly signinMaxFailuresPerAccount: number;
  readonly signinMaxFailuresPerIp: number;
  readonly forgotPasswordMaxPerIp: number;
  /**
   * Uploads (src/http/uploads.ts, src/platform/storage/): multipart requests this process reads at
   * once (`UPLOADS_MAX_CONCURRENT`; beyond, a 503 `unavailable` with Retry-After before the body is
   * read) and per user, or per client IP for the public joining-document upload
   * (`UPLOADS_MAX_CONCURRENT_PER_USER`; beyond, a 429).
   */
  readonly uploadsMaxConcurrent: number;
  readonly uploadsMaxConcurrentPerUser: number;
  /** Uploads per user (or client IP, public upload) and per company within an hour (429 with Retry-After beyond). */
  readonly uploadsPerUserPerHour: number;
  readonly uploadsPerTenantPerHour: number;
  /** Bytes of files a company may hold (`TENANT_STORAGE_QUOTA_MB`, in MiB); an upload past it is a 413 `quota_exceeded`. */
  readonly tenantStorageQuotaBytes: number;
  /** Uploads nothing refers to are deleted (row and bytes) once older than this (`ORPHAN_FILE_GRACE_HOURS`). */
  readonly orphanFileGraceHours: number;
  /** Calls of the AI helpers per user and per company within an hour (429 with Retry-After beyond). */
  readonly aiCallsPerUserPerHour: number;
  readonly aiCallsPerTenantPerHour: number;
  /**
   * Signups per client IP within 15 minutes, every attempt counted (`SIGNUP_MAX_PER_IP`; read
   * when a signup arrives, so an app's configuration applies). The tests' default is 1000: their
   * fixtures sign up many companies from one address.
   */
  readonly signupMaxPerIp: number;
  /**
   * The instant the server's clock reads when the process starts (`CLOCK_START`, an ISO 8601 instant
   * with its offset, e.g. `2026-11-28T12:00:00Z`); it runs on from there at the normal rate. Unset:
   * the machine's clock. Honoured only outside production (a production start with it set is refused):
   * it lets a test run, a demo or a developer see the server on another day (src/lib/clock.ts).
   */
  readonly clockStart: string | undefined;
}

/** The variables as the environment gives them. */
export type Env = Readonly<Record<string, string | undefined>>;

/** Bad configuration: `problems` names each bad variable (one line each); `errors` holds them as errors. */
export class ConfigError extends AggregateError {
  override name = "ConfigError";
  readonly problems: readonly string[];
  constructor(errors: Error[]) {
    const problems = errors.map((e) => e.message);
    super(
      errors,
      `Invalid configuration (${problems.length === 1 ? "1 variable" : `${problems.length} variables`}):\n  ${problems.join("\n  ")}`,
    );
    this.problems = Object.freeze(problems);
  }
}

/** What one reading of the environment found wrong so far. */
interface Reading {
  env: Env;
  problems: Error[];
}

const MIB = 1024 * 1024;
/** The largest delay Node's timers take (longer ones fire at once). */
const MAX_DELAY_MS = 2_147_483_647;
const TRUE_WORDS = ["true", "1", "yes", "on"];
const FALSE_WORDS = ["false", "0", "no", "off"];

function value(r: Reading, name: string): string | undefined {
  const v = r.env[name];
  return v === undefined || v === "" ? undefined : v;
}

function reject(r: Reading, message: string): undefined {
  r.problems.push(new Error(message));
  return undefined;
}

/** A whole number in decimal digits within [min, max]. */
function integer(r: Reading, name: string, dflt: number, min: number, max: number, what: string): number {
  const v = value(r, name);
  if (v === undefined) return dflt;
  const n = /^[0-9]+$/.test(v) ? Number(v) : NaN;
  if (n >= min && n <= max) return n;
  reject(r, `${name} must be ${what}, got ${JSON.stringify(v)}`);
  return dflt;
}

function positiveInt(r: Reading, name: string, dflt: number): number {
  return integer(r, name, dflt, 1, Number.MAX_SAFE_INTEGER, "a positive integer");
}

function nonNegativeInt(r: Reading, name: string, dflt: number): number {
  return integer(r, name, dflt, 0, Number.MAX_SAFE_INTEGER, "a non-negative integer");
}

/** Milliseconds for a timer: at most what Node's timers take. */
function durationMs(r: Reading, name: string, dflt: number, min: 0 | 1 = 1): number {
  return integer(
    r,
    name,
    dflt,
    min,
    MAX_DELAY_MS,
    `${min ? "a positive" : "a non-negative"} integer of milliseconds up to ${MAX_DELAY_MS}`,
  );
}

function portNumber(r: Reading, name: string, dflt: number, min: 0 | 1): number {
  return integer(r, name, dflt, min, 65535, `an integer from ${min} to 65535`);
}

export type TrustProxy = false | number | readonly string[];

const PROXY_PRESETS = ["loopback", "linklocal", "uniquelocal"];
/** An address or CIDR of a proxy (IPv4 or IPv6, prefix within the family's length). */
function isProxyAddress(s: string): boolean {
  if (PROXY_PRESETS.includes(s)) return true;
  const [addr, prefix, extra] = s.split("/");
  const family = isIP(addr);
  if (!family || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** TRUST_PROXY: false / true (one hop) / a hop count / a comma-separated list of proxy addresses, CIDRs and presets. */
function trustProxy(r: Reading, name: string): TrustProxy {
  const v = value(r, name)?.trim();
  if (v === undefined || FALSE_WORDS.includes(v.toLowerCase())) return false;
  if (TRUE_WORDS.includes(v.toLowerCase())) return 1;
  if (/^[0-9]{1,2}$/.test(v)) return Number(v);
  const list = v
    .split(",")
    .map((x) => x.trim())
    .filter(Boolean);
  if (list.length && list.every(isProxyAddress)) return list;
  reject(
    r,
    `${name} must be false, true (one proxy), a number of proxy hops, or the proxies' addresses/CIDRs ` +
      `(comma-separated; loopback, linklocal, uniquelocal), got ${JSON.stringify(v)}`,
  );
  return false;
}

function bool(r: Reading, name: string, dflt: boolean): boolean {
  const v = value(r, name);
  if (v === undefined) return dflt;
  if (TRUE_WORDS.includes(v.toLowerCase())) return true;
  if (FALSE_WORDS.includes(v.toLowerCase())) return false;
  reject(r, `${name} must be true or false (or 1/0, yes/no, on/off), got ${JSON.stringify(v)}`);
  return dflt;
}

function oneOf<T extends string>(r: Reading, name: string, values: readonly T[], dflt: T): T {
  const v = value(r, name);
  if (v === undefined) return dflt;
  if ((values as readonly string[]).includes(v)) return v as T;
  reject(r, `${name} must be one of ${values.join(", ")}, got ${JSON.stringify(v)}`);
  return dflt;
}

/**
 * A URL with one of `protocols`. Its value is not repeated in the error: it may hold a password
 * (DATABASE_URL, SMTP_URL).
 */
function url(r: Reading, name: string, protocols: readonly string[]): string | undefined {
  const v = value(r, name);
  if (v === undefined) return undefined;
  const wanted = `a ${protocols.map((p) => `${p}//`).join(" or ")} URL`;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return reject(r, `${name} must be ${wanted} (its value does not parse as a URL)`);
  }
  if (!protocols.includes(u.protocol)) return reject(r, `${name} must be ${wanted}, got a ${u.protocol} URL`);
  return v;
}

/** Comma-separated http(s) origins, each exactly as a browser sends it in `Origin`. */
function origins(r: Reading, name: string): string[] {
  const list = (value(r, name) ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = list.filter((o) => {
    try {
      const u = new URL(o);
      return !["http:", "https:"].includes(u.protocol) || u.origin !== o;
    } catch {
      return true;
    }
  });
  if (bad.length)
    reject(
      r,
      `${name} must be a comma-separated list of origins such as https://app.example.com (scheme, ` +
        `lower-case host and port only), got ${bad.map((b) => JSON.stringify(b)).join(", ")}`,
    );
  return list.filter((o) => !bad.includes(o));
}

/** An ISO 8601 instant with a date, a time and an offset (`Z` or `±hh:mm`). */
function instant(r: Reading, name: string): string | undefined {
  const v = value(r, name);
  if (v === undefined) return undefined;
  const form = /^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,3})?)?(Z|[+-][0-9]{2}:[0-9]{2})$/;
  const day = v.slice(0, 10);
  const real = form.test(v) && new Date(`${day}T00:00:00Z`).toISOString().startsWith(day); // not 2026-02-30
  if (real && Number.isFinite(Date.parse(v))) return new Date(v).toISOString();
  return reject(r, `${name} must be an ISO 8601 instant with its offset, such as 2026-11-28T12:00:00Z, got ${JSON.stringify(v)}`);
}

function text(r: Reading, name: string): string | undefined;
function text(r: Reading, name: string, dflt: string): string;
function text(r: Reading, name: string, dflt?: string): string | undefined {
  return value(r, name) ?? dflt;
}

/** Makes `o` and everything it holds read-only. */
function deepFreeze<T>(o: T): T {
  if (o && typeof o === "object") {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

/**
 * DATABASE_POOL_SIZE's default: twice the cores of the machine the server runs on (4 on 2 cores).
 * More connections than PostgreSQL can serve at once only add waiting where it hurts most: with the
 * server, its database and the clients on 2 cores, the leave balances page (10 connections, a page
 * of 100) had p99 40-43 ms with a pool of 4, 47-49 with 5, 51 with 6, 66 with 8 and 64-72 with 10,
 * at the same throughput (README, "Overload"). Where PostgreSQL runs on a machine of its own, set
 * it from that machine's cores (about twice as many).
 */
export function defaultPoolSize(): number {
  return 2 * availableParallelism();
}

/**
 * The configuration of `env`: every variable parsed and checked, defaults where unset (or empty).
 * Throws a ConfigError naming every bad variable; returns a deeply frozen Config.
 */
export function loadConfig(env: Env, root: string = projectRoot): Config {
  const r: Reading = { env, problems: [] };
  const nodeEnv = oneOf(r, "NODE_ENV", NODE_ENVS, "development");
  const isProduction = nodeEnv === "production";
  const isTest = nodeEnv === "test" || env.VITEST === "true";
  const port = portNumber(r, "PORT", 3000, 0);
  const publicUrl = url(r, "PUBLIC_URL", ["http:", "https:"]);
  const sessionSecret = text(r, "SESSION_SECRET");
  if (isProduction) {
    if (!sessionSecret || sessionSecret.length < 32 || sessionSecret.startsWith("dev-only"))
      reject(r, "SESSION_SECRET must be set to a random string of at least 32 characters in production");
    if (value(r, "PUBLIC_URL") === undefined) reject(r, "PUBLIC_URL must be set in production (links in emails)");
    if (value(r, "CLOCK_START") !== undefined) reject(r, "CLOCK_START is honoured only outside production: unset it");
  }
  const headersTimeoutMs = durationMs(r, "HEADERS_TIMEOUT_MS", 10_000);
  const requestTimeoutMs = durationMs(r, "REQUEST_TIMEOUT_MS", 300_000);
  const bodyReadTimeoutMs = durationMs(r, "BODY_READ_TIMEOUT_MS", 20_000);
  // Node refuses a headers timeout longer than the request's; a body given longer than the whole
  // request would be cut by the request's timeout first
  if (headersTimeoutMs > requestTimeoutMs)
    reject(r, `HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not be longer than REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  if (bodyReadTimeoutMs > requestTimeoutMs)
    reject(r, `BODY_READ_TIMEOUT_MS (${bodyReadTimeoutMs}) must not be longer than REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  const config: Config = {
    nodeEnv,
    isProduction,
    isTest,
    root,
    port,
    databaseUrl: url(r, "DATABASE_URL", ["postgres:", "postgresql:"]),
    databaseReplicaUrl: url(r, "DATABASE_REPLICA_URL", ["postgres:", "postgresql:"]),
    databaseReplicaMaxLagMs: durationMs(r, "DATABASE_REPLICA_MAX_LAG_MS", 10_000),
    databasePoolSize: positiveInt(r, "DATABASE_POOL_SIZE", defaultPoolSize()),
    databasePoolTimeoutMs: durationMs(r, "DATABASE_POOL_TIMEOUT_MS", 3000),
    databaseTransactionTimeoutMs: durationMs(r, "DATABASE_TRANSACTION_TIMEOUT_MS", 5000),
    maxConcurrentRequests: positiveInt(r, "MAX_CONCURRENT_REQUESTS", 16),
    maxQueuedRequests: nonNegativeInt(r, "MAX_QUEUED_REQUESTS", 64),
    requestQueueTimeoutMs: durationMs(r, "REQUEST_QUEUE_TIMEOUT_MS", 2000),
    headersTimeoutMs,
    requestTimeoutMs,
    bodyReadsPerClient: integer(r, "BODY_READS_PER_CLIENT", 8, 1, 1_000_000, "a positive integer up to 1000000"),
    bodyReadTimeoutMs,
    bodyMinBytesPerSecond: positiveInt(r, "BODY_MIN_BYTES_PER_SECOND", 4096),
    responseWriteTimeoutMs: durationMs(r, "RESPONSE_WRITE_TIMEOUT_MS", 60_000),
    keepAliveTimeoutMs: durationMs(r, "KEEP_ALIVE_TIMEOUT_MS", 65_000),
    sessionSecret: sessionSecret ?? "dev-only-insecure-session-secret-change-me",
    publicUrl: (publicUrl ?? `http://localhost:${port}`).replace(/\/$/, ""),
    allowedOrigins: origins(r, "ALLOWED_ORIGINS"),
    smtpUrl: url(r, "SMTP_URL", ["smtp:", "smtps:"]),
    mailFrom: text(r, "MAIL_FROM", "HRMS <no-reply@hrms.local>"),
    uploadDir: path.resolve(root, text(r, "UPLOAD_DIR", ".data/uploads")),
    embeddedDataDir: path.resolve(root, text(r, "EMBEDDED_PG_DIR", ".data/postgres")),
    embeddedPort: portNumber(r, "EMBEDDED_PG_PORT", 54329, 1),
    billingWebhookSecret: text(r, "BILLING_WEBHOOK_SECRET"),
    modulesFromBilling: bool(r, "MODULES_FROM_BILLING", false),
    aiBaseUrl: url(r, "AI_BASE_URL", ["http:", "https:"]),
    aiApiKey: text(r, "AI_API_KEY"),
    aiModel: text(r, "AI_MODEL", "gpt-4o-mini"),
    aiTimeoutMs: durationMs(r, "AI_TIMEOUT_MS", 20000),
    migrateOnStart: bool(r, "MIGRATE_ON_START", true),
    validateResponses: bool(r, "VALIDATE_RESPONSES", !isProduction),
    logLevel: oneOf(r, "LOG_LEVEL", LOG_LEVELS, isTest ? "silent" : "info"),
    logBufferBytes: integer(r, "LOG_BUFFER_BYTES", 4096, 0, 16000, "a number of bytes from 0 to 16000"),
    payrollSyncLimit: nonNegativeInt(r, "PAYROLL_SYNC_LIMIT", 1000),
    payrollBatchSize: positiveInt(r, "PAYROLL_BATCH_SIZE", 1000),
    runWorker: bool(r, "RUN_WORKER", true),
    trustProxy: trustProxy(r, "TRUST_PROXY"),
    identityCacheTtlMs: durationMs(r, "IDENTITY_CACHE_TTL_MS", isTest ? 0 : 60_000, 0),
    eventLoopReport: text(r, "EVENT_LOOP_REPORT"),
    signinMaxFailuresPerAccount: positiveInt(r, "SIGNIN_MAX_FAILURES_PER_ACCOUNT", 5),
    signinMaxFailuresPerIp: positiveInt(r, "SIGNIN_MAX_FAILURES_PER_IP", 30),
    forgotPasswordMaxPerIp: positiveInt(r, "FORGOT_PASSWORD_MAX_PER_IP", 20),
    uploadsMaxConcurrent: positiveInt(r, "UPLOADS_MAX_CONCURRENT", 8),
    uploadsMaxConcurrentPerUser: positiveInt(r, "UPLOADS_MAX_CONCURRENT_PER_USER", 2),
    uploadsPerUserPerHour: positiveInt(r, "UPLOADS_PER_USER_PER_HOUR", 100),
    uploadsPerTenantPerHour: positiveInt(r, "UPLOADS_PER_TENANT_PER_HOUR", 1000),
    tenantStorageQuotaBytes: integer(r, "TENANT_STORAGE_QUOTA_MB", 5120, 1, 1 << 30, "a positive integer of MiB up to 1073741824") * MIB,
    orphanFileGraceHours: integer(r, "ORPHAN_FILE_GRACE_HOURS", 24, 1, 24 * 365, "a positive integer of hours up to 8760"),
    aiCallsPerUserPerHour: positiveInt(r, "AI_CALLS_PER_USER_PER_HOUR", 60),
    aiCallsPerTenantPerHour: positiveInt(r, "AI_CALLS_PER_TENANT_PER_HOUR", 300),
    signupMaxPerIp: positiveInt(r, "SIGNUP_MAX_PER_IP", isTest ? 1000 : 10),
    clockStart: isProduction ? undefined : instant(r, "CLOCK_START"),
  };
  if (r.problems.length) throw new ConfigError(r.problems);
  return deepFreeze(config);
}

/** This process's configuration, from its environment (read when this module loads, at start). */
export const processConfig: Config = loadConfig(process.env);

/** `base` with `overrides` (tests: an app or worker with other settings), deeply frozen. */
export function configWith(overrides: Partial<Config>, base: Config = processConfig): Config {
  const copy = Object.fromEntries(Object.entries(overrides).map(([k, v]) => [k, Array.isArray(v) ? [...v] : v]));
  return deepFreeze({ ...base, ...copy });
}

const inForce = new AsyncLocalStorage<Config>();

/**
 * Runs `fn` (and everything it starts) with `c` as the configuration in force. When `c` already is
 * (a production server's app and worker run with the process's configuration), `fn` just runs:
 * the asynchronous context is not entered again for every request.
 */
export function withConfig<T>(c: Config, fn: () => T): T {
  if (!Object.isFrozen(c)) throw new Error("withConfig takes a frozen configuration (loadConfig, configWith)");
  if (config() === c) return fn();
  return inForce.run(c, fn);
}

/**
 * The configuration in force: that of the app serving the request, or of the worker running the
 * job (withConfig); elsewhere the process's (processConfig).
 */
export function config(): Config {
  return inForce.getStore() ?? processConfig;
}
