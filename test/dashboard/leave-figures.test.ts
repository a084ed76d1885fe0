// Dashboard figures fed by the leave area: on leave today, pending approvals, upcoming holidays.
import { describe, expect, it } from "vitest";
import { addDays } from "../../src/lib/dates.ts";
import { useTestApp } from "../support/app.ts";
import { createType, leaveWorld, today } from "../leave/fixtures.ts";
import { api } from "../support/api.ts";

const t = useTestApp();

describe("getDashboardOverview: dashboard leave figures", () => {
  it("counts people on approved leave today, requests waiting for the caller, and holidays ahead", async () => {
    const w = await leaveWorld(t);
    const type = await createType(w.hr.agent, { name: "Sick leave", is_paid: true });
    const day = today();
    // an approved leave covering today and a pending one, both of the manager's report
    await t.query(
      `INSERT INTO leave_requests (tenant_id, employee_id, leave_type_id, period_id, from_date, to_date, days, status)
       VALUES ($1, $2, $3, $4, $5, $6, 1, 'approved'), ($1, $2, $3, $4, $7, $7, 1, 'pending')`,
      [w.owner.tenantId, w.employeeId, type.id, w.periodId, addDays(day, -1), addDays(day, 1), addDays(day, 20)],
    );
    await api(w.hr.agent)
      .op("createHoliday", { body: { date: addDays(day, 5), name: "Founders' Day" } })
      .expect(201);
    await api(w.hr.agent)
      .op("createHoliday", { body: { date: addDays(day, 45), name: "Too far ahead" } })
      .expect(201);

    const hr = (await api(w.hr.agent).op("getDashboardOverview").expect(200)).body.data;
    expect(hr).toMatchObject({ on_leave_today: 1, pending_approvals: 1 });
    expect(hr.upcoming_holidays).toEqual([{ date: addDays(day, 5), name: "Founders' Day" }]);

    const mgr = (await api(w.manager.agent).op("getDashboardOverview").expect(200)).body.data;
    expect(mgr).toMatchObject({ scope: "team", on_leave_today: 1, pending_approvals: 1 });

    const emp = (await api(w.employee.agent).op("getDashboardOverview").expect(200)).body.data;
    expect(emp.pending_approvals).toBe(0); // nobody's requests wait for an employee, not even their own
  });
});
