// The day-by-day attendance view: stored records, and for days without one the status derived
// from holidays, weekly offs, approved leave and work from home.
import type { Page } from "../../platform/use-case.ts";
import { badRequest, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, QueryParams } from "../../platform/use-case.ts";
import { type DateString, eachDay, weekday } from "../../lib/dates.ts";
import { approvedTimeOff, holidayApplies, maxDate, monthRange } from "../leave/index.ts";
import { effectiveWeeklyOffs, tenantToday } from "../shared/work-settings.ts";
import type { S } from "./json.ts";
import { dayViewPage, dayViewSettings } from "./queries.ts";
import { derivedStatus } from "./rules.ts";

export type AttendanceQuery = QueryParams<"listAttendance">;

/** The days of a page of employees in the range the query names (today by default); and their count. */
// size: one pass over a page of employees and the range's days, building each day from the records read once
export async function attendanceDays(
  auth: AuthContext,
  q: AttendanceQuery,
  page: Page,
): Promise<{ days: S["AttendanceDay"][]; total: number }> {
  if (q.date && (q.month || q.year))
    throw badRequest("Give either date or month/year, not both", [
      { path: "query.date", message: "cannot be combined with month or year" },
    ]);
  if (q.year && !q.month) throw invalidField("query.month", "is required with year");
  // The range, when the query names it outright; otherwise it depends on the tenant's today.
  let range: { from: DateString; to: DateString };
  let today: DateString | undefined;
  if (q.date) range = { from: q.date, to: q.date };
  else if (q.month && q.year) range = monthRange(q.year, q.month);
  else {
    today = tenantToday(await dayViewSettings());
    range = q.month ? monthRange(Number(today.slice(0, 4)), q.month) : { from: today, to: today };
  }
  const { from, to } = range;
  // One employee: their time off is read beside the page (one round trip); a page's after it.
  const timeOff = (ids: readonly string[]) => approvedTimeOff(ids, from, to);
  const [d, oneOff] = await Promise.all([
    dayViewPage(auth, { employeeId: q.employee_id, from, to, page }),
    q.employee_id ? timeOff([q.employee_id]) : null,
  ]);
  if (q.employee_id && page.page === 1 && !d.employees.length) throw notFound("Employee");
  const off = oneOff ?? (await timeOff(d.employees.map((e) => e.id)));
  today ??= tenantToday(d.settings);
  const recordBy = new Map(d.records.map((x) => [`${x.employee_id}:${x.date}`, x]));
  const offs = new Set(effectiveWeeklyOffs(d.settings.company_weekly_offs, d.settings));
  const holidays = off.holidays;
  const days: S["AttendanceDay"][] = [];
  for (const e of d.employees) {
    const myLeaves = off.leaves.filter((l) => l.employee_id === e.id);
    const myWfh = off.wfh.filter((x) => x.employee_id === e.id);
    const myHolidays = new Map<string, string>();
    for (const h of holidays) if (holidayApplies(h, e) && !myHolidays.has(h.date)) myHolidays.set(h.date, h.name);
    for (const day of eachDay(maxDate(from, e.joining_date), to)) {
      const leave = myLeaves.find((l) => l.from <= day && day <= l.to) ?? null;
      const wfh = myWfh.find((x) => x.from <= day && day <= x.to) ?? null;
      const holiday = myHolidays.get(day) ?? null;
      const rec = recordBy.get(`${e.id}:${day}`);
      days.push({
        employee_id: e.id,
        employee_name: e.name,
        date: day,
        status: rec
          ? rec.status
          : derivedStatus({
              date: day,
              today,
              holiday: Boolean(holiday),
              weeklyOff: offs.has(weekday(day)),
              onLeave: Boolean(leave),
              wfh: Boolean(wfh),
            }),
        check_in: rec?.check_in ?? null,
        check_out: rec?.check_out ?? null,
        worked_hours: rec?.worked_hours ?? null,
        late: rec?.late ?? false,
        early_exit: rec?.early_exit ?? false,
        source: rec?.source ?? "derived",
        record_id: rec?.id ?? null,
        leave_request_id: leave?.id ?? null,
        leave_type_code: leave?.code ?? null,
        holiday_name: holiday,
        wfh_request_id: wfh?.id ?? null,
      });
    }
  }
  return { days, total: q.employee_id ? 1 : d.total };
}
