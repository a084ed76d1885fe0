// Preloaded into a measured server (BENCH_NODE_FLAGS="--require ./scripts/measure/loop-probe.cjs"
// LOOP_PROBE_DIR=<dir>): every second appends one JSON line to <dir>/probe-<pid>.jsonl with what
// that second cost the event loop - the garbage collections by kind (count, total and longest pause,
// from perf_hooks), the event-loop delay (monitorEventLoopDelay, 1 ms resolution: p50/p99/max), the
// time from a request's 'request' event to its 'finish' (p50/p99/max), the synchronous writes to
// stdout and stderr (the access log's blocks: count, ms, EAGAIN refusals - on each, the log's writer
// sleeps 100 ms on the event loop), process.memoryUsage() and the heap spaces' physical sizes.
// Figures that survive a shared machine's load better than a client's p99: a pause is the server's.
// Not loaded in production; a measuring aid only.
const fs = require("node:fs");
const { appendFileSync, mkdirSync } = fs;
const http = require("node:http");
const path = require("node:path");
const v8 = require("node:v8");
const { PerformanceObserver, createHistogram, monitorEventLoopDelay, constants } = require("node:perf_hooks");

const dir = process.env.LOOP_PROBE_DIR;
if (dir) {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `probe-${process.pid}.jsonl`);
  const KINDS = {
    [constants.NODE_PERFORMANCE_GC_MINOR]: "scavenge",
    [constants.NODE_PERFORMANCE_GC_MAJOR]: "mark-compact",
    [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: "incremental",
    [constants.NODE_PERFORMANCE_GC_WEAKCB]: "weak-callbacks",
  };
  let gc = {};
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = KINDS[e.detail?.kind ?? e.kind] ?? "other";
      const g = (gc[kind] ??= { n: 0, ms: 0, max: 0 });
      g.n++;
      g.ms += e.duration;
      g.max = Math.max(g.max, e.duration);
    }
  }).observe({ entryTypes: ["gc"] });
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const served = createHistogram();
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function (event, req, res) {
    if (event === "request") {
      const t = process.hrtime.bigint();
      res.once("finish", () => served.record(Number(process.hrtime.bigint() - t) || 1));
    }
    return emit.apply(this, arguments);
  };
  // pino's synchronous destinations call fs.writeSync at call time: counted here for fds 1 and 2
  let writes = { n: 0, ms: 0, max: 0, eagain: 0 };
  const writeSync = fs.writeSync;
  fs.writeSync = function (fd) {
    if (fd !== 1 && fd !== 2) return writeSync.apply(this, arguments);
    const t = process.hrtime.bigint();
    try {
      return writeSync.apply(this, arguments);
    } catch (err) {
      if (err.code === "EAGAIN") writes.eagain++;
      throw err;
    } finally {
      const took = Number(process.hrtime.bigint() - t) / 1e6;
      writes.n++;
      writes.ms += took;
      writes.max = Math.max(writes.max, took);
    }
  };
  const started = Date.now();
  const ms = (ns) => Math.round(ns / 1e4) / 100;
  setInterval(() => {
    const m = process.memoryUsage();
    const line = {
      t: Math.round((Date.now() - started) / 100) / 10,
      gc,
      loop: { p50: ms(loop.percentile(50)), p99: ms(loop.percentile(99)), max: ms(loop.max) },
      requests: served.count,
      writes: { n: writes.n, ms: Math.round(writes.ms * 100) / 100, max: Math.round(writes.max * 100) / 100, eagain: writes.eagain },
      served: served.count ? { p50: ms(served.percentile(50)), p99: ms(served.percentile(99)), max: ms(served.max) } : null,
      mb: Object.fromEntries(["rss", "heapTotal", "heapUsed", "external", "arrayBuffers"].map((k) => [k, Math.round(m[k] / 1048576)])),
      // each heap space's memory in use by the process (physical), MB
      spaces: Object.fromEntries(
        v8.getHeapSpaceStatistics().map((s) => [s.space_name.replace(/_space$/, ""), Math.round(s.physical_space_size / 104857.6) / 10]),
      ),
    };
    appendFileSync(file, `${JSON.stringify(line)}\n`);
    gc = {};
    writes = { n: 0, ms: 0, max: 0, eagain: 0 };
    loop.reset();
    served.reset();
  }, 1000).unref();
}
