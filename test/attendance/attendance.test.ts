// Attendance: settings, check-in/out, imports, the complete month view, regularization, roles and
// tenancy.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { addDays, weekday } from "../../src/lib/dates.ts";
import { monthRange } from "../../src/modules/leave/calendar.ts";
import { expectError, signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { createType, insertEmployee, type LeaveWorld, leaveWorld, nextWeekday, today } from "../leave/fixtures.ts";

const t = useTestApp();
let w: LeaveWorld;
let other: TenantSession;
// 09:00 and 18:00 in Asia/Kolkata (UTC+5:30) on a date
const nine = (d: string) => `${d}T03:30:00.000Z`;
const six = (d: string) => `${d}T12:30:00.000Z`;

beforeAll(async () => {
  [w, other] = await Promise.all([leaveWorld(t), signupTenant(t)]);
});

describe("getAttendanceSettings, updateAttendanceSettings: attendance settings", () => {
  it("defaults to the company's weekly offs, and can be changed by hr", async () => {
    const s = await api(w.employee.agent).op("getAttendanceSettings").expect(200);
    expect(s.body.data).toEqual({
      weekly_offs: [0, 6],
      weekly_offs_source: "company",
      shift_start: "09:00",
      shift_end: "18:00",
      grace_minutes: 15,
      half_day_threshold_hours: "4.00",
      updated_at: null,
      version: expect.any(String),
    });
    await api(w.owner.agent)
      .op("updateCompanySettings", { body: { weekly_offs: [5, 6] } })
      .expect(200);
    expect((await api(w.hr.agent).op("getAttendanceSettings").expect(200)).body.data.weekly_offs).toEqual([5, 6]);
    // the day view follows the weekly offs in force: a past Saturday, off with the company's
    const sat = nextWeekday(addDays(today(), -13), 6);
    const satStatus = async () =>
      (
        await api(w.hr.agent)
          .op("listAttendance", { query: { employee_id: w.employeeId, date: sat } })
          .expect(200)
      ).body.data[0].status;
    expect(await satStatus()).toBe("weekly_off");
    expectError(await api(w.employee.agent).op("updateAttendanceSettings", { body: { grace_minutes: 30 } }), 403);
    expectError(await api(w.hr.agent).op("updateAttendanceSettings", { body: { shift_start: "18:00", shift_end: "09:00" } }), 400);
    expectError(await api(w.hr.agent).op("updateAttendanceSettings", { body: { half_day_threshold_hours: "10" } }), 400);
    expectError(await api(w.hr.agent).op("updateAttendanceSettings", { body: { shift_start: "25:00" } }), 400);
    expectError(await api(w.hr.agent).op("updateAttendanceSettings", { body: {} }), 400);
    const u = await api(w.hr.agent)
      .op("updateAttendanceSettings", { body: { weekly_offs: [0], grace_minutes: 10, half_day_threshold_hours: "4.5" } })
      .expect(200);
    expect(u.body.data).toMatchObject({
      weekly_offs: [0],
      weekly_offs_source: "attendance",
      grace_minutes: 10,
      half_day_threshold_hours: "4.50",
    });
    expect(await satStatus()).toBe("absent"); // a working day with Sunday the only off day
    // weekly offs drive leave day counts: Monday to Saturday is 6 days with Sunday the only off day
    const lop = await createType(w.hr.agent, { name: "Unpaid", code: "UNP", is_paid: false });
    const mon = nextWeekday(addDays(today(), 20), 1);
    const r = await api(w.employee.agent)
      .op("createLeaveRequest", { body: { leave_type_id: lop.id, from_date: mon, to_date: addDays(mon, 5) } })
      .expect(201);
    expect(r.body.data.days).toBe("6.0");
    await api(w.employee.agent)
      .op("cancelLeaveRequest", { params: { id: r.body.data.id } })
      .expect(200);
    const back = await api(w.hr.agent)
      .op("updateAttendanceSettings", { body: { weekly_offs: null, grace_minutes: 15, half_day_threshold_hours: "4" } })
      .expect(200);
    expect(back.body.data).toMatchObject({ weekly_offs: [5, 6], weekly_offs_source: "company" });
    await api(w.owner.agent)
      .op("updateCompanySettings", { body: { weekly_offs: [0, 6] } })
      .expect(200);
    const log = await api(w.owner.agent)
      .op("listActivityLog", { query: { action: "settings.attendance_updated" } })
      .expect(200);
    expect(log.body.data[0].changes!.weekly_offs).toEqual({ from: [0], to: [5, 6] });
  });
});

describe("checkIn, checkOut: check-in and check-out", () => {
  it("records today's punches with late/early flags from the settings", async () => {
    await api(w.hr.agent)
      .op("updateAttendanceSettings", { body: { shift_start: "00:00", shift_end: "23:59", grace_minutes: 0 } })
      .expect(200);
    try {
      const ci = await api(w.employee.agent).op("checkIn", { body: {} }).expect(200);
      expect(ci.body.data).toMatchObject({ employee_id: w.employeeId, date: today(), check_out: null, source: "self", late: true });
      expect(["present", "wfh"]).toContain(ci.body.data.status);
      expectError(await api(w.employee.agent).op("checkIn"), 409, "conflict");
      const co = await api(w.employee.agent)
        .op("checkOut", { body: { notes: "left early" } })
        .expect(200);
      expect(co.body.data).toMatchObject({ status: "half_day", early_exit: true, worked_hours: "0.00", notes: "left early" });
      expectError(await api(w.employee.agent).op("checkOut"), 409);
      expectError(await api(w.owner.agent).op("checkIn"), 409); // no employee record
      expectError(await api(w.manager.agent).op("checkOut"), 409); // not checked in
      const view = await api(w.employee.agent)
        .op("listAttendance", { query: { date: today() } })
        .expect(200);
      expect(view.body.data).toEqual([
        expect.objectContaining({ date: today(), status: "half_day", source: "self", record_id: co.body.data.id }),
      ]);
    } finally {
      await api(w.hr.agent)
        .op("updateAttendanceSettings", { body: { shift_start: "09:00", shift_end: "18:00", grace_minutes: 15 } })
        .expect(200);
    }
  });

  it("refuses a check-in on a day of approved full-day leave", async () => {
    const emp = await insertEmployee(t, w.owner.tenantId, { first_name: "Leafy" });
    const { addMember } = await import("../support/app.ts");
    const member = await addMember(t, w.owner, "employee", { employeeId: emp });
    const lop = await createType(w.hr.agent, { name: "Unpaid2", code: "UNP2", is_paid: false });
    const r = await api(w.hr.agent).op("createLeaveRequest", {
      body: { employee_id: emp, leave_type_id: lop.id, from_date: today(), to_date: today() },
    });
    if (r.status === 409) return; // today is a weekly off or holiday
    await api(w.owner.agent)
      .op("updateLeaveRequest", { params: { id: r.body.data.id }, body: { status: "approved" } })
      .expect(200);
    expect(expectError(await api(member.agent).op("checkIn"), 409).error).toMatch(/leave/);
  });
});

describe("importAttendance, listAttendance: import and the month view", () => {
  it("hr imports (upsert); a month view is complete with derived days", async () => {
    const d = new Date(`${today()}T00:00:00Z`);
    d.setUTCMonth(d.getUTCMonth() - 1);
    const year = d.getUTCFullYear();
    const month = d.getUTCMonth() + 1;
    const { from, to } = monthRange(year, month);
    const mon1 = nextWeekday(from, 1); // first Monday of last month
    const tue1 = addDays(mon1, 1);
    const wed1 = addDays(mon1, 2);
    const thu1 = addDays(mon1, 3);
    const fri1 = addDays(mon1, 4);
    const mon2 = addDays(mon1, 7);
    // a holiday, a leave and a work-from-home day, all approved
    await api(w.hr.agent)
      .op("createHoliday", { body: { date: wed1, name: "Founders' Day" } })
      .expect(201);
    const lop = await createType(w.hr.agent, { name: "Unpaid3", code: "UNP3", is_paid: false });
    const leave = await api(w.employee.agent)
      .op("createLeaveRequest", { body: { leave_type_id: lop.id, from_date: thu1, to_date: thu1 } })
      .expect(201);
    await api(w.manager.agent)
      .op("updateLeaveRequest", { params: { id: leave.body.data.id }, body: { status: "approved" } })
      .expect(200);
    const wfh = await api(w.employee.agent)
      .op("createWfhRequest", { body: { from_date: fri1, to_date: fri1 } })
      .expect(201);
    await api(w.manager.agent)
      .op("updateWfhRequest", { params: { id: wfh.body.data.id }, body: { status: "approved" } })
      .expect(200);

    expectError(
      await api(w.employee.agent).op("importAttendance", {
        body: { records: [{ employee_id: w.employeeId, date: mon1, status: "present" }] },
      }),
      403,
    );
    expectError(await api(w.hr.agent).op("importAttendance", { body: { records: [{ employee_id: w.employeeId, date: mon1 }] } }), 400);
    expectError(
      await api(w.hr.agent).op("importAttendance", {
        body: { records: [{ employee_id: w.employeeId, date: mon1, check_in: nine(tue1) }] },
      }),
      400,
    );
    expectError(
      await api(w.hr.agent).op("importAttendance", {
        body: { records: [{ employee_id: w.employeeId, date: mon1, check_in: nine(mon1), check_out: nine(mon1) }] },
      }),
      400,
    );
    expectError(
      await api(w.hr.agent).op("importAttendance", {
        body: {
          records: [
            { employee_id: w.employeeId, date: mon1, status: "absent" },
            { employee_id: w.employeeId, date: mon1, status: "present" },
          ],
        },
      }),
      400,
    );
    expectError(
      await api(w.hr.agent).op("importAttendance", {
        body: { records: [{ employee_id: "00000000-0000-4000-8000-000000000000", date: mon1, status: "present" }] },
      }),
      404,
    );
    const imp = await api(w.hr.agent)
      .op("importAttendance", {
        body: {
          records: [
            { employee_id: w.employeeId, date: mon1, check_in: nine(mon1), check_out: six(mon1) },
            // 09:30-12:30: late, half day
            { employee_id: w.employeeId, date: mon2, check_in: `${mon2}T04:00:00.000Z`, check_out: `${mon2}T07:00:00.000Z` },
            { employee_id: w.employeeId, date: fri1, check_in: nine(fri1), check_out: six(fri1) },
          ],
        },
      })
      .expect(200);
    expect(imp.body.data).toEqual({ created: 3, updated: 0 });
    const again = await api(w.hr.agent)
      .op("importAttendance", {
        body: { records: [{ employee_id: w.employeeId, date: mon1, check_in: nine(mon1), check_out: six(mon1), notes: "device 2" }] },
      })
      .expect(200);
    expect(again.body.data).toEqual({ created: 0, updated: 1 });

    const view = await api(w.employee.agent).op("listAttendance", { query: { month, year } }).expect(200);
    const days = view.body.data;
    const all = [];
    for (let x = from; x <= to; x = addDays(x, 1)) all.push(x);
    expect(days.map((x) => x.date)).toEqual(all); // every day of the month, once
    const on = (date: string) => days.find((x) => x.date === date);
    expect(on(mon1)).toMatchObject({ status: "present", source: "import", worked_hours: "9.00", late: false, early_exit: false });
    expect(on(tue1)).toMatchObject({ status: "absent", source: "derived", record_id: null });
    expect(on(wed1)).toMatchObject({ status: "holiday", holiday_name: "Founders' Day" });
    expect(on(thu1)).toMatchObject({ status: "on_leave", leave_request_id: leave.body.data.id, leave_type_code: "UNP3" });
    expect(on(fri1)).toMatchObject({ status: "wfh", wfh_request_id: wfh.body.data.id, worked_hours: "9.00" });
    expect(on(addDays(mon1, 5))).toMatchObject({ status: "weekly_off" });
    expect(on(mon2)).toMatchObject({ status: "half_day", late: true, worked_hours: "3.00" });
    for (const x of days) if (weekday(x.date) === 0) expect(x.status).toBe("weekly_off");

    // the current month: future working days are not marked yet
    const cur = await api(w.employee.agent)
      .op("listAttendance", { query: { month: Number(today().slice(5, 7)) } })
      .expect(200);
    const future = cur.body.data.filter((x) => x.date > today() && ![0, 6].includes(weekday(x.date)));
    for (const x of future) expect(["not_marked", "holiday", "on_leave", "wfh"]).toContain(x.status);
  });

  it("validates the query and scopes by role", async () => {
    expectError(await api(w.hr.agent).op("listAttendance", { query: { month: 13 } }), 400, "validation_failed");
    expectError(await api(w.hr.agent).op("listAttendance", { query: { month: 0 } }), 400);
    expectError(await api(w.hr.agent).op("listAttendance", { query: { date: today(), month: 1 } }), 400);
    expectError(await api(w.hr.agent).op("listAttendance", { query: { year: 2026 } }), 400);
    expectError(await api(w.employee.agent).op("listAttendance", { query: { employee_id: w.managerEmployeeId } }), 404);
    const mgr = await api(w.manager.agent)
      .op("listAttendance", { query: { employee_id: w.employeeId, date: today() } })
      .expect(200);
    expect(mgr.body.data).toHaveLength(1);
    const page = await api(w.hr.agent)
      .op("listAttendance", { query: { date: addDays(today(), -1), limit: 1 } })
      .expect(200);
    expect(page.body.pagination.total).toBeGreaterThanOrEqual(2); // employees, not days
    expect(page.body.data).toHaveLength(1);
    expectError(await api(other.agent).op("listAttendance", { query: { employee_id: w.employeeId } }), 404);
    expect((await api(other.agent).op("listAttendance").expect(200)).body.data).toEqual([]);
  });

  it("a page of employees holds every day of each: a month of five employees is 155 days, as the document allows", async () => {
    const s = await signupTenant(t);
    for (let i = 0; i < 5; i++) await insertEmployee(t, s.tenantId, { first_name: `Day${i}` });
    const month = await api(s.agent)
      .op("listAttendance", { query: { month: 1, year: 2099, limit: 5 } })
      .expect(200);
    expect(month.body.pagination.total).toBeGreaterThanOrEqual(5);
    expect(month.body.data).toHaveLength(5 * 31);
  });
});

describe(
  "listAttendanceRegularizations, createAttendanceRegularization, getAttendanceRegularization, " +
    "updateAttendanceRegularization, cancelAttendanceRegularization: regularization",
  () => {
    it("request, edit, approval rewrites the day (audited), and the rules around it", async () => {
      const day = nextWeekday(addDays(today(), -14), 2); // a Tuesday in the last two weeks
      expectError(
        await api(w.employee.agent).op("createAttendanceRegularization", {
          body: { date: addDays(today(), 2), check_in: nine(addDays(today(), 2)), reason: "future" },
        }),
        400,
      );
      expectError(
        await api(w.employee.agent).op("createAttendanceRegularization", {
          body: { date: day, check_in: nine(addDays(day, 1)), reason: "wrong day" },
        }),
        400,
      );
      await api(w.hr.agent)
        .op("importAttendance", { body: { records: [{ employee_id: w.employeeId, date: day, status: "absent" }] } })
        .expect(200);
      const r = await api(w.employee.agent)
        .op("createAttendanceRegularization", { body: { date: day, check_in: nine(day), reason: "Forgot to punch" } })
        .expect(201);
      expect(r.body.data).toMatchObject({ status: "pending", check_out: null, previous: null, employee_name: "Eli Employee" });
      expectError(
        await api(w.employee.agent).op("createAttendanceRegularization", { body: { date: day, check_in: nine(day), reason: "again" } }),
        409,
      );
      const id = r.body.data.id;
      const ed = await api(w.employee.agent)
        .op("updateAttendanceRegularization", { params: { id }, body: { check_out: six(day) } })
        .expect(200);
      expect(ed.body.data.check_out).toBe(six(day));
      expectError(
        await api(w.employee.agent).op("updateAttendanceRegularization", {
          params: { id },
          body: { status: "approved", check_out: six(day) },
        }),
        400,
      );
      expectError(await api(w.employee.agent).op("updateAttendanceRegularization", { params: { id }, body: { status: "approved" } }), 403);
      // not the requester
      expectError(await api(w.manager.agent).op("updateAttendanceRegularization", { params: { id }, body: { check_out: six(day) } }), 409);
      const a = await api(w.manager.agent)
        .op("updateAttendanceRegularization", { params: { id }, body: { status: "approved", comment: "ok" } })
        .expect(200);
      expect(a.body.data).toMatchObject({ status: "approved", previous: { check_in: null, check_out: null, status: "absent" } });
      expect((await api(w.employee.agent).op("getAttendanceRegularization", { params: { id } }).expect(200)).body.data).toMatchObject({
        id,
        date: day,
        status: "approved",
        check_in: nine(day),
      });
      const v = await api(w.employee.agent)
        .op("listAttendance", { query: { date: day } })
        .expect(200);
      expect(v.body.data[0]).toMatchObject({
        status: "present",
        source: "regularization",
        check_in: nine(day),
        check_out: six(day),
        worked_hours: "9.00",
      });
      const log = await api(w.owner.agent)
        .op("listActivityLog", { query: { action: "attendance.regularized" } })
        .expect(200);
      expect(log.body.data[0].changes).toMatchObject({
        date: day,
        status: { from: "absent", to: "present" },
        check_in: { from: null, to: nine(day) },
      });
      expect((await api(w.employee.agent).op("listNotifications").expect(200)).body.data.map((n) => n.kind)).toContain(
        "regularization.approved",
      );
      expectError(await api(w.manager.agent).op("updateAttendanceRegularization", { params: { id }, body: { status: "rejected" } }), 409);
      expectError(await api(w.employee.agent).op("cancelAttendanceRegularization", { params: { id } }), 409);
      // a second request for the same day can be cancelled while pending
      const r2 = await api(w.employee.agent)
        .op("createAttendanceRegularization", { body: { date: day, check_in: `${day}T03:00:00.000Z`, reason: "earlier, actually" } })
        .expect(201);
      const c = await api(w.employee.agent)
        .op("cancelAttendanceRegularization", { params: { id: r2.body.data.id } })
        .expect(200);
      expect(c.body.data.status).toBe("cancelled");
      const list = await api(w.manager.agent)
        .op("listAttendanceRegularizations", { query: { employee_id: w.employeeId, from_date: day, to_date: day } })
        .expect(200);
      expect(list.body.data.map((x) => x.status).sort()).toEqual(["approved", "cancelled"]);
      expectError(
        await api(w.employee.agent).op("createAttendanceRegularization", {
          body: { employee_id: w.managerEmployeeId, date: day, check_in: nine(day), reason: "for my boss" },
        }),
        403,
      );
    });

    it("another company's regularization is a 404", async () => {
      const day = nextWeekday(addDays(today(), -14), 3);
      const r = await api(w.employee.agent)
        .op("createAttendanceRegularization", { body: { date: day, check_in: nine(day), reason: "tenancy" } })
        .expect(201);
      for (const res of [
        await api(other.agent).op("getAttendanceRegularization", { params: { id: r.body.data.id } }),
        await api(other.agent).op("updateAttendanceRegularization", { params: { id: r.body.data.id }, body: { status: "approved" } }),
        await api(other.agent).op("cancelAttendanceRegularization", { params: { id: r.body.data.id } }),
      ])
        expectError(res, 404, "not_found");
      expectError(
        await api(w.employee.agent).op("getAttendanceRegularization", { params: { id: "00000000-0000-4000-8000-000000000000" } }),
        404,
      );
    });
  },
);
