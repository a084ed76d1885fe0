// Ctrl-C of `make run`: the real server (src/main.ts) on an embedded PostgreSQL of
// its own, with its job worker, gets SIGINT as a terminal sends it - to its whole process group - and
// stops without noise: no "terminating connection due to administrator command" from its pools or
// the job queue, no deprecation banner, exit code 0. (The embedded server runs in a process group of
// its own and is stopped by the shutdown after the connections closed: src/db/embedded.ts.)
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { freePort } from "../../src/db/embedded.ts";
import { clockStartForChild } from "../../src/lib/clock.ts";

const root = path.resolve(import.meta.dirname, "../..");
const dir = mkdtempSync(path.join(tmpdir(), "hrms-ctrl-c-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the server stopped with Ctrl-C", () => {
  it("stops its job worker, pools and embedded database without an error line", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
      cwd: root,
      detached: true, // a process group of its own, as a terminal's foreground job
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        DATABASE_URL: "",
        EMBEDDED_PG_DIR: path.join(dir, "postgres"),
        EMBEDDED_PG_PORT: String(await freePort()),
        PORT: "0",
        NODE_ENV: "development",
        LOG_LEVEL: "info",
        LOG_FORMAT: "json",
        RUN_WORKER: "true",
        CLOCK_START: clockStartForChild(),
      },
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    try {
      // ready: listening, and the job worker started (readiness 200)
      for (const until = Date.now() + 240_000; ; ) {
        const port = /listening on http:\/\/localhost:(\d+)/.exec(out)?.[1];
        const ready =
          port &&
          (await fetch(`http://127.0.0.1:${port}/api/health/ready`).then(
            (r) => r.status === 200,
            () => false,
          ));
        if (ready) break;
        if (child.exitCode !== null || Date.now() > until) throw new Error(`the server did not get ready:\n${out}`);
        await new Promise((r) => setTimeout(r, 250));
      }
      process.kill(-child.pid!, "SIGINT");
      expect(await exited).toBe(0);
    } finally {
      if (child.exitCode === null) process.kill(-child.pid!, "SIGKILL");
    }
    expect(out).toContain('"msg":"stopped"');
    expect(out).not.toMatch(/terminating connection|connection error|job queue error|Deprecation|Error:/);
  });
});
