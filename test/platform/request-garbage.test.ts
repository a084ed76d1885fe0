// A request's objects die young. What a middleware keeps of a request for as long as it runs
// (admission control's entry, the membership read with the session) is kept on the request, not in
// a WeakMap keyed by it: V8's young-generation collections (scavenges) treat an ephemeron's value as
// strong, so an entry that holds its request kept every request's objects - the request, the
// response, their headers - alive through the scavenges that would have freed them; all were
// promoted to the old space, and under load a full collection ran every second (a third of the
// signed-in floor's CPU) and the old space swung by ~35 MB (docs/measurements/2026-11-29-read-path.md).
// Nor are the requests in progress a Set: once its table is in the old space, each table a rehash
// replaces keeps the requests it held for young collections (src/lib/linked-set.ts), which promoted
// every request of a read that waits for the database (~10 in flight), and a full collection ran
// every second under the profile-by-id load.
// Measured in a process of its own (--expose-gc): the old space after requests that passed admission
// control and closed, with only young-generation collections between them.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");

/** 2 000 requests of ~8 kB each through admission control, `inFlight` of them open at once; the old space's growth, MB. */
function oldSpaceGrowthMb(inFlight: number): number {
  const child = `
import { EventEmitter } from "node:events";
import v8 from "node:v8";
import { admissionControl } from "./src/http/admission.ts";
const admission = admissionControl({ maxConcurrent: 20, maxQueued: 10, queueTimeoutMs: 1000 });
const oldSpace = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === "old_space").space_used_size;
// a full collection first, as a server's first minutes see: what admission control keeps for good is old from then on
globalThis.gc();
const before = oldSpace();
const open = [];
for (let batch = 0; batch < 20; batch++) {
  for (let i = 0; i < 100; i++) {
    const req = { path: "/api/employees", headers: {} };
    const res = Object.assign(new EventEmitter(), { payload: new Array(1000).fill(batch * 100 + i) });
    admission(req, res, () => {});
    open.push(res);
    if (open.length > ${inFlight}) open.shift().emit("close");
  }
  while (open.length) open.shift().emit("close");
  // twice: a survivor of one scavenge is promoted by the next
  globalThis.gc({ type: "minor" });
  globalThis.gc({ type: "minor" });
}
console.log(JSON.stringify({ before, after: oldSpace() }));
`;
  const r = spawnSync(process.execPath, ["--expose-gc", "--import", "tsx", "--input-type=module", "-e", child], {
    cwd: root,
    env: process.env,
    encoding: "utf8",
    timeout: 120_000,
  });
  expect(r.status, r.stderr).toBe(0);
  const { before, after } = JSON.parse(r.stdout.trim().split("\n").pop()!) as { before: number; after: number };
  return (after - before) / 1e6;
}

describe("request path: memory", () => {
  // 2 000 closed requests of ~8 kB each (~16 MB) went by; promoted, they would all be there
  it("a request that has closed leaves nothing for the old space (admission control keeps no WeakMap of requests)", () => {
    expect(oldSpaceGrowthMb(0)).toBeLessThan(3);
  });

  it("nor do requests that were in progress ten at a time (admission control's list of them is no Set)", () => {
    expect(oldSpaceGrowthMb(10)).toBeLessThan(3);
  });
});
