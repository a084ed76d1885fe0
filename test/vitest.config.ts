import path from "node:path";
import { defineConfig } from "vitest/config";
import LongestFirst from "./support/sequencer.ts";
import SkippedTests from "./support/skipped-reporter.ts";

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
    // A query waits for a database connection up to 60 s instead of production's 3 s: on a busy
    // machine a slow connect is slowness, not an outage (the outage tests see refused connections,
    // which fail at once whatever this is). Likewise a request waits for an admission slot up to
    // 60 s (production 2 s), and a transaction may take 15 s (production 5 s, as long as the
    // transactions of the tests could before these settings existed); test/platform/overload.test.ts
    // sets tight limits of its own.
    env: {
      NODE_ENV: "test",
      LOG_LEVEL: process.env.LOG_LEVEL ?? "silent",
      DATABASE_POOL_TIMEOUT_MS: process.env.DATABASE_POOL_TIMEOUT_MS ?? "60000",
      REQUEST_QUEUE_TIMEOUT_MS: process.env.REQUEST_QUEUE_TIMEOUT_MS ?? "60000",
      DATABASE_TRANSACTION_TIMEOUT_MS: process.env.DATABASE_TRANSACTION_TIMEOUT_MS ?? "15000",
    },
  },
});
