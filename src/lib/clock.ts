// The server's clock: the one place the current instant of business time comes from - a tenant's
// "today" (src/lib/dates.ts todayIn, src/modules/shared/work-settings.ts tenantToday), the instants
// written on business records (decided_at, sent_at, punches), the expiry of links and tokens, and
// what the scheduled jobs treat as due. Code of src/modules never reads `new Date()` or `Date.now()`
// itself (`make lint`: scripts/checks/check-clock.ts).
//
// Machine time stays on the machine's clock: durations and timeouts, caches, rate-limit windows,
// sessions, the mail outbox's retry times, the age of stored files, the database's own now() and
// created_at / updated_at defaults. They measure how long something took or waited, not which day it is.
//
// Outside production the clock can start at another instant: `CLOCK_START=2026-11-28T12:00:00Z`
// (src/config.ts) makes the process read that instant when it starts, and it runs on from there at the
// normal rate. Tests state the day they run on with `setClock` (test/support/clock.ts `useClock`), and
// the calendar proof (scripts/proof/calendar-proof.ts) runs the date-sensitive tests at fixed instants
// across the calendar with CLOCK_START.
import { processConfig } from "../config.ts";

function offsetTo(instant: string | Date | undefined): number {
  return instant === undefined ? 0 : new Date(instant).getTime() - Date.now();
}

/** The offset CLOCK_START gave the process when it started (0 without it). */
const startOffsetMs = offsetTo(processConfig.clockStart);
/** Milliseconds between the machine's clock and the server's (0 unless CLOCK_START or setClock moved it). */
let offsetMs = startOffsetMs;

/** The current instant of business time. */
export function now(): Date {
  return new Date(Date.now() + offsetMs);
}

/** The current instant of business time in milliseconds since the epoch. */
export function nowMs(): number {
  return Date.now() + offsetMs;
}

/**
 * Sets the clock to read `instant` now (it runs on from there); `undefined` goes back to the
 * process's own clock (the one CLOCK_START started, which has run on since; else the machine's).
 * Tests and tools only: refused in production.
 */
export function setClock(instant: string | Date | undefined): void {
  if (processConfig.isProduction) throw new Error("The clock cannot be set in production");
  const t = instant === undefined ? undefined : new Date(instant);
  if (t && !Number.isFinite(t.getTime())) throw new Error(`setClock: not an instant: ${String(instant)}`);
  offsetMs = t === undefined ? startOffsetMs : offsetTo(t);
}

/**
 * The CLOCK_START a process started now should have to read the same clock as this one (undefined
 * when this one reads the machine's clock): for the servers and tools a test or script starts.
 */
export function clockStartForChild(): string | undefined {
  return offsetMs === 0 ? undefined : now().toISOString();
}
