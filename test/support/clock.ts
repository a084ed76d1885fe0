// The day a test runs on. The server reads business time from one clock (src/lib/clock.ts); a test
// file that means a particular day states it with `useClock(instant)`, and a test that means
// "relative to today" computes its dates from the same clock with `today(timeZone)` - the function
// the server uses. Run a file at a given instant with `CLOCK_START=2027-03-31T19:00:00Z npx vitest
// run --config test/vitest.config.ts test/leave/availability.test.ts`; the calendar proof
// (scripts/proof/calendar-proof.ts) does that for the date-sensitive folders at a set of instants.
import { afterAll, beforeAll } from "vitest";
import { setClock } from "../../src/lib/clock.ts";
import { type DateString, todayIn } from "../../src/lib/dates.ts";

/** Time zone of the companies the tests sign up (the signup default). */
export const TEST_TIME_ZONE = "Asia/Kolkata";

/**
 * A day the payroll files that work figures out by hand for given months (loans from December
 * 2026, the runs of January to March 2027) state as the day they run on: Wednesday 25 November
 * 2026, noon in India.
 */
export const PAYROLL_FIGURES_DAY = "2026-11-25T06:30:00Z";

/** The file runs with the clock reading `instant` when it starts (it runs on from there). */
export function useClock(instant: string): void {
  beforeAll(() => setClock(instant));
  afterAll(() => setClock(undefined));
}

/** Today in `timeZone` by the server's clock (what the server takes for the tenant's today). */
export function today(timeZone = TEST_TIME_ZONE): DateString {
  return todayIn(timeZone);
}
