// Server entry point (`npm start`, `make run`): configuration, database, migrations, job worker, HTTP;
// SIGTERM/SIGINT finish in-flight requests, then close (docs/operations.md).
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { processConfig } from "./config.ts";
import { identityCache } from "./platform/identity/identity-cache.ts";
import { closeDb, databaseUrl, getHealthPool, getPool, initDb } from "./db/client.ts";
import { ensureDatabase, leaveSignalsToProgram } from "./db/embedded.ts";
import { deployMigrations } from "./db/migrations.ts";
import { createApp } from "./http/app.ts";
import { createLifecycle } from "./platform/lifecycle.ts";
import { createMetricsServer } from "./http/metrics-server.ts";
import { createServer } from "./http/server.ts";
import { startEventLoopReport } from "./lib/event-loop-report.ts";
import { registerAllJobs } from "./modules/jobs.ts";
import { jobs } from "./platform/jobs/queue.ts";
import { logger } from "./log.ts";

/** This process's configuration (checked when src/config.ts loaded), passed to the app and the job worker. */
const config = processConfig;
// EVENT_LOOP_REPORT=<file>: event-loop delay histogram written there on SIGUSR2 and at shutdown.
const loopReport = config.eventLoopReport ? startEventLoopReport(config.eventLoopReport) : null;
const database = await ensureDatabase();
// Ctrl-C and SIGTERM stop the embedded server in shutdown() below, after the connections closed
if (!config.databaseUrl) leaveSignalsToProgram();
if (config.migrateOnStart) {
  // a session advisory lock: on a direct connection, never through a transaction-mode pooler
  const applied = await deployMigrations(config.databaseDirectUrl ?? database.url, (msg) => logger.info(msg));
  if (applied.length) logger.info({ applied }, "migrations applied");
}
initDb(database.url);
await warmUp();
// readiness says no until the job worker runs (when it should) and from SIGTERM on (src/platform/lifecycle.ts)
const lifecycle = createLifecycle({ starting: true, workerExpected: config.runWorker, workerRunning: () => jobs.running });
const app = createApp({ config, lifecycle });
// requests and responses are built with the app's prototypes (src/http/server.ts), not swapped to them
const server: Server = createServer(app).listen(config.port, () => {
  // PORT=0 takes a free port: the line below says which (tests and scripts read it from here)
  const port = (server.address() as AddressInfo).port;
  const base = `http://localhost:${port}`;
  logger.info({ port, database: config.databaseUrl ? "DATABASE_URL" : `embedded (${config.embeddedDataDir})` }, "listening");
  console.log(
    `\nHRMS API listening on ${base}\n  API reference: ${base}/docs\n  ` +
      `OpenAPI document: ${base}/openapi.json\n  Health: ${base}/api/health\n` +
      (config.devMail ? `  Mail (no SMTP_URL: printed here too): ${base}/dev/mail\n` : ""),
  );
  void demoHint().then((hint) => hint && console.log(hint));
  if (!config.runWorker) lifecycle.starting = false;
});

// METRICS_PORT: Prometheus' metrics on a listener of their own (src/http/metrics-server.ts)
const metricsServer = config.metricsPort === undefined ? undefined : createMetricsServer(app);
metricsServer?.listen(config.metricsPort, config.metricsHost, () => {
  const port = (metricsServer.address() as AddressInfo).port;
  logger.info({ port, host: config.metricsHost }, "metrics listening");
  console.log(`  Metrics: http://${config.metricsHost}:${port}/metrics\n`);
});
metricsServer?.on("error", (err: NodeJS.ErrnoException) => {
  console.error(`Cannot serve the metrics on ${config.metricsHost}:${config.metricsPort}: ${err.message}`);
  process.exit(1);
});

/**
 * Opens the first requests' connections before "listening" (main pool, health, the identity cache's
 * LISTEN): on a busy machine one can take seconds. A database that does not answer is logged.
 */
async function warmUp(): Promise<void> {
  const started = Date.now();
  const results = await Promise.allSettled([
    getPool().query("SELECT 1"),
    getHealthPool().query("SELECT 1"),
    identityCache(databaseUrl())?.ready(),
  ]);
  const failed = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
  if (failed.length)
    logger.warn({ err: String(failed[0].reason?.message ?? failed[0].reason) }, "database connections not ready at start-up");
  else logger.info({ ms: Date.now() - started }, "database connections ready");
}

/** When `make seed` created the demo company, say how to sign in to it; else that `make seed` makes one. */
async function demoHint(): Promise<string | null> {
  const { demoSignIn } = await import("./platform/identity/demo.ts");
  const demo = await demoSignIn();
  return demo
    ? `  Demo company (from \`make seed\`): sign in as ${demo.email} / ${demo.password}` +
        " (pre-filled in /docs' signIn; `make seed` again lists the hr, manager and employee sign-ins)\n"
    : "  No demo data yet: `make seed` adds a demo company with 200 employees (or sign up through /docs).\n";
}
server.on("error", (err: NodeJS.ErrnoException) => {
  console.error(
    err.code === "EADDRINUSE"
      ? `Port ${config.port} is already in use: stop what holds it, or set PORT to another port (PORT=0 takes a free one).`
      : `Cannot serve: ${err.message}`,
  );
  process.exit(1);
});

if (config.runWorker) {
  registerAllJobs();
  jobs
    // pg-boss on a direct connection when DATABASE_URL is a transaction-mode pooler (DATABASE_DIRECT_URL)
    .start(config.databaseDirectUrl ?? database.url, config)
    .then(() => {
      lifecycle.starting = false;
    })
    .catch((err) => logger.error({ err: err.message }, "job worker failed to start: readiness stays 503"));
}

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  // readiness 503 while still serving, so that load balancers stop routing here first
  lifecycle.draining = true;
  const force = setTimeout(() => process.exit(1), config.shutdownDrainMs + 20_000);
  force.unref();
  if (config.shutdownDrainMs > 0) {
    logger.info({ signal, ms: config.shutdownDrainMs }, "draining: readiness answers 503, still serving");
    await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
  }
  logger.info({ signal }, "shutting down: finishing in-flight requests");
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeIdleConnections();
  });
  metricsServer?.close();
  await jobs.stop();
  await closeDb();
  await database.stop();
  try {
    loopReport?.report(signal);
  } catch (err) {
    logger.warn({ err: (err as Error).message }, "event-loop report not written");
  }
  logger.info("stopped");
  process.exit(0);
}
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
