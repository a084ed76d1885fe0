// The server's clock: the one source of business time (a tenant's "today", instants on business records,
// link expiry, what jobs treat as due); areas never read `new Date()` themselves (scripts/checks/check-clock.ts).
// Machine time (durations, caches, windows, sessions, the database's now()) stays on the machine's clock.
// CLOCK_START and `setClock` move it outside production: docs/testing.md, "Tests and the date".
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

/** Sets the clock to read `instant` now and run on; `undefined` goes back to the process's clock. Refused in production. */
export function setClock(instant: string | Date | undefined): void {
  if (processConfig.isProduction) throw new Error("The clock cannot be set in production");
  const t = instant === undefined ? undefined : new Date(instant);
  if (t && !Number.isFinite(t.getTime())) throw new Error(`setClock: not an instant: ${String(instant)}`);
  offsetMs = t === undefined ? startOffsetMs : offsetTo(t);
}

/** The CLOCK_START a child process (server, tool) needs to read this process's clock; undefined on the machine's. */
export function clockStartForChild(): string | undefined {
  return offsetMs === 0 ? undefined : now().toISOString();
}
