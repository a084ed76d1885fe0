// What a proof of `make verify` starts that outlives it unless stopped - PostgreSQL servers, nginx,
// PgBouncer, server processes, Prometheus - stopped whatever ends the proof (docs/testing.md, "Stopping
// what a proof started"). Each start is written to a pid file with the process's start time (a pid
// reused by another program is never signalled); an exit, a signal or an uncaught error stops them all,
// and since SIGKILL runs no handler, the next run (or `npx tsx scripts/support/owned-processes.ts`)
// stops what a killed run left. Off unless a proof calls trackOwnedProcesses(): `make cluster` stays up.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
/** The pid file of this clone's proofs (PROOF_PID_FILE elsewhere, for the tests of this module). */
export const pidFile = () => process.env.PROOF_PID_FILE || path.join(root, ".data", "proof-processes.json");

interface Owned {
  pid: number;
  /** the process's start time in clock ticks since boot (/proc/<pid>/stat field 22) */
  start: string;
  what: string;
}

let tracking = false;

function stat(pid: number): { start: string; pgid: number } | undefined {
  try {
    // the fields after the command's closing parenthesis: state is field 3, pgrp 5, starttime 22
    const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
    return f[0] === "Z" ? undefined : { pgid: Number(f[2]), start: f[19] };
  } catch {
    return undefined;
  }
}

function read(): Owned[] {
  try {
    return JSON.parse(readFileSync(pidFile(), "utf8")) as Owned[];
  } catch {
    return [];
  }
}

function write(list: Owned[]): void {
  mkdirSync(path.dirname(pidFile()), { recursive: true });
  writeFileSync(pidFile(), JSON.stringify(list, null, 1));
}

/** Records a process this run started (a no-op unless trackOwnedProcesses() was called). */
export function own(pid: number | undefined, what: string): void {
  if (tracking) recordOwned(pid, what);
}

/** Writes a running process to the pid file with its start time. */
export function recordOwned(pid: number | undefined, what: string): void {
  const s = pid ? stat(pid) : undefined;
  if (!pid || !s) return;
  write([...read().filter((o) => o.pid !== pid), { pid, start: s.start, what }]);
}

/** Records the postmaster of the PostgreSQL data folder `dataDir` (its pid is postmaster.pid's first line). */
export function ownPostgres(dataDir: string): void {
  const file = path.join(dataDir, "postmaster.pid");
  if (existsSync(file)) own(Number(readFileSync(file, "utf8").split("\n")[0]), `postgres ${dataDir}`);
}

const alive = (o: Owned) => stat(o.pid)?.start === o.start;

function signal(o: Owned, sig: NodeJS.Signals): void {
  // a process that leads its group (detached, or a daemon after setsid) takes its children with it
  const target = stat(o.pid)?.pgid === o.pid ? -o.pid : o.pid;
  try {
    process.kill(target, sig);
  } catch {
    /* gone already */
  }
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Stops every recorded process still running (synchronous: it also runs in an `exit` handler).
 * PostgreSQL gets SIGQUIT (an immediate shutdown that frees its shared memory), the others SIGTERM;
 * what still runs after `graceMs` gets SIGKILL. Returns what it stopped.
 */
export function reapOwned(graceMs = 5000): string[] {
  const left = read().filter(alive);
  for (const o of left) signal(o, o.what.startsWith("postgres") ? "SIGQUIT" : "SIGTERM");
  for (let waited = 0; waited < graceMs && left.some(alive); waited += 100) pause(100);
  for (const o of left.filter(alive)) signal(o, "SIGKILL");
  if (existsSync(pidFile())) write([]);
  return left.map((o) => `${o.what} (pid ${o.pid})`);
}

/**
 * Called once by a proof's entry point: stops what an earlier, killed run left, then records what
 * this run starts and stops it on exit, on SIGINT, SIGTERM and SIGHUP, and on an uncaught error.
 */
export function trackOwnedProcesses(log: (s: string) => void = console.error): void {
  if (tracking) return;
  const stale = reapOwned();
  if (stale.length) log(`stopped what an earlier run left: ${stale.join(", ")}`);
  tracking = true;
  const stopAll = (why: string, code: number) => {
    const stopped = reapOwned();
    log(`${why}: ${stopped.length ? `stopped ${stopped.join(", ")}` : "nothing of this run was left running"}`);
    process.exit(code);
  };
  process.on("exit", () => void reapOwned());
  for (const [sig, n] of [
    ["SIGINT", 2],
    ["SIGTERM", 15],
    ["SIGHUP", 1],
  ] as const)
    process.on(sig, () => stopAll(`${sig} received`, 128 + n));
  const crash = (err: unknown) => stopAll(`uncaught ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`, 1);
  process.on("uncaughtException", crash);
  process.on("unhandledRejection", crash);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const stopped = reapOwned();
  console.log(stopped.length ? `stopped ${stopped.join(", ")}` : `nothing left running (${pidFile()})`);
}
