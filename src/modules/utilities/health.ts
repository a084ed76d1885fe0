// Health and clock sync.
import { databaseUp } from "../../db/central.ts";
import { RETRY_AFTER_DOWN_S, unavailable } from "../../platform/errors.ts";
import * as clock from "../../lib/clock.ts";

const startedAt = Date.now(); // machine time: uptime

/** The service's health: up with its database (503 while the database does not answer). */
export async function serviceHealth() {
  if (!(await databaseUp())) throw unavailable("Database unreachable", RETRY_AFTER_DOWN_S);
  return { status: "ok" as const, database: "up" as const, uptime_seconds: Math.floor((Date.now() - startedAt) / 1000) }; // machine time
}

/** The server's clock, for clients to sync with. */
export function serverTime() {
  const now = clock.now();
  return { now: now.toISOString(), epoch_ms: now.getTime() };
}
