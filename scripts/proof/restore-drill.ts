// The backup and restore drill of `make verify` (VERIFY_ONLY=restore; alone:
// `npx tsx scripts/proof/restore-drill.ts`), as docs/operations.md "Backup and restore" describes the
// procedure:
//   1. a throw-away PostgreSQL (Debian's PostgreSQL 15 server binaries, whose pg_dump and pg_restore
//      match it; installed with apt-get when missing) with the schema, seeded with tenants, employees,
//      leave allocations (ledger entries) and uploaded files through a running server;
//   2. writes go on through the server (employees created, files uploaded) during the whole backup;
//   3. the backup point is a snapshot exported by a REPEATABLE READ transaction: every tenant's row
//      count of every tenant-owned table, the central tables' counts and a checksum of each
//      tenant's leave ledger are read in it, and `pg_dump -Fc --snapshot` dumps exactly it; then the
//      upload folder is copied (files are content-addressed and never change: a copy taken after
//      the dump holds every file the dump's rows name);
//   4. a fresh server: `pg_restore` into a new database, the copied folder as its UPLOAD_DIR;
//   5. the restored database's counts and checksums equal the backup point's (and the source has
//      moved on meanwhile), every file row has its bytes, and a server started on it is ready,
//      signs a seeded user in, lists as many employees as the backup point held and serves an
//      uploaded file byte for byte.
// Fails on any difference. Prints the figures (sizes, durations).
import { execFileSync, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { chmodSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { ensureTraversable, freePort } from "../../src/db/embedded.ts";
import { ownPostgres, trackOwnedProcesses } from "../support/owned-processes.ts";
import { deployMigrations } from "../../src/db/migrations.ts";
import { ensureDebianPackage } from "../support/ensure-debian.ts";
import { json, leaveSetup, PASSWORD, type RouteContext, seed, startProcess, table } from "../measure/load.ts";
import { productionServerArgs } from "../measure/production-server.ts";

const root = path.resolve(import.meta.dirname, "../..");
const PG15 = "/usr/lib/postgresql/15/bin";
const asRoot = process.getuid?.() === 0;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function ids(): { uid?: number; gid?: number } {
  if (!asRoot) return {};
  return {
    uid: Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" })),
    gid: Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" })),
  };
}

function run(bin: string, args: string[], asPostgres = true): string {
  const r = spawnSync(path.join(PG15, bin), args, {
    ...(asPostgres ? ids() : {}),
    encoding: "utf8",
    env: { ...process.env, LC_MESSAGES: "C" },
  });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(" ")}: ${r.stderr || r.stdout}`);
  return r.stdout;
}

interface Server {
  dir: string;
  port: number;
  url: (db?: string) => string;
  stop: () => void;
}

/** A PostgreSQL 15 server in `dir` on a free loopback port (trust authentication: a throw-away one). */
async function startServer(dir: string): Promise<Server> {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  ensureTraversable(path.dirname(dir));
  if (asRoot) execFileSync("chown", ["postgres:postgres", dir]);
  chmodSync(dir, 0o700);
  run("initdb", ["-D", dir, "-U", "postgres", "--auth=trust", "--encoding=UTF8", "--locale=C.UTF-8"]);
  const port = await freePort();
  run("pg_ctl", [
    "-D",
    dir,
    "-l",
    path.join(dir, "server.log"),
    "-o",
    `-p ${port} -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off -c max_connections=100`,
    "-w",
    "start",
  ]);
  ownPostgres(dir);
  return {
    dir,
    port,
    url: (db = "hrms") => `postgres://postgres@127.0.0.1:${port}/${db}`,
    stop: () => {
      if (existsSync(path.join(dir, "postmaster.pid"))) run("pg_ctl", ["-D", dir, "-m", "fast", "-w", "stop"]);
    },
  };
}

/** What the backup point must restore: per table and tenant counts, central counts, ledger checksums. */
async function figures(c: pg.Client): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  const { rows: tables } = await c.query<{ table_name: string }>(
    `SELECT c.table_name FROM information_schema.columns c JOIN information_schema.tables t USING (table_schema, table_name)
      WHERE c.table_schema = 'public' AND c.column_name = 'tenant_id' AND t.table_type = 'BASE TABLE' ORDER BY 1`,
  );
  for (const { table_name } of tables) {
    const { rows } = await c.query(`SELECT tenant_id::text AS t, count(*)::int AS n FROM "${table_name}" GROUP BY 1`);
    for (const r of rows) out.set(`${table_name} ${r.t}`, String(r.n));
  }
  for (const central of ["tenants", "users", "memberships", "files", "session", "email_outbox", "_prisma_migrations"]) {
    const { rows } = await c.query(`SELECT count(*)::int AS n FROM "${central}"`);
    out.set(central, String(rows[0].n));
  }
  const { rows: ledger } = await c.query(
    `SELECT l.tenant_id::text AS t, count(*)::int AS n, md5(string_agg(l::text, '|' ORDER BY l.id)) AS sum
       FROM leave_ledger_entries l GROUP BY 1`,
  );
  for (const r of ledger) out.set(`ledger checksum ${r.t}`, `${r.n} rows, md5 ${r.sum}`);
  return out;
}

export interface DrillReport {
  rows: string[][];
  checks: { check: string; result: "pass" | "FAIL"; details: string }[];
  problems: string[];
}

export async function runRestoreDrill(opts: { log?: (s: string) => void } = {}): Promise<DrillReport> {
  const log = opts.log ?? ((s: string) => console.log(s));
  const checks: DrillReport["checks"] = [];
  const problems: string[] = [];
  const check = (name: string, ok: boolean, details: string) => {
    checks.push({ check: name, result: ok ? "pass" : "FAIL", details });
    if (!ok) problems.push(`${name}: ${details}`);
  };
  ensureDebianPackage("postgresql-15", [path.join(PG15, "pg_ctl")]);
  ensureDebianPackage("postgresql-client-15", [path.join(PG15, "pg_dump")]);
  const dir = path.join(root, ".data", "restore-drill");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const procs: { kill: (s: NodeJS.Signals) => boolean; exitCode: number | null }[] = [];
  const servers: Server[] = [];
  const rows: string[][] = [];
  try {
    // 1. the source, seeded through a running server
    const source = await startServer(path.join(dir, "source"));
    servers.push(source);
    execFileSync(path.join(PG15, "createdb"), ["-h", "127.0.0.1", "-p", String(source.port), "-U", "postgres", "hrms"]);
    await deployMigrations(source.url());
    const { users } = await seed(source.url(), 3, Number(process.env.RESTORE_EMPLOYEES ?? 3000));
    const uploads = path.join(dir, "uploads-source");
    const env = {
      NODE_ENV: "development",
      SESSION_SECRET: randomBytes(24).toString("hex"),
      RUN_WORKER: "false",
      MIGRATE_ON_START: "false",
      LOG_LEVEL: "warn",
      UPLOAD_DIR: uploads,
    };
    const api = await startProcess(productionServerArgs(), { ...env, DATABASE_URL: source.url() }, "/api/health");
    procs.push(api.proc);
    const signIn = async (base: string, email: string) => {
      const r = await fetch(`${base}/api/auth/sign-in`, {
        method: "POST",
        headers: json,
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      if (r.status !== 200) throw new Error(`sign-in of ${email}: ${r.status} ${await r.text()}`);
      return r.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
    };
    for (const u of users) u.cookie = await signIn(api.base, u.email);
    const hrs = users.filter((u) => u.role === "hr");
    const ctx: RouteContext = { employeeIds: new Map(), leaveSeq: 0 };
    await leaveSetup(api.base, users, ctx, source.url());
    let uploaded = 0;
    const upload = async (u: (typeof users)[number]) => {
      const form = new FormData();
      form.append("file", new Blob([`note ${randomBytes(8).toString("hex")}\n`], { type: "text/plain" }), "note.txt");
      const r = await fetch(`${api.base}/api/upload`, { method: "POST", headers: { cookie: u.cookie! }, body: form });
      if (r.status !== 201) throw new Error(`upload: ${r.status} ${await r.text()}`);
      uploaded++;
      return (await r.json()).data as { id: string };
    };
    const kept = await upload(hrs[0]);
    const lookup = new pg.Client({ connectionString: source.url() });
    await lookup.connect();
    const keptSha = (await lookup.query("SELECT sha256 FROM files WHERE id = $1", [kept.id])).rows[0].sha256 as string;
    await lookup.end();
    const keptBytes = readFileSync(path.join(uploads, keptSha.slice(0, 2), keptSha.slice(2, 4), keptSha));
    for (const hr of hrs) await upload(hr);
    log(`restore drill: source seeded (${users.length} users, leave allocations, ${uploaded} uploads)`);

    // 2. writes that go on during the backup
    let writing = true;
    let written = 0;
    let writeErrors = 0;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const hr = hrs[i % hrs.length];
        const r = await fetch(`${api.base}/api/employees`, {
          method: "POST",
          headers: { ...json, cookie: hr.cookie! },
          body: JSON.stringify({
            first_name: "During",
            last_name: `Backup${i}`,
            email: `during.${i}.${process.pid}@drill.test`,
            department: "Engineering",
            designation: "Engineer",
            joining_date: "2024-04-01",
          }),
        });
        if (r.status === 201) written++;
        else writeErrors++;
        if (i % 10 === 0) await upload(hr).catch(() => writeErrors++);
      }
    })();
    await sleep(1000);

    // 3. the backup point: an exported snapshot, read and dumped
    const snap = new pg.Client({ connectionString: source.url() });
    await snap.connect();
    await snap.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
    const snapshot = (await snap.query("SELECT pg_export_snapshot() AS s")).rows[0].s as string;
    const atBackup = await figures(snap);
    const dump = path.join(dir, "hrms.dump");
    let t = Date.now();
    run("pg_dump", ["-Fc", "-Z", "6", `--snapshot=${snapshot}`, "-f", dump, source.url()], false);
    const dumpMs = Date.now() - t;
    await snap.query("COMMIT");
    await snap.end();
    const uploadsCopy = path.join(dir, "uploads-backup");
    t = Date.now();
    cpSync(uploads, uploadsCopy, { recursive: true, filter: (src) => path.basename(src) !== ".tmp" });
    const copyMs = Date.now() - t;
    await sleep(1000);
    writing = false;
    await writer;
    const sourceNow = new pg.Client({ connectionString: source.url() });
    await sourceNow.connect();
    const after = await figures(sourceNow);
    await sourceNow.end();
    rows.push(["dump (pg_dump -Fc, at the snapshot)", `${(statSync(dump).size / 1e6).toFixed(1)} MB`, `${dumpMs} ms`]);
    rows.push(["upload folder copied after the dump", `${uploaded} uploads`, `${copyMs} ms`]);

    // 4. restore into a fresh server
    const target = await startServer(path.join(dir, "restored"));
    servers.push(target);
    execFileSync(path.join(PG15, "createdb"), ["-h", "127.0.0.1", "-p", String(target.port), "-U", "postgres", "hrms"]);
    t = Date.now();
    run("pg_restore", ["--exit-on-error", "--no-owner", "-j", "2", "-d", target.url(), dump], false);
    const restoreMs = Date.now() - t;
    rows.push(["restore (pg_restore -j 2 into a new server)", "", `${restoreMs} ms`]);
    const restoredClient = new pg.Client({ connectionString: target.url() });
    await restoredClient.connect();
    const restored = await figures(restoredClient);

    // 5. the checks
    const keys = new Set([...atBackup.keys(), ...restored.keys()]);
    const differ = [...keys].filter((k) => atBackup.get(k) !== restored.get(k));
    check(
      "every tenant's counts and ledger checksums as at the backup point",
      differ.length === 0 && atBackup.size > 0,
      differ.length
        ? differ
            .slice(0, 3)
            .map((k) => `${k}: ${atBackup.get(k)} → ${restored.get(k)}`)
            .join("; ")
        : `${atBackup.size} figures equal (${[...atBackup.keys()].filter((k) => k.startsWith("ledger")).length} ledger checksums)`,
    );
    const moved = [...keys].filter((k) => after.get(k) !== atBackup.get(k)).length;
    check(
      "writes went on during the backup (not in it)",
      written > 0 && moved > 0 && writeErrors === 0,
      `${written} employees created during the backup, ${writeErrors} failed; ` +
        `${moved} figures of the source moved on since the backup point`,
    );
    const fileRows = (await restoredClient.query<{ sha256: string; size_bytes: number }>("SELECT sha256, size_bytes FROM files")).rows;
    const missing = fileRows.filter((f) => {
      const p = path.join(uploadsCopy, f.sha256.slice(0, 2), f.sha256.slice(2, 4), f.sha256);
      return !existsSync(p) || statSync(p).size !== f.size_bytes;
    });
    check("every file row has its bytes", missing.length === 0, `${fileRows.length} file rows, ${missing.length} without their bytes`);
    const owner = users.find((u) => u.role === "owner")!;
    const expectedEmployees = Number(
      (await restoredClient.query("SELECT count(*)::int AS n FROM employees WHERE tenant_id = $1 AND deleted_at IS NULL", [owner.tenantId]))
        .rows[0].n,
    );
    const snapshotEmployees = Number(atBackup.get(`employees ${owner.tenantId}`));
    await restoredClient.end();

    // the restored server starts and serves
    const restoredApi = await startProcess(
      productionServerArgs(),
      { ...env, DATABASE_URL: target.url(), UPLOAD_DIR: uploadsCopy, MIGRATE_ON_START: "true" },
      "/api/health",
    );
    procs.push(restoredApi.proc);
    const ready = await fetch(`${restoredApi.base}/api/health/ready`);
    const cookie = await signIn(restoredApi.base, owner.email);
    const list = await fetch(`${restoredApi.base}/api/employees?limit=1`, { headers: { cookie } });
    const total = list.status === 200 ? ((await list.json()) as { pagination: { total: number } }).pagination.total : -1;
    const keptHr = hrs[0];
    const keptCookie = await signIn(restoredApi.base, keptHr.email);
    const file = await fetch(`${restoredApi.base}/api/files/${kept.id}`, { headers: { cookie: keptCookie } });
    const fileBytes = Buffer.from(await file.arrayBuffer());
    check(
      "the restored server starts and serves",
      ready.status === 200 &&
        total === expectedEmployees &&
        expectedEmployees === snapshotEmployees &&
        file.status === 200 &&
        fileBytes.equals(keptBytes),
      `readiness ${ready.status}; owner's employee list total ${total} (backup point ${snapshotEmployees}); ` +
        `uploaded file ${file.status}, ${fileBytes.equals(keptBytes) ? "same bytes" : "different bytes"}`,
    );
    return { rows, checks, problems };
  } finally {
    for (const p of procs) if (p.exitCode === null) p.kill("SIGKILL");
    await sleep(500);
    for (const s of servers)
      try {
        s.stop();
      } catch (err) {
        console.error(String((err as Error).message));
      }
  }
}

export function formatDrill(r: DrillReport): string {
  return `${table(["step", "size", "time"], r.rows)}\n\n${table(
    ["check", "result", "details"],
    r.checks.map((c) => [c.check, c.result, c.details]),
  )}`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  trackOwnedProcesses();
  const r = await runRestoreDrill();
  console.log(formatDrill(r));
  process.exit(r.problems.length ? 1 : 0);
}
