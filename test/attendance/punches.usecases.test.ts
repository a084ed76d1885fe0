// Attendance rules through the use cases, without HTTP: how punches become a day's record (late,
// early exit, half day, work from home), what check-in and check-out refuse, the import's rules,
// and the settings' limits.
import { beforeAll, describe, expect, it } from "vitest";
import { withTenant } from "../../src/db/tenancy.ts";
import { addDays } from "../../src/lib/dates.ts";
import { importRecords } from "../../src/modules/attendance/bulk.ts";
import { punchIn, punchOut } from "../../src/modules/attendance/punches.ts";
import { changeAttendanceSettings } from "../../src/modules/attendance/settings.ts";
import { authOf } from "../support/auth-context.ts";
import { type LeaveWorld, insertEmployee, leaveWorld, today } from "../leave/fixtures.ts";
import { useTestApp } from "../support/app.ts";

const t = useTestApp();
let w: LeaveWorld;
const day = () => addDays(today(), -3);
const at = (date: string, hhmm: string) => `${date}T${hhmm}:00+05:30`; // the company's time zone (Asia/Kolkata)
const as = <T>(fn: () => Promise<T>) => withTenant(w.owner.tenantId, fn);

beforeAll(async () => {
  w = await leaveWorld(t);
});

describe("importAttendance: punches evaluated with the settings (shift 09:00-18:00, 15 minutes grace, half day below 4 hours)", () => {
  it("flags late and early exit, and a short day is a half day", async () => {
    const a = await insertEmployee(t, w.owner.tenantId, { first_name: "Late" });
    const b = await insertEmployee(t, w.owner.tenantId, { first_name: "OnTime" });
    const c = await insertEmployee(t, w.owner.tenantId, { first_name: "Grace" });
    const d = day();
    const counts = await as(() =>
      importRecords(authOf(w.owner, "owner"), {
        records: [
          { employee_id: a, date: d, check_in: at(d, "09:20"), check_out: at(d, "13:00") },
          { employee_id: b, date: d, check_in: at(d, "09:10"), check_out: at(d, "18:30") },
          { employee_id: c, date: d, check_in: at(d, "09:15"), check_out: at(d, "17:45") },
        ],
      }),
    );
    expect(counts).toEqual({ created: 3, updated: 0, ids: [expect.any(String), expect.any(String), expect.any(String)] });
    const rows = await t.query(
      `SELECT employee_id, status, late, early_exit, worked_hours::text AS worked_hours, ` +
        `source FROM attendance_records WHERE tenant_id = $1 AND date = $2`,
      [w.owner.tenantId, d],
    );
    const of = (id: string) => rows.find((r) => r.employee_id === id);
    expect(of(a)).toMatchObject({ status: "half_day", late: true, early_exit: true, worked_hours: "3.66", source: "import" });
    expect(of(b)).toMatchObject({ status: "present", late: false, early_exit: false, worked_hours: "9.33" });
    // exactly at the end of the grace is on time; leaving within the grace before the end is not early
    expect(of(c)).toMatchObject({ status: "present", late: false, early_exit: false });
  });

  it("an approved work-from-home day is `wfh`; a given status overrides the computed one; re-importing updates", async () => {
    const e = await insertEmployee(t, w.owner.tenantId, { first_name: "Remote" });
    const d = day();
    await t.query(
      `INSERT INTO wfh_requests (tenant_id, employee_id, from_date, to_date, days, status) VALUES ($1, $2, $3, $3, 1, 'approved')`,
      [w.owner.tenantId, e, d],
    );
    await as(() =>
      importRecords(authOf(w.owner, "owner"), {
        records: [{ employee_id: e, date: d, check_in: at(d, "09:00"), check_out: at(d, "18:00") }],
      }),
    );
    const [wfh] = await t.query(`SELECT status FROM attendance_records WHERE tenant_id = $1 AND employee_id = $2 AND date = $3`, [
      w.owner.tenantId,
      e,
      d,
    ]);
    expect(wfh.status).toBe("wfh");
    const again = await as(() =>
      importRecords(authOf(w.owner, "owner"), {
        records: [
          { employee_id: e, date: d, check_in: at(d, "09:00"), check_out: at(d, "18:00"), status: "present" },
          { employee_id: e, date: addDays(d, -1), status: "absent" },
        ],
      }),
    );
    expect(again).toEqual({ created: 1, updated: 1, ids: [expect.any(String), expect.any(String)] });
    const rows = await t.query(
      `SELECT date::text AS date, status, check_in FROM attendance_records WHERE tenant_id = $1 AND employee_id = $2 ORDER BY date`,
      [w.owner.tenantId, e],
    );
    expect(rows.map((r) => [r.date, r.status, r.check_in === null])).toEqual([
      [addDays(d, -1), "absent", true],
      [d, "present", false],
    ]);
  });

  it(
    "refuses a repeated employee and date, a record with neither punches nor status, " + "punches off the day, and unknown employees",
    async () => {
      const d = day();
      const e = w.employeeId;
      await expect(
        as(() =>
          importRecords(authOf(w.owner, "owner"), {
            records: [
              { employee_id: e, date: d, status: "absent" },
              { employee_id: e, date: d, status: "present" },
            ],
          }),
        ),
      ).rejects.toMatchObject({ status: 400, details: [{ path: "body.records.1" }] });
      await expect(as(() => importRecords(authOf(w.owner, "owner"), { records: [{ employee_id: e, date: d }] }))).rejects.toMatchObject({
        status: 400,
        details: [{ path: "body.records.0" }],
      });
      await expect(
        as(() => importRecords(authOf(w.owner, "owner"), { records: [{ employee_id: e, date: d, check_in: at(addDays(d, 1), "09:00") }] })),
      ).rejects.toMatchObject({ status: 400, details: [{ path: "body.records.0.check_in" }] });
      await expect(
        as(() =>
          importRecords(authOf(w.owner, "owner"), {
            records: [{ employee_id: e, date: d, check_in: at(d, "18:00"), check_out: at(d, "09:00") }],
          }),
        ),
      ).rejects.toMatchObject({ status: 400, details: [{ path: "body.records.0.check_out" }] });
      await expect(
        as(() =>
          importRecords(authOf(w.owner, "owner"), {
            records: [{ employee_id: "00000000-0000-4000-8000-000000000000", date: d, status: "absent" }],
          }),
        ),
      ).rejects.toMatchObject({ status: 404 });
    },
  );
});

describe("checkIn / checkOut: the caller's own punches today", () => {
  it("once each, in order; an immediate check-out is a half day of 0 hours", async () => {
    const me = await insertEmployee(t, w.owner.tenantId, { first_name: "Punchy" });
    const auth = authOf(w.employee, "employee", { employeeId: me });
    await expect(as(() => punchOut(auth))).rejects.toMatchObject({ status: 409, message: "You have not checked in today" });
    const inRec = await as(() => punchIn(auth, "from the office"));
    expect(inRec).toMatchObject({
      employee_id: me,
      date: today(),
      check_out: null,
      worked_hours: null,
      source: "self",
      notes: "from the office",
    });
    await expect(as(() => punchIn(auth))).rejects.toMatchObject({
      status: 409,
      message: expect.stringMatching(/^You already checked in today at \d\d:\d\d$/),
    });
    const outRec = await as(() => punchOut(auth));
    expect(outRec).toMatchObject({ status: "half_day", worked_hours: "0.00", notes: "from the office" });
    await expect(as(() => punchOut(auth))).rejects.toMatchObject({ status: 409, message: "You already checked out today" });
  });

  it("refuses a full day of approved leave, allows its half day, and needs a linked employee record", async () => {
    const [full, half] = [
      await insertEmployee(t, w.owner.tenantId, { first_name: "Away" }),
      await insertEmployee(t, w.owner.tenantId, { first_name: "Halfway" }),
    ];
    const [type] = await t.query(`INSERT INTO leave_types (tenant_id, name, code) VALUES ($1, 'Casual', 'UCL') RETURNING id`, [
      w.owner.tenantId,
    ]);
    const d = today();
    await t.query(
      `INSERT INTO leave_requests (tenant_id, employee_id, leave_type_id, period_id, from_date, to_date, days, status, half_day_start)
       VALUES ($1, $2, $4, $5, $6, $6, 1, 'approved', false), ($1, $3, $4, $5, $6, $6, 0.5, 'approved', true)`,
      [w.owner.tenantId, full, half, type.id, w.periodId, d],
    );
    await expect(as(() => punchIn(authOf(w.employee, "employee", { employeeId: full })))).rejects.toMatchObject({
      status: 409,
      message: "You are on approved leave today; cancel the leave first with DELETE /api/leave-requests/{id} (cancelLeaveRequest)",
    });
    expect(await as(() => punchIn(authOf(w.employee, "employee", { employeeId: half })))).toMatchObject({ employee_id: half, date: d });
    await expect(as(() => punchIn(authOf(w.hr, "hr")))).rejects.toMatchObject({
      status: 409,
      message: "Your account is not linked to an employee record",
    });
  });
});

describe("updateAttendanceSettings: the shift and the half-day threshold", () => {
  it(
    "needs the shift to end after it starts and the threshold to " + "fit in it; weekly offs fall back to the company's with null",
    async () => {
      await expect(as(() => changeAttendanceSettings({ shift_start: "18:00", shift_end: "09:00" }))).rejects.toMatchObject({
        status: 400,
        details: [{ path: "body.shift_end" }],
      });
      await expect(
        as(() => changeAttendanceSettings({ shift_start: "09:00", shift_end: "12:00", half_day_threshold_hours: "3.5" })),
      ).rejects.toMatchObject({
        status: 400,
        details: [{ path: "body.half_day_threshold_hours" }],
      });
      expect(await as(() => changeAttendanceSettings({ weekly_offs: [6, 5] }))).toMatchObject({
        weekly_offs: [5, 6],
        weekly_offs_source: "attendance",
      });
      expect(await as(() => changeAttendanceSettings({ weekly_offs: null }))).toMatchObject({
        weekly_offs: [0, 6],
        weekly_offs_source: "company",
        shift_start: "09:00",
        half_day_threshold_hours: "4.00",
      });
      const audits = await t.query(
        `SELECT changes FROM audit_logs WHERE tenant_id = $1 AND action = 'settings.attendance_updated' ORDER BY created_at`,
        [w.owner.tenantId],
      );
      expect(audits.at(-1)!.changes).toEqual({
        weekly_offs: { from: [5, 6], to: [0, 6] },
        weekly_offs_source: { from: "attendance", to: "company" },
      });
    },
  );
});
