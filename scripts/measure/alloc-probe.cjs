// Preloaded into a measured server (BENCH_NODE_FLAGS="--require ./scripts/measure/alloc-probe.cjs"
// ALLOC_PROBE_FILE=<file>.heapprofile): V8's sampling heap profiler over the process's life, written at
// the stop signal (SIGTERM) or exit; open it in Chrome's DevTools (Memory) or rank it with
// `npx tsx scripts/measure/alloc-summary.ts <file>`. ALLOC_PROBE_KIND:
// - `promoted` (default): also the objects a full collection freed, but not those a young collection
//   freed - what outlived a scavenge: what the server keeps, and the garbage it promotes to the old space
//   (the cause of frequent mark-compacts);
// - `all`: every allocation, freed by either collection (what makes the scavenges frequent).
// ALLOC_PROBE_INTERVAL: the mean bytes between samples (16384). Not loaded in production; a measuring aid only.
const { writeFileSync } = require("node:fs");
const inspector = require("node:inspector");

const file = process.env.ALLOC_PROBE_FILE;
if (file) {
  const all = process.env.ALLOC_PROBE_KIND === "all";
  const session = new inspector.Session();
  session.connect();
  session.post("HeapProfiler.enable");
  session.post("HeapProfiler.startSampling", {
    samplingInterval: Number(process.env.ALLOC_PROBE_INTERVAL || 16384),
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: all,
  });
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    // a same-thread session answers synchronously
    session.post("HeapProfiler.stopSampling", (err, res) => {
      if (!err) writeFileSync(file, JSON.stringify(res.profile));
    });
  };
  // at the stop signal, before the server's own shutdown (which may outlast the bench's patience)
  process.prependListener("SIGTERM", write);
  process.on("exit", write);
}
