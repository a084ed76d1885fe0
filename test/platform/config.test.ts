// Configuration (src/config.ts): every variable parsed and checked at start - defaults, bad
// integers, URLs, enumerations and booleans refused with the variable's name, every problem in one
// error - into a deeply frozen object; the configuration in force is the app's (or worker's) it was
// created with, and no file of src/ or test/ assigns to a configuration field.
import { getHeapStatistics } from "node:v8";
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { availableParallelism } from "node:os";
import { describe, expect, it } from "vitest";
import { type Config, ConfigError, config, configWith, loadConfig, processConfig, withConfig } from "../../src/config.ts";
import { CONFIG_DOC, configurationDoc, NPM_START_HEADING, SERVER_HEADING } from "../../scripts/build/docs-config.ts";
import express from "express";
import { signupTenant, useTestApp } from "../support/app.ts";

const root = path.resolve(import.meta.dirname, "../..");

/** The problems loadConfig reports for `env` (none: []). */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env, "/srv/hrms");
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return [...(err as ConfigError).problems];
  }
}

describe("loadConfig", () => {
  it("gives every variable its default when unset", () => {
    expect(loadConfig({}, "/srv/hrms")).toEqual({
      nodeEnv: "development",
      isProduction: false,
      root: "/srv/hrms",
      port: 3000,
      databaseUrl: undefined,
      databaseDirectUrl: undefined,
      databaseReplicaUrl: undefined,
      databaseReplicaMaxLagMs: 10000,
      // twice the machine's cores
      databasePoolSize: 2 * availableParallelism(),
      databasePoolTimeoutMs: 3000,
      databaseTransactionTimeoutMs: 5000,
      maxConcurrentRequests: 16,
      maxQueuedRequests: 64,
      requestQueueTimeoutMs: 2000,
      headersTimeoutMs: 10000,
      requestTimeoutMs: 300000,
      bodyReadsPerClient: 8,
      bodyReadTimeoutMs: 20000,
      bodyMinBytesPerSecond: 4096,
      responseWriteTimeoutMs: 60000,
      responseMinBytesPerSecond: 4096,
      bodyMemoryMb: Math.floor((getHeapStatistics().heap_size_limit * 0.6) / 1048576),
      keepAliveTimeoutMs: 65000,
      metricsPort: undefined,
      metricsHost: "127.0.0.1",
      shutdownDrainMs: 0,
      sessionSecret: "dev-only-insecure-session-secret-change-me",
      sessionPruneSeconds: 900,
      publicUrl: "http://localhost:3000",
      appUrl: undefined,
      allowedOrigins: [],
      smtpUrl: undefined,
      mailFrom: "HRMS <no-reply@hrms.local>",
      devMail: true,
      uploadDir: "/srv/hrms/.data/uploads",
      embeddedDataDir: "/srv/hrms/.data/postgres",
      embeddedPort: 54329,
      billingWebhookSecret: undefined,
      modulesFromBilling: false,
      aiBaseUrl: undefined,
      aiApiKey: undefined,
      aiModel: "gpt-4o-mini",
      aiTimeoutMs: 20000,
      migrateOnStart: true,
      validateResponses: true,
      logLevel: "info",
      logFormat: "json", // outside production "pretty" only when stdout is a terminal (not under vitest)
      logBufferBytes: 4096,
      payrollSyncLimit: 1000,
      payrollBatchSize: 1000,
      bulkImportSyncRows: 1000,
      runWorker: true,
      trustProxy: false,
      identityCacheTtlMs: 60000,
      passwordHashCost: 14,
      eventLoopReport: undefined,
      signinMaxFailuresPerAccount: 5,
      signinMaxFailuresPerAccountAllClients: 20,
      signinMaxFailuresPerIp: 30,
      forgotPasswordMaxPerIp: 20,
      uploadsMaxConcurrent: 8,
      uploadsMaxConcurrentPerUser: 2,
      uploadsPerUserPerHour: 100,
      uploadsPerTenantPerHour: 1000,
      tenantStorageQuotaBytes: 5120 * 1024 * 1024,
      memberStorageSharePercent: 25,
      orphanFileGraceHours: 24,
      aiCallsPerUserPerHour: 60,
      aiCallsPerTenantPerHour: 300,
      signupMaxPerIp: 10,
      invitesPerTenantPerDay: 200,
      invitesPerNewTenantPerDay: 20,
      invitesPerUserPerHour: 30,
      invitesPerAddressPerDay: 3,
      invitesPerRecipientPerDay: 10,
      clockStart: undefined,
      webhookAllowLoopback: true, // development: a receiver on localhost works
      webhookTimeoutMs: 10_000,
      webhookRetryHours: 72,
      webhookConcurrency: 8,
      webhookConcurrencyPerEndpoint: 4,
      webhookSecretKey: undefined,
      oauthTokenTtlSeconds: 3600,
      eventRetentionDays: 30,
      idempotencyKeyTtlHours: 24,
      rateLimitWindowSeconds: 60,
      rateLimitPerTenant: 30000,
      rateLimitPerCaller: 3000,
      rateLimitPerIp: 1200,
      rateLimitSyncMs: 1000,
    } satisfies Config);
  });

  it("takes an empty variable as unset", () => {
    expect(
      loadConfig(
        { PORT: "", DATABASE_POOL_SIZE: "", NODE_ENV: "", LOG_LEVEL: "", RUN_WORKER: "", SMTP_URL: "", MAIL_FROM: "" },
        "/srv/hrms",
      ),
    ).toEqual(loadConfig({}, "/srv/hrms"));
  });

  it("knows no test runner: NODE_ENV=test and VITEST change no default", () => {
    const development = loadConfig({}, "/srv/hrms");
    expect(loadConfig({ NODE_ENV: "test" }, "/srv/hrms")).toEqual({ ...development, nodeEnv: "test" });
    expect(loadConfig({ VITEST: "true" }, "/srv/hrms")).toEqual(development);
    expect(development).toMatchObject({ logLevel: "info", identityCacheTtlMs: 60000, signupMaxPerIp: 10, devMail: true });
  });

  it("defaults for production", () => {
    const production = loadConfig({ NODE_ENV: "production", SESSION_SECRET: "s".repeat(32), PUBLIC_URL: "https://hr.example.com/" });
    expect(production).toMatchObject({
      isProduction: true,
      validateResponses: false,
      logLevel: "info",
      identityCacheTtlMs: 60000,
      passwordHashCost: 14,
      signupMaxPerIp: 10,
      invitesPerNewTenantPerDay: 20,
      publicUrl: "https://hr.example.com",
      shutdownDrainMs: 5000,
      appUrl: undefined,
    });
  });

  it("reads every variable", () => {
    const env = {
      NODE_ENV: "production",
      PORT: "0",
      DATABASE_URL: "postgres://app:pw@db.example:5432/hrms",
      DATABASE_DIRECT_URL: "postgres://app:pw@db-direct.example:5432/hrms",
      DATABASE_REPLICA_URL: "postgres://app:pw@replica.example:5432/hrms",
      DATABASE_REPLICA_MAX_LAG_MS: "2500",
      DATABASE_POOL_SIZE: "20",
      DATABASE_POOL_TIMEOUT_MS: "60000",
      DATABASE_TRANSACTION_TIMEOUT_MS: "15000",
      MAX_CONCURRENT_REQUESTS: "8",
      MAX_QUEUED_REQUESTS: "0",
      REQUEST_QUEUE_TIMEOUT_MS: "500",
      HEADERS_TIMEOUT_MS: "5000",
      REQUEST_TIMEOUT_MS: "90000",
      BODY_READS_PER_CLIENT: "3",
      BODY_READ_TIMEOUT_MS: "15000",
      BODY_MIN_BYTES_PER_SECOND: "1024",
      RESPONSE_WRITE_TIMEOUT_MS: "30000",
      RESPONSE_MIN_BYTES_PER_SECOND: "2048",
      BODY_MEMORY_MB: "400",
      KEEP_ALIVE_TIMEOUT_MS: "75000",
      METRICS_PORT: "9464",
      METRICS_HOST: "10.0.0.5",
      SHUTDOWN_DRAIN_MS: "15000",
      SESSION_SECRET: "0123456789abcdef0123456789abcdef",
      SESSION_PRUNE_SECONDS: "0",
      PUBLIC_URL: "https://hr.example.com/",
      APP_URL: "https://app.hr.example.com/",
      ALLOWED_ORIGINS: "https://app.example.com, http://localhost:5173",
      SMTP_URL: "smtps://mailer:pw@smtp.example:465",
      MAIL_FROM: "HR <hr@example.com>",
      UPLOAD_DIR: "/var/hrms/uploads",
      EMBEDDED_PG_DIR: "pg",
      EMBEDDED_PG_PORT: "5433",
      BILLING_WEBHOOK_SECRET: "whsec_1",
      MODULES_FROM_BILLING: "true",
      AI_BASE_URL: "https://ai.example/v1",
      AI_API_KEY: "sk-1",
      AI_MODEL: "m-1",
      AI_TIMEOUT_MS: "1500",
      MIGRATE_ON_START: "false",
      VALIDATE_RESPONSES: "TRUE",
      LOG_LEVEL: "warn",
      LOG_FORMAT: "pretty",
      PAYROLL_SYNC_LIMIT: "0",
      PAYROLL_BATCH_SIZE: "250",
      BULK_IMPORT_SYNC_ROWS: "5",
      RUN_WORKER: "off",
      TRUST_PROXY: "yes",
      IDENTITY_CACHE_TTL_MS: "0",
      PASSWORD_HASH_COST: "12",
      EVENT_LOOP_REPORT: "/tmp/loop.json",
      SIGNIN_MAX_FAILURES_PER_ACCOUNT: "3",
      SIGNIN_MAX_FAILURES_PER_ACCOUNT_ALL_CLIENTS: "12",
      SIGNIN_MAX_FAILURES_PER_IP: "50",
      FORGOT_PASSWORD_MAX_PER_IP: "7",
      UPLOADS_MAX_CONCURRENT: "3",
      UPLOADS_MAX_CONCURRENT_PER_USER: "1",
      UPLOADS_PER_USER_PER_HOUR: "10",
      UPLOADS_PER_TENANT_PER_HOUR: "40",
      TENANT_STORAGE_QUOTA_MB: "200",
      MEMBER_STORAGE_SHARE_PERCENT: "50",
      ORPHAN_FILE_GRACE_HOURS: "48",
      AI_CALLS_PER_USER_PER_HOUR: "5",
      AI_CALLS_PER_TENANT_PER_HOUR: "12",
      SIGNUP_MAX_PER_IP: "4",
      INVITES_PER_TENANT_PER_DAY: "150",
      INVITES_PER_NEW_TENANT_PER_DAY: "15",
      INVITES_PER_USER_PER_HOUR: "25",
      INVITES_PER_ADDRESS_PER_DAY: "2",
      INVITES_PER_RECIPIENT_PER_DAY: "8",
      LOG_BUFFER_BYTES: "0",
    };
    expect(loadConfig(env, "/srv/hrms")).toEqual({
      nodeEnv: "production",
      isProduction: true,
      root: "/srv/hrms",
      port: 0,
      databaseUrl: "postgres://app:pw@db.example:5432/hrms",
      databaseDirectUrl: "postgres://app:pw@db-direct.example:5432/hrms",
      databaseReplicaUrl: "postgres://app:pw@replica.example:5432/hrms",
      databaseReplicaMaxLagMs: 2500,
      databasePoolSize: 20,
      databasePoolTimeoutMs: 60000,
      databaseTransactionTimeoutMs: 15000,
      maxConcurrentRequests: 8,
      maxQueuedRequests: 0,
      requestQueueTimeoutMs: 500,
      headersTimeoutMs: 5000,
      requestTimeoutMs: 90000,
      bodyReadsPerClient: 3,
      bodyReadTimeoutMs: 15000,
      bodyMinBytesPerSecond: 1024,
      responseWriteTimeoutMs: 30000,
      responseMinBytesPerSecond: 2048,
      bodyMemoryMb: 400,
      keepAliveTimeoutMs: 75000,
      metricsPort: 9464,
      metricsHost: "10.0.0.5",
      shutdownDrainMs: 15000,
      sessionSecret: "0123456789abcdef0123456789abcdef",
      sessionPruneSeconds: 0,
      publicUrl: "https://hr.example.com",
      appUrl: "https://app.hr.example.com",
      allowedOrigins: ["https://app.example.com", "http://localhost:5173"],
      smtpUrl: "smtps://mailer:pw@smtp.example:465",
      mailFrom: "HR <hr@example.com>",
      devMail: false,
      uploadDir: "/var/hrms/uploads",
      embeddedDataDir: "/srv/hrms/pg",
      embeddedPort: 5433,
      billingWebhookSecret: "whsec_1",
      modulesFromBilling: true,
      aiBaseUrl: "https://ai.example/v1",
      aiApiKey: "sk-1",
      aiModel: "m-1",
      aiTimeoutMs: 1500,
      migrateOnStart: false,
      validateResponses: true,
      logLevel: "warn",
      logFormat: "pretty",
      logBufferBytes: 0,
      payrollSyncLimit: 0,
      payrollBatchSize: 250,
      bulkImportSyncRows: 5,
      runWorker: false,
      trustProxy: 1,
      identityCacheTtlMs: 0,
      passwordHashCost: 12,
      eventLoopReport: "/tmp/loop.json",
      signinMaxFailuresPerAccount: 3,
      signinMaxFailuresPerAccountAllClients: 12,
      signinMaxFailuresPerIp: 50,
      forgotPasswordMaxPerIp: 7,
      uploadsMaxConcurrent: 3,
      uploadsMaxConcurrentPerUser: 1,
      uploadsPerUserPerHour: 10,
      uploadsPerTenantPerHour: 40,
      tenantStorageQuotaBytes: 200 * 1024 * 1024,
      memberStorageSharePercent: 50,
      orphanFileGraceHours: 48,
      aiCallsPerUserPerHour: 5,
      aiCallsPerTenantPerHour: 12,
      signupMaxPerIp: 4,
      invitesPerTenantPerDay: 150,
      invitesPerNewTenantPerDay: 15,
      invitesPerUserPerHour: 25,
      invitesPerAddressPerDay: 2,
      invitesPerRecipientPerDay: 8,
      clockStart: undefined,
      webhookAllowLoopback: false,
      webhookTimeoutMs: 10_000,
      webhookRetryHours: 72,
      webhookConcurrency: 8,
      webhookConcurrencyPerEndpoint: 4,
      webhookSecretKey: undefined,
      oauthTokenTtlSeconds: 3600,
      eventRetentionDays: 30,
      idempotencyKeyTtlHours: 24,
      rateLimitWindowSeconds: 60,
      rateLimitPerTenant: 30000,
      rateLimitPerCaller: 3000,
      rateLimitPerIp: 1200,
      rateLimitSyncMs: 1000,
    } satisfies Config);
  });

  it("CLOCK_START: an instant with its offset outside production, refused in production", () => {
    expect(loadConfig({ NODE_ENV: "test", CLOCK_START: "2026-11-28T12:00:00Z" }).clockStart).toBe("2026-11-28T12:00:00.000Z");
    expect(loadConfig({ CLOCK_START: "2028-02-29T23:30+05:30" }).clockStart).toBe("2028-02-29T18:00:00.000Z");
    expect(loadConfig({ CLOCK_START: "2027-03-31T18:45:00.250Z" }).clockStart).toBe("2027-03-31T18:45:00.250Z");
    for (const bad of ["2026-11-28", "2026-11-28T12:00:00", "2026-02-30T12:00:00Z", "2027-02-29T00:00Z", "tomorrow", "1764331200000"])
      expect(problemsOf({ CLOCK_START: bad })).toEqual([
        `CLOCK_START must be an ISO 8601 instant with its offset, such as 2026-11-28T12:00:00Z, got ${JSON.stringify(bad)}`,
      ]);
    expect(
      problemsOf({
        NODE_ENV: "production",
        SESSION_SECRET: "s".repeat(32),
        PUBLIC_URL: "https://hr.example.com",
        CLOCK_START: "2026-11-28T12:00:00Z",
      }),
    ).toEqual(["CLOCK_START is honoured only outside production: unset it"]);
  });

  it("DEV_MAIL: on in development without SMTP_URL, off with it, refused in production", () => {
    expect(loadConfig({}).devMail).toBe(true);
    expect(loadConfig({ SMTP_URL: "smtp://127.0.0.1:2525" }).devMail).toBe(false);
    expect(loadConfig({ SMTP_URL: "smtp://127.0.0.1:2525", DEV_MAIL: "true" }).devMail).toBe(false);
    expect(loadConfig({ DEV_MAIL: "false" }).devMail).toBe(false);
    const production = { NODE_ENV: "production", SESSION_SECRET: "s".repeat(32), PUBLIC_URL: "https://hr.example.com" };
    expect(loadConfig(production).devMail).toBe(false);
    expect(problemsOf({ ...production, DEV_MAIL: "true" })).toEqual([
      "DEV_MAIL is honoured only outside production (it shows every mail): unset it",
    ]);
  });

  it("refuses a bad integer, naming the variable and the value", () => {
    for (const bad of ["lots", "0", "-1", "1.5", "1e3", " 10", "0x10", "99999999999999999999"])
      expect(problemsOf({ DATABASE_POOL_SIZE: bad })).toEqual([
        `DATABASE_POOL_SIZE must be a positive integer, got ${JSON.stringify(bad)}`,
      ]);
    expect(problemsOf({ MAX_QUEUED_REQUESTS: "-1" })).toEqual(['MAX_QUEUED_REQUESTS must be a non-negative integer, got "-1"']);
    expect(problemsOf({ PAYROLL_SYNC_LIMIT: "many" })).toEqual(['PAYROLL_SYNC_LIMIT must be a non-negative integer, got "many"']);
    expect(problemsOf({ PORT: "70000" })).toEqual(['PORT must be an integer from 0 to 65535, got "70000"']);
    expect(problemsOf({ PASSWORD_HASH_COST: "9" })).toEqual([
      `PASSWORD_HASH_COST must be a whole number from 10 to 17 (log2 of scrypt's N), got "9"`,
    ]);
    expect(problemsOf({ EMBEDDED_PG_PORT: "0" })).toEqual(['EMBEDDED_PG_PORT must be an integer from 1 to 65535, got "0"']);
    // a timer longer than Node's timers take would fire at once
    expect(problemsOf({ REQUEST_QUEUE_TIMEOUT_MS: "2147483648" })).toEqual([
      'REQUEST_QUEUE_TIMEOUT_MS must be a positive integer of milliseconds up to 2147483647, got "2147483648"',
    ]);
    expect(problemsOf({ IDENTITY_CACHE_TTL_MS: "-5" })).toEqual([
      'IDENTITY_CACHE_TTL_MS must be a non-negative integer of milliseconds up to 2147483647, got "-5"',
    ]);
    for (const name of [
      "DATABASE_POOL_TIMEOUT_MS",
      "DATABASE_TRANSACTION_TIMEOUT_MS",
      "MAX_CONCURRENT_REQUESTS",
      "REQUEST_QUEUE_TIMEOUT_MS",
      "HEADERS_TIMEOUT_MS",
      "REQUEST_TIMEOUT_MS",
      "BODY_READS_PER_CLIENT",
      "BODY_READ_TIMEOUT_MS",
      "BODY_MIN_BYTES_PER_SECOND",
      "RESPONSE_WRITE_TIMEOUT_MS",
      "RESPONSE_MIN_BYTES_PER_SECOND",
      "BODY_MEMORY_MB",
      "KEEP_ALIVE_TIMEOUT_MS",
      "AI_TIMEOUT_MS",
      "PAYROLL_BATCH_SIZE",
      "SIGNIN_MAX_FAILURES_PER_ACCOUNT",
      "SIGNIN_MAX_FAILURES_PER_IP",
      "FORGOT_PASSWORD_MAX_PER_IP",
      "UPLOADS_MAX_CONCURRENT",
      "UPLOADS_MAX_CONCURRENT_PER_USER",
      "UPLOADS_PER_USER_PER_HOUR",
      "UPLOADS_PER_TENANT_PER_HOUR",
      "TENANT_STORAGE_QUOTA_MB",
      "ORPHAN_FILE_GRACE_HOURS",
      "AI_CALLS_PER_USER_PER_HOUR",
      "AI_CALLS_PER_TENANT_PER_HOUR",
    ])
      expect(problemsOf({ [name]: "0" })).toEqual([expect.stringMatching(new RegExp(`^${name} must be a positive integer`))]);
  });

  it("refuses headers or a body given longer than the whole request (REQUEST_TIMEOUT_MS)", () => {
    expect(problemsOf({ HEADERS_TIMEOUT_MS: "20000", REQUEST_TIMEOUT_MS: "10000" })).toEqual([
      "HEADERS_TIMEOUT_MS (20000) must not be longer than REQUEST_TIMEOUT_MS (10000)",
      "BODY_READ_TIMEOUT_MS (20000) must not be longer than REQUEST_TIMEOUT_MS (10000)",
    ]);
    expect(problemsOf({ BODY_READ_TIMEOUT_MS: "300001" })).toEqual([
      "BODY_READ_TIMEOUT_MS (300001) must not be longer than REQUEST_TIMEOUT_MS (300000)",
    ]);
    expect(problemsOf({ HEADERS_TIMEOUT_MS: "5000", BODY_READ_TIMEOUT_MS: "5000", REQUEST_TIMEOUT_MS: "5000" })).toEqual([]);
  });

  it("refuses a URL that does not parse or has another protocol, without repeating it (it may hold a password)", () => {
    expect(problemsOf({ DATABASE_URL: "not a url with secret-pw" })).toEqual([
      "DATABASE_URL must be a postgres:// or postgresql:// URL (its value does not parse as a URL)",
    ]);
    expect(problemsOf({ DATABASE_URL: "mysql://app:secret-pw@db/hrms" })).toEqual([
      "DATABASE_URL must be a postgres:// or postgresql:// URL, got a mysql: URL",
    ]);
    expect(problemsOf({ DATABASE_URL: "postgresql://app:pw@db/hrms" })).toEqual([]);
    expect(problemsOf({ SMTP_URL: "http://mailer:secret-pw@smtp.example" })).toEqual([
      "SMTP_URL must be a smtp:// or smtps:// URL, got a http: URL",
    ]);
    expect(problemsOf({ PUBLIC_URL: "hr.example.com" })).toEqual([
      "PUBLIC_URL must be a http:// or https:// URL (its value does not parse as a URL)",
    ]);
    expect(problemsOf({ PUBLIC_URL: "ftp://hr.example.com" })).toEqual(["PUBLIC_URL must be a http:// or https:// URL, got a ftp: URL"]);
    expect(problemsOf({ AI_BASE_URL: "localhost:8080/v1" })).toEqual([
      "AI_BASE_URL must be a http:// or https:// URL, got a localhost: URL",
    ]);
    // origins exactly as browsers send them: no path, no upper case, http(s) only
    expect(
      problemsOf({ ALLOWED_ORIGINS: "https://ok.example, https://app.example/, ftp://files.example, https://App.example, nonsense" }),
    ).toEqual([
      "ALLOWED_ORIGINS must be a comma-separated list of origins such as https://app.example.com (scheme, " +
        'lower-case host and port only), got "https://app.example/", "ftp://files.example", "https://App.example", "nonsense"',
    ]);
  });

  it("refuses a value outside an enumeration or boolean", () => {
    expect(problemsOf({ NODE_ENV: "staging" })).toEqual(['NODE_ENV must be one of development, production, test, got "staging"']);
    expect(problemsOf({ NODE_ENV: "Production" })).toEqual(['NODE_ENV must be one of development, production, test, got "Production"']);
    expect(problemsOf({ LOG_LEVEL: "verbose" })).toEqual([
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, got "verbose"',
    ]);
    for (const name of ["MIGRATE_ON_START", "VALIDATE_RESPONSES", "RUN_WORKER"])
      expect(problemsOf({ [name]: "maybe" })).toEqual([`${name} must be true or false (or 1/0, yes/no, on/off), got "maybe"`]);
  });

  it("TRUST_PROXY: none, a number of proxy hops (true = the one proxy in front) or the proxies' addresses - never every hop", () => {
    for (const [v, b] of [
      ["true", 1],
      ["1", 1],
      ["Yes", 1],
      ["ON", 1],
      ["2", 2],
      ["false", false],
      ["0", false],
      ["no", false],
      ["Off", false],
      ["10.0.0.5", ["10.0.0.5"]],
      [" loopback, 10.0.0.0/8 ,fd00::/8", ["loopback", "10.0.0.0/8", "fd00::/8"]],
    ] as const)
      expect(loadConfig({ TRUST_PROXY: v }).trustProxy, v).toEqual(b);
    for (const bad of ["maybe", "10.0.0.0/33", "10.0.0.300", "all", ",", "::1/129", "100"])
      expect(problemsOf({ TRUST_PROXY: bad }), bad).toEqual([
        "TRUST_PROXY must be false, true (one proxy), a number of proxy hops, or the proxies' addresses/CIDRs " +
          `(comma-separated; loopback, linklocal, uniquelocal), got ${JSON.stringify(bad.trim())}`,
      ]);
  });

  it("TRUST_PROXY: a range that would trust clients is refused by its meaning, with the reason", () => {
    const why = (text: string) =>
      `TRUST_PROXY: ${text}. Any client could then write the address the limits and the audit trail take for its own into ` +
      "X-Forwarded-For: name only your proxies (their addresses or ranges), or the number of proxies in front";
    for (const [bad, text] of [
      ["0.0.0.0/0", '"0.0.0.0/0" trusts every IPv4 address'],
      ["::/0", '"::/0" trusts every IPv6 address'],
      ["::ffff:0:0/96", '"::ffff:0:0/96" trusts every IPv4 address (as IPv4-mapped IPv6 addresses)'],
      ["::/64", '"::/64" trusts every IPv4 address (as IPv4-mapped IPv6 addresses)'],
      ["loopback, 0.0.0.0/1", '"0.0.0.0/1" is wider than a /8 of IPv4: it holds clients, not only proxies'],
      ["2000::/3", '"2000::/3" is wider than a /16 of IPv6: it holds clients, not only proxies'],
      ["::ffff:0:0/100", '"::ffff:0:0/100" is wider than a /8 of IPv4 (as IPv4-mapped IPv6 addresses): it holds clients, not only proxies'],
      ["50", "50 proxy hops is more than any deployment has in front (at most 5)"],
    ] as const)
      expect(problemsOf({ TRUST_PROXY: bad }), bad).toEqual([why(text)]);
    // proxies' ranges, private networks of any width, and the presets are taken - and Express takes them
    for (const good of ["10.0.0.0/8", "172.16.0.0/12", "fc00::/7", "fe80::/10", "2400:cb00::/32", "::ffff:10.0.0.0/104", "5"]) {
      const cfg = loadConfig({ TRUST_PROXY: good });
      expect(cfg.trustProxy, good).not.toBe(false);
      // as src/http/app.ts sets it (0.0.0.0/0 used to pass the check and then throw here, at start)
      expect(() => express().set("trust proxy", cfg.trustProxy), good).not.toThrow();
    }
  });

  it("requires a real session secret and the public URL in production", () => {
    expect(problemsOf({ NODE_ENV: "production" })).toEqual([
      "SESSION_SECRET must be set to a random string of at least 32 characters in production",
      "PUBLIC_URL must be set in production (links in emails)",
    ]);
    expect(problemsOf({ NODE_ENV: "production", SESSION_SECRET: "too-short", PUBLIC_URL: "https://hr.example.com" })).toEqual([
      "SESSION_SECRET must be set to a random string of at least 32 characters in production",
    ]);
    expect(
      problemsOf({
        NODE_ENV: "production",
        SESSION_SECRET: "dev-only-insecure-session-secret-change-me",
        PUBLIC_URL: "https://hr.example.com",
      }),
    ).toHaveLength(1);
    expect(problemsOf({ NODE_ENV: "production", SESSION_SECRET: "s".repeat(32), PUBLIC_URL: "https://hr.example.com" })).toEqual([]);
  });

  it("reads exactly the variables docs/configuration.md lists (the server's), and that page is what docs-config.ts writes", () => {
    const read = new Set<string>();
    loadConfig(
      new Proxy(
        {},
        {
          get: (_t, name) => {
            read.add(String(name));
            return undefined;
          },
        },
      ),
    );
    const doc = readFileSync(path.join(root, CONFIG_DOC), "utf8");
    expect(doc, "docs/configuration.md is stale: run make generate").toBe(configurationDoc());
    const [from, to] = [doc.indexOf(SERVER_HEADING), doc.indexOf(NPM_START_HEADING)];
    expect(from).toBeGreaterThanOrEqual(0);
    expect(to).toBeGreaterThan(from);
    const section = doc.slice(from, to);
    const listed = new Set(
      section
        .split("\n")
        .filter((l) => l.startsWith("| `"))
        .flatMap((l) => [...l.split("|")[1].matchAll(/`([A-Z_]+)`/g)].map((m) => m[1])),
    );
    expect([...read].sort()).toEqual([...listed].sort());
  });

  it("names every bad variable in one error", () => {
    const env = {
      PORT: "eighty",
      DATABASE_URL: "mysql://db/hrms",
      LOG_LEVEL: "loud",
      RUN_WORKER: "sometimes",
      PAYROLL_BATCH_SIZE: "0",
      DATABASE_POOL_SIZE: "10",
    };
    let error: unknown;
    try {
      loadConfig(env);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const e = error as ConfigError;
    expect(e.problems.map((p) => p.split(" ")[0]).sort()).toEqual([
      "DATABASE_URL",
      "LOG_LEVEL",
      "PAYROLL_BATCH_SIZE",
      "PORT",
      "RUN_WORKER",
    ]);
    expect(e.message.split("\n")).toEqual([`Invalid configuration (5 variables):`, ...e.problems.map((p) => `  ${p}`)]);
    expect(e.errors.map((x: Error) => x.message)).toEqual(e.problems);
  });
});

describe("a frozen configuration", () => {
  it("the process's, loadConfig's and configWith's are deeply frozen: nothing can be assigned", () => {
    const loaded = loadConfig({ ALLOWED_ORIGINS: "https://a.example" });
    const origins = ["https://b.example"];
    const derived = configWith({ payrollSyncLimit: 0, allowedOrigins: origins }, loaded);
    for (const c of [processConfig, loaded, derived]) {
      expect(Object.isFrozen(c)).toBe(true);
      expect(Object.isFrozen(c.allowedOrigins)).toBe(true);
      // test files are ES modules (strict mode): assigning to a frozen object throws
      expect(() => ((c as { payrollSyncLimit: number }).payrollSyncLimit = 5)).toThrow(TypeError);
      expect(() => (c.allowedOrigins as string[]).push("https://evil.example")).toThrow(TypeError);
      expect(() => Object.assign(c, { smtpUrl: "smtp://x" })).toThrow(TypeError);
    }
    expect(derived).toMatchObject({
      payrollSyncLimit: 0,
      allowedOrigins: ["https://b.example"],
      databasePoolSize: loaded.databasePoolSize,
    });
    expect(loaded.payrollSyncLimit).toBe(1000);
    expect(Object.isFrozen(origins)).toBe(false); // the caller's array is copied, not frozen
  });

  it("config() is the one passed in (withConfig) across awaits and timers, the process's elsewhere", async () => {
    expect(config()).toBe(processConfig);
    const mine = configWith({ payrollBatchSize: 7 });
    const seen = await withConfig(mine, async () => {
      const first = config();
      await new Promise((r) => setTimeout(r, 5));
      const later = await new Promise<Config>((r) => setImmediate(() => r(config())));
      return [first, config(), later];
    });
    expect(seen).toEqual([mine, mine, mine]);
    expect(seen[0]).toBe(mine);
    expect(config()).toBe(processConfig);
    expect(() => withConfig({ ...mine }, () => 1)).toThrow(/frozen/);
    // nested: the inner one is in force inside it, the outer one again after it, whichever they are
    const nested = await withConfig(mine, async () => {
      const back = await withConfig(processConfig, async () => {
        await new Promise((r) => setTimeout(r, 1));
        return config();
      });
      const same = withConfig(mine, () => config());
      return [back, same, config()];
    });
    expect(nested[0]).toBe(processConfig);
    expect(nested[1]).toBe(mine);
    expect(nested[2]).toBe(mine);
    expect(withConfig(processConfig, () => config())).toBe(processConfig);
  });
});

describe("the app's configuration", () => {
  const t = useTestApp({ config: { publicUrl: "https://hr.example.com", allowedOrigins: ["https://partner.example"] } });

  it("is the one it was created with, frozen, and its requests read it (not the process's)", async () => {
    expect(t.app.locals.config).toBe(t.config);
    expect(Object.isFrozen(t.config)).toBe(true);
    expect(t.config).toMatchObject({
      publicUrl: "https://hr.example.com",
      allowedOrigins: ["https://partner.example"],
      databasePoolSize: processConfig.databasePoolSize,
    });
    const o = await signupTenant(t);
    const change = (origin: string) =>
      o.agent.post("/api/configuration/company-settings").set("Origin", origin).send({ name: "Renamed Co" });
    expect((await change("https://hr.example.com")).status).toBe(200);
    expect((await change("https://partner.example")).status).toBe(200);
    // the process's own PUBLIC_URL is not this app's
    const processOrigin = new URL(processConfig.publicUrl).origin;
    expect(processOrigin).not.toBe("https://hr.example.com");
    expect((await change(processOrigin)).status).toBe(403);
  });
});

describe("no assignment to a configuration field", () => {
  // an assignment (any operator) to a field of config, config(), t.config, processConfig, cfg, by
  // name or index; Object.assign / defineProperty on one; delete of a field
  const ASSIGNMENT = [
    /\b(?:\w*[cC]onfig|cfg)(?:\(\))?\s*(?:\.\s*\w+|\[[^\]]+\])\s*(?:[-+*/%&|^]|\*\*|<<|>>>?|&&|\|\||\?\?)?=(?!=)/,
    /\bObject\.(?:assign|defineProperty|defineProperties)\(\s*(?:\w+\.)*\w*[cC]onfig\b/,
    /\bdelete\s+(?:\w+\.)*\w*[cC]onfig(?:\(\))?\s*[.[]/,
  ];
  const assigns = (line: string) => ASSIGNMENT.some((re) => re.test(line));
  /** A line's code: string literals emptied, comments dropped. */
  const code = (line: string) =>
    line
      .replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'|`(?:[^`\\]|\\.)*`/g, '""')
      .replace(/\/\/.*$/, "")
      .replace(/^\s*(?:\*|\/\*).*$/, "");

  it("the check finds assignments and nothing else", () => {
    for (const line of [
      "config.smtpUrl = mail.url;",
      "config().payrollSyncLimit = 0",
      "t.config.aiModel ??= 'm'",
      "processConfig.port += 1",
      "config['smtpUrl'] = x",
      "cfg.trustProxy = true",
      "Object.assign(config, saved)",
      "delete config[k]",
    ])
      expect(assigns(line), line).toBe(true);
    for (const line of [
      "if (config.smtpUrl === x) {",
      "const size = config().payrollBatchSize;",
      "ctx.config = configWith({});",
      "app.locals.config = cfg;",
      "const c = configWith({ smtpUrl: 'x' })",
      "x => config.a >= 1",
      "config.a <= b",
    ])
      expect(assigns(line), line).toBe(false);
    expect(assigns(code('const s = "config.a = 1"; config.b = 2;'))).toBe(true);
    expect(assigns(code("  // config.smtpUrl = x (a comment)"))).toBe(false);
    expect(assigns(code("   * config.smtpUrl = x (a doc comment)"))).toBe(false);
  });

  it("holds for every file of src/ and test/", () => {
    const files = (dir: string): string[] =>
      readdirSync(dir).flatMap((name) => {
        const p = path.join(dir, name);
        return statSync(p).isDirectory() ? files(p) : /\.[cm]?[jt]s$/.test(name) ? [p] : [];
      });
    const all = [...files(path.join(root, "src")), ...files(path.join(root, "test"))];
    expect(all.length).toBeGreaterThan(100);
    const found = all.flatMap((f) =>
      readFileSync(f, "utf8")
        .split("\n")
        .map((line, i) => ({ at: `${path.relative(root, f)}:${i + 1}`, line }))
        .filter(({ line }) => assigns(code(line))),
    );
    expect(found).toEqual([]);
  });
});
