// PgBouncer (Debian's `pgbouncer` package) in transaction mode in front of one PostgreSQL database,
// with its own configuration, logs and pid in a folder of its own, on a free loopback port: what
// `make cluster` puts between the server processes and the primary, and what
// test/platform/pooler.test.ts runs the server behind (docs/operations.md, "Connection pooler").
// PgBouncer refuses to run as root: as root it runs as the `postgres` user (-u).
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { freePort } from "../../src/db/embedded.ts";

export const PGBOUNCER_PATHS = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"];

export const pgbouncerBinary = (): string | undefined => PGBOUNCER_PATHS.find((p) => existsSync(p));

export interface PgBouncer {
  port: number;
  /** DATABASE_URL through the pooler (same user, password and database name as the direct one) */
  url: string;
  dir: string;
  pid: number;
  stop: () => void;
}

export interface PgBouncerOptions {
  /** server connections per database and user (PgBouncer's default_pool_size) */
  poolSize: number;
  /** lock_timeout of every server connection (the app's DATABASE_TRANSACTION_TIMEOUT_MS), set by connect_query */
  lockTimeoutMs: number;
}

const quote = (s: string) => `"${s.replace(/"/g, '""')}"`;

/** Starts PgBouncer for the database of `directUrl` in `dir`; returns its URL and how to stop it. */
export async function startPgBouncer(directUrl: string, dir: string, opts: PgBouncerOptions): Promise<PgBouncer> {
  const bin = pgbouncerBinary();
  if (!bin) throw new Error("pgbouncer is not installed: apt-get install -y pgbouncer (Debian's package)");
  const u = new URL(directUrl);
  const user = decodeURIComponent(u.username || "postgres");
  const password = decodeURIComponent(u.password);
  const dbname = decodeURIComponent(u.pathname.slice(1));
  const port = await freePort();
  mkdirSync(dir, { recursive: true });
  const asRoot = process.getuid?.() === 0;
  const conf = path.join(dir, "pgbouncer.ini");
  const users = path.join(dir, "userlist.txt");
  const pidfile = path.join(dir, "pgbouncer.pid");
  const logfile = path.join(dir, "pgbouncer.log");
  // clients authenticate with the database's own user and password (plain in the userlist: this is
  // a throw-away topology; a deployment would use auth_query or SCRAM secrets)
  writeFileSync(users, `${quote(user)} ${quote(password)}\n`);
  const serverAuth = password ? ` password=${password}` : "";
  const connectQuery = `connect_query='SET lock_timeout = ${opts.lockTimeoutMs}'`;
  writeFileSync(
    conf,
    `; written by scripts/measure/pgbouncer.ts
[databases]
${dbname} = host=${u.hostname} port=${u.port || 5432} dbname=${dbname} user=${user}${serverAuth} ${connectQuery}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = ${port}
unix_socket_dir =
auth_type = ${password ? "plain" : "trust"}
auth_file = ${users}
pool_mode = transaction
default_pool_size = ${opts.poolSize}
min_pool_size = 0
reserve_pool_size = 0
max_client_conn = 2000
max_db_connections = ${opts.poolSize}
server_reset_query =
server_check_delay = 10
; the server's pg sends these at connect; PgBouncer tracks them per client
ignore_startup_parameters = extra_float_digits
application_name_add_host = 0
logfile = ${logfile}
pidfile = ${pidfile}
admin_users = ${user}
stats_users = ${user}
`,
  );
  if (asRoot) {
    execFileSync("chown", ["-R", "postgres:postgres", dir]);
    chmodSync(dir, 0o700);
  }
  const r = spawnSync(bin, ["-d", ...(asRoot ? ["-u", "postgres"] : []), conf], { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`pgbouncer did not start (${r.status}): ${r.stderr || r.stdout}`);
  let pid = 0;
  for (let i = 0; i < 100 && !pid; i++) {
    if (existsSync(pidfile)) pid = Number(readFileSync(pidfile, "utf8").trim());
    if (!pid) await new Promise((res) => setTimeout(res, 50));
  }
  if (!pid) throw new Error(`pgbouncer wrote no pid: ${existsSync(logfile) ? readFileSync(logfile, "utf8").slice(-1000) : ""}`);
  const url = new URL(directUrl);
  url.hostname = "127.0.0.1";
  url.port = String(port);
  return {
    port,
    url: url.toString(),
    dir,
    pid,
    stop: () => {
      try {
        if (readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("pgbouncer")) process.kill(pid, "SIGINT");
      } catch {
        /* gone */
      }
    },
  };
}
