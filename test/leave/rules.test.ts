// Pure leave rules (no HTTP, no database): day counting with half days and the sandwich rule,
// consecutive chains, proration, accrual schedules and lapses of expiring credits.
import { describe, expect, it } from "vitest";
import { weekday } from "../../src/lib/dates.ts";
import { accrualSchedule, prorate } from "../../src/modules/leave/accrual.ts";
import { addMonths, monthRange } from "../../src/modules/leave/calendar.ts";
import { dayString, roundHalf, sumDays } from "../../src/modules/leave/days.ts";
import { computeLapses } from "../../src/modules/leave/lapse.ts";
import { applicablePolicy, typeApplies } from "../../src/modules/leave/policy-match.ts";
import { consecutiveHalves, countLeaveDays } from "../../src/modules/leave/workdays.ts";

// 2026-12-04 is a Friday; weekends are off, 2026-12-09 (Wednesday) is a holiday.
const holidays = new Set(["2026-12-09"]);
const isOff = (d: string) => [0, 6].includes(weekday(d)) || holidays.has(d);
const count = (from: string, to: string, o: Partial<Parameters<typeof countLeaveDays>[0]> = {}) =>
  countLeaveDays({ from, to, isOff, sandwich: false, ...o }).halves / 2;

describe("working-day count", () => {
  it("excludes weekly offs and holidays", () => {
    expect(weekday("2026-12-04")).toBe(5);
    expect(count("2026-12-04", "2026-12-04")).toBe(1);
    expect(count("2026-12-04", "2026-12-07")).toBe(2); // Fri + Mon
    expect(count("2026-12-07", "2026-12-11")).toBe(4); // Mon-Fri minus the Wednesday holiday
    expect(count("2026-12-05", "2026-12-06")).toBe(0);
  });

  it("counts half days on the first and last day", () => {
    expect(count("2026-12-07", "2026-12-07", { halfDayStart: true })).toBe(0.5);
    expect(count("2026-12-07", "2026-12-08", { halfDayStart: true })).toBe(1.5);
    expect(count("2026-12-07", "2026-12-08", { halfDayStart: true, halfDayEnd: true })).toBe(1);
    expect(count("2026-12-07", "2026-12-10", { halfDayEnd: true })).toBe(2.5); // Mon Tue (Wed off) Thu½
    // a half-day flag on an off day changes nothing
    expect(count("2026-12-05", "2026-12-07", { halfDayStart: true })).toBe(1);
  });

  it("sandwich inside one request: Friday to Monday is 4 days, Tue-holiday-Thu is 3", () => {
    expect(count("2026-12-04", "2026-12-07", { sandwich: true })).toBe(4);
    expect(count("2026-12-08", "2026-12-10", { sandwich: true })).toBe(3);
    // leading and trailing off days are not sandwiched
    expect(count("2026-12-05", "2026-12-07", { sandwich: true })).toBe(1);
    expect(count("2026-12-04", "2026-12-06", { sandwich: true })).toBe(1);
  });

  it("sandwich across two requests: the later one is charged the bridge", () => {
    const friday = new Set(["2026-12-04"]);
    const r = countLeaveDays({ from: "2026-12-07", to: "2026-12-07", isOff, sandwich: true, coveredByEarlier: (d) => friday.has(d) });
    expect(r.halves / 2).toBe(3);
    expect(r.sandwiched).toEqual(["2026-12-05", "2026-12-06"]);
    // the other direction: Monday exists, Friday comes later
    const monday = new Set(["2026-12-07"]);
    expect(
      countLeaveDays({ from: "2026-12-04", to: "2026-12-04", isOff, sandwich: true, coveredByEarlier: (d) => monday.has(d) }).halves / 2,
    ).toBe(3);
    // no neighbour, no bridge; no sandwich rule, no bridge
    expect(countLeaveDays({ from: "2026-12-07", to: "2026-12-07", isOff, sandwich: true, coveredByEarlier: () => false }).halves / 2).toBe(
      1,
    );
    expect(
      countLeaveDays({ from: "2026-12-07", to: "2026-12-07", isOff, sandwich: false, coveredByEarlier: (d) => friday.has(d) }).halves / 2,
    ).toBe(1);
  });

  it("consecutive chain joins requests separated only by off days", () => {
    const self = { from: "2026-12-07", to: "2026-12-08", halves: 4 };
    const fri = { from: "2026-12-03", to: "2026-12-04", halves: 4 };
    const thu = { from: "2026-12-10", to: "2026-12-10", halves: 2 }; // Wed between is a holiday
    const far = { from: "2026-12-14", to: "2026-12-14", halves: 2 }; // Fri 11 between is a working day
    expect(consecutiveHalves(self, [fri, thu, far], isOff)).toBe(10);
    expect(consecutiveHalves(self, [far], isOff)).toBe(4);
  });
});

describe("proration and accrual", () => {
  it("prorates by joining date, rounded to 0.5", () => {
    expect(dayString(prorate("12", "2026-04-01", "2027-03-31", "2020-01-01"))).toBe("12.0");
    // joins 1 Oct: 182 of 365 days → 5.98 → 6.0
    expect(dayString(prorate("12", "2026-04-01", "2027-03-31", "2026-10-01"))).toBe("6.0");
    // joins 15 Jan: 76/365 × 18 = 3.748 → 3.5 (nearest half)
    expect(dayString(prorate("18", "2026-04-01", "2027-03-31", "2027-01-15"))).toBe("3.5");
    expect(dayString(prorate("12", "2026-04-01", "2027-03-31", "2027-04-01"))).toBe("0.0");
    expect(roundHalf("1.25").toString()).toBe("1.5");
    expect(roundHalf("1.24").toString()).toBe("1");
  });

  it("monthly accrual credits parts on the 1st that add up exactly, each a multiple of 0.5", () => {
    const s = accrualSchedule({
      mode: "monthly",
      accrualDay: "first_day",
      periodStart: "2026-04-01",
      periodEnd: "2027-03-31",
      joiningDate: "2020-05-10",
      entitlement: "15",
    });
    expect(s).toHaveLength(12);
    expect(s[0].date).toBe("2026-04-01");
    expect(s[11].date).toBe("2027-03-01");
    expect(sumDays(s.map((a) => a.days)).toString()).toBe("15");
    for (const a of s) expect(a.days.times(2).isInteger()).toBe(true);
    // running totals are round(15 × k / 12): 1.5, 2.5, 4.0, 5.0 …
    expect(s.slice(0, 4).map((a) => dayString(a.days))).toEqual(["1.5", "1.0", "1.5", "1.0"]);
  });

  it("a mid-period joiner accrues from the joining date, on the joining day of the month if asked", () => {
    const first = accrualSchedule({
      mode: "monthly",
      accrualDay: "first_day",
      periodStart: "2026-04-01",
      periodEnd: "2027-03-31",
      joiningDate: "2026-06-17",
      entitlement: "10",
    });
    expect(first.map((a) => a.date).slice(0, 3)).toEqual(["2026-06-17", "2026-07-01", "2026-08-01"]);
    expect(first).toHaveLength(10);
    expect(first[0].seq).toBe(2);
    expect(sumDays(first.map((a) => a.days)).toString()).toBe("10");
    const joining = accrualSchedule({
      mode: "monthly",
      accrualDay: "joining_date",
      periodStart: "2026-04-01",
      periodEnd: "2027-03-31",
      joiningDate: "2026-01-31",
      entitlement: "12",
    });
    expect(joining.map((a) => a.date).slice(0, 3)).toEqual(["2026-04-30", "2026-05-31", "2026-06-30"]);
    expect(joining[10].date).toBe("2027-02-28");
  });

  it("quarterly accrual has four parts; up-front is one credit", () => {
    const q = accrualSchedule({
      mode: "quarterly",
      accrualDay: "first_day",
      periodStart: "2026-04-01",
      periodEnd: "2027-03-31",
      joiningDate: "2019-01-01",
      entitlement: "10",
    });
    expect(q.map((a) => [a.date, dayString(a.days)])).toEqual([
      ["2026-04-01", "2.5"],
      ["2026-07-01", "2.5"],
      ["2026-10-01", "2.5"],
      ["2027-01-01", "2.5"],
    ]);
    expect(
      accrualSchedule({
        mode: "upfront",
        accrualDay: "first_day",
        periodStart: "2026-04-01",
        periodEnd: "2027-03-31",
        joiningDate: "2026-05-02",
        entitlement: "6",
      }),
    ).toEqual([{ seq: 0, date: "2026-05-02", days: expect.anything() }]);
  });

  it("calendar helpers clamp month ends", () => {
    expect(addMonths("2027-01-31", 1)).toBe("2027-02-28");
    expect(addMonths("2026-11-15", 3)).toBe("2027-02-15");
    expect(monthRange(2028, 2)).toEqual({ from: "2028-02-01", to: "2028-02-29" });
  });
});

describe("lapse of expiring credits", () => {
  it("unused carried-forward days lapse; leave before expiry uses them first", () => {
    const credits = [{ key: "cf", days: "5", expiresOn: "2026-06-30" }];
    expect(computeLapses(credits, []).get("cf")!.toString()).toBe("5");
    expect(
      computeLapses(credits, [
        { date: "2026-05-04", days: "2" },
        { date: "2026-07-10", days: "3" },
      ])
        .get("cf")!
        .toString(),
    ).toBe("3");
    expect(
      computeLapses(credits, [{ date: "2026-05-04", days: "7" }])
        .get("cf")!
        .toString(),
    ).toBe("0");
    // a cancelled leave (reversal) gives the days back
    expect(
      computeLapses(credits, [
        { date: "2026-05-04", days: "2" },
        { date: "2026-05-04", days: "-2" },
      ])
        .get("cf")!
        .toString(),
    ).toBe("5");
  });

  it("the soonest-expiring credit is used first", () => {
    const credits = [
      { key: "late", days: "1", expiresOn: "2026-09-30" },
      { key: "early", days: "1", expiresOn: "2026-08-31" },
    ];
    const lapses = computeLapses(credits, [{ date: "2026-08-10", days: "1" }]);
    expect(lapses.get("early")!.toString()).toBe("0");
    expect(lapses.get("late")!.toString()).toBe("1");
  });
});

describe("policy assignment", () => {
  const p = (
    id: string,
    assignment: string,
    o: { departments?: string[]; designations?: string[]; employees?: string[]; created?: string } = {},
  ) => ({
    id,
    assignment,
    departments: o.departments ?? [],
    designations: o.designations ?? [],
    employeeIds: new Set(o.employees ?? []),
    created_at: new Date(o.created ?? "2026-01-01"),
  });
  const policies = [
    p("default", "default"),
    p("old-default", "default", { created: "2025-01-01" }),
    p("sales", "department", { departments: ["Sales"] }),
    p("lead", "designation", { designations: ["Team Lead"] }),
    p("vip", "individual", { employees: ["e1"] }),
  ];
  it("individual beats designation beats department beats default; the oldest wins a tie", () => {
    expect(applicablePolicy(policies, { id: "e1", department: "Sales", designation: "Team Lead" })?.id).toBe("vip");
    expect(applicablePolicy(policies, { id: "e2", department: "sales", designation: "team lead" })?.id).toBe("lead");
    expect(applicablePolicy(policies, { id: "e3", department: "Sales", designation: "Rep" })?.id).toBe("sales");
    expect(applicablePolicy(policies, { id: "e4", department: "Ops", designation: "Rep" })?.id).toBe("old-default");
    expect(applicablePolicy(policies.slice(2), { id: "e4", department: "Ops", designation: "Rep" })).toBeNull();
  });
  it("leave types can be limited by gender and employment type", () => {
    const t = { applicable_genders: ["Female"], applicable_employment_types: [] };
    expect(typeApplies(t, { gender: "female", employment_type: "full_time" })).toBe(true);
    expect(typeApplies(t, { gender: null, employment_type: "full_time" })).toBe(false);
    expect(
      typeApplies({ applicable_genders: [], applicable_employment_types: ["contract"] }, { gender: "male", employment_type: "full_time" }),
    ).toBe(false);
  });
});
