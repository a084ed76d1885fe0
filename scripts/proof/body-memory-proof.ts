// What a request body may cost in memory, proven against a process started as `npm start` starts it
// (the compiled build with NODE_HEAP_MB's old space, scripts/measure/production-server.ts):
//   - the second review's body - `{"rows":[{},{},…]}` of 32 MiB, eleven million empty objects and
//     about 700 MB of heap once parsed - is refused from its bytes (413) and the process lives;
//   - the costliest bodies the checks let through at 32 MiB (as many objects and values as the
//     limit allows; a text of two-byte characters) sent three at once: each is answered (a 4xx of
//     its content, or a 503 while the memory for bodies is taken), the process lives and still
//     answers, and it never ran out of heap (src/http/body.ts, src/http/admission.ts).
// Used by `make verify` (scripts/proof/verify.ts, "body memory"); `tsx scripts/proof/body-memory-proof.ts` alone.
import type { ChildProcess } from "node:child_process";
import { deployMigrations } from "../../src/db/migrations.ts";
import { scratchDatabase } from "../db/scratch-db.ts";
import { SESSION_SECRET, seed, signInAll, startProcess } from "../measure/load.ts";
import { heapMb, productionServerArgs } from "../measure/production-server.ts";
import { trackOwnedProcesses } from "../support/owned-processes.ts";

const LIMIT = 32 * 1024 * 1024;

/** The second review's body: empty objects up to the limit. */
const reviewersBody = () => Buffer.from(`{"rows":[${"{},".repeat(Math.floor(LIMIT / 3) - 10)}{}]}`);

/** As many objects (one per 64 bytes of the limit) of three members as the checks allow, padded to the limit. */
function mostObjects(): Buffer {
  const objects = LIMIT / 64 - 4;
  const rows = `{"rows":[${`${'{"a":1,"b":2,"c":3},'.repeat(objects - 1)}{"a":1,"b":2,"c":3}`}],"pad":"`;
  return Buffer.from(`${rows}${"x".repeat(LIMIT - rows.length - 4)}"}`);
}

/** A text of two-byte characters up to the limit (the costliest string: two bytes a character in memory). */
const widestText = () => Buffer.from(`{"csv":"${"é".repeat(Math.floor((LIMIT - 20) / 2))}"}`);

export interface BodyMemoryReport {
  heapMb: number;
  answers: string[];
  problems: string[];
}

export async function runBodyMemoryProof(log: (s: string) => void = console.log): Promise<BodyMemoryReport> {
  const problems: string[] = [];
  const answers: string[] = [];
  const scratch = await scratchDatabase("body-memory");
  const procs: ChildProcess[] = [];
  try {
    await deployMigrations(scratch.url);
    const { users } = await seed(scratch.url, 1, 10);
    const env = {
      DATABASE_URL: scratch.url,
      NODE_ENV: "production",
      SESSION_SECRET,
      RUN_WORKER: "false",
      MIGRATE_ON_START: "false",
      LOG_LEVEL: "warn",
      TRUST_PROXY: "true",
    };
    const api = await startProcess(productionServerArgs(), { ...env, PUBLIC_URL: "http://127.0.0.1" }, "/api/health");
    procs.push(api.proc);
    let exited: string | null = null;
    api.proc.once("exit", (code, signal) => {
      exited = `exited (${code ?? signal})`;
    });
    const hr = users.filter((u) => u.role === "hr");
    await signInAll(api.base, hr, { "x-forwarded-proto": "https" });
    const post = async (name: string, body: Buffer) => {
      const r = await fetch(`${api.base}/api/imports/employees`, {
        method: "POST",
        headers: { "content-type": "application/json", cookie: hr[0].cookie as string, "x-forwarded-proto": "https" },
        body: new Uint8Array(body),
      }).then(
        async (res) => `${res.status} ${((await res.json()) as { error?: string }).error ?? ""}`.trim().slice(0, 200),
        (err: Error) => `no answer (${err.message})`,
      );
      answers.push(`${name}: ${r}`);
      log(`body memory: ${name} (${(body.length / 1048576).toFixed(1)} MiB) -> ${r}`);
      return r;
    };
    const first = await post("the review's 11 million empty objects", reviewersBody());
    if (!first.startsWith("413")) problems.push(`the review's body: ${first} (expected 413 before parsing)`);
    const costly = await Promise.all([
      post("most objects the checks allow", mostObjects()),
      post("a text of two-byte characters", widestText()),
      post("most objects the checks allow, again", mostObjects()),
    ]);
    for (const a of costly)
      if (!/^(4\d\d|503)\b/.test(a)) problems.push(`a costly body: ${a} (expected a 4xx of its content or a 503 while memory is taken)`);
    // one at a time, each is parsed and answered for its content
    for (const [name, body] of [
      ["a text of two-byte characters, alone", widestText()],
      ["most objects the checks allow, alone", mostObjects()],
    ] as const) {
      const a = await post(name, body);
      if (!/^4\d\d\b/.test(a)) problems.push(`${name}: ${a} (expected a 4xx of its content)`);
    }
    const health = await fetch(`${api.base}/api/health`).then(
      (r) => r.status,
      () => 0,
    );
    if (exited || health !== 200) problems.push(`the process ${exited ?? `answers health ${health}`} after the bodies`);
    return { heapMb: heapMb(), answers, problems };
  } finally {
    for (const p of procs) p.kill("SIGTERM");
    await scratch.drop();
  }
}

export function formatBodyMemory(r: BodyMemoryReport): string {
  return [`Body memory (npm start's heap: ${r.heapMb} MB old space):`, ...r.answers.map((a) => `  ${a}`)].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  trackOwnedProcesses();
  const r = await runBodyMemoryProof();
  console.log(formatBodyMemory(r));
  if (r.problems.length) {
    console.error(r.problems.join("\n"));
    process.exit(1);
  }
}
