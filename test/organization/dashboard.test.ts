// Dashboard overview: figures and the caller's scope.
import { describe, expect, it } from "vitest";
import { completeDueExits } from "../../src/modules/employees/exits.ts";
import { addDays, todayIn } from "../../src/lib/dates.ts";
import { addMember, signupTenant, useTestApp } from "../support/app.ts";
import { createEmployee } from "../support/employees.ts";
import { api } from "../support/api.ts";

const t = useTestApp();

describe("getDashboardOverview: dashboard overview", () => {
  it("company scope: headcount, joiners, exits, attrition, celebrations", async () => {
    const o = await signupTenant(t);
    const today = todayIn("Asia/Kolkata");
    const monthStart = `${today.slice(0, 8)}01`;
    const inThree = addDays(today, 3);
    const veterans = [];
    for (let i = 0; i < 3; i++) veterans.push(await createEmployee(o, { department: "Engineering", joining_date: "2020-01-15" }));
    const sales = await createEmployee(o, { department: "Sales", joining_date: "2019-01-10", date_of_birth: `1992-${inThree.slice(5)}` });
    const anniversary = await createEmployee(o, { department: "Sales", joining_date: `2020-${inThree.slice(5)}` });
    await createEmployee(o, { department: "Sales", joining_date: monthStart });
    await createEmployee(o, { department: "Finance", joining_date: "2018-05-05", status: "inactive" });
    const gone = await createEmployee(o, { department: "Engineering", joining_date: "2020-01-15" });
    await createEmployee(o, { department: "Ghosts", joining_date: "2020-01-15" }).then((g) =>
      api(o.agent)
        .op("deleteEmployee", { params: { employeeId: g.id } })
        .expect(200),
    );
    // One exit this month, already completed.
    await api(o.agent)
      .op("submitResignation", {
        params: { employeeId: gone.id },
        body: { resignation_date: monthStart, last_working_day: monthStart, reason: "x" },
      })
      .expect(201);
    // the exit job completes an exit once its checklist is done
    await t.query(`UPDATE exit_checklist_items SET status = 'done' WHERE tenant_id = $1`, [o.tenantId]);
    await completeDueExits(new Date(`${addDays(monthStart, 1)}T12:00:00Z`));

    const d = (await api(o.agent).op("getDashboardOverview").expect(200)).body.data;
    const joinedThisMonth = monthStart <= today ? 1 : 0;
    expect(d.scope).toBe("company");
    expect(d.as_of).toBe(today);
    expect(d.headcount.by_status).toEqual({ active: 6, inactive: 1, on_notice: 0, exited: 1 });
    expect(d.headcount.total).toBe(7);
    expect(d.headcount.by_department).toEqual([
      { department: "Engineering", count: 3 },
      { department: "Sales", count: 3 },
      { department: "Finance", count: 1 },
    ]);
    expect(d.joiners_this_month).toBe(joinedThisMonth);
    expect(d.exits_this_month).toBe(1);
    // start of month: 7 employed (everyone but the joiner of the 1st ... who joined on the 1st, and the leaver counted
    // until their last day)
    const start = 7 - (joinedThisMonth ? 1 : 0) + 1;
    expect(d.attrition_rate).toBe(((1 / ((start + 7) / 2)) * 100).toFixed(2));
    expect(d.birthdays).toEqual([{ employee_id: sales.id, full_name: sales.full_name, department: "Sales", date: inThree }]);
    expect(d.work_anniversaries).toContainEqual({
      employee_id: anniversary.id,
      full_name: anniversary.full_name,
      department: "Sales",
      date: inThree,
      years: Number(inThree.slice(0, 4)) - 2020,
    });
    expect(d.work_anniversaries.every((a) => a.years >= 1 && a.date >= today)).toBe(true);
    expect(d).toMatchObject({ on_leave_today: 0, pending_approvals: 0, upcoming_holidays: [] });
    expect(veterans).toHaveLength(3);
  });

  it("manager: team scope; employee: department scope; unlinked employee: self (empty)", async () => {
    const o = await signupTenant(t);
    const boss = await createEmployee(o, { department: "Ops" });
    await createEmployee(o, { department: "Ops", reports_to: boss.id });
    await createEmployee(o, { department: "Legal", reports_to: boss.id });
    const peer = await createEmployee(o, { department: "Ops" });
    await createEmployee(o, { department: "Legal" });
    const mgr = await addMember(t, o, "manager", { employeeId: boss.id });
    const emp = await addMember(t, o, "employee", { employeeId: peer.id });
    const loner = await addMember(t, o, "employee");

    const team = (await api(mgr.agent).op("getDashboardOverview").expect(200)).body.data;
    expect(team.scope).toBe("team");
    expect(team.headcount.total).toBe(3);
    expect(team.headcount.by_department).toEqual([
      { department: "Ops", count: 2 },
      { department: "Legal", count: 1 },
    ]);
    const dept = (await api(emp.agent).op("getDashboardOverview").expect(200)).body.data;
    expect(dept.scope).toBe("department");
    expect(dept.headcount.total).toBe(3);
    expect(dept.headcount.by_department).toEqual([{ department: "Ops", count: 3 }]);
    const self = (await api(loner.agent).op("getDashboardOverview").expect(200)).body.data;
    expect(self).toMatchObject({ scope: "self", headcount: { total: 0, by_department: [] }, attrition_rate: "0.00", birthdays: [] });
    const all = (await api(o.agent).op("getDashboardOverview").expect(200)).body.data;
    expect(all.headcount.total).toBe(5);
    // Another company's people never count.
    const other = await signupTenant(t);
    expect((await api(other.agent).op("getDashboardOverview").expect(200)).body.data.headcount.total).toBe(0);
  });
});
