// Opt-in report of event-loop delay (EVENT_LOOP_REPORT=<file>): a monitorEventLoopDelay histogram written
// as JSON on SIGUSR2 (then reset) and at shutdown, for scripts/measure/event-loop.ts. Nothing runs in the
// request path: libuv samples it.
import { renameSync, writeFileSync } from "node:fs";
import { monitorEventLoopDelay } from "node:perf_hooks";

export interface EventLoopReport {
  /** 1, 2, … per report of this process (a reader waits for the next number). */
  seq: number;
  reason: string;
  at: string;
  pid: number;
  /** Sampling interval of the histogram (ms). */
  resolution_ms: number;
  /** Timer samples since the previous report. */
  samples: number;
  /** Longest time (ms) the loop kept a timer waiting, less the sampling interval: an idle loop reports about 0. */
  max_ms: number;
  p99_ms: number;
  p50_ms: number;
  mean_ms: number;
}

export function startEventLoopReport(file: string, resolutionMs = 10): { report: (reason: string) => EventLoopReport } {
  const h = monitorEventLoopDelay({ resolution: resolutionMs });
  h.enable();
  let seq = 0;
  const ms = (ns: number) => (Number.isFinite(ns) ? Math.max(0, Math.round((ns / 1e6 - resolutionMs) * 10) / 10) : 0);
  const report = (reason: string): EventLoopReport => {
    const r: EventLoopReport = {
      seq: ++seq,
      reason,
      at: new Date().toISOString(), // machine time: when the report was written
      pid: process.pid,
      resolution_ms: resolutionMs,
      samples: h.count,
      max_ms: h.count ? ms(h.max) : 0,
      p99_ms: h.count ? ms(h.percentile(99)) : 0,
      p50_ms: h.count ? ms(h.percentile(50)) : 0,
      mean_ms: h.count ? ms(h.mean) : 0,
    };
    h.reset();
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(r)}\n`);
    renameSync(tmp, file); // readers never see half a report
    return r;
  };
  process.on("SIGUSR2", () => {
    try {
      report("SIGUSR2");
    } catch {
      /* an unwritable report file must not take the server down */
    }
  });
  return { report };
}
