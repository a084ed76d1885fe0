import path from "node:path";
import { defineConfig } from "vitest/config";
import LongestFirst from "./support/sequencer.ts";
import SkippedTests from "./support/skipped-reporter.ts";
import { testEnv } from "./support/test-env.ts";

export default defineConfig({
  root: path.resolve(import.meta.dirname, ".."),
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    setupFiles: ["test/support/setup.ts"],
    sequence: { sequencer: LongestFirst },
    // every skipped test is listed just above vitest's summary (its closing lines stay the same)
    reporters: [new SkippedTests(), "default"],
    pool: "forks",
    // One process per worker for all of its files (not one per file): the app's modules are loaded
    // and its validators compiled once per worker. Each file still gets a database of its own, a new
    // app and pool, with the file's own frozen configuration (test/support/app.ts).
    isolate: false,
    fileParallelism: true,
    // Three workers on two cores: the files spend much of their time waiting (on PostgreSQL, on
    // deadlines of the slow-client and fault drills), so a third keeps the cores busy
    // (docs/measurements/2026-11-28.md).
    maxWorkers: Number(process.env.TEST_WORKERS ?? 3),
    // Time limits only catch hangs: generous, and the same for tests and hooks, so a busy machine
    // (load average 10+, two suites at once) is slow but never red.
    testTimeout: 600_000,
    hookTimeout: 600_000,
    // the settings of every test process (what they are and why: test/support/test-env.ts)
    env: testEnv,
  },
});
