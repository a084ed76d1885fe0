// The settings every test process runs with (test/vitest.config.ts passes them as its environment;
// a variable already set in the shell wins). They are environment variables, read by loadConfig like
// a deployment's: src/config.ts knows no test runner. The tests of a limit give their app the
// production value (test/support/limits.ts), the others run with limits no fixture reaches.
/**
 * A busy machine's slow connect is slowness, not an outage (the outage tests see refused
 * connections, which fail at once): a query waits for a connection up to 60 s (production 3 s), a
 * request for an admission slot up to 60 s (production 2 s), a transaction may take 15 s
 * (production 5 s). Also the settings of the servers the SDK journeys and Schemathesis run against.
 */
export const busyMachine: Record<string, string> = {
  DATABASE_POOL_TIMEOUT_MS: "60000",
  REQUEST_QUEUE_TIMEOUT_MS: "60000",
  DATABASE_TRANSACTION_TIMEOUT_MS: "15000",
};

const settings: Record<string, string> = {
  NODE_ENV: "test",
  LOG_LEVEL: "silent",
  LOG_FORMAT: "json",
  // mail stays in the outbox, read by the tests (test/support/mail.ts); dev-mail.test.ts turns the page on
  DEV_MAIL: "false",
  // a test sees a change of identity at once; the identity cache's own tests turn it on
  IDENTITY_CACHE_TTL_MS: "0",
  // no timer left behind by a file's app
  SESSION_PRUNE_SECONDS: "0",
  // scrypt at N = 2^10 instead of production's 2^14: the suite signs up and in some thousand times, and
  // the cost is a setting like any other (test/platform/auth.test.ts proves production's and the upgrade)
  PASSWORD_HASH_COST: "10",
  // test/platform/overload.test.ts sets tight limits of its own
  ...busyMachine,
  // fixtures sign up many companies from one address and invite many people, and a file makes more
  // requests within a minute than a client may: the limits no fixture reaches (their own tests use
  // the production values)
  SIGNUP_MAX_PER_IP: "1000",
  INVITES_PER_TENANT_PER_DAY: "10000",
  INVITES_PER_NEW_TENANT_PER_DAY: "10000",
  INVITES_PER_USER_PER_HOUR: "10000",
  INVITES_PER_ADDRESS_PER_DAY: "10000",
  INVITES_PER_RECIPIENT_PER_DAY: "10000",
  RATE_LIMIT_PER_TENANT: "1000000",
  RATE_LIMIT_PER_CALLER: "1000000",
  RATE_LIMIT_PER_IP: "1000000",
  // a webhook to loopback is refused as in production; the delivery tests that run a receiver allow it
  WEBHOOK_ALLOW_LOOPBACK: "false",
};

/** The test processes' environment: these settings, each unless the shell sets it. */
export const testEnv: Record<string, string> = Object.fromEntries(
  Object.entries(settings).map(([name, value]) => [name, process.env[name] ?? value]),
);
