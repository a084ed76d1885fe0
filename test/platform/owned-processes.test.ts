// The proofs' pid file (scripts/support/owned-processes.ts): what a run recorded is stopped with its
// process group, and a pid whose start time is not the recorded one (reused by another program) is
// left alone.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pidFile, reapOwned, recordOwned } from "../../scripts/support/owned-processes.ts";

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
    expect(JSON.parse(readFileSync(pidFile(), "utf8"))).toEqual([{ pid: leader, start: expect.any(String), what: "a daemon" }]);

    expect(reapOwned()).toEqual([`a daemon (pid ${leader})`]);
    expect(group(leader)).toEqual([]);
    expect(JSON.parse(readFileSync(pidFile(), "utf8"))).toEqual([]);
  });

  it("leaves a pid alone whose start time is not the recorded one (a pid reused by another program)", async () => {
    const other = startGroup();
    await untilGroupHas(other, 3);
    recordOwned(other, "reused");
    const recorded = JSON.parse(readFileSync(pidFile(), "utf8"));
    recorded[0].start = String(Number(recorded[0].start) - 1);
    writeFileSync(pidFile(), JSON.stringify(recorded));

    expect(reapOwned()).toEqual([]);
    expect(running(other)).toBe(true);
    expect(group(other)).toHaveLength(3);
  });
});
