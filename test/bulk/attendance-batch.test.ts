// Attendance imports a batch at a time (src/modules/attendance/bulk.ts): the rules of importAttendance
// row by row - punches evaluated with the employee's approved work from home, a bad row refused alone
// in row_by_row mode, a later row of the same employee and date replacing an earlier one - with the
// batch written in one statement and recorded as one activity entry.
import { describe, expect, it } from "vitest";
import { addDays } from "../../src/lib/dates.ts";
import { signupTenant, useTestApp } from "../support/app.ts";
import { today } from "../support/clock.ts";
import { insertEmployee } from "../support/employees.ts";
import { api } from "../support/api.ts";

const t = useTestApp();

describe("importAttendanceRecords: a batch", () => {
  it("evaluates punches (work from home), refuses a bad row alone, lets a later row of the same day win; one activity entry", async () => {
    const o = await signupTenant(t);
    const [asha, bala] = [await insertEmployee(t, o.tenantId), await insertEmployee(t, o.tenantId)];
    const d = addDays(today(), -3);
    const d2 = addDays(today(), -2);
    await t.query(
      "INSERT INTO wfh_requests (tenant_id, employee_id, from_date, to_date, days, status) " +
        "VALUES ($1, $2, $3::date, $3::date, 1, 'approved')",
      [o.tenantId, asha, d],
    );
    const csv = [
      "employee_id,date,check_in,check_out,status,notes",
      `${asha},${d},${d}T04:00:00Z,${d}T13:00:00Z,,from home`,
      `5d0f3a8e-2b1c-4d5e-8f9a-0b1c2d3e4f5a,${d},,,absent,`,
      `${bala},${d},,,absent,first`,
      `${bala},${d},,,half_day,second`,
      `${bala},${d2},${d2}T04:00:00Z,,,`,
      `${asha},${d2},,,,`,
    ].join("\n");
    const res = await api(o.agent)
      .op("importAttendanceRecords", { query: { mode: "row_by_row" }, body: { csv } })
      .expect(201);
    expect(res.body.data).toMatchObject({ status: "succeeded", total_rows: 6, imported_rows: 4, failed_rows: 2 });
    expect(res.body.data.problems).toEqual([
      expect.objectContaining({ row: 2, message: "Employee not found" }),
      expect.objectContaining({ row: 6, message: expect.stringMatching(/needs check_in or status/) }),
    ]);
    const stored = await t.query(
      `SELECT employee_id, to_char(date, 'YYYY-MM-DD') AS date, status, worked_hours::text AS worked_hours, notes, source
         FROM attendance_records WHERE tenant_id = $1 ORDER BY date, status`,
      [o.tenantId],
    );
    expect(stored).toEqual([
      { employee_id: bala, date: d, status: "half_day", worked_hours: null, notes: "second", source: "import" },
      { employee_id: asha, date: d, status: "wfh", worked_hours: "9.00", notes: "from home", source: "import" },
      { employee_id: bala, date: d2, status: "present", worked_hours: null, notes: null, source: "import" },
    ]);
    // both rows of Bala's day name the one record they wrote
    const records = res.body.data.records as { row: number; id: string }[];
    expect(records.find((r) => r.row === 3)?.id).toBe(records.find((r) => r.row === 4)?.id);
    const entries = await t.query(`SELECT changes FROM audit_logs WHERE tenant_id = $1 AND action = 'attendance.imported'`, [o.tenantId]);
    expect(entries).toEqual([{ changes: expect.objectContaining({ created: 3, updated: 0, employees: 2, from: d, to: d2 }) }]);
  });
});
