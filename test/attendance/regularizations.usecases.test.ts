// Attendance corrections through the use cases, without HTTP: the submit -> decide -> cancel
// flow (shared approval helper) and its rules.
import { beforeAll, describe, expect, it } from "vitest";
import { withTenant } from "../../src/db/tenancy.ts";
import { addDays } from "../../src/lib/dates.ts";
import { importRecords } from "../../src/modules/attendance/bulk.ts";
import {
  regularizationById,
  reviseRegularization,
  submitRegularization,
  withdrawRegularization,
} from "../../src/modules/attendance/regularizations.ts";
import type { AuthContext } from "../../src/http/types.ts";
import { authOf } from "../support/auth-context.ts";
import { type LeaveWorld, insertEmployee, leaveWorld, today } from "../leave/fixtures.ts";
import { useTestApp } from "../support/app.ts";

const t = useTestApp();
let w: LeaveWorld;
let employee: AuthContext;
let manager: AuthContext;
let hr: AuthContext;
const at = (date: string, hhmm: string) => `${date}T${hhmm}:00+05:30`;
const as = <T>(fn: () => Promise<T>) => withTenant(w.owner.tenantId, fn);

beforeAll(async () => {
  w = await leaveWorld(t);
  employee = authOf(w.employee, "employee", { employeeId: w.employeeId });
  manager = authOf(w.manager, "manager", { employeeId: w.managerEmployeeId });
  hr = authOf(w.hr, "hr");
});

describe("createAttendanceRegularization: a correction of a past day", () => {
  it("refuses a future day, punches off the day, and a second pending request for the same day", async () => {
    const tomorrow = addDays(today(), 1);
    await expect(
      as(() => submitRegularization(employee, { date: tomorrow, check_in: at(tomorrow, "09:00"), reason: "x" })),
    ).rejects.toMatchObject({ status: 400, details: [{ path: "body.date" }] });
    const d = addDays(today(), -10);
    await expect(
      as(() => submitRegularization(employee, { date: d, check_in: at(addDays(d, -1), "09:00"), reason: "x" })),
    ).rejects.toMatchObject({ status: 400, details: [{ path: "body.check_in" }] });
    await expect(
      as(() => submitRegularization(employee, { date: d, check_in: at(d, "09:00"), check_out: at(addDays(d, 1), "09:30"), reason: "x" })),
    ).rejects.toMatchObject({
      status: 400,
      details: [{ path: "body.check_out" }],
    });
    const r = await as(() => submitRegularization(employee, { date: d, check_in: at(d, "09:00"), reason: "Forgot to punch" }));
    expect(r).toMatchObject({ employee_id: w.employeeId, status: "pending", requested_by: employee.userId, employee_name: "Eli Employee" });
    await expect(as(() => submitRegularization(employee, { date: d, check_in: at(d, "09:05"), reason: "again" }))).rejects.toMatchObject({
      status: 409,
      message: `A pending regularization for ${d} exists already; edit it instead`,
    });
    // only hr files for someone else
    const other = await insertEmployee(t, w.owner.tenantId, { first_name: "Other" });
    await expect(
      as(() => submitRegularization(employee, { employee_id: other, date: d, check_in: at(d, "09:00"), reason: "x" })),
    ).rejects.toMatchObject({ status: 403 });
    expect(await as(() => submitRegularization(hr, { employee_id: other, date: d, check_in: at(d, "09:00"), reason: "x" }))).toMatchObject({
      employee_id: other,
      requested_by: hr.userId,
    });
    const notices = await t.query(`SELECT kind FROM notifications WHERE tenant_id = $1 AND user_id = $2`, [
      w.owner.tenantId,
      manager.userId,
    ]);
    expect(notices.map((n) => n.kind)).toContain("regularization.approval_needed");
  });
});

describe("updateAttendanceRegularization: edit while pending, or decide", () => {
  it(
    "the filer edits; a decision and an edit do not mix; " +
      "the employee cannot decide their own; an approval rewrites the day and keeps what it was",
    async () => {
      const d = addDays(today(), -11);
      await as(() =>
        importRecords(authOf(w.owner, "owner"), {
          records: [{ employee_id: w.employeeId, date: d, check_in: at(d, "11:00"), check_out: at(d, "13:00") }],
        }),
      );
      const r = await as(() => submitRegularization(employee, { date: d, check_in: at(d, "09:30"), reason: "Badge reader was down" }));
      await expect(as(() => reviseRegularization(employee, r.id, { check_in: at(d, "09:05"), status: "approved" }))).rejects.toMatchObject({
        status: 400,
      });
      await expect(as(() => reviseRegularization(employee, r.id, { comment: "ok" }))).rejects.toMatchObject({
        status: 400,
        details: [{ path: "body.status" }],
      });
      await expect(as(() => reviseRegularization(manager, r.id, { check_in: at(d, "09:05") }))).rejects.toMatchObject({
        status: 409,
        message: "Only the person who filed the request can edit it",
      });
      const edited = await as(() => reviseRegularization(employee, r.id, { check_in: at(d, "09:05"), check_out: at(d, "18:00") }));
      expect(edited.outcome).toBe("updated");
      await expect(as(() => reviseRegularization(employee, r.id, { status: "approved" }))).rejects.toMatchObject({
        status: 403,
        message: "You cannot decide your own request: only the company's owner may decide on their own record",
      });

      const approved = await as(() => reviseRegularization(manager, r.id, { status: "approved", comment: "Fine" }));
      expect(approved.outcome).toBe("approved");
      expect(approved.regularization).toMatchObject({
        status: "approved",
        decided_by: manager.userId,
        decision_comment: "Fine",
        previous: { status: "half_day" },
      });
      const [rec] = await t.query(
        `SELECT status, late, source, worked_hours::text AS worked_hours FROM ` +
          `attendance_records WHERE tenant_id = $1 AND employee_id = $2 AND date = $3`,
        [w.owner.tenantId, w.employeeId, d],
      );
      expect(rec).toEqual({ status: "present", late: false, source: "regularization", worked_hours: "8.91" });
      const audits = await t.query(
        `SELECT action FROM audit_logs WHERE tenant_id = $1 AND (entity_id = $2 OR action = 'attendance.regularized') ORDER BY created_at`,
        [w.owner.tenantId, r.id],
      );
      expect(audits.map((a) => a.action)).toEqual([
        "attendance_regularization.created",
        "attendance_regularization.updated",
        "attendance.regularized",
        "attendance_regularization.approved",
      ]);

      // decided once: a second decision, an edit or a cancellation is refused
      await expect(as(() => reviseRegularization(hr, r.id, { status: "rejected" }))).rejects.toMatchObject({
        status: 409,
        message: "The request is already approved",
      });
      await expect(as(() => reviseRegularization(employee, r.id, { reason: "more" }))).rejects.toMatchObject({
        status: 409,
        message: "The request is already approved",
      });
      await expect(as(() => withdrawRegularization(employee, r.id))).rejects.toMatchObject({
        status: 409,
        message: "A approved request cannot be cancelled",
      });
    },
  );

  it("a rejection leaves the day as it was", async () => {
    const d = addDays(today(), -12);
    const r = await as(() => submitRegularization(employee, { date: d, check_in: at(d, "09:00"), check_out: at(d, "18:00"), reason: "x" }));
    const rejected = await as(() => reviseRegularization(hr, r.id, { status: "rejected", comment: "No evidence" }));
    expect(rejected).toMatchObject({ outcome: "rejected", regularization: { status: "rejected", previous: null } });
    expect(
      await t.query(`SELECT 1 FROM attendance_records WHERE tenant_id = $1 AND employee_id = $2 AND date = $3`, [
        w.owner.tenantId,
        w.employeeId,
        d,
      ]),
    ).toHaveLength(0);
  });
});

describe("cancelAttendanceRegularization: withdraw a pending request", () => {
  it("by the employee or their manager; someone outside their view gets a 404", async () => {
    const d = addDays(today(), -13);
    const r = await as(() => submitRegularization(employee, { date: d, check_in: at(d, "09:00"), reason: "x" }));
    const stranger = authOf(w.hr, "employee", { employeeId: await insertEmployee(t, w.owner.tenantId, { first_name: "Stranger" }) });
    await expect(as(() => regularizationById(stranger, r.id))).rejects.toMatchObject({ status: 404 });
    await expect(as(() => withdrawRegularization(stranger, r.id))).rejects.toMatchObject({ status: 404 });
    expect(await as(() => withdrawRegularization(manager, r.id))).toMatchObject({ status: "cancelled", cancelled_by: manager.userId });
    await expect(as(() => withdrawRegularization(employee, r.id))).rejects.toMatchObject({
      status: 409,
      message: "A cancelled request cannot be cancelled",
    });
  });
});
