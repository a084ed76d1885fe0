// The README's first request, run as pasted: its shell block against a server on a port of its own
// (`PORT`, as make run's), with the outbox read at /dev/mail - sign up, the token from the mail, the
// confirmation with the cookie jar, then the signed-in calls. A README that no longer works fails here.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withConfig } from "../../src/config.ts";
import { createServer } from "../../src/http/server.ts";
import { registerAllJobs } from "../../src/modules/jobs.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { useTestApp } from "../support/app.ts";

const t = useTestApp({ config: { devMail: true } });
registerAllJobs();
const root = path.resolve(import.meta.dirname, "../..");
let server: Server;
let port: number;
const dir = mkdtempSync(path.join(tmpdir(), "hrms-readme-"));
beforeAll(async () => {
  server = createServer(t.app);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

/** The shell block of a README section. */
function shellBlock(section: string): string {
  const readme = readFileSync(path.join(root, "README.md"), "utf8");
  const from = readme.indexOf(`## ${section}`);
  const block = /```sh\n([\s\S]*?)```/.exec(readme.slice(from))?.[1];
  if (from < 0 || !block) throw new Error(`README.md has no shell block under "## ${section}"`);
  return block;
}

describe("signup, confirmSignup, getSession, listEmployees: the README's first request, as pasted", () => {
  it("signs up, reads the token at /dev/mail, confirms into cookies.txt and calls with the cookie", async () => {
    // the mail job runs as make run's worker does, while the script waits for the mail
    let done = false;
    const worker = (async () => {
      while (!done) {
        await withConfig(t.config, () => jobs.runNow("auth.signup-requests"));
        await new Promise((r) => setTimeout(r, 300));
      }
    })();
    const run = await new Promise<{ code: number; stdout: string; stderr: string }>((resolve) =>
      execFile(
        "bash",
        ["-euo", "pipefail", "-c", shellBlock("A first request")],
        { cwd: dir, env: { ...process.env, PORT: String(port) }, timeout: 120_000 },
        (err, stdout, stderr) => resolve({ code: (err as { code?: number } | null)?.code ?? 0, stdout, stderr }),
      ),
    );
    done = true;
    await worker;
    expect(run.code, run.stderr).toBe(0);
    const answers = run.stdout.trim().split("\n");
    expect(JSON.parse(answers[0])).toMatchObject({ data: null, message: expect.stringContaining("Check your e-mail") });
    expect(answers[1]).toMatch(/^[A-Za-z0-9_-]{20,}$/); // the token
    expect(JSON.parse(answers[2]).message).toBe("Account created");
    const session = JSON.parse(answers[3]).data;
    expect(session.user.email).toBe("priya@ramandesign.example");
    expect(session.tenants.map((x: { name: string }) => x.name)).toEqual(["Raman Design Studio"]);
    expect(JSON.parse(answers[4])).toMatchObject({ data: [], pagination: { total: 0 } });
    expect(existsSync(path.join(dir, "cookies.txt"))).toBe(true);
    expect(readFileSync(path.join(root, ".gitignore"), "utf8")).toMatch(/^cookies\.txt$/m);
  });

  it("a server that is not there: the token step says so and stops, instead of waiting for ever", async () => {
    const block = shellBlock("A first request");
    // BASE, then step 2 alone (step 1's curl already stops the script there, silently)
    const script = `${block.split("\n")[0]}\n${block.slice(block.indexOf("# 2."), block.indexOf("# 3."))}`;
    const run = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(
        "bash",
        ["-euo", "pipefail", "-c", script],
        { cwd: dir, env: { ...process.env, PORT: "1" }, timeout: 120_000 },
        (err, _o, stderr) => resolve({ code: (err as { code?: number } | null)?.code ?? 0, stderr }),
      ),
    );
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain("no server at http://localhost:1");
  });
});
