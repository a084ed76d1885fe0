// deployMigrations (src/db/migrations.ts): concurrent starts, Prisma-compatible bookkeeping,
// refusal of edited or failed migrations, one transaction per migration.
import { createHash, randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { MIGRATIONS_DIR, deployMigrations, migrationStatus, readMigrations } from "../src/db/migrations.ts";

// The server of the shared harness (test/support/global-setup.ts) when it runs, else the
// environment's, else the local default.
const adminUrl =
  (inject as (key: string) => string | undefined)("adminUrl") ||
  process.env.TEST_DATABASE_URL ||
  process.env.DATABASE_URL ||
  "postgres://postgres@127.0.0.1:5432/postgres";

const created: string[] = [];

function urlFor(database: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${database}`;
  return u.toString();
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>, database?: string): Promise<T> {
  const c = new pg.Client({ connectionString: database ? urlFor(database) : adminUrl });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

async function freshDatabase(): Promise<string> {
  const name = `mig_test_${process.pid}_${randomBytes(4).toString("hex")}`;
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  created.push(name);
  return name;
}

afterAll(async () => {
  for (const name of created) await admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
});

describe("deployMigrations", () => {
  let db: string;
  const files = readMigrations();

  beforeAll(async () => {
    db = await freshDatabase();
  });

  it("applies every migration exactly once when two instances start together", async () => {
    const names = (await files).map((m) => m.name);
    expect(names.length).toBeGreaterThan(0);

    const [a, b] = await Promise.all([deployMigrations(urlFor(db)), deployMigrations(urlFor(db))]);
    // One of them applied everything (under the advisory lock), the other found nothing pending.
    expect([a, b].map((r) => r.length).sort((x, y) => x - y)).toEqual([0, names.length]);
    expect([...a, ...b]).toEqual(names);

    const rows = await admin(
      (c) =>
        c.query<{ migration_name: string; n: number; checksum: string; done: boolean; steps: number }>(
          `SELECT migration_name, count(*)::int AS n, min(checksum) AS checksum,
                  bool_and(finished_at IS NOT NULL AND rolled_back_at IS NULL) AS done,
                  min(applied_steps_count) AS steps
             FROM _prisma_migrations GROUP BY migration_name ORDER BY migration_name`,
        ),
      db,
    );
    expect(rows.rows.map((r) => r.migration_name)).toEqual(names);
    for (const r of rows.rows) {
      expect(r).toMatchObject({ n: 1, done: true, steps: 1 });
      const sql = readFileSync(path.join(MIGRATIONS_DIR, r.migration_name, "migration.sql"));
      expect(r.checksum).toBe(createHash("sha256").update(sql).digest("hex"));
    }
  });

  it("creates the schema: tables, composite keys, extensions", async () => {
    const tables = await admin((c) => c.query<{ t: string }>(`SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public'`), db);
    expect(tables.rows.map((r) => r.t)).toEqual(
      expect.arrayContaining(["_prisma_migrations", "users", "tenants", "memberships", "employees", "session"]),
    );
    const ext = await admin((c) => c.query<{ e: string }>(`SELECT extname AS e FROM pg_extension`), db);
    expect(ext.rows.map((r) => r.e)).toEqual(expect.arrayContaining(["citext", "pg_trgm"]));
    const pk = await admin(
      (c) => c.query<{ def: string }>(`SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'employees_pkey'`),
      db,
    );
    expect(pk.rows[0]?.def).toBe("PRIMARY KEY (tenant_id, id)");
  });

  it("is a no-op when up to date, and reports the status", async () => {
    expect(await deployMigrations(urlFor(db))).toEqual([]);
    const status = await migrationStatus(urlFor(db));
    expect(status).toEqual({
      applied: (await files).map((m) => m.name),
      pending: [],
      failed: [],
      modified: [],
      missing: [],
    });
  });

  it("refuses when an applied migration's file no longer matches its checksum", async () => {
    const first = (await files)[0]!.name;
    const tamper = (checksum: string) =>
      admin((c) => c.query(`UPDATE _prisma_migrations SET checksum = $1 WHERE migration_name = $2`, [checksum, first]), db);
    const original = createHash("sha256")
      .update(readFileSync(path.join(MIGRATIONS_DIR, first, "migration.sql")))
      .digest("hex");
    await tamper("0".repeat(64));
    try {
      await expect(deployMigrations(urlFor(db))).rejects.toThrow(/modified after being applied.*checksum/s);
      expect((await migrationStatus(urlFor(db))).modified).toEqual([first]);
    } finally {
      await tamper(original);
    }
    expect(await deployMigrations(urlFor(db))).toEqual([]);
  });

  it("refuses when a migration is recorded as failed", async () => {
    await admin(
      (c) =>
        c.query(
          `INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at)
           VALUES ('00000000-0000-0000-0000-000000000001', 'x', '29990101000000_broken', now())`,
        ),
      db,
    );
    try {
      await expect(deployMigrations(urlFor(db))).rejects.toThrow(/29990101000000_broken.*failed/);
      expect((await migrationStatus(urlFor(db))).failed).toEqual(["29990101000000_broken"]);
    } finally {
      await admin((c) => c.query(`DELETE FROM _prisma_migrations WHERE migration_name = '29990101000000_broken'`), db);
    }
  });
});

describe("deployMigrations with a failing migration", () => {
  let dir: string;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), "mig-test-"));
    const write = (name: string, sql: string) => {
      mkdirSync(path.join(dir, name));
      writeFileSync(path.join(dir, name, "migration.sql"), sql);
    };
    write("20000101000000_good", `CREATE TABLE good (id int PRIMARY KEY);`);
    write("20000102000000_bad", `CREATE TABLE half (id int);\nINSERT INTO good VALUES (1), (1);`);
    write("20000103000000_later", `CREATE TABLE later (id int);`);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("rolls the failing migration back entirely, records nothing for it and stops there", async () => {
    const db = await freshDatabase();
    await expect(deployMigrations(urlFor(db), () => {}, dir)).rejects.toThrow(/20000102000000_bad failed.*rolled back/);
    const state = await admin(
      async (c) => ({
        rows: (await c.query(`SELECT migration_name FROM _prisma_migrations ORDER BY 1`)).rows.map(
          (r: { migration_name: string }) => r.migration_name,
        ),
        tables: (await c.query(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`)).rows.map(
          (r: { tablename: string }) => r.tablename,
        ),
      }),
      db,
    );
    expect(state.rows).toEqual(["20000101000000_good"]);
    expect(state.tables).toEqual(["_prisma_migrations", "good"]);
    expect((await migrationStatus(urlFor(db), dir)).pending).toEqual(["20000102000000_bad", "20000103000000_later"]);
  });
});
