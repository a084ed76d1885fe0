// A child program a proof waits for (vitest, make, tsc) without blocking its own event loop: with
// spawnSync, a SIGTERM or Ctrl-C to the proof was handled only after the child had ended, so the
// proof's handlers (scripts/support/owned-processes.ts) could not stop what the child had started.
import { spawn } from "node:child_process";
import { resolve as resolvePath } from "node:path";
import { own } from "./owned-processes.ts";

export interface ChildResult {
  /** the exit status, or null when a signal ended it */
  status: number | null;
  stdout: string;
  stderr: string;
}

// the project's Node (node_modules/.bin/node, as the Makefile's PATH gives it) for the child's `#!/usr/bin/env node`,
// also when the proof itself was started outside make with the system's older Node, which vitest does not support
const projectBin = resolvePath(import.meta.dirname, "../../node_modules/.bin");

/** Runs `cmd` to its end, collecting its output; the child is recorded as this proof's own. */
export function runChild(cmd: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv }): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const env = opts.env ?? process.env;
    const child = spawn(cmd, args, {
      cwd: opts.cwd,
      env: { ...env, PATH: `${projectBin}:${env.PATH ?? ""}` },
      stdio: ["ignore", "pipe", "pipe"],
    });
    own(child.pid, `${path(cmd)} ${args.join(" ")}`.slice(0, 120));
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (b: Buffer) => out.push(b));
    child.stderr.on("data", (b: Buffer) => err.push(b));
    child.once("error", reject);
    child.once("close", (status) =>
      resolve({ status, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }),
    );
  });
}

const path = (cmd: string) => cmd.split("/").pop() ?? cmd;
