// Attendance rules without HTTP: local clock, late/early flags, half days, derived statuses.
import { describe, expect, it } from "vitest";
import { Decimal } from "../../src/lib/money.ts";
import { derivedStatus, evaluatePunch, localClock, punchProblem } from "../../src/modules/attendance/rules.ts";

const rules = {
  shift_start: "09:00",
  shift_end: "18:00",
  grace_minutes: 15,
  half_day_threshold_hours: new Decimal(4),
  timezone: "Asia/Kolkata",
};
const at = (iso: string) => new Date(iso);

describe("attendance rules", () => {
  it("reads local clock times in the company's time zone", () => {
    expect(localClock(at("2026-11-20T03:30:00Z"), "Asia/Kolkata")).toEqual({ date: "2026-11-20", minutes: 9 * 60 });
    expect(localClock(at("2026-11-20T20:00:00Z"), "Asia/Kolkata").date).toBe("2026-11-21");
    expect(localClock(at("2026-11-20T20:00:00Z"), "Asia/Dubai")).toEqual({ date: "2026-11-21", minutes: 0 });
  });

  it("flags late after the grace and early exits before it; worked hours and half days", () => {
    const onTime = evaluatePunch(at("2026-11-20T03:44:00Z"), at("2026-11-20T12:45:00Z"), rules); // 09:14 - 18:15
    expect(onTime).toMatchObject({ late: false, early_exit: false, status: "present" });
    expect(onTime.worked_hours!.toFixed(2)).toBe("9.01");
    const late = evaluatePunch(at("2026-11-20T03:46:00Z"), at("2026-11-20T12:14:00Z"), rules); // 09:16 - 17:44
    expect(late).toMatchObject({ late: true, early_exit: true, status: "present" });
    const half = evaluatePunch(at("2026-11-20T03:30:00Z"), at("2026-11-20T07:00:00Z"), rules); // 3.5 h
    expect(half.status).toBe("half_day");
    expect(half.worked_hours!.toFixed(2)).toBe("3.50");
    expect(evaluatePunch(at("2026-11-20T03:30:00Z"), null, rules, true)).toMatchObject({
      status: "wfh",
      worked_hours: null,
      early_exit: false,
    });
  });

  it("validates punches against the day", () => {
    expect(punchProblem("2026-11-20", at("2026-11-20T03:30:00Z"), at("2026-11-20T12:30:00Z"), "Asia/Kolkata")).toBeNull();
    expect(punchProblem("2026-11-21", at("2026-11-20T03:30:00Z"), null, "Asia/Kolkata")?.field).toBe("check_in");
    expect(punchProblem("2026-11-20", at("2026-11-20T03:30:00Z"), at("2026-11-20T03:00:00Z"), "Asia/Kolkata")?.field).toBe("check_out");
    expect(punchProblem("2026-11-20", at("2026-11-20T03:30:00Z"), at("2026-11-21T04:00:00Z"), "Asia/Kolkata")?.message).toMatch(/24 hours/);
  });

  it("derives days without a record: holiday, weekly off, leave, wfh, then absent or not marked", () => {
    const base = { date: "2026-11-20", today: "2026-11-22", holiday: false, weeklyOff: false, onLeave: false, wfh: false };
    expect(derivedStatus({ ...base, holiday: true, onLeave: true })).toBe("holiday");
    expect(derivedStatus({ ...base, weeklyOff: true })).toBe("weekly_off");
    expect(derivedStatus({ ...base, onLeave: true, wfh: true })).toBe("on_leave");
    expect(derivedStatus({ ...base, wfh: true })).toBe("wfh");
    expect(derivedStatus(base)).toBe("absent");
    expect(derivedStatus({ ...base, date: "2026-11-22" })).toBe("not_marked");
  });
});
