// `GET /metrics` and `GET /ready` on a listener of their own (METRICS_PORT), never the API's port: the figures
// are for the operators' Prometheus, not the API's clients (docs/operations.md, "Metrics"). Nothing there
// reads a body, a session or the database but a scrape's two backlog queries, on the health connections.
import http from "node:http";
import type { Express } from "express";
import { type Admission, admissionLoad } from "./admission.ts";
import { readiness } from "../modules/utilities/index.ts";
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
    if (path === "/ready" && req.method === "GET" && admission && lifecycle) return void readyDetails(res, admission, lifecycle);
    if (path !== "/metrics" || (req.method !== "GET" && req.method !== "HEAD")) {
      res.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" });
      res.end("Not found: the metrics are at GET /metrics, readiness with its reasons at GET /ready\n");
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

/** `GET /ready`: the public probe's answer with its reasons (database, migrations, worker) and the load. */
async function readyDetails(res: http.ServerResponse, admission: Admission, lifecycle: Lifecycle): Promise<void> {
  const requests = admissionLoad(admission);
  let status = 200;
  let body: Record<string, unknown>;
  try {
    body = await readiness(lifecycle, requests);
  } catch (err) {
    status = 503;
    body = { status: "not_ready", reason: (err as Error).message, requests };
  }
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" });
  res.end(JSON.stringify(body));
}
