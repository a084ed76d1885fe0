// The metrics endpoint: `GET /metrics` (Prometheus' text exposition, src/platform/metrics.ts) on a
// listener of its own (METRICS_PORT on METRICS_HOST, loopback by default), never on the API's port:
// the figures name every operation and the process's load, which is for the operators' Prometheus,
// not for the API's clients. Anything else on that port is a 404; nothing there reads a body, a
// session or the database (but for the two backlog queries of a scrape, on the health check's own
// connections).
import http from "node:http";
import type { Express } from "express";
import type { Admission } from "./admission.ts";
import { type Lifecycle, readyByState } from "../platform/lifecycle.ts";
import { exposition, reportAdmission, reportReadiness } from "../platform/metrics.ts";
import { logger } from "../log.ts";

/** The metrics listener of `app` (its admission control's load and its lifecycle are reported). */
export function createMetricsServer(app: Express): http.Server {
  const admission = app.locals.admission as Admission | undefined;
  if (admission)
    reportAdmission(() => {
      const s = admission.stats();
      return { active: s.active, queued: s.queued, readingBodies: s.readingBodies, limit: admission.options.maxConcurrent };
    });
  const lifecycle = app.locals.lifecycle as Lifecycle | undefined;
  if (lifecycle) reportReadiness(() => readyByState(lifecycle));
  const server = http.createServer((req, res) => {
    const path = (req.url ?? "").split("?", 1)[0];
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("Not found: the metrics are at GET /metrics\n");
      return;
    }
    exposition().then(
      ({ contentType, body }) => {
        res.writeHead(200, { "Content-Type": contentType, "Cache-Control": "no-store", "Content-Length": Buffer.byteLength(body) });
        res.end(req.method === "HEAD" ? undefined : body);
      },
      (err: Error) => {
        logger.error({ err: err.message }, "metrics not collected");
        res.writeHead(500, { "Content-Type": "text/plain; charset=utf-8" });
        res.end("metrics not collected\n");
      },
    );
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  return server;
}
