// Attendance: the day-by-day view (stored records plus derived days), self-service check-in/out,
// hr imports, regularization requests and the attendance settings.
import type { components } from "../../../generated/api-types.ts";
import { Prisma } from "../../../generated/prisma/client.ts";
import { audit } from "../../audit.ts";
import { currentTenantId, db, type ScopedTx, tenantTx } from "../../db/tenancy.ts";
import { created, ok, pageOf, paginated } from "../../http/envelope.ts";
import { badRequest, conflict, invalidField, notFound } from "../../http/errors.ts";
import type { AreaHandlers, AuthContext } from "../../http/types.ts";
import { eachDay, type DateString, parseDate, toDateString, weekday } from "../../lib/dates.ts";
import { Decimal } from "../../lib/money.ts";
import { employeeName, holidayApplies, maxDate, monthRange } from "../leave/index.ts";
import { cancel, decide, submit } from "../shared/approvals.ts";
import { assertCanCancel, assertVisible, employeeFilter, employeeScopeSql, fullName, loadEmployee, lockEmployees, targetEmployee, visibleEmployees } from "../shared/people.ts";
import { derivedStatus, evaluatePunch, localClock, punchProblem, toMinutes } from "./rules.ts";
import { type EffectiveAttendanceSettings, loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";

type S = components["schemas"];
const iso = (d: Date | null) => (d ? d.toISOString() : null);
const hours = (v: { toString(): string } | null) => (v === null ? null : new Decimal(v.toString()).toFixed(2));

type RecordRow = Prisma.AttendanceRecordGetPayload<{}>;

/** What the day view is built from (one JSON document from the database). */
interface ViewData {
  employees: { id: string; name: string; joining_date: string; branch_id: string | null; work_location_id: string | null }[];
  records: {
    id: string; employee_id: string; date: string; check_in: string | null; check_out: string | null; worked_hours: string | null;
    status: S["AttendanceDay"]["status"]; late: boolean; early_exit: boolean; source: S["AttendanceDay"]["source"];
  }[];
  leaves: { id: string; employee_id: string; from: string; to: string; code: string }[];
  wfh: { id: string; employee_id: string; from: string; to: string }[];
  holidays: { date: string; name: string; branch_id: string | null; work_location_id: string | null }[];
}
function recordJson(r: RecordRow): S["AttendanceRecord"] {
  return {
    id: r.id,
    employee_id: r.employee_id,
    date: toDateString(r.date),
    check_in: iso(r.check_in),
    check_out: iso(r.check_out),
    worked_hours: hours(r.worked_hours),
    status: r.status as S["AttendanceStatus"],
    late: r.late,
    early_exit: r.early_exit,
    source: r.source as S["AttendanceRecord"]["source"],
    notes: r.notes,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

function settingsJson(s: EffectiveAttendanceSettings): S["AttendanceSettings"] {
  return {
    weekly_offs: s.weekly_offs,
    weekly_offs_source: s.weekly_offs_source,
    shift_start: s.shift_start,
    shift_end: s.shift_end,
    grace_minutes: s.grace_minutes,
    half_day_threshold_hours: s.half_day_threshold_hours.toFixed(2),
    updated_at: iso(s.updated_at),
  };
}

type RegRow = Prisma.AttendanceRegularizationGetPayload<{ include: typeof employeeName }>;
function regularizationJson(r: RegRow): S["AttendanceRegularization"] {
  return {
    id: r.id,
    employee_id: r.employee_id,
    employee_name: fullName(r.employee),
    date: toDateString(r.date),
    check_in: r.check_in.toISOString(),
    check_out: iso(r.check_out),
    reason: r.reason,
    status: r.status as S["RequestStatus"],
    previous: (r.previous ?? null) as S["AttendanceRegularization"]["previous"],
    requested_by: r.requested_by,
    decided_by: r.decided_by,
    decided_at: iso(r.decided_at),
    decision_comment: r.decision_comment,
    cancelled_by: r.cancelled_by,
    cancelled_at: iso(r.cancelled_at),
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

async function approvedWfhOn(c: ScopedTx | typeof db, employeeId: string, date: DateString): Promise<boolean> {
  const d = parseDate(date);
  return Boolean(await c.wfhRequest.findFirst({ where: { employee_id: employeeId, status: "approved", from_date: { lte: d }, to_date: { gte: d } }, select: { id: true } }));
}

/** Writes a day's record from punches (status and flags computed), creating or replacing it. */
async function writePunches(tx: ScopedTx, employeeId: string, date: DateString, checkIn: Date, checkOut: Date | null, settings: EffectiveAttendanceSettings, source: string, notes?: string | null) {
  const p = evaluatePunch(checkIn, checkOut, settings, await approvedWfhOn(tx, employeeId, date));
  const data = { check_in: checkIn, check_out: checkOut, worked_hours: p.worked_hours?.toString() ?? null, status: p.status, late: p.late, early_exit: p.early_exit, source, ...(notes !== undefined ? { notes } : {}) };
  return tx.attendanceRecord.upsert({
    where: { tenant_id_employee_id_date: { tenant_id: currentTenantId(), employee_id: employeeId, date: parseDate(date) } },
    create: { employee_id: employeeId, date: parseDate(date), ...data } as any,
    update: data,
  });
}

function hhmm(instant: Date, timeZone: string): string {
  const m = localClock(instant, timeZone).minutes;
  return `${String(Math.floor(m / 60)).padStart(2, "0")}:${String(m % 60).padStart(2, "0")}`;
}

function selfEmployee(auth: AuthContext): string {
  if (!auth.employeeId) throw conflict("Your account is not linked to an employee record");
  return auth.employeeId;
}

async function visibleRegularization(auth: AuthContext, id: string) {
  const r = await db.attendanceRegularization.findFirst({ where: { id }, include: employeeName });
  if (!r) throw notFound("Regularization request");
  await assertVisible(auth, r.employee_id, "Regularization request");
  return r;
}

function checkPunches(date: DateString, checkIn: Date, checkOut: Date | null, timeZone: string, prefix = "body") {
  const problem = punchProblem(date, checkIn, checkOut, timeZone);
  if (problem) throw invalidField(`${prefix}.${problem.field}`, problem.message);
}

export const handlers = {
  async listAttendance({ query, auth }) {
    const page = pageOf(query);
    if (query.date && (query.month || query.year)) throw badRequest("Give either date or month/year, not both", [{ path: "query.date", message: "cannot be combined with month or year" }]);
    if (query.year && !query.month) throw invalidField("query.month", "is required with year");
    const tenant = currentTenantId();
    const settings = await loadAttendanceSettings();
    const today = tenantToday(settings);
    let from = today;
    let to = today;
    if (query.date) from = to = query.date;
    else if (query.month) ({ from, to } = monthRange(query.year ?? Number(today.slice(0, 4)), query.month));
    // One statement: the employees of the page (caller's scope, joined by the end of the range)
    // and their count, then everything that decides their days - stored records, approved leave
    // and work from home overlapping the range, holidays - as JSON.
    const empFilter = Prisma.sql`e.tenant_id = ${tenant}::uuid AND e.deleted_at IS NULL AND ${employeeScopeSql(auth)}
      ${query.employee_id ? Prisma.sql`AND e.id = ${query.employee_id}::uuid` : Prisma.sql`AND e.joining_date <= ${to}::date`}`;
    const ts = (col: string) => Prisma.raw(`to_char(${col} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
    const [r] = await db.$queryRaw<{ total: number; data: string }[]>`
      WITH emp AS (
        SELECT e.id, e.first_name, e.last_name, e.joining_date, e.branch_id, e.work_location_id, e.employee_code FROM employees e WHERE ${empFilter}
         ORDER BY e.employee_code LIMIT ${page.limit} OFFSET ${page.skip}
      )
      SELECT (SELECT count(*)::int FROM employees e WHERE ${empFilter}) AS total,
             json_build_object(
               'employees', (SELECT coalesce(json_agg(json_build_object('id', id, 'name', btrim(first_name || ' ' || last_name), 'joining_date', joining_date,
                               'branch_id', branch_id, 'work_location_id', work_location_id) ORDER BY employee_code), '[]') FROM emp),
               'records', (SELECT coalesce(json_agg(json_build_object('id', a.id, 'employee_id', a.employee_id, 'date', a.date, 'check_in', ${ts("a.check_in")},
                               'check_out', ${ts("a.check_out")}, 'worked_hours', a.worked_hours::text, 'status', a.status, 'late', a.late, 'early_exit', a.early_exit,
                               'source', a.source)), '[]')
                             FROM attendance_records a WHERE a.tenant_id = ${tenant}::uuid AND a.employee_id = ANY(ARRAY(SELECT id FROM emp)) AND a.date BETWEEN ${from}::date AND ${to}::date),
               'leaves', (SELECT coalesce(json_agg(json_build_object('id', l.id, 'employee_id', l.employee_id, 'from', l.from_date, 'to', l.to_date, 'code', t.code)), '[]')
                            FROM leave_requests l JOIN leave_types t ON t.tenant_id = l.tenant_id AND t.id = l.leave_type_id
                           WHERE l.tenant_id = ${tenant}::uuid AND l.employee_id = ANY(ARRAY(SELECT id FROM emp)) AND l.status = 'approved' AND l.from_date <= ${to}::date AND l.to_date >= ${from}::date),
               'wfh', (SELECT coalesce(json_agg(json_build_object('id', w.id, 'employee_id', w.employee_id, 'from', w.from_date, 'to', w.to_date)), '[]')
                         FROM wfh_requests w
                        WHERE w.tenant_id = ${tenant}::uuid AND w.employee_id = ANY(ARRAY(SELECT id FROM emp)) AND w.status = 'approved' AND w.from_date <= ${to}::date AND w.to_date >= ${from}::date),
               'holidays', (SELECT coalesce(json_agg(json_build_object('date', h.date, 'name', h.name, 'branch_id', h.branch_id, 'work_location_id', h.work_location_id) ORDER BY h.date, h.name), '[]')
                              FROM holidays h WHERE h.tenant_id = ${tenant}::uuid AND h.is_optional = false AND h.date BETWEEN ${from}::date AND ${to}::date)
             )::text AS data`;
    const d = JSON.parse(r.data) as ViewData;
    if (query.employee_id && page.page === 1 && !d.employees.length) throw notFound("Employee");
    const recordBy = new Map(d.records.map((x) => [`${x.employee_id}:${x.date}`, x]));
    const offs = new Set(settings.weekly_offs);
    const days: S["AttendanceDay"][] = [];
    for (const e of d.employees) {
      const myLeaves = d.leaves.filter((l) => l.employee_id === e.id);
      const myWfh = d.wfh.filter((x) => x.employee_id === e.id);
      const myHolidays = new Map<string, string>();
      for (const h of d.holidays) if (holidayApplies(h, e) && !myHolidays.has(h.date)) myHolidays.set(h.date, h.name);
      for (const day of eachDay(maxDate(from, e.joining_date), to)) {
        const leave = myLeaves.find((l) => l.from <= day && day <= l.to) ?? null;
        const wfh = myWfh.find((x) => x.from <= day && day <= x.to) ?? null;
        const holiday = myHolidays.get(day) ?? null;
        const rec = recordBy.get(`${e.id}:${day}`);
        days.push({
          employee_id: e.id,
          employee_name: e.name,
          date: day,
          status: rec ? rec.status : derivedStatus({ date: day, today, holiday: Boolean(holiday), weeklyOff: offs.has(weekday(day)), onLeave: Boolean(leave), wfh: Boolean(wfh) }),
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
    return paginated(days, page, query.employee_id ? 1 : r.total);
  },

  async checkIn({ body, auth }) {
    const employeeId = selfEmployee(auth);
    const settings = await loadAttendanceSettings();
    const today = tenantToday(settings);
    const now = new Date();
    const row = await tenantTx(async (tx) => {
      await lockEmployees(tx, [employeeId]);
      const existing = await tx.attendanceRecord.findFirst({ where: { employee_id: employeeId, date: parseDate(today) } });
      if (existing?.check_in) throw conflict(`You already checked in today at ${hhmm(existing.check_in, settings.timezone)}`);
      const d = parseDate(today);
      const leave = await tx.leaveRequest.findFirst({ where: { employee_id: employeeId, status: "approved", from_date: { lte: d }, to_date: { gte: d } } });
      const halfToday = leave && ((toDateString(leave.from_date) === today && leave.half_day_start) || (toDateString(leave.to_date) === today && leave.half_day_end));
      if (leave && !halfToday) throw conflict("You are on approved leave today; cancel the leave first");
      const r = await writePunches(tx, employeeId, today, now, null, settings, "self", body?.notes);
      await audit({ action: "attendance.check_in", entity_type: "attendance_record", entity_id: r.id, changes: { date: today, check_in: now.toISOString(), late: r.late } }, tx);
      return r;
    });
    return ok(recordJson(row), row.late ? "Checked in (late)" : "Checked in");
  },

  async checkOut({ body, auth }) {
    const employeeId = selfEmployee(auth);
    const settings = await loadAttendanceSettings();
    const today = tenantToday(settings);
    const row = await tenantTx(async (tx) => {
      await lockEmployees(tx, [employeeId]);
      const existing = await tx.attendanceRecord.findFirst({ where: { employee_id: employeeId, date: parseDate(today) } });
      if (!existing?.check_in) throw conflict("You have not checked in today");
      if (existing.check_out) throw conflict("You already checked out today");
      const r = await writePunches(tx, employeeId, today, existing.check_in, new Date(), settings, existing.source, body?.notes ?? existing.notes);
      await audit({ action: "attendance.check_out", entity_type: "attendance_record", entity_id: r.id, changes: { date: today, check_out: r.check_out!.toISOString(), worked_hours: hours(r.worked_hours), status: r.status, early_exit: r.early_exit } }, tx);
      return r;
    });
    return ok(recordJson(row), "Checked out");
  },

  async importAttendance({ body }) {
    const settings = await loadAttendanceSettings();
    const seen = new Set<string>();
    body.records.forEach((r, i) => {
      const key = `${r.employee_id}:${r.date}`;
      if (seen.has(key)) throw invalidField(`body.records.${i}`, "repeats an employee and date of the import");
      seen.add(key);
      if (!r.check_in && !r.status) throw invalidField(`body.records.${i}`, "needs check_in or status");
      if (r.check_out && !r.check_in) throw invalidField(`body.records.${i}.check_out`, "needs check_in");
      if (r.check_in) checkPunches(r.date, new Date(r.check_in), r.check_out ? new Date(r.check_out) : null, settings.timezone, `body.records.${i}`);
    });
    const ids = [...new Set(body.records.map((r) => r.employee_id))];
    if ((await db.employee.count({ where: { id: { in: ids }, deleted_at: null } })) !== ids.length) throw notFound("Employee");
    const result = await tenantTx(
      async (tx) => {
        // Which of the (employee, date) pairs exist already, in one plain statement: the same as a
        // findMany with one OR branch per record, which Prisma spent ~300 ms of CPU building
        // for 1 000 records (holding the event loop).
        const existing = await tx.$queryRaw<{ employee_id: string; date: string }[]>`
          SELECT a.employee_id::text AS employee_id, a.date::text AS date FROM attendance_records a
            JOIN unnest(${body.records.map((r) => r.employee_id)}::uuid[], ${body.records.map((r) => r.date)}::date[]) AS k(employee_id, date)
              ON a.employee_id = k.employee_id AND a.date = k.date
           WHERE a.tenant_id = ${currentTenantId()}::uuid`;
        const have = new Set(existing.map((e) => `${e.employee_id}:${e.date}`));
        for (const r of body.records) {
          if (r.check_in) {
            const rec = await writePunches(tx, r.employee_id, r.date, new Date(r.check_in), r.check_out ? new Date(r.check_out) : null, settings, "import", r.notes ?? null);
            if (r.status && r.status !== rec.status) await tx.attendanceRecord.update({ where: { id: rec.id }, data: { status: r.status } });
          } else {
            const data = { check_in: null, check_out: null, worked_hours: null, status: r.status!, late: false, early_exit: false, source: "import", notes: r.notes ?? null };
            await tx.attendanceRecord.upsert({
              where: { tenant_id_employee_id_date: { tenant_id: currentTenantId(), employee_id: r.employee_id, date: parseDate(r.date) } },
              create: { employee_id: r.employee_id, date: parseDate(r.date), ...data } as any,
              update: data,
            });
          }
        }
        const updated = body.records.filter((r) => have.has(`${r.employee_id}:${r.date}`)).length;
        const counts = { created: body.records.length - updated, updated };
        await audit({ action: "attendance.imported", entity_type: "attendance_record", entity_id: null, changes: { ...counts, employees: ids.length, from: body.records.map((r) => r.date).sort()[0], to: body.records.map((r) => r.date).sort().at(-1) } }, tx);
        return counts;
      },
      { timeout: 120_000 },
    );
    return ok(result, `${result.created} records created, ${result.updated} updated`);
  },

  async listAttendanceRegularizations({ query, auth }) {
    const page = pageOf(query);
    const where: Prisma.AttendanceRegularizationWhereInput = {
      ...employeeFilter(await visibleEmployees(auth), query.employee_id),
      ...(query.status ? { status: query.status } : {}),
      ...(query.from_date || query.to_date ? { date: { ...(query.from_date ? { gte: parseDate(query.from_date) } : {}), ...(query.to_date ? { lte: parseDate(query.to_date) } : {}) } } : {}),
    };
    const [rows, total] = await Promise.all([
      db.attendanceRegularization.findMany({ where, include: employeeName, orderBy: [{ date: "desc" }, { created_at: "desc" }], skip: page.skip, take: page.limit }),
      db.attendanceRegularization.count({ where }),
    ]);
    return paginated(rows.map(regularizationJson), page, total);
  },

  async createAttendanceRegularization({ body, auth }) {
    const employeeId = targetEmployee(auth, body.employee_id);
    const settings = await loadAttendanceSettings();
    if (body.date > tenantToday(settings)) throw invalidField("body.date", "must not be in the future");
    checkPunches(body.date, new Date(body.check_in), body.check_out ? new Date(body.check_out) : null, settings.timezone);
    const emp = await loadEmployee(employeeId);
    const row = await submit({
      entity: "attendance_regularization",
      employee: emp,
      async create(tx) {
        await lockEmployees(tx, [employeeId]);
        const dup = await tx.attendanceRegularization.findFirst({ where: { employee_id: employeeId, date: parseDate(body.date), status: "pending" } });
        if (dup) throw conflict(`A pending regularization for ${body.date} exists already; edit it instead`);
        return tx.attendanceRegularization.create({
          data: { employee_id: employeeId, date: parseDate(body.date), check_in: new Date(body.check_in), check_out: body.check_out ? new Date(body.check_out) : null, reason: body.reason, requested_by: auth.userId },
          include: employeeName,
        });
      },
      changes: () => ({ employee_id: employeeId, date: body.date, check_in: body.check_in, check_out: body.check_out ?? null }),
      employeeNotice: () => ({ kind: "regularization.submitted", title: `Attendance correction for ${body.date} submitted` }),
      managerNotice: () => ({ kind: "regularization.approval_needed", title: `${fullName(emp)} asks to correct attendance of ${body.date}`, body: body.reason }),
    });
    return created(regularizationJson(row), "Regularization submitted");
  },

  async getAttendanceRegularization({ params, auth }) {
    return ok(regularizationJson(await visibleRegularization(auth, params.id)));
  },

  async updateAttendanceRegularization({ params, body, auth }) {
    const r = await visibleRegularization(auth, params.id);
    const date = toDateString(r.date);
    const editing = body.check_in !== undefined || body.check_out !== undefined || body.reason !== undefined;
    if (editing && (body.status !== undefined || body.comment !== undefined)) throw badRequest("Either decide (status, comment) or edit (check_in, check_out, reason), not both", [{ path: "body", message: "mixes a decision and an edit" }]);
    if (!editing && body.status === undefined) throw invalidField("body.status", "is required with comment");
    const settings = await loadAttendanceSettings();
    if (editing) {
      if (r.requested_by !== auth.userId) throw conflict("Only the person who filed the request can edit it");
      const checkIn = body.check_in ? new Date(body.check_in) : r.check_in;
      const checkOut = body.check_out !== undefined ? (body.check_out ? new Date(body.check_out) : null) : r.check_out;
      checkPunches(date, checkIn, checkOut, settings.timezone);
      const row = await tenantTx(async (tx) => {
        await lockEmployees(tx, [r.employee_id]);
        const cur = await tx.attendanceRegularization.findFirstOrThrow({ where: { id: r.id } });
        if (cur.status !== "pending") throw conflict(`The request is already ${cur.status}`);
        const u = await tx.attendanceRegularization.update({ where: { id: r.id }, data: { check_in: checkIn, check_out: checkOut, ...(body.reason ? { reason: body.reason } : {}) }, include: employeeName });
        await audit({ action: "attendance_regularization.updated", entity_type: "attendance_regularization", entity_id: r.id, changes: { check_in: { from: iso(cur.check_in), to: iso(checkIn) }, check_out: { from: iso(cur.check_out), to: iso(checkOut) } } }, tx);
        return u;
      });
      return ok(regularizationJson(row), "Regularization updated");
    }
    const status = body.status!;
    let previous: { check_in: string | null; check_out: string | null; status: string } | undefined;
    const row = await decide(
      auth,
      {
        entity: "attendance_regularization",
        employee: await loadEmployee(r.employee_id),
        async lock(tx) {
          await lockEmployees(tx, [r.employee_id]);
          return tx.attendanceRegularization.findFirstOrThrow({ where: { id: r.id } });
        },
        async apply(tx, cur, decision) {
          if (decision !== "approved") return;
          const before = await tx.attendanceRecord.findFirst({ where: { employee_id: cur.employee_id, date: cur.date } });
          previous = before ? { check_in: iso(before.check_in), check_out: iso(before.check_out), status: before.status } : undefined;
          const after = await writePunches(tx, cur.employee_id, date, cur.check_in, cur.check_out, settings, "regularization");
          await audit(
            {
              action: "attendance.regularized",
              entity_type: "attendance_record",
              entity_id: after.id,
              changes: {
                date,
                check_in: { from: previous?.check_in ?? null, to: iso(after.check_in) },
                check_out: { from: previous?.check_out ?? null, to: iso(after.check_out) },
                status: { from: before?.status ?? null, to: after.status },
                regularization_id: cur.id,
              },
            },
            tx,
          );
        },
        extra: () => (previous ? { previous } : {}),
        save: (tx, _cur, columns) => tx.attendanceRegularization.update({ where: { id: r.id }, data: columns, include: employeeName }),
        notice: (_cur, decision, comment) => ({ kind: `regularization.${decision}`, title: `Your attendance correction for ${date} was ${decision}`, body: comment ?? undefined }),
      },
      { status, comment: body.comment },
    );
    return ok(regularizationJson(row), `Regularization ${status}`);
  },

  async cancelAttendanceRegularization({ params, auth }) {
    const r = await visibleRegularization(auth, params.id);
    const emp = await loadEmployee(r.employee_id);
    const row = await cancel(auth, {
      entity: "attendance_regularization",
      async lock(tx) {
        await lockEmployees(tx, [r.employee_id]);
        return tx.attendanceRegularization.findFirstOrThrow({ where: { id: r.id } });
      },
      // only a pending correction can be withdrawn (an approved one has changed the attendance record)
      allow: (cur) => {
        if (cur.status !== "pending") throw conflict(`A ${cur.status} request cannot be cancelled`);
        assertCanCancel(auth, emp, cur.status, { started: false, approvedBySelf: false });
      },
      save: (tx, _cur, columns) => tx.attendanceRegularization.update({ where: { id: r.id }, data: columns, include: employeeName }),
      notice: (cur) => ({ kind: "regularization.cancelled", title: `Your attendance correction for ${toDateString(cur.date)} was cancelled` }),
    });
    return ok(regularizationJson(row), "Regularization cancelled");
  },

  async getAttendanceSettings() {
    return ok(settingsJson(await loadAttendanceSettings()));
  },

  async updateAttendanceSettings({ body }) {
    const after = await tenantTx(async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`attendance-settings:${currentTenantId()}`}, 0))`;
      const before = await loadAttendanceSettings(tx);
      const start = body.shift_start ?? before.shift_start;
      const end = body.shift_end ?? before.shift_end;
      const threshold = new Decimal(body.half_day_threshold_hours ?? before.half_day_threshold_hours);
      if (toMinutes(end) <= toMinutes(start)) throw invalidField("body.shift_end", "must be after shift_start (on the same day)");
      if (threshold.times(60).gt(toMinutes(end) - toMinutes(start))) throw invalidField("body.half_day_threshold_hours", "must not exceed the length of the shift");
      const data: Record<string, unknown> = { shift_start: start, shift_end: end, grace_minutes: body.grace_minutes ?? before.grace_minutes, half_day_threshold_hours: threshold.toString() };
      if (body.weekly_offs !== undefined) Object.assign(data, body.weekly_offs === null ? { use_company_weekly_offs: true, weekly_offs: [] } : { use_company_weekly_offs: false, weekly_offs: [...body.weekly_offs].sort() });
      await tx.attendanceSettings.upsert({ where: { tenant_id: currentTenantId() }, create: data as any, update: data });
      const fresh = await loadAttendanceSettings(tx);
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      const a = settingsJson(before);
      const b = settingsJson(fresh);
      for (const k of ["weekly_offs", "weekly_offs_source", "shift_start", "shift_end", "grace_minutes", "half_day_threshold_hours"] as const)
        if (JSON.stringify(a[k]) !== JSON.stringify(b[k])) changes[k] = { from: a[k], to: b[k] };
      if (Object.keys(changes).length) await audit({ action: "settings.attendance_updated", entity_type: "tenant", entity_id: currentTenantId(), changes }, tx);
      return fresh;
    });
    return ok(settingsJson(after), "Attendance settings updated");
  },
} satisfies AreaHandlers<"attendance">;
