// The proofs' pid file (scripts/support/owned-processes.ts): what a run recorded is stopped with its
// process group, and a pid whose start time is not the recorded one (reused by another program) is
// left alone. Then `make verify` itself, killed in the middle of a step that runs vitest (whose global
// setup starts an embedded PostgreSQL in a process group of its own): nothing it started is left
// running, whether the kill is a SIGTERM it handles or a SIGKILL after which the reaper is run.
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pidFile, reapOwned, recordOwned } from "../../scripts/support/owned-processes.ts";
import { waitFor } from "../support/eventually.ts";

const root = path.resolve(import.meta.dirname, "../..");

const dir = mkdtempSync(path.join(tmpdir(), "hrms-owned-"));
const started: number[] = [];

/** Whether a process runs (a zombie waiting for its parent does not). */
function running(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1][0] !== "Z";
  } catch {
    return false;
  }
}

/** The pids of the processes of a process group (the leader included). */
function group(pgid: number): number[] {
  const out: number[] = [];
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const f = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1].split(" ");
      if (Number(f[2]) === pgid && f[0] !== "Z") out.push(Number(p));
    } catch {
      /* gone meanwhile */
    }
  }
  return out;
}

/** A daemon-like process group: a shell that leads its group, with a child of its own. */
function startGroup(): number {
  const p = spawn("sh", ["-c", "sleep 600 & sleep 600; wait"], { detached: true, stdio: "ignore" });
  p.unref();
  started.push(p.pid!);
  return p.pid!;
}

async function untilGroupHas(pgid: number, n: number) {
  for (let i = 0; i < 600 && group(pgid).length < n; i++) await new Promise((r) => setTimeout(r, 50));
}

beforeAll(() => {
  process.env.PROOF_PID_FILE = path.join(dir, "proof-processes.json");
});

afterAll(() => {
  reapOwned(); // what a failed test of a killed run left
  for (const pid of started)
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      /* stopped by the test */
    }
  delete process.env.PROOF_PID_FILE;
  rmSync(dir, { recursive: true, force: true });
});

describe("the proofs' pid file", () => {
  it("stops what a run recorded, children of its process group included, and empties the file", async () => {
    const leader = startGroup();
    await untilGroupHas(leader, 3);
    expect(group(leader)).toHaveLength(3); // sh, its two sleeps
    recordOwned(leader, "a daemon");
    expect(JSON.parse(readFileSync(pidFile(), "utf8"))).toEqual({
      processes: [{ pid: leader, start: expect.any(String), what: "a daemon" }],
    });

    expect(reapOwned()).toEqual([`a daemon (pid ${leader})`]);
    expect(group(leader)).toEqual([]);
    expect(JSON.parse(readFileSync(pidFile(), "utf8"))).toEqual({ processes: [] });
  });

  it("leaves a pid alone whose start time is not the recorded one (a pid reused by another program)", async () => {
    const other = startGroup();
    await untilGroupHas(other, 3);
    recordOwned(other, "reused");
    const recorded = JSON.parse(readFileSync(pidFile(), "utf8"));
    recorded.processes[0].start = String(Number(recorded.processes[0].start) - 1);
    writeFileSync(pidFile(), JSON.stringify(recorded));

    expect(reapOwned()).toEqual([]);
    expect(running(other)).toBe(true);
    expect(group(other)).toHaveLength(3);
  });
});

/** Every process below `pid` (children, theirs, ...) with its start time, zombies left out. */
function descendants(pid: number): Map<number, string> {
  const parent = new Map<number, { ppid: number; start: string }>();
  for (const p of readdirSync("/proc")) {
    if (!/^\d+$/.test(p)) continue;
    try {
      const f = readFileSync(`/proc/${p}/stat`, "utf8").split(") ")[1].split(" ");
      if (f[0] !== "Z") parent.set(Number(p), { ppid: Number(f[1]), start: f[19] });
    } catch {
      /* gone meanwhile */
    }
  }
  const below = new Map<number, string>();
  for (let grew = true; grew; ) {
    grew = false;
    for (const [p, { ppid, start }] of parent)
      if (!below.has(p) && (ppid === pid || below.has(ppid))) {
        below.set(p, start);
        grew = true;
      }
  }
  return below;
}

/** Of `seen` (pid → start time), those still running as the same process. */
function stillRunning(seen: Map<number, string>): string[] {
  const left: string[] = [];
  for (const [pid, start] of seen)
    try {
      const f = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = f.split(") ")[1].split(" ");
      if (fields[0] !== "Z" && fields[19] === start)
        left.push(`${pid} ${readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ")}`);
    } catch {
      /* gone */
    }
  return left;
}

/** A running PostgreSQL server (`postgres -D <dir> -p <port>`, not initdb's bootstrap run). */
const isPostmaster = (pid: number) => {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0");
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim() === "postgres" && args.includes("-D") && args.includes("-p");
  } catch {
    return false;
  }
};

/**
 * `make verify`'s long fuzz step, with runs enough never to end by itself and its own pid file,
 * held until its vitest run's PostgreSQL is up; returns the process and everything below it then.
 */
async function verifyInTheMiddleOfAStep(): Promise<{ verify: ChildProcess; seen: Map<number, string>; dataFolder: string }> {
  // a server of its own (no TEST_DATABASE_URL), and nothing of this suite's vitest worker
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(VITEST|TEST_DATABASE_URL$|DATABASE_URL$|PROOF_RECORD_DIR$)/.test(k)),
  );
  const verify = spawn(process.execPath, ["--import", "tsx", "scripts/proof/verify.ts"], {
    cwd: root,
    env: { ...env, VERIFY_ONLY: "fuzz", VERIFY_FUZZ_RUNS: "1000000", PROOF_PID_FILE: pidFile() },
    stdio: "ignore",
  });
  started.push(verify.pid!);
  let seen = new Map<number, string>();
  await waitFor("the step's PostgreSQL", () => {
    seen = descendants(verify.pid!);
    return [...seen.keys()].some(isPostmaster);
  });
  // the temporary folder of the step's PostgreSQL (its data folder's parent, made by the suite's setup)
  const postmaster = [...seen.keys()].find(isPostmaster)!;
  const args = readFileSync(`/proc/${postmaster}/cmdline`, "utf8").split("\0");
  return { verify, seen, dataFolder: path.dirname(args[args.indexOf("-D") + 1]) };
}

const exited = (p: ChildProcess) =>
  new Promise<void>((resolve) => (p.exitCode !== null || p.signalCode !== null ? resolve() : p.once("exit", () => resolve())));

describe("make verify killed in the middle of a step", () => {
  it("stops everything it started on SIGTERM: vitest, its workers and its PostgreSQL", async () => {
    const { verify, seen, dataFolder } = await verifyInTheMiddleOfAStep();
    expect(seen.size).toBeGreaterThan(1);
    expect(existsSync(dataFolder), dataFolder).toBe(true);
    verify.kill("SIGTERM");
    await exited(verify);
    expect(verify.exitCode).toBe(143);
    // the reaper has signalled all before exiting; a SIGKILLed process may take a moment to go
    await waitFor("the run's processes to end", () => stillRunning(seen).length === 0, { timeoutMs: 30_000 }).catch(() => {});
    expect(stillRunning(seen)).toEqual([]);
    expect(existsSync(dataFolder), "the step's PostgreSQL data folder is removed with it").toBe(false);
  });

  it("after a SIGKILL (no handler runs), owned-processes.ts stops what the killed run left", async () => {
    const { verify, seen, dataFolder } = await verifyInTheMiddleOfAStep();
    verify.kill("SIGKILL");
    await exited(verify);
    expect(stillRunning(seen).length).toBeGreaterThan(0); // the step's vitest and PostgreSQL outlive it
    const reaper = spawnSync(process.execPath, ["--import", "tsx", "scripts/support/owned-processes.ts"], {
      cwd: root,
      env: { ...process.env, PROOF_PID_FILE: pidFile() },
      encoding: "utf8",
    });
    expect(reaper.status).toBe(0);
    expect(reaper.stdout).toMatch(/stopped .*postgres/);
    await waitFor("the run's processes to end", () => stillRunning(seen).length === 0, { timeoutMs: 30_000 }).catch(() => {});
    expect(stillRunning(seen)).toEqual([]);
    expect(existsSync(dataFolder), "the step's PostgreSQL data folder is removed with it").toBe(false);
  });
});
