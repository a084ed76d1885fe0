// Health, liveness, readiness and clock sync.
import { databaseUp, pendingMigrations } from "../../db/central.ts";
import type { Lifecycle } from "../../platform/lifecycle.ts";
import { AppError, RETRY_AFTER_DOWN_S, unavailable } from "../../platform/errors.ts";
import * as clock from "../../lib/clock.ts";

const startedAt = Date.now(); // machine time: uptime

const uptimeSeconds = () => Math.floor((Date.now() - startedAt) / 1000); // machine time: uptime

/** The service's health: up with its database (503 while the database does not answer). */
export async function serviceHealth() {
  if (!(await databaseUp())) throw unavailable("Database unreachable", RETRY_AFTER_DOWN_S);
  return { status: "ok" as const, database: "up" as const, uptime_seconds: uptimeSeconds() };
}

/** Liveness: the process answers (nothing else is asked). */
export function liveness() {
  return { status: "alive" as const, uptime_seconds: uptimeSeconds() };
}

/**
 * Readiness (docs/operations.md, "Health probes"): started, not draining, the job worker running
 * where it should, not saturated, the database up, every migration applied - else a 503 naming the
 * first that fails. The migrations are asked until they were once seen applied.
 */
export async function readiness<R extends { saturated: boolean }>(lifecycle: Lifecycle, requests: R) {
  if (lifecycle.draining) throw unavailable("Not ready: shutting down (draining)", RETRY_AFTER_DOWN_S);
  if (lifecycle.starting) throw unavailable("Not ready: starting");
  if (lifecycle.workerExpected && !lifecycle.workerRunning()) throw unavailable("Not ready: the job worker is not running");
  // saturated: every request slot taken and requests waiting or refused (src/http/admission.ts)
  if (requests.saturated) throw unavailable("Server saturated: every request slot is taken and requests wait for one");
  const { database } = await serviceHealth();
  if (!lifecycle.migrationsApplied) {
    const pending = await pendingMigrations().catch(() => null);
    if (pending === null) throw unavailable("Not ready: the applied migrations could not be read", RETRY_AFTER_DOWN_S);
    if (pending.length)
      throw unavailable(`Not ready: ${pending.length} migration(s) of this build not applied (first: ${pending[0]})`, RETRY_AFTER_DOWN_S);
    lifecycle.migrationsApplied = true;
  }
  return {
    status: "ready" as const,
    database,
    migrations: "applied" as const,
    worker: lifecycle.workerExpected ? ("running" as const) : ("off" as const),
    requests,
  };
}

/** The server's clock, for clients to sync with. */
export function serverTime() {
  const now = clock.now();
  return { now: now.toISOString(), epoch_ms: now.getTime() };
}

/** A readiness refusal as the public probe answers it: 503 "Not ready" with its Retry-After, without the reason. */
export function notReady(err: unknown): unknown {
  if (!(err instanceof AppError) || err.status !== 503) return err;
  const retry = Number(err.headers?.["Retry-After"] ?? 0) || undefined;
  return unavailable("Not ready, try again shortly", retry);
}
