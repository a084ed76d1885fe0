// Dashboard overview, computed over the caller's scope (scope.ts). "Today" and "this month" are in
// the company's time zone. Employee figures are read here (queries.ts); leave, attendance
// corrections and exits through those areas' index.ts.
import { activeTenant } from "../../db/central.ts";
import { db } from "../../db/tenancy.ts";
import type { AuthContext } from "../../platform/use-case.ts";
import { addDays, eachDay, todayIn } from "../../lib/dates.ts";
import { Decimal } from "../../lib/money.ts";
import { pendingRegularizationsByEmployee } from "../attendance/index.ts";
import { exitFigures } from "../employees/index.ts";
import { companyHolidays, employeesOnLeave, pendingLeaveRequestsByEmployee } from "../leave/index.ts";
import { isHr } from "../shared/access.ts";
import { celebrationsOn, departmentCounts, headcountByStatus } from "./queries.ts";
import { liveEmployeesOf, scopeOf, type Who } from "./scope.ts";

const STATUSES = ["active", "inactive", "on_notice", "exited"] as const;
const WINDOW_DAYS = 30;
const MAX_CELEBRATIONS = 50;
const MAX_HOLIDAYS = 50;

interface Celebration {
  employee_id: string;
  full_name: string;
  department: string;
  date: string;
}

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;

/** MM-DD → the date in [today, today + 29] it falls on (29 February → 28 February in common years). */
function windowDays(today: string): Map<string, string> {
  const days = new Map<string, string>();
  for (const d of eachDay(today, addDays(today, WINDOW_DAYS - 1))) {
    days.set(d.slice(5), d);
    if (d.slice(5) === "02-28" && !isLeap(Number(d.slice(0, 4)))) days.set("02-29", d);
  }
  return days;
}

/** Employees of the scope on approved leave today. */
async function onLeaveToday(who: Who, today: string): Promise<number> {
  const ids = await employeesOnLeave(today);
  return ids.length ? db.employee.count({ where: { AND: [liveEmployeesOf(who), { id: { in: ids } }] } }) : 0;
}

/**
 * Requests waiting for the caller's decision: leave, work from home, working on a holiday,
 * attendance regularization and leave encashment. hr/admin/owner decide for everyone; a
 * manager for their direct reports; an employee decides nothing. Never the caller's own.
 */
async function pendingApprovalsFor(auth: AuthContext): Promise<number> {
  const everyone = isHr(auth);
  if (!everyone && (auth.role !== "manager" || !auth.employeeId)) return 0;
  const [leave, corrections] = await Promise.all([pendingLeaveRequestsByEmployee(), pendingRegularizationsByEmployee()]);
  const pending = new Map(leave);
  for (const [id, n] of corrections) pending.set(id, (pending.get(id) ?? 0) + n);
  if (!pending.size) return 0;
  const whose = await db.employee.findMany({
    where: {
      id: { in: [...pending.keys()] },
      deleted_at: null,
      ...(everyone ? {} : { reports_to: auth.employeeId }),
      ...(auth.employeeId ? { NOT: { id: auth.employeeId } } : {}),
    },
    select: { id: true },
  });
  return whose.reduce((sum, e) => sum + (pending.get(e.id) ?? 0), 0);
}

export async function dashboardOverview(auth: AuthContext) {
  const { timezone } = await activeTenant({ timezone: true });
  const today = todayIn(timezone);
  const monthStart = `${today.slice(0, 8)}01`;
  const [y, m] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))];
  const nextMonthStart = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, "0")}-01`;
  const { scope, who } = await scopeOf(auth);
  const days = windowDays(today);
  const mmdd = [...days.keys()];

  const [agg, exits, departments, people, onLeave, pending, holidays] = await Promise.all([
    headcountByStatus(who, monthStart, nextMonthStart),
    exitFigures(liveEmployeesOf(who), monthStart, nextMonthStart),
    departmentCounts(who),
    celebrationsOn(who, mmdd, today),
    onLeaveToday(who, today),
    pendingApprovalsFor(auth),
    companyHolidays(today, addDays(today, WINDOW_DAYS - 1), { limit: MAX_HOLIDAYS }),
  ]);

  const birthdays: Celebration[] = [];
  const anniversaries: (Celebration & { years: number })[] = [];
  for (const p of people) {
    const base = { employee_id: p.id, full_name: `${p.first_name} ${p.last_name}`, department: p.department };
    if (p.birthday) birthdays.push({ ...base, date: days.get(p.birthday)! });
    const on = days.get(p.joined.slice(5));
    const years = on ? Number(on.slice(0, 4)) - Number(p.joined.slice(0, 4)) : 0;
    if (on && years >= 1) anniversaries.push({ ...base, date: on, years });
  }
  const byDate = (a: Celebration, b: Celebration) => a.date.localeCompare(b.date) || a.full_name.localeCompare(b.full_name);

  const total = agg.active + agg.inactive + agg.on_notice;
  const average = new Decimal(exits.employed_at_start).plus(total).div(2);
  const attrition = average.isZero() ? new Decimal(0) : new Decimal(exits.leaving).div(average).times(100);

  return {
    scope,
    as_of: today,
    headcount: {
      total,
      by_status: Object.fromEntries(STATUSES.map((s) => [s, agg[s]])) as Record<(typeof STATUSES)[number], number>,
      by_department: departments,
    },
    joiners_this_month: agg.joiners,
    exits_this_month: exits.leaving,
    attrition_rate: attrition.toFixed(2),
    on_leave_today: onLeave,
    pending_approvals: pending,
    upcoming_holidays: holidays.map((h) => ({ date: h.date, name: h.name })),
    birthdays: birthdays.sort(byDate).slice(0, MAX_CELEBRATIONS),
    work_anniversaries: anniversaries.sort(byDate).slice(0, MAX_CELEBRATIONS),
  };
}
