// A request's objects die young. What a middleware keeps of a request for as long as it runs
// (admission control's entry, the membership read with the session) is kept on the request, not in
// a WeakMap keyed by it: V8's young-generation collections (scavenges) treat an ephemeron's value as
// strong, so an entry that holds its request kept every request's objects - the request, the
// response, their headers - alive through the scavenges that would have freed them; all were
// promoted to the old space, and under load a full collection ran every second (a third of the
// signed-in floor's CPU) and the old space swung by ~35 MB (docs/measurements/2026-11-29-read-path.md).
// Measured in a process of its own (--expose-gc): the old space after requests that passed admission
// control and closed, with only young-generation collections between them.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

const CHILD = `
import { EventEmitter } from "node:events";
import v8 from "node:v8";
import { admissionControl } from "./src/http/admission.ts";
const admission = admissionControl({ maxConcurrent: 10, maxQueued: 10, queueTimeoutMs: 1000 });
const oldSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === "old_space").space_used_size;
globalThis.gc();
const before = oldSpace();
for (let batch = 0; batch < 20; batch++) {
  for (let i = 0; i < 100; i++) {
    const req = { path: "/api/employees", headers: {} };
    const res = Object.assign(new EventEmitter(), { payload: new Array(1000).fill(batch * 100 + i) });
    admission(req, res, () => {});
    res.emit("close");
  }
  // twice: a survivor of one scavenge is promoted by the next
  globalThis.gc({ type: "minor" });
  globalThis.gc({ type: "minor" });
}
console.log(JSON.stringify({ before, after: oldSpace() }));
`;

describe("request path: memory", () => {
  it("a request that has closed leaves nothing for the old space (admission control keeps no WeakMap of requests)", () => {
    const r = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", "--input-type=module", "-e", CHILD], {
      cwd: root,
      env: process.env,
      encoding: "utf8",
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const { before, after } = JSON.parse(r.stdout.trim().split("\n").pop()!) as { before: number; after: number };
    // 2 000 closed requests of ~8 kB each (~16 MB) went by; promoted, they would all be there
    expect((after - before) / 1e6).toBeLessThan(3);
  });
});
