import path from "node:path";
import { defineConfig } from "vitest/config";

export default defineConfig({
  root: path.resolve(import.meta.dirname, ".."),
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    setupFiles: ["test/support/setup.ts"],
    pool: "forks",
    fileParallelism: true,
    maxWorkers: Number(process.env.TEST_WORKERS ?? 2),
    // Generous: suites that sweep every operation of an area run hundreds of requests on 2 cores.
    testTimeout: 120_000,
    hookTimeout: 60_000,
    env: { NODE_ENV: "test", LOG_LEVEL: process.env.LOG_LEVEL ?? "silent" },
  },
});
