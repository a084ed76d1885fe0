// What a proof of `make verify` starts that outlives it unless stopped - PostgreSQL servers, nginx,
// PgBouncer, server processes, Prometheus, the suite's own vitest runs and their embedded PostgreSQL
// servers - stopped whatever ends the proof (docs/testing.md, "Stopping what a proof started"). Two
// records, because neither alone finds everything: each start a proof makes itself is written to a pid
// file with the process's start time (a pid reused by another program is never signalled), and every
// process the run starts, however deep (a vitest run's PostgreSQL in a process group of its own), carries
// the run's mark in its environment (PROOF_RUN_VARIABLE), found in /proc/<pid>/environ. An exit, a signal
// or an uncaught error stops them all, and since SIGKILL runs no handler, the next run (or
// `npx tsx scripts/support/owned-processes.ts`) stops what a killed run left. Off unless a proof calls
// trackOwnedProcesses(): `make cluster` stays up.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
/** The pid file of this clone's proofs (PROOF_PID_FILE elsewhere, for the tests of this module). */
export const pidFile = () => process.env.PROOF_PID_FILE || path.join(root, ".data", "proof-processes.json");

/** The environment variable that marks every process of a tracked run (its value: the run's id). */
export const PROOF_RUN_VARIABLE = "HRMS_PROOF_RUN";

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

/** The pid file: the mark of the run that wrote it last, and the processes it recorded. */
interface PidFile {
  run?: string;
  processes: Owned[];
}

function read(): PidFile {
  try {
    const f = JSON.parse(readFileSync(pidFile(), "utf8")) as PidFile | Owned[];
    // the file of a clone from before the run's mark was kept
    return Array.isArray(f) ? { processes: f } : { run: f.run, processes: f.processes ?? [] };
  } catch {
    return { processes: [] };
  }
}

function write(f: PidFile): void {
  mkdirSync(path.dirname(pidFile()), { recursive: true });
  writeFileSync(pidFile(), JSON.stringify(f, null, 1));
}

/** Records a process this run started (a no-op unless trackOwnedProcesses() was called). */
export function own(pid: number | undefined, what: string): void {
  if (tracking) recordOwned(pid, what);
}

/** Writes a running process to the pid file with its start time. */
export function recordOwned(pid: number | undefined, what: string): void {
  const s = pid ? stat(pid) : undefined;
  if (!pid || !s) return;
  const f = read();
  write({ ...f, processes: [...f.processes.filter((o) => o.pid !== pid), { pid, start: s.start, what }] });
}

/** Records the postmaster of the PostgreSQL data folder `dataDir` (its pid is postmaster.pid's first line). */
export function ownPostgres(dataDir: string): void {
  const file = path.join(dataDir, "postmaster.pid");
  if (existsSync(file)) own(Number(readFileSync(file, "utf8").split("\n")[0]), `postgres ${dataDir}`);
}

const alive = (o: Owned) => stat(o.pid)?.start === o.start;

/** Whether a process of group `pgid` other than a zombie still runs. */
function groupRuns(pgid: number): boolean {
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const f = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1].split(" ");
      if (Number(f[2]) === pgid && f[0] !== "Z") return true;
    } catch {
      /* gone meanwhile */
    }
  }
  return false;
}

function kill(target: number, sig: NodeJS.Signals): void {
  try {
    process.kill(target, sig);
  } catch {
    /* gone already */
  }
}

function signal(o: Owned, sig: NodeJS.Signals): void {
  // a process that leads its group (detached, or a daemon after setsid) takes its children with it
  kill(stat(o.pid)?.pgid === o.pid ? -o.pid : o.pid, sig);
}

/**
 * The processes (other than this one) whose environment carries the run's mark: everything the run
 * started, at any depth, that has not rewritten its environment (PostgreSQL's postmaster keeps it; its
 * own children, which overwrite theirs with their titles, end with it; nginx's is recorded by pid).
 */
function marked(run: string): Owned[] {
  const mark = `${PROOF_RUN_VARIABLE}=${run}`;
  const found: Owned[] = [];
  for (const p of readdirSync("/proc")) {
    const pid = Number(p);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${pid}/environ`, "utf8").split("\0").includes(mark)) continue;
      const s = stat(pid);
      const comm = readFileSync(`/proc/${pid}/comm`, "utf8").trim();
      const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
      const what = comm === "postgres" ? `postgres ${args[args.indexOf("-D") + 1] ?? ""}` : args.map((a) => path.basename(a)).join(" ");
      if (s) found.push({ pid, start: s.start, what: what.slice(0, 100) });
    } catch {
      /* gone meanwhile, or not ours to read */
    }
  }
  return found;
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * A stopped PostgreSQL's data folder when it is a throw-away one (`<tmpdir or /dev/shm>/hrms-*\/data`, made by the
 * suite's setup or a proof, whose own cleanup a killed run never reached): removed with its folder.
 * A data folder anywhere else (`.data/`, a cluster's) is left as it is.
 */
function removeThrowawayFolder(o: Owned): void {
  if (!o.what.startsWith("postgres ") || alive(o)) return;
  const dataDir = path.resolve(o.what.slice("postgres ".length).trim());
  const folder = path.dirname(dataDir);
  // the parents throwawayParent (src/db/embedded.ts) chooses from
  const parents = [path.resolve(tmpdir()), "/dev/shm"];
  if (!parents.includes(path.dirname(folder)) || !path.basename(folder).startsWith("hrms-")) return;
  try {
    rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
  } catch {
    /* left for the machine's temporary-file cleanup: stopping the processes is what matters here */
  }
}

/**
 * Stops every recorded process still running (synchronous: it also runs in an `exit` handler).
 * PostgreSQL gets SIGQUIT (an immediate shutdown that frees its shared memory), the others SIGTERM;
 * what still runs after `graceMs` gets SIGKILL. Returns what it stopped.
 */
export function reapOwned(graceMs = 5000): string[] {
  const f = read();
  const recorded = f.processes.filter(alive);
  const left = [...recorded, ...(f.run ? marked(f.run).filter((m) => !recorded.some((o) => o.pid === m.pid)) : [])];
  // the groups they lead: their members outlive a leader that exits first, so they are waited for too
  const own = stat(process.pid)?.pgid;
  const groups = left.filter((o) => stat(o.pid)?.pgid === o.pid && o.pid !== own).map((o) => o.pid);
  const running = () => left.some(alive) || groups.some(groupRuns);
  for (const o of left) signal(o, o.what.startsWith("postgres") ? "SIGQUIT" : "SIGTERM");
  for (let waited = 0; waited < graceMs && running(); waited += 100) pause(100);
  for (const o of left.filter(alive)) signal(o, "SIGKILL");
  for (const g of groups.filter(groupRuns)) kill(-g, "SIGKILL");
  for (let waited = 0; waited < graceMs && groups.some(groupRuns); waited += 20) pause(20);
  for (const o of left) removeThrowawayFolder(o);
  if (existsSync(pidFile())) write({ run: f.run, processes: [] });
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
  // every child inherits the mark (a run started by a tracked run, as a test may, gets a mark of its own)
  const run = `${process.pid}-${randomBytes(6).toString("hex")}`;
  process.env[PROOF_RUN_VARIABLE] = run;
  write({ run, processes: [] });
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
