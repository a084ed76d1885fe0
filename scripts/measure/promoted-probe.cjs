// Preloaded into a measured server (BENCH_NODE_FLAGS="--require ./scripts/measure/promoted-probe.cjs"
// PROMOTED_PROBE_FILE=<file>.heapprofile): V8's sampling heap profiler over the process's life, counting
// also the objects a full collection freed (includeObjectsCollectedByMajorGC) but not those a young
// collection freed - so what it holds is what outlived a scavenge: what the server keeps, and the garbage
// it promotes to the old space (the cause of frequent mark-compacts). Written at SIGTERM or exit; summarise it with
// `npx tsx scripts/measure/heap-profile-summary.ts <file>`. Not loaded in production; a measuring aid only.
const { writeFileSync } = require("node:fs");
const inspector = require("node:inspector");

const file = process.env.PROMOTED_PROBE_FILE;
if (file) {
  const session = new inspector.Session();
  session.connect();
  session.post("HeapProfiler.enable");
  session.post("HeapProfiler.startSampling", {
    samplingInterval: Number(process.env.PROMOTED_PROBE_INTERVAL || 16384),
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: false,
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
