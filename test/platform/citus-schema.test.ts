// Citus-ready keys (docs/scaling.md), read from the catalog of the migrated database: every
// tenant-owned table (any table with a `tenant_id` column that is not listed as central below) has
// `tenant_id` leading its primary key and every unique constraint and unique index (partial ones
// too), and every foreign key between two tenant-owned tables carries `tenant_id` on both sides, at
// the same position. Then distributing all of them by tenant_id keeps every key enforceable on one
// shard and every join between them co-located.
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase } from "../support/app.ts";

/**
 * Central tables: not distributed by tenant (docs/scaling.md says which become reference tables
 * and which stay on the coordinator). A new table is either tenant-owned (has `tenant_id` and is
 * checked) or listed here.
 */
const CENTRAL = [
  "_prisma_migrations",
  "auth_throttle",
  "billing_customers", // tenant_id is a value here (the customer -> company lookup), not the owner
  "billing_events", // tenant_id is a value here (the company an event named, if any)
  "email_outbox",
  "known_clients", // a user's known browsers (sign-in lockout), not a company's
  "password_reset_requests",
  "password_reset_tokens",
  "session",
  "signup_requests",
  "tenants",
  "usage_counters",
  "users",
];

/** The offending keys of the database `c` is connected to, one line each. */
async function citusOffences(c: pg.Client): Promise<string[]> {
  const { rows: tables } = await c.query<{ name: string; tenant: boolean }>(
    `SELECT t.relname AS name,
            EXISTS (SELECT 1 FROM pg_attribute a WHERE a.attrelid = t.oid AND a.attname = 'tenant_id' AND NOT a.attisdropped) AS tenant
       FROM pg_class t JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = current_schema() AND t.relkind IN ('r', 'p')
      ORDER BY 1`,
  );
  const owned = new Set(tables.filter((t) => t.tenant && !CENTRAL.includes(t.name)).map((t) => t.name));
  const offences = tables
    .filter((t) => !t.tenant && !CENTRAL.includes(t.name))
    .map((t) => `${t.name}: no tenant_id column and not listed as a central table`);

  // Primary keys and unique indexes (those of UNIQUE constraints included): tenant_id first.
  const { rows: keys } = await c.query<{ table: string; name: string; primary: boolean; first: string | null; def: string }>(
    `SELECT t.relname AS table, i.relname AS name, x.indisprimary AS primary,
            (SELECT a.attname FROM pg_attribute a WHERE a.attrelid = t.oid AND a.attnum = x.indkey[0]) AS first,
            pg_get_indexdef(x.indexrelid) AS def
       FROM pg_index x JOIN pg_class t ON t.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = current_schema() AND x.indisunique
      ORDER BY 1, 2`,
  );
  const primaries = new Set<string>();
  for (const k of keys) {
    if (!owned.has(k.table)) continue;
    if (k.primary) primaries.add(k.table);
    if (k.first !== "tenant_id")
      offences.push(`${k.table}: ${k.primary ? "primary key" : "unique index"} ${k.name} does not lead with tenant_id (${k.def})`);
  }
  for (const t of owned) if (!primaries.has(t)) offences.push(`${t}: no primary key`);

  // Foreign keys between tenant-owned tables: tenant_id -> tenant_id, in the same position.
  const { rows: fks } = await c.query<{ table: string; name: string; target: string; cols: string[]; refs: string[]; def: string }>(
    `SELECT t.relname AS table, k.conname AS name, r.relname AS target,
            array(SELECT a.attname::text FROM unnest(k.conkey) WITH ORDINALITY u(n, o)
                    JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.n ORDER BY u.o) AS cols,
            array(SELECT a.attname::text FROM unnest(k.confkey) WITH ORDINALITY u(n, o)
                    JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.n ORDER BY u.o) AS refs,
            pg_get_constraintdef(k.oid) AS def
       FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid JOIN pg_class r ON r.oid = k.confrelid
       JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = current_schema() AND k.contype = 'f'
      ORDER BY 1, 2`,
  );
  for (const f of fks) {
    if (!owned.has(f.table) || !owned.has(f.target)) continue;
    const at = f.cols.indexOf("tenant_id");
    if (at < 0 || f.refs[at] !== "tenant_id")
      offences.push(`${f.table}: foreign key ${f.name} to ${f.target} does not map tenant_id to tenant_id (${f.def})`);
  }
  return offences;
}

describe("Citus-ready keys of the migrated schema", () => {
  let client: pg.Client;
  let drop: () => Promise<void>;

  beforeAll(async () => {
    const database = await createTestDatabase();
    drop = database.drop;
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  });

  afterAll(async () => {
    await client?.end();
    await drop?.();
  });

  it("every tenant-owned table leads its primary key and unique keys with tenant_id, and its foreign keys carry it", async () => {
    expect(await citusOffences(client)).toEqual([]);
  });

  it("reports each kind of offending key (the check itself)", async () => {
    await client.query("BEGIN");
    try {
      await client.query(`
        CREATE TABLE probe_parent (tenant_id uuid NOT NULL, id uuid NOT NULL, code text, PRIMARY KEY (id, tenant_id));
        CREATE UNIQUE INDEX probe_parent_id_key ON probe_parent (id);
        CREATE UNIQUE INDEX probe_parent_live_code_key ON probe_parent (code, tenant_id) WHERE code IS NOT NULL;
        CREATE TABLE probe_child (tenant_id uuid NOT NULL, id uuid NOT NULL, parent_id uuid,
          PRIMARY KEY (tenant_id, id), FOREIGN KEY (parent_id) REFERENCES probe_parent (id));
        CREATE TABLE probe_central (id uuid PRIMARY KEY);`);
      const found = (await citusOffences(client))
        .filter((o) => o.startsWith("probe_"))
        .map((o) => o.replace(/ \(.*$/, ""))
        .sort();
      expect(found).toEqual([
        "probe_central: no tenant_id column and not listed as a central table",
        "probe_child: foreign key probe_child_parent_id_fkey to probe_parent does not map tenant_id to tenant_id",
        "probe_parent: primary key probe_parent_pkey does not lead with tenant_id",
        "probe_parent: unique index probe_parent_id_key does not lead with tenant_id",
        "probe_parent: unique index probe_parent_live_code_key does not lead with tenant_id",
      ]);
    } finally {
      await client.query("ROLLBACK");
    }
  });
});
