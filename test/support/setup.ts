// Runs before every test file (vitest `setupFiles`): installs the response recorder
// (test/support/recorder.ts). A test fails when one of its responses has an undocumented status,
// a 4xx/5xx without the error envelope, or a 500; the calls of the file are written to
// PROOF_RECORD_DIR (when set), each call with the name of the test that made it, for
// scripts/checks/check-conformance.ts.
import { randomBytes } from "node:crypto";
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import { Session } from "node:inspector/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, expect } from "vitest";
import { setClock } from "../../src/lib/clock.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { formatViolations, installRecorder, setCurrentTest, takeCalls, takeViolations } from "./recorder.ts";

installRecorder();

// TEST_CPU_REPORT=<file>: one line per test file - its worker's CPU (user + system, ms), wall time and end
// from this file's first hook to its last, for docs/measurements (what a file costs survives a busy
// machine; its wall time does not). The files of a worker run one after another, so the difference
// is the file's (plus the next file's database, cloned in the background meanwhile).
const cpuReport = process.env.TEST_CPU_REPORT;
let cpuAtStart: NodeJS.CpuUsage | undefined;
let wallAtStart = 0;
// TEST_CPU_PROFILE=<folder>: a V8 CPU profile of each file's worker from its first hook to its last
// (<file>.cpuprofile; open it in Chrome's DevTools, or sum it by package).
const profileDir = process.env.TEST_CPU_PROFILE;
let profiler: Session | undefined;
beforeAll(async () => {
  cpuAtStart = process.cpuUsage();
  wallAtStart = performance.now();
  if (profileDir) {
    profiler = new Session();
    profiler.connect();
    await profiler.post("Profiler.enable");
    await profiler.post("Profiler.start");
  }
});

// The files of a worker share one process (isolate: false): a job worker a file started is stopped
// after it. (The configuration needs nothing: it is frozen, a file's settings are its app's.)
afterAll(async () => {
  await jobs.stop();
  setClock(undefined); // a file's useClock (test/support/clock.ts) ends with it
});

// Each call is recorded with the full name of the test that made it (describe titles > test title;
// calls of its beforeEach/afterEach hooks count as its own). This file's afterEach runs after the
// test file's own (hooks run as a stack), so the name is cleared only when the test is over.
beforeEach(() => {
  setCurrentTest(expect.getState().currentTestName ?? null);
});

afterEach(() => {
  setCurrentTest(null);
  const v = takeViolations();
  if (v.length) throw new Error(`responses that break the contract:\n${formatViolations(v)}`);
});

// eslint-disable-next-line no-empty-pattern -- vitest passes the file suite second
// biome-ignore lint/correctness/noEmptyPattern: vitest requires the fixture argument as a destructuring pattern
afterAll(async ({}, suite) => {
  const of = suite as { file?: { filepath?: string }; filepath?: string };
  const file = of.file?.filepath ?? of.filepath ?? "unknown";
  const calls = takeCalls();
  if (profiler) {
    const { profile } = await profiler.post("Profiler.stop");
    profiler.disconnect();
    profiler = undefined;
    mkdirSync(profileDir!, { recursive: true });
    writeFileSync(path.join(profileDir!, `${path.basename(file)}.${process.pid}.cpuprofile`), JSON.stringify(profile));
  }
  if (cpuReport && cpuAtStart) {
    const { user, system } = process.cpuUsage(cpuAtStart);
    const line = { file: path.relative(path.resolve(import.meta.dirname, "../.."), file), user_ms: user / 1000, system_ms: system / 1000 };
    const timing = { wall_ms: performance.now() - wallAtStart, ended_at: Date.now(), pid: process.pid };
    appendFileSync(cpuReport, `${JSON.stringify({ ...line, ...timing })}\n`);
  }
  const dir = process.env.PROOF_RECORD_DIR;
  if (dir) {
    mkdirSync(dir, { recursive: true });
    const root = path.resolve(import.meta.dirname, "../..");
    const name = `${path.basename(file).replace(/\W+/g, "_")}.${process.pid}.${randomBytes(3).toString("hex")}.json`;
    writeFileSync(
      path.join(dir, name),
      JSON.stringify({ file: path.relative(root, file), generic: Boolean(globalThis.__proofGeneric), calls }, null, 1),
    );
    globalThis.__proofGeneric = false;
  }
  const v = takeViolations();
  if (v.length) throw new Error(`responses (in hooks) that break the contract:\n${formatViolations(v)}`);
});
