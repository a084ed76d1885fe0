// A database of a script's own for the measuring scripts (load, overload, event loop, start-up): on
// the server of TEST_DATABASE_URL / DATABASE_URL, or on a throw-away embedded PostgreSQL in a
// temporary folder on a free port. `drop()` removes the database, and the server and folder when
// they were made here.
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { startThrowawayServer } from "../../src/db/embedded.ts";
import { ownPostgres } from "../support/owned-processes.ts";

export interface ScratchDatabase {
  url: string;
  drop: () => Promise<void>;
}

/** Creates (afresh) the database `hrms_<name>_<pid>` (SCRATCH_DB_PREFIX instead of `hrms_`, e.g. on a shared server). */
export async function scratchDatabase(name: string): Promise<ScratchDatabase> {
  let adminUrl = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  let stopServer: (() => Promise<void>) | undefined;
  let dir: string | undefined;
  if (!adminUrl) {
    dir = mkdtempSync(path.join(tmpdir(), `hrms-${name}-pg-`));
    chmodSync(dir, 0o755); // the server runs as the `postgres` user when we are root
    const s = await startThrowawayServer(path.join(dir, "data"));
    ownPostgres(path.join(dir, "data"));
    adminUrl = s.url;
    stopServer = s.stop;
  }
  const dbName = `${(process.env.SCRATCH_DB_PREFIX ?? "hrms_").replace(/\W/g, "_")}${name.replace(/\W/g, "_")}_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`);
  await admin.query(`CREATE DATABASE "${dbName}"`);
  const u = new URL(adminUrl);
  u.pathname = `/${dbName}`;
  return {
    url: u.toString(),
    drop: async () => {
      await admin.query(`DROP DATABASE IF EXISTS "${dbName}" WITH (FORCE)`).catch(() => {});
      await admin.end();
      await stopServer?.();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
