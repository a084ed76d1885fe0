// Applies prisma/migrations/<name>/migration.sql with plain `pg`, keeping Prisma's `_prisma_migrations`
// bookkeeping. Concurrent starts serialise on Prisma Migrate's session advisory lock; each migration runs
// in one transaction with its bookkeeping row (so no CREATE INDEX CONCURRENTLY); a changed applied file or
// a recorded failure stops the run for a human (docs/operations.md, "Rolling upgrades").
import { createHash, randomUUID } from "node:crypto";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import pg from "pg";
import { projectRoot } from "../root.ts";

/** Folder holding `<name>/migration.sql`: prisma/migrations of the project (from the sources or the build). */
export const MIGRATIONS_DIR = path.join(projectRoot, "prisma", "migrations");

/** Advisory-lock key used by Prisma Migrate itself (so a Prisma CLI run also serialises with us). */
const ADVISORY_LOCK_KEY = 72707369;
/** How long to wait for another instance that is migrating before giving up. */
const LOCK_TIMEOUT = "10min";

const MIGRATIONS_TABLE = "_prisma_migrations";

// Exactly Prisma's DDL for the table (schema-engine, postgres flavour).
const CREATE_TABLE_SQL = `CREATE TABLE IF NOT EXISTS "${MIGRATIONS_TABLE}" (
    "id"                    VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"              VARCHAR(64) NOT NULL,
    "finished_at"           TIMESTAMPTZ,
    "migration_name"        VARCHAR(255) NOT NULL,
    "logs"                  TEXT,
    "rolled_back_at"        TIMESTAMPTZ,
    "started_at"            TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count"   INTEGER NOT NULL DEFAULT 0
)`;

export interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

interface MigrationRow {
  id: string;
  checksum: string;
  finished_at: Date | null;
  migration_name: string;
  logs: string | null;
  rolled_back_at: Date | null;
  started_at: Date;
}

export interface MigrationStatus {
  /** Migrations recorded as applied, in order of the folder (then unknown ones). */
  applied: string[];
  /** Migrations in the folder that are not applied yet. */
  pending: string[];
  /** Recorded as started but neither finished nor rolled back. */
  failed: string[];
  /** Applied, but the file's checksum no longer matches the recorded one. */
  modified: string[];
  /** Recorded as applied in the database but absent from the migrations folder. */
  missing: string[];
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

/** Prisma accepts a script whose line endings changed (git autocrlf); so do we. */
function checksumMatches(sql: string, checksum: string): boolean {
  if (sha256(sql) === checksum) return true;
  const lf = sql.replace(/\r\n/g, "\n");
  return sha256(lf) === checksum || sha256(lf.replace(/\n/g, "\r\n")) === checksum;
}

/** The migrations of the folder in lexical order (the order Prisma applies them in). */
export async function readMigrations(dir: string = MIGRATIONS_DIR): Promise<MigrationFile[]> {
  if (!existsSync(dir)) return [];
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const out: MigrationFile[] = [];
  for (const name of names) {
    const file = path.join(dir, name, "migration.sql");
    if (!existsSync(file)) throw new Error(`Migration folder ${name} has no migration.sql (${file})`);
    const sql = await readFile(file, "utf8");
    out.push({ name, sql, checksum: sha256(sql) });
  }
  return out;
}

/** `?schema=` of a Prisma-style URL (pg ignores it); Prisma's default is "public". */
function schemaOf(connectionString: string): string | undefined {
  try {
    return new URL(connectionString).searchParams.get("schema") ?? undefined;
  } catch {
    return undefined;
  }
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}

async function connect(connectionString: string, createSchema: boolean): Promise<pg.Client> {
  const client = new pg.Client({ connectionString, application_name: "migrations" });
  // A dead connection must reject the pending query rather than crash the process.
  client.on("error", () => {});
  try {
    await client.connect();
    const schema = schemaOf(connectionString);
    if (schema) {
      if (createSchema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
      await client.query(`SET search_path TO ${quoteIdent(schema)}`);
    }
    return client;
  } catch (err) {
    await client.end().catch(() => {});
    throw err;
  }
}

async function readRows(client: pg.Client): Promise<MigrationRow[] | null> {
  const exists = await client.query<{ t: string | null }>(`SELECT to_regclass(quote_ident(current_schema()) || '.' || $1)::text AS t`, [
    MIGRATIONS_TABLE,
  ]);
  if (!exists.rows[0]?.t) return null;
  const res = await client.query<MigrationRow>(
    `SELECT id, checksum, finished_at, migration_name, logs, rolled_back_at, started_at
       FROM "${MIGRATIONS_TABLE}" ORDER BY started_at, migration_name`,
  );
  return res.rows;
}

function computeStatus(files: MigrationFile[], rows: MigrationRow[]): MigrationStatus {
  const live = rows.filter((r) => r.rolled_back_at === null);
  const failedRows = live.filter((r) => r.finished_at === null);
  const appliedRows = new Map<string, MigrationRow>();
  for (const r of live) if (r.finished_at !== null) appliedRows.set(r.migration_name, r);
  const fileNames = new Set(files.map((f) => f.name));
  const status: MigrationStatus = {
    applied: [],
    pending: [],
    failed: failedRows.map((r) => r.migration_name),
    modified: [],
    missing: [...appliedRows.keys()].filter((n) => !fileNames.has(n)),
  };
  for (const f of files) {
    const row = appliedRows.get(f.name);
    if (row) {
      status.applied.push(f.name);
      if (!checksumMatches(f.sql, row.checksum)) status.modified.push(f.name);
    } else if (!status.failed.includes(f.name)) {
      status.pending.push(f.name);
    }
  }
  status.applied.push(...status.missing);
  return status;
}

function refuseIfBroken(status: MigrationStatus): void {
  if (status.failed.length > 0) {
    throw new Error(
      `Refusing to migrate: migration(s) ${status.failed.join(", ")} recorded as failed in ${MIGRATIONS_TABLE} ` +
        `(started but never finished). Inspect the database, then mark them rolled back ` +
        `(UPDATE "${MIGRATIONS_TABLE}" SET rolled_back_at = now() WHERE migration_name = '…') or fix them by hand.`,
    );
  }
  if (status.modified.length > 0) {
    throw new Error(
      `Refusing to migrate: applied migration(s) ${status.modified.join(", ")} were modified after being applied ` +
        `(checksum of migration.sql no longer matches ${MIGRATIONS_TABLE}). Restore the original file(s) and ` +
        `put the change in a new migration.`,
    );
  }
}

/** Applies every pending migration, each in its own transaction, under an advisory lock; returns the names applied. */
export async function deployMigrations(
  connectionString: string,
  log: (msg: string) => void = () => {},
  migrationsDir: string = MIGRATIONS_DIR,
): Promise<string[]> {
  const files = await readMigrations(migrationsDir);
  const client = await connect(connectionString, true);
  const applied: string[] = [];
  let locked = false;
  try {
    await client.query(`SET lock_timeout = '${LOCK_TIMEOUT}'`);
    await client.query("SELECT pg_advisory_lock($1)", [ADVISORY_LOCK_KEY]);
    locked = true;
    await client.query("SET lock_timeout = DEFAULT");

    await client.query(CREATE_TABLE_SQL);
    const status = computeStatus(files, (await readRows(client)) ?? []);
    refuseIfBroken(status);
    for (const name of status.missing) {
      log(`migration ${name} is recorded as applied but missing from ${migrationsDir} (newer code deployed?)`);
    }

    const pending = new Set(status.pending);
    for (const m of files) {
      if (!pending.has(m.name)) continue;
      const started = Date.now();
      await client.query("BEGIN");
      try {
        const id = randomUUID();
        await client.query(
          `INSERT INTO "${MIGRATIONS_TABLE}" (id, checksum, migration_name, started_at, applied_steps_count)
           VALUES ($1, $2, $3, clock_timestamp(), 0)`,
          [id, m.checksum, m.name],
        );
        // No parameters: simple-query protocol, the whole multi-statement script in one round trip.
        await client.query(m.sql);
        await client.query(`UPDATE "${MIGRATIONS_TABLE}" SET finished_at = clock_timestamp(), applied_steps_count = 1 WHERE id = $1`, [id]);
        await client.query("COMMIT");
      } catch (err) {
        await client.query("ROLLBACK").catch(() => {});
        const e = err as Error & { position?: string };
        throw new Error(
          `Migration ${m.name} failed and was rolled back: ${e.message}` +
            (e.position ? ` (at character ${e.position} of migration.sql)` : ""),
          { cause: err },
        );
      }
      applied.push(m.name);
      log(`applied migration ${m.name} (${Date.now() - started} ms)`);
    }
    return applied;
  } finally {
    if (locked) await client.query("SELECT pg_advisory_unlock($1)", [ADVISORY_LOCK_KEY]).catch(() => {});
    await client.end().catch(() => {});
  }
}

/** Compares the migrations folder with `_prisma_migrations` (read-only, takes no lock). */
export async function migrationStatus(connectionString: string, migrationsDir: string = MIGRATIONS_DIR): Promise<MigrationStatus> {
  const files = await readMigrations(migrationsDir);
  const client = await connect(connectionString, false);
  try {
    return computeStatus(files, (await readRows(client)) ?? []);
  } finally {
    await client.end().catch(() => {});
  }
}
