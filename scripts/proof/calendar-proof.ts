// The calendar proof: the date-sensitive tests at fixed instants across the calendar. Each instant
// is one vitest run with CLOCK_START set (src/lib/clock.ts: the server and the tests read business
// time from one clock, which starts at that instant and runs on), its own embedded PostgreSQL (or
// TEST_DATABASE_URL) and its own databases. The instants are chosen so that, in India (the tenants'
// time zone), every weekday is a "today", and so are a month end, a leap day, a year end, the
// financial year's last and first day (31 March / 1 April, also the first ESI contribution period's
// start) and the second ESI period's start (1 October); four of them fall in the hours when the date
// in India is already the next day in UTC (18:30-24:00 UTC).
//
//   npx tsx scripts/proof/calendar-proof.ts                         every instant, the whole suite
//   npx tsx scripts/proof/calendar-proof.ts test/leave/rules.test.ts   other files or folders
//   CALENDAR_INSTANTS=2027-03-31T18:45:00Z,... npx tsx scripts/proof/calendar-proof.ts
//
// Prints a table (instant, what it is, result, tests, seconds) and exits 1 when a run fails.
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { trackOwnedProcesses } from "../support/owned-processes.ts";
import { runChild } from "../support/run-child.ts";

const root = path.resolve(import.meta.dirname, "../..");

/**
 * What the proof runs at each instant: the whole suite. Tests that depend on the day were found in
 * most of its folders - leave, attendance, payroll, employees' exits, the dashboards, recruitment's
 * offers and interviews, assets' assignments, the platform's link and token expiries and the proof
 * matrices' factories - so every test is run rather than a list that would miss the next one.
 * `CALENDAR_TARGETS=test/leave,test/payroll` narrows it.
 */
export const DATE_SENSITIVE = process.env.CALENDAR_TARGETS?.split(",").map((x) => x.trim()) ?? ["test"];

/** The instants (UTC), with what each is in India (IST, UTC+05:30) and the date there. */
export const INSTANTS: ReadonlyArray<{ at: string; what: string; india: string }> = [
  { at: "2026-11-28T06:30:00Z", india: "2026-11-28", what: "Sat 28 Nov 2026, 12:00 IST" },
  { at: "2026-11-29T06:30:00Z", india: "2026-11-29", what: "Sun 29 Nov 2026, 12:00 IST" },
  { at: "2026-11-30T06:30:00Z", india: "2026-11-30", what: "Mon 30 Nov 2026, month end" },
  { at: "2026-11-30T19:00:00Z", india: "2026-12-01", what: "Tue 1 Dec 2026 00:30 IST, still 30 Nov in UTC" },
  { at: "2027-03-31T06:30:00Z", india: "2027-03-31", what: "Wed 31 Mar 2027, financial year's last day" },
  { at: "2027-03-31T18:45:00Z", india: "2027-04-01", what: "Thu 1 Apr 2027 00:15 IST (new financial year, ESI period), 31 Mar in UTC" },
  { at: "2027-09-30T20:00:00Z", india: "2027-10-01", what: "Fri 1 Oct 2027 01:30 IST (ESI period), 30 Sep in UTC" },
  { at: "2027-12-31T06:30:00Z", india: "2027-12-31", what: "Fri 31 Dec 2027, year end" },
  { at: "2027-12-31T21:00:00Z", india: "2028-01-01", what: "Sat 1 Jan 2028 02:30 IST, 31 Dec in UTC" },
  { at: "2028-02-29T06:30:00Z", india: "2028-02-29", what: "Tue 29 Feb 2028, leap day" },
];

export interface ProofRow {
  at: string;
  what: string;
  result: "pass" | "FAIL";
  tests: string;
  seconds: number;
  failures: string[];
}

/** Runs vitest on `targets` with the clock starting at `at`. */
export async function runAt(at: string, what: string, targets: string[]): Promise<ProofRow> {
  const started = Date.now();
  const r = await runChild(path.join(root, "node_modules", ".bin", "vitest"), ["run", "--config", "test/vitest.config.ts", ...targets], {
    cwd: root,
    env: { ...process.env, CLOCK_START: at, NO_COLOR: "1", FORCE_COLOR: "0" },
  });
  const out = `${r.stdout}\n${r.stderr}`;
  const tests = /Tests\s+(.*)/.exec(out)?.[1]?.trim() ?? "no summary";
  const failures = [...new Set([...out.matchAll(/^\s*FAIL\s+(.+)$/gm)].map((m) => m[1].trim()))];
  // the whole output of each run is kept: .data/calendar-proof/<instant>.log
  const logs = path.join(root, ".data", "calendar-proof");
  mkdirSync(logs, { recursive: true });
  writeFileSync(path.join(logs, `${at.replace(/:/g, "")}.log`), out);
  return { at, what, result: r.status === 0 ? "pass" : "FAIL", tests, seconds: Math.round((Date.now() - started) / 1000), failures };
}

export function formatProof(rows: ProofRow[]): string {
  const lines = rows.map((r) => `| ${r.at} | ${r.what} | ${r.result} | ${r.tests} | ${r.seconds} |`);
  return ["| CLOCK_START | in India | result | tests | s |", "|---|---|---|---|---|", ...lines].join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  trackOwnedProcesses();
  const targets = process.argv.slice(2).length ? process.argv.slice(2) : DATE_SENSITIVE;
  const given = process.env.CALENDAR_INSTANTS?.split(",").map(
    (at) => INSTANTS.find((i) => i.at === at.trim()) ?? { at: at.trim(), what: "given" },
  );
  const chosen = given ?? INSTANTS;
  const rows: ProofRow[] = [];
  for (const { at, what } of chosen) {
    console.log(`=== calendar proof: ${at} (${what}): ${targets.join(" ")}`);
    const row = await runAt(at, what, targets);
    rows.push(row);
    console.log(`${row.result} ${row.tests} in ${row.seconds} s${row.failures.length ? `\n  ${row.failures.join("\n  ")}` : ""}`);
  }
  console.log(`\n${formatProof(rows)}`);
  process.exit(rows.every((r) => r.result === "pass") ? 0 : 1);
}
