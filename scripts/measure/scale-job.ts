// Runs one scheduled job of the server in a process of its own, as the worker would, for bench-scale.ts:
//   DATABASE_URL=... npx tsx scripts/measure/scale-job.ts leave-accrual <YYYY-MM-DD>
// and prints one JSON line: seconds, the process's CPU (ms), its peak RSS and its heap after the job.
import { closeDb, initDb } from "../../src/db/client.ts";
import { runLeaveAccruals } from "../../src/modules/leave/jobs.ts";

const [job, today] = process.argv.slice(2);
if (job !== "leave-accrual" || !/^\d{4}-\d{2}-\d{2}$/.test(today ?? "")) {
  console.error("usage: scale-job.ts leave-accrual <YYYY-MM-DD>");
  process.exit(2);
}
initDb(process.env.DATABASE_URL!);
let peakHeap = 0;
const timer = setInterval(() => (peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed)), 50);
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const posted = await runLeaveAccruals({ today });
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
clearInterval(timer);
const m = process.memoryUsage();
console.log(
  JSON.stringify({
    posted,
    seconds,
    cpu_ms: Math.round((cpu.user + cpu.system) / 1000),
    peak_rss: process.resourceUsage().maxRSS * 1024,
    peak_heap_used: Math.max(peakHeap, m.heapUsed),
    heap_used: m.heapUsed,
  }),
);
await closeDb();
process.exit(0);
