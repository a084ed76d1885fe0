// One clock for business time (src/lib/clock.ts): the server, its jobs and the tests read the
// current instant and a company's "today" from it, and tests set it. At every instant of the
// calendar proof (scripts/proof/calendar-proof.ts, which runs the date-sensitive folders at each in
// `make verify`), this file checks in one process what the server takes for today: the server time,
// a check-in's date, the dashboard's as-of date and the "not in the future" boundary of a
// regularization - in India, where from 18:30 UTC the date is already the next day.
import { afterAll, describe, expect, it } from "vitest";
import { INSTANTS } from "../../scripts/proof/calendar-proof.ts";
import * as clock from "../../src/lib/clock.ts";
import { addDays, todayIn } from "../../src/lib/dates.ts";
import { expectError, useTestApp } from "../support/app.ts";
import { today } from "../support/clock.ts";
import { leaveWorld } from "../leave/fixtures.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
afterAll(() => clock.setClock(undefined));

describe("the clock", () => {
  it("reads the instant it was set to and runs on from there; undefined goes back to the process's setting", async () => {
    clock.setClock("2027-03-31T18:45:00Z");
    const first = clock.nowMs();
    expect(first - Date.parse("2027-03-31T18:45:00Z")).toBeGreaterThanOrEqual(0);
    expect(first - Date.parse("2027-03-31T18:45:00Z")).toBeLessThan(60_000);
    await new Promise((r) => setTimeout(r, 20));
    expect(clock.nowMs()).toBeGreaterThan(first);
    expect(clock.now().getTime()).toBeGreaterThanOrEqual(clock.nowMs() - 1000);
    expect(todayIn("Asia/Kolkata")).toBe("2027-04-01");
    expect(todayIn("UTC")).toBe("2027-03-31");
    expect(Date.parse(clock.clockStartForChild()!) - Date.parse("2027-03-31T18:45:00Z")).toBeLessThan(60_000);
    expect(() => clock.setClock("not a date")).toThrow(/not an instant/);
    // back to the process's own clock: CLOCK_START's, run on since the process started, else the machine's
    clock.setClock(undefined);
    const start = process.env.CLOCK_START;
    if (start) {
      const elapsed = clock.nowMs() - Date.parse(start);
      expect(elapsed).toBeGreaterThanOrEqual(0);
      expect(elapsed).toBeLessThanOrEqual(process.uptime() * 1000 + 1000);
    } else expect(Math.abs(clock.nowMs() - Date.now())).toBeLessThanOrEqual(1000);
  });
});

describe.each(INSTANTS)("getServerTime, checkIn, getDashboardOverview, createAttendanceRegularization at $at ($what)", ({ at, india }) => {
  it(`the company's today is ${india}`, async () => {
    clock.setClock(at);
    expect(today()).toBe(india);
    const st = (await api(t.request()).op("getServerTime").expect(200)).body.data;
    expect(st.epoch_ms - Date.parse(at)).toBeGreaterThanOrEqual(0);
    expect(st.epoch_ms - Date.parse(at)).toBeLessThan(60_000);
    expect(st.now.slice(0, 10)).toBe(at.slice(0, 10)); // UTC

    const w = await leaveWorld(t); // a leave period around today (india)
    const ci = await api(w.employee.agent).op("checkIn", { body: {} }).expect(200);
    expect(ci.body.data.date).toBe(india);
    const overview = (await api(w.hr.agent).op("getDashboardOverview").expect(200)).body.data;
    expect(overview.as_of).toBe(india);

    // today is not in the future, tomorrow is - in the company's time zone, not UTC's
    const tomorrow = addDays(india, 1);
    const future = expectError(
      await api(w.manager.agent).op("createAttendanceRegularization", {
        body: { date: tomorrow, check_in: `${tomorrow}T03:30:00.000Z`, reason: "tomorrow" },
      }),
      400,
    );
    expect(future.details).toEqual([{ path: "body.date", message: "must not be in the future" }]);
    const inMinute = new Date(clock.nowMs() - 60_000).toISOString(); // a minute ago: still today in India
    const ok = await api(w.manager.agent).op("createAttendanceRegularization", {
      body: { date: india, check_in: inMinute, reason: "forgot" },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.data.date).toBe(india);
  });
});
