// Starts a server process (the real one, `src/main.ts`, or a baseline) on a port it takes itself:
// PORT=0, and the port is read from the line it prints ("listening on http://localhost:<port>" or
// "listening <port>"). A port chosen here and handed over could be taken by another process before
// the child binds it - and then a health check would reach someone else's server.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { clockStartForChild } from "../../src/lib/clock.ts";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * The production build (scripts/build/build.mjs, what `npm start` runs) into a new folder of the
 * project's .data (`<prefix>XXXXXX`), where the bundle finds node_modules: plain node starts it in
 * about a second less CPU than node with tsx compiling the sources. Returns its entry and a remover.
 */
export async function buildServer(prefix: string): Promise<{ entry: string; remove: () => void }> {
  mkdirSync(path.join(root, ".data"), { recursive: true });
  removeStaleBuilds(prefix);
  const outDir = mkdtempSync(path.join(root, ".data", prefix));
  const remove = () => rmSync(outDir, { recursive: true, force: true });
  try {
    await promisify(execFile)(process.execPath, ["scripts/build/build.mjs", "--outdir", outDir], { cwd: root });
  } catch (err) {
    remove();
    throw err;
  }
  return { entry: path.join(outDir, "main.js"), remove };
}

/**
 * The builds a killed run left in .data (its teardown never ran; the reaper's test kills two runs of
 * `make verify` in every `make test`): a day-old one belongs to no run still going.
 */
export function removeStaleBuilds(prefix: string, olderThanMs = 24 * 3600_000): string[] {
  const removed: string[] = [];
  const dir = path.join(root, ".data");
  for (const name of readdirSync(dir).filter((n) => n.startsWith(prefix))) {
    const folder = path.join(dir, name);
    // machine time: the age of a folder on this machine's disk
    if (Date.now() - statSync(folder).mtimeMs < olderThanMs) continue;
    rmSync(folder, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}

export interface ServerProcess {
  proc: ChildProcess;
  port: number;
  base: string;
  /** the last lines the process wrote to stderr (for error messages) */
  log: () => string;
  /** what it wrote to stdout until it was healthy (its last 4000 characters) */
  startOutput: string;
}

const LISTENING = /listening (?:on http:\/\/localhost:)?(\d+)/;

/**
 * Spawns `node <args>` in `cwd` with `env` (PORT=0 added) and waits until the port it reports
 * answers `healthPath` with a status below 500. `timeoutMs` is a hang guard only.
 */
export async function startServerProcess(
  args: string[],
  opts: { cwd: string; env: Record<string, string | undefined>; healthPath?: string; timeoutMs?: number; inheritStderr?: boolean },
): Promise<ServerProcess> {
  const proc = spawn(process.execPath, args, {
    cwd: opts.cwd,
    // the server reads the test's clock (src/lib/clock.ts) unless the test sets CLOCK_START itself
    env: { CLOCK_START: clockStartForChild(), ...opts.env, PORT: "0" },
    stdio: ["ignore", "pipe", opts.inheritStderr ? "inherit" : "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const keep = (d: Buffer) => (stdout = (stdout + d).slice(-4000));
  proc.stdout!.on("data", keep);
  proc.stderr?.on("data", (d) => (stderr = (stderr + d).slice(-4000)));
  const until = Date.now() + (opts.timeoutMs ?? 180_000);
  for (;;) {
    if (proc.exitCode !== null || proc.signalCode)
      throw new Error(`${args.join(" ")} exited (${proc.exitCode ?? proc.signalCode}) before it was healthy: ${stderr}`);
    const port = Number(LISTENING.exec(stdout)?.[1]);
    if (port) {
      const base = `http://127.0.0.1:${port}`;
      if (
        await fetch(`${base}${opts.healthPath ?? "/api/health"}`).then(
          (r) => r.status < 500,
          () => false,
        )
      ) {
        proc.stdout!.off("data", keep).resume(); // drained from now on, not kept
        return { proc, port, base, log: () => stderr, startOutput: stdout };
      }
    }
    if (Date.now() > until) {
      proc.kill("SIGKILL");
      throw new Error(`${args.join(" ")} did not become healthy: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}
