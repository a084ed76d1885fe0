// Preloaded into a measured server (node --require) by bench-scale.ts: samples the process's memory
// every 50 ms and, on SIGUSR2, writes {rss, heap_used, peak_rss, peak_heap_used} (bytes; peaks since
// the previous signal) as one JSON line to HEAP_PROBE_FILE, then starts the peaks again. Not loaded
// in production; a measuring aid only.
const { writeFileSync } = require("node:fs");
const file = process.env.HEAP_PROBE_FILE;
if (file) {
  let peakRss = 0;
  let peakHeap = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed);
    return m;
  };
  setInterval(sample, 50).unref();
  process.on("SIGUSR2", () => {
    const m = sample();
    writeFileSync(file, `${JSON.stringify({ rss: m.rss, heap_used: m.heapUsed, peak_rss: peakRss, peak_heap_used: peakHeap })}\n`);
    peakRss = m.rss;
    peakHeap = m.heapUsed;
  });
}
