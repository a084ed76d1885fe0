// The database's figures, read when scraped: the pools of this process (src/db/pool-stats.ts) and the
// read replica's lag (src/db/replica.ts). Registered by src/platform/metrics.ts.
import client from "prom-client";
import { poolFigures, poolTimeouts } from "../db/pool-stats.ts";
import { replicaLag } from "../db/replica.ts";

/** The pools' gauges: connections by state, the most each may open, callers waiting, connect timeouts. */
export function registerPoolMetrics(registry: client.Registry): void {
  new client.Gauge({
    name: "hrms_db_pool_connections",
    help: "Connections open in each pool of this process (primary, replica, health), by state: in_use or idle.",
    labelNames: ["pool", "state"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const p of poolFigures()) {
        this.set({ pool: p.name, state: "in_use" }, p.total - p.idle);
        this.set({ pool: p.name, state: "idle" }, p.idle);
      }
    },
  });
  new client.Gauge({
    name: "hrms_db_pool_max_connections",
    help: "Connections each pool may open (DATABASE_POOL_SIZE; the health check's 4).",
    labelNames: ["pool"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const p of poolFigures()) this.set({ pool: p.name }, p.max);
    },
  });
  new client.Gauge({
    name: "hrms_db_pool_waiting",
    help: "Callers waiting for a connection of each pool.",
    labelNames: ["pool"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const p of poolFigures()) this.set({ pool: p.name }, p.waiting);
    },
  });
  new client.Counter({
    name: "hrms_db_pool_connect_timeouts_total",
    help: "Callers that gave up waiting for a connection of each pool (DATABASE_POOL_TIMEOUT_MS; answered 503).",
    labelNames: ["pool"] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [pool, n] of poolTimeouts()) this.inc({ pool }, n);
    },
  });
}

/** The read replica's gauges: up, and its lag in seconds and bytes (absent without a replica). */
export function registerReplicaMetrics(registry: client.Registry): void {
  new client.Gauge({
    name: "hrms_db_replica_up",
    help: "1 while the read replica (DATABASE_REPLICA_URL) answered its last probe, else 0; absent without a replica.",
    labelNames: ["pool"] as const,
    registers: [registry],
    collect() {
      this.reset();
      const lag = replicaLag();
      if (lag) this.set({ pool: "replica" }, lag.up ? 1 : 0);
    },
  });
  new client.Gauge({
    name: "hrms_db_replica_lag_seconds",
    help:
      "Seconds since the primary had flushed the oldest WAL position the replica has not replayed (0: replayed all; " +
      "probed every second); absent while the replica is down.",
    labelNames: ["pool"] as const,
    registers: [registry],
    collect() {
      this.reset();
      const lag = replicaLag();
      if (lag?.seconds != null) this.set({ pool: "replica" }, lag.seconds);
    },
  });
  new client.Gauge({
    name: "hrms_db_replica_lag_bytes",
    help: "WAL bytes between the primary's flush position and the replica's replay position, at the last probe.",
    labelNames: ["pool"] as const,
    registers: [registry],
    collect() {
      this.reset();
      const lag = replicaLag();
      if (lag?.bytes != null) this.set({ pool: "replica" }, lag.bytes);
    },
  });
}
