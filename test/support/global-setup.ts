// Once per test run: find a PostgreSQL server (TEST_DATABASE_URL or DATABASE_URL, else an
// embedded one in a temporary folder), and build a template database with every migration
// applied. Each test file clones the template into a database of its own (test/support/app.ts),
// so files run in parallel without seeing each other's data.
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import type { TestProject } from "vitest/node";
import { removeStaleThrowawayFolders, startThrowawayServer, throwawayParent } from "../../src/db/embedded.ts";
import { buildServer } from "./server-process.ts";
import { deployMigrations, MIGRATIONS_DIR } from "../../src/db/migrations.ts";

declare module "vitest" {
  export interface ProvidedContext {
    adminUrl: string;
    templateDb: string;
    /** Prefix of this run's per-file databases (test/support/app.ts), dropped at the end of the run. */
    runDbPrefix: string;
    /** The server as production runs it (`npm start`'s entry), built once for the run: test/support/server-entry.ts. */
    serverEntry: string;
  }
}

/**
 * The suite's own server only (never a deployment's, nor the benchmarks'): a database lives for one
 * test file, so autovacuum's workers and analyses would only spend CPU on data that is dropped
 * minutes later; nothing streams its WAL, so it carries the minimum.
 */
const TEST_SERVER_SETTINGS = ["autovacuum=off", "wal_level=minimal", "max_wal_senders=0"];

function migrationsHash(): string {
  const h = createHash("sha256");
  for (const name of readdirSync(MIGRATIONS_DIR).sort()) {
    try {
      h.update(name).update(readFileSync(path.join(MIGRATIONS_DIR, name, "migration.sql")));
    } catch {
      /* not a migration folder */
    }
  }
  return h.digest("hex").slice(0, 12);
}

/**
 * The suite's own server only: its password kept, but stored with one SCRAM iteration instead of 4 096.
 * A run opens about 1 700 connections, and the iterations cost each about 2.5 ms of PostgreSQL's
 * CPU and 0.4 ms of the client's (the password is the well-known one of a throw-away server anyway).
 */
async function cheapSignIn(adminUrl: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const password = decodeURIComponent(new URL(adminUrl).password);
    await admin.query("SET scram_iterations = 1");
    await admin.query(`ALTER ROLE CURRENT_USER PASSWORD ${admin.escapeLiteral(password)}`);
  } finally {
    await admin.end();
  }
}

export default async function setup(project: TestProject) {
  // the server as production runs it, for the tests that start it as a process (test/support/server-entry.ts)
  const built = buildServer("test-server-");
  built.catch(() => {}); // awaited below, after the database
  let adminUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  let stop: (() => Promise<void>) | undefined;
  let dataDir: string | undefined;
  if (!adminUrl) {
    removeStaleThrowawayFolders("hrms-test-pg-");
    dataDir = mkdtempSync(path.join(throwawayParent(), "hrms-test-pg-"));
    chmodSync(dataDir, 0o755); // the embedded server runs as the `postgres` user when we are root
    const server = await startThrowawayServer(path.join(dataDir, "data"), false, TEST_SERVER_SETTINGS);
    adminUrl = server.url;
    stop = server.stop;
    await cheapSignIn(adminUrl);
  }
  const templateDb = `hrms_test_tmpl_${migrationsHash()}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query("SELECT pg_advisory_lock(4242)");
    const { rowCount } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [templateDb]);
    if (!rowCount) {
      const building = `${templateDb}_building_${process.pid}`;
      await admin.query(`DROP DATABASE IF EXISTS "${building}"`);
      await admin.query(`CREATE DATABASE "${building}"`);
      const u = new URL(adminUrl);
      u.pathname = `/${building}`;
      await deployMigrations(u.toString());
      await admin.query(`ALTER DATABASE "${building}" RENAME TO "${templateDb}"`);
    }
    await admin.query("SELECT pg_advisory_unlock(4242)");
  } finally {
    await admin.end();
  }
  const runDbPrefix = `hrms_test_${randomBytes(4).toString("hex")}_`;
  project.provide("adminUrl", adminUrl);
  project.provide("templateDb", templateDb);
  project.provide("runDbPrefix", runDbPrefix);
  const server = await built;
  project.provide("serverEntry", server.entry);
  return async () => {
    // a worker prepares the database of its next file ahead; after its last file one is left over
    if (!stop) await dropRunDatabases(adminUrl, runDbPrefix);
    await stop?.();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    server.remove();
  };
}

/** Drops what is left of this run's per-file databases on a shared server (none is in use any more). */
async function dropRunDatabases(adminUrl: string, prefix: string): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ datname: string }>("SELECT datname FROM pg_database WHERE starts_with(datname, $1)", [prefix]);
    for (const { datname } of rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`).catch(() => {});
  } finally {
    await admin.end();
  }
}
