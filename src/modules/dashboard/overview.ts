// Dashboard overview, computed over the caller's scope:
//   company    owner, admin, hr - every live employee
//   team       manager - themselves and their direct reports
//   department employee - the live employees of their own department
//   self       an employee without a linked record - nothing to show
// "Today" and "this month" are in the company's time zone.
import { Prisma } from "../../../generated/prisma/client.ts";
import { systemDb } from "../../db/client.ts";
import { currentTenantId, db } from "../../db/tenancy.ts";
import type { AuthContext } from "../../http/types.ts";
import { addDays, eachDay, todayIn } from "../../lib/dates.ts";
import { Decimal } from "../../lib/money.ts";
import { isHr } from "../shared/access.ts";

export type Scope = "company" | "team" | "department" | "self";
const STATUSES = ["active", "inactive", "on_notice", "exited"] as const;
const WINDOW_DAYS = 30;
const MAX_CELEBRATIONS = 50;

interface Celebration {
  employee_id: string;
  full_name: string;
  department: string;
  date: string;
}

/** Which employees the caller's figures cover, as a SQL condition on `e`. */
async function scopeOf(auth: AuthContext): Promise<{ scope: Scope; cond: Prisma.Sql }> {
  if (isHr(auth)) return { scope: "company", cond: Prisma.sql`TRUE` };
  const me = auth.employeeId ? await db.employee.findFirst({ where: { id: auth.employeeId, deleted_at: null }, select: { id: true, department: true } }) : null;
  if (!me) return { scope: "self", cond: Prisma.sql`FALSE` };
  if (auth.role === "manager") return { scope: "team", cond: Prisma.sql`(e.id = ${me.id}::uuid OR e.reports_to = ${me.id}::uuid)` };
  return { scope: "department", cond: Prisma.sql`e.department = ${me.department}` };
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
async function onLeaveToday(live: Prisma.Sql, today: string): Promise<number> {
  const [r] = await db.$queryRaw<{ n: number }[]>`
    SELECT count(DISTINCT e.id)::int AS n FROM leave_requests lr
    JOIN employees e ON e.tenant_id = lr.tenant_id AND e.id = lr.employee_id
    WHERE ${live} AND lr.tenant_id = ${currentTenantId()}::uuid AND lr.status = 'approved'
      AND lr.from_date <= ${today}::date AND lr.to_date >= ${today}::date`;
  return r.n;
}

/**
 * Requests waiting for the caller's decision: leave, work from home, working on a holiday,
 * attendance regularization and leave encashment. hr/admin/owner decide for everyone; a
 * manager for their direct reports; an employee decides nothing.
 */
async function pendingApprovalsFor(auth: AuthContext): Promise<number> {
  const everyone = isHr(auth);
  if (!everyone && (auth.role !== "manager" || !auth.employeeId)) return 0;
  const tenant = currentTenantId();
  const whose = everyone ? Prisma.sql`TRUE` : Prisma.sql`e.reports_to = ${auth.employeeId}::uuid`;
  const [r] = await db.$queryRaw<{ n: number }[]>`
    SELECT count(*)::int AS n FROM (
      SELECT employee_id FROM leave_requests WHERE tenant_id = ${tenant}::uuid AND status = 'pending'
      UNION ALL SELECT employee_id FROM wfh_requests WHERE tenant_id = ${tenant}::uuid AND status = 'pending'
      UNION ALL SELECT employee_id FROM working_on_holiday_requests WHERE tenant_id = ${tenant}::uuid AND status = 'pending'
      UNION ALL SELECT employee_id FROM attendance_regularizations WHERE tenant_id = ${tenant}::uuid AND status = 'pending'
      UNION ALL SELECT employee_id FROM leave_encashments WHERE tenant_id = ${tenant}::uuid AND status = 'pending'
    ) p
    JOIN employees e ON e.tenant_id = ${tenant}::uuid AND e.id = p.employee_id AND e.deleted_at IS NULL
    WHERE ${whose} AND e.id IS DISTINCT FROM ${auth.employeeId}::uuid`;
  return r.n;
}

/** Holidays of the company in the window (company-wide and branch/location-scoped ones). */
async function upcomingHolidays(from: string, to: string): Promise<{ date: string; name: string }[]> {
  return db.$queryRaw<{ date: string; name: string }[]>`
    SELECT to_char(date, 'YYYY-MM-DD') AS date, name FROM holidays
    WHERE tenant_id = ${currentTenantId()}::uuid AND date >= ${from}::date AND date <= ${to}::date
    ORDER BY date, name LIMIT 50`;
}

export async function dashboardOverview(auth: AuthContext) {
  const { timezone } = await systemDb.tenant.findUniqueOrThrow({ where: { id: auth.tenantId }, select: { timezone: true } });
  const today = todayIn(timezone);
  const monthStart = `${today.slice(0, 8)}01`;
  const [y, m] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))];
  const nextMonthStart = m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, "0")}-01`;
  const { scope, cond } = await scopeOf(auth);
  const tenant = currentTenantId();
  const live = Prisma.sql`e.tenant_id = ${tenant}::uuid AND e.deleted_at IS NULL AND ${cond}`;
  const days = windowDays(today);
  const mmdd = [...days.keys()];

  const [[agg], departments, people, onLeave, pending, holidays] = await Promise.all([
    db.$queryRaw<Record<string, number>[]>`
      SELECT
        count(*) FILTER (WHERE e.status = 'active')::int AS active,
        count(*) FILTER (WHERE e.status = 'inactive')::int AS inactive,
        count(*) FILTER (WHERE e.status = 'on_notice')::int AS on_notice,
        count(*) FILTER (WHERE e.status = 'exited')::int AS exited,
        count(*) FILTER (WHERE e.joining_date >= ${monthStart}::date AND e.joining_date < ${nextMonthStart}::date)::int AS joiners,
        count(*) FILTER (WHERE x.last_working_day >= ${monthStart}::date AND x.last_working_day < ${nextMonthStart}::date)::int AS exits,
        count(*) FILTER (WHERE e.joining_date < ${monthStart}::date AND (x.id IS NULL OR x.last_working_day >= ${monthStart}::date))::int AS start_headcount
      FROM employees e
      LEFT JOIN employee_exits x ON x.tenant_id = e.tenant_id AND x.employee_id = e.id
      WHERE ${live}`,
    db.$queryRaw<{ department: string; count: number }[]>`
      SELECT e.department, count(*)::int AS count FROM employees e
      WHERE ${live} AND e.status <> 'exited'
      GROUP BY e.department ORDER BY count(*) DESC, e.department`,
    db.$queryRaw<{ id: string; first_name: string; last_name: string; department: string; birthday: string | null; joined: string }[]>`
      SELECT e.id, e.first_name, e.last_name, e.department,
             CASE WHEN to_char(e.date_of_birth, 'MM-DD') = ANY(${mmdd}) THEN to_char(e.date_of_birth, 'MM-DD') END AS birthday,
             to_char(e.joining_date, 'YYYY-MM-DD') AS joined
      FROM employees e
      WHERE ${live} AND e.status <> 'exited'
        AND (to_char(e.date_of_birth, 'MM-DD') = ANY(${mmdd}) OR (to_char(e.joining_date, 'MM-DD') = ANY(${mmdd}) AND e.joining_date < ${today}::date))`,
    onLeaveToday(live, today),
    pendingApprovalsFor(auth),
    upcomingHolidays(today, addDays(today, WINDOW_DAYS - 1)),
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
  const average = new Decimal(agg.start_headcount).plus(total).div(2);
  const attrition = average.isZero() ? new Decimal(0) : new Decimal(agg.exits).div(average).times(100);

  return {
    scope,
    as_of: today,
    headcount: {
      total,
      by_status: Object.fromEntries(STATUSES.map((s) => [s, agg[s]])) as Record<(typeof STATUSES)[number], number>,
      by_department: departments,
    },
    joiners_this_month: agg.joiners,
    exits_this_month: agg.exits,
    attrition_rate: attrition.toFixed(2),
    on_leave_today: onLeave,
    pending_approvals: pending,
    upcoming_holidays: holidays,
    birthdays: birthdays.sort(byDate).slice(0, MAX_CELEBRATIONS),
    work_anniversaries: anniversaries.sort(byDate).slice(0, MAX_CELEBRATIONS),
  };
}
