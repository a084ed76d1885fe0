// Allocations (bulk by policy, individual, prorated, idempotent), carry-forward with cap and
// expiry, accrual and expiry jobs (safe to run twice), balances from the ledger, adjustments.
import { beforeAll, describe, expect, it } from "vitest";
import { api, type RequestOf, type ResponseBody } from "../support/api.ts";
import { addDays } from "../../src/lib/dates.ts";
import { withTenant } from "../../src/db/tenancy.ts";
import { accrualSchedule } from "../../src/modules/leave/accrual.ts";
import { sumDays } from "../../src/modules/leave/days.ts";
import { runLeaveAccruals, runLeaveExpiries } from "../../src/modules/leave/jobs.ts";
import { expectError, signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { createType, insertEmployee, type LeaveWorld, leaveWorld, today, type LeaveType } from "./fixtures.ts";

const t = useTestApp();
let w: LeaveWorld;
let other: TenantSession;
let el: LeaveType, cl: LeaveType, sl: LeaveType, policy: ResponseBody<"createLeavePolicy", 201>["data"];
let veteran: string, joiner: string;

type BalanceQuery = NonNullable<RequestOf<"listLeaveBalances">["query"]>;
const balances = async (agent: TenantSession["agent"], query: BalanceQuery) =>
  (await api(agent).op("listLeaveBalances", { query }).expect(200)).body;
const balanceOf = async (employeeId: string, typeId: string, periodId?: string) => {
  const b = await balances(w.hr.agent, { employee_id: employeeId, leave_type_id: typeId, ...(periodId ? { period_id: periodId } : {}) });
  return b.data[0];
};

beforeAll(async () => {
  [w, other] = await Promise.all([leaveWorld(t), signupTenant(t)]);
  [el, cl, sl] = await Promise.all([
    createType(w.hr.agent, {
      name: "Earned leave",
      code: "EL",
      carry_forward: true,
      carry_forward_max_days: "5",
      carry_forward_expiry_days: 30,
    }),
    createType(w.hr.agent, { name: "Casual leave", code: "CL" }),
    createType(w.hr.agent, { name: "Sick leave", code: "SL" }),
  ]);
  policy = (
    await api(w.hr.agent)
      .op("createLeavePolicy", {
        body: {
          name: "Standard",
          items: [
            { leave_type_id: el.id, annual_quota: "15" },
            { leave_type_id: cl.id, annual_quota: "12", accrual: "monthly" },
            { leave_type_id: sl.id, annual_quota: "12" },
          ],
        },
      })
      .expect(201)
  ).body.data;
  veteran = await insertEmployee(t, w.owner.tenantId, { first_name: "Vera", last_name: "Veteran", joining_date: "2019-03-01" });
  joiner = await insertEmployee(t, w.owner.tenantId, { first_name: "Jo", last_name: "Joiner", joining_date: addDays(w.periodStart, 175) });
});

describe("listLeaveAllocations, createLeaveAllocations, listLeaveLedger: allocation", () => {
  it("bulk by policy: every matching employee, prorated for joiners, idempotent", async () => {
    const res = await api(w.hr.agent)
      .op("createLeaveAllocations", { body: { policy_id: policy.id } })
      .expect(201);
    expect(res.body.data.created_count).toBe(12); // manager, employee, veteran, joiner × 3 types
    expect(res.body.data.skipped_count).toBe(0);
    const joinerSl = res.body.data.allocations.find((a) => a.employee_id === joiner && a.leave_type_id === sl.id);
    // 176 of 351 days of the period remain after joining: 12 × 176 / 351 = 6.02 → 6.0
    expect(joinerSl).toMatchObject({
      days: "6.0",
      credited: "6.0",
      accrual: "upfront",
      effective_from: addDays(w.periodStart, 175),
      policy_id: policy.id,
    });
    const again = await api(w.hr.agent)
      .op("createLeaveAllocations", { body: { policy_id: policy.id } })
      .expect(201);
    expect(again.body.data).toMatchObject({ created_count: 0, skipped_count: 12 });
    expect(again.body.data.skipped[0].reason).toBe("already allocated for this period");
    const sl1 = await balanceOf(veteran, sl.id);
    expect(sl1).toMatchObject({ allocated: "12.0", available: "12.0", employee_name: "Vera Veteran" });
  });

  it("monthly accrual credits what is due; the job posts the rest and is safe to run twice", async () => {
    const due = accrualSchedule({
      mode: "monthly",
      accrualDay: "first_day",
      periodStart: w.periodStart,
      periodEnd: w.periodEnd,
      joiningDate: "2019-03-01",
      entitlement: "12",
    }).filter((a) => a.date <= today());
    const b = await balanceOf(veteran, cl.id);
    expect(b.accrued).toBe(sumDays(due.map((a) => a.days)).toFixed(1));
    const first = await withTenant(w.owner.tenantId, () => runLeaveAccruals({ today: w.periodEnd }));
    expect(first).toBeGreaterThan(0);
    const second = await withTenant(w.owner.tenantId, () => runLeaveAccruals({ today: w.periodEnd }));
    expect(second).toBe(0);
    // running for every tenant at once posts nothing new either
    expect(await runLeaveAccruals({ today: w.periodEnd })).toBe(0);
    expect((await balanceOf(veteran, cl.id)).accrued).toBe("12.0");
    const allocs = await api(w.hr.agent)
      .op("listLeaveAllocations", { query: { employee_id: veteran, leave_type_id: cl.id } })
      .expect(200);
    expect(allocs.body.data[0]).toMatchObject({ days: "12.0", credited: "12.0", accrual: "monthly" });
  });

  it("individual allocation with explicit days, and its refusals", async () => {
    const extra = await createType(w.hr.agent, { name: "Special", code: "SPX" });
    const r = await api(w.hr.agent)
      .op("createLeaveAllocations", { body: { employee_id: veteran, leave_type_id: extra.id, days: "2.5", notes: "one-off" } })
      .expect(201);
    expect(r.body.data.allocations[0]).toMatchObject({ days: "2.5", policy_id: null, notes: "one-off" });
    expect(
      (
        await api(w.hr.agent)
          .op("createLeaveAllocations", { body: { employee_id: veteran, leave_type_id: extra.id, days: "3" } })
          .expect(201)
      ).body.data.created_count,
    ).toBe(0);
    expectError(await api(w.hr.agent).op("createLeaveAllocations", { body: { leave_type_id: extra.id } }), 400);
    expectError(await api(w.hr.agent).op("createLeaveAllocations", { body: {} }), 400);
    expectError(await api(w.hr.agent).op("createLeaveAllocations", { body: { employee_id: veteran, days: "2" } }), 400);
    // no policy quota for it
    expectError(await api(w.hr.agent).op("createLeaveAllocations", { body: { employee_id: veteran, leave_type_id: extra.id } }), 409);
    const late = await insertEmployee(t, w.owner.tenantId, { joining_date: addDays(w.periodEnd, 1) });
    expectError(await api(w.hr.agent).op("createLeaveAllocations", { body: { employee_id: late } }), 409);
    expectError(await api(w.employee.agent).op("createLeaveAllocations", { body: { policy_id: policy.id } }), 403);
    const stranger = await insertEmployee(t, other.tenantId);
    expectError(await api(w.hr.agent).op("createLeaveAllocations", { body: { employee_id: stranger } }), 404);
    expectError(await api(other.agent).op("createLeaveAllocations", { body: { policy_id: policy.id } }), 404);
  });

  it("carry-forward moves unused days (capped) to the next period; they lapse after the expiry", async () => {
    // veteran used 8 of 15 EL days: 7 unused, cap 5
    await api(w.hr.agent)
      .op("createLeaveAdjustment", { body: { employee_id: veteran, leave_type_id: el.id, days: "-8", reason: "taken before go-live" } })
      .expect(201);
    const nextStart = addDays(w.periodEnd, 1);
    const next = (
      await api(w.hr.agent)
        .op("createLeavePeriod", { body: { name: "Next", start_date: nextStart, end_date: addDays(nextStart, 364) } })
        .expect(201)
    ).body.data;
    const r = await api(w.hr.agent)
      .op("createLeaveAllocations", { body: { employee_id: veteran, period_id: next.id } })
      .expect(201);
    const elAlloc = r.body.data.allocations.find((a) => a.leave_type_id === el.id);
    expect(elAlloc).toMatchObject({ carried_forward: "5.0", carry_forward_expires_on: addDays(nextStart, 29), days: "15.0" });
    expect(r.body.data.allocations.find((a) => a.leave_type_id === sl.id)?.carried_forward).toBe("0.0"); // SL does not carry forward
    expect(await balanceOf(veteran, el.id, next.id)).toMatchObject({ allocated: "15.0", carried: "5.0", available: "20.0" });
    expect(await balanceOf(veteran, el.id, w.periodId)).toMatchObject({ carried: "-5.0", adjusted: "-8.0", available: "2.0" });
    // allocating again carries nothing twice
    expect(
      (
        await api(w.hr.agent)
          .op("createLeaveAllocations", { body: { employee_id: veteran, period_id: next.id } })
          .expect(201)
      ).body.data.created_count,
    ).toBe(0);
    expect((await balanceOf(veteran, el.id, next.id)).carried).toBe("5.0");
    // nothing lapses before the expiry date, everything unused after it (twice = once)
    expect(await withTenant(w.owner.tenantId, () => runLeaveExpiries({ today: addDays(nextStart, 29) }))).toBe(0);
    expect(await withTenant(w.owner.tenantId, () => runLeaveExpiries({ today: addDays(nextStart, 30) }))).toBe(1);
    expect(await withTenant(w.owner.tenantId, () => runLeaveExpiries({ today: addDays(nextStart, 60) }))).toBe(0);
    expect(await balanceOf(veteran, el.id, next.id)).toMatchObject({ carried: "5.0", expired: "5.0", available: "15.0" });
    const ledger = await api(w.hr.agent)
      .op("listLeaveLedger", { query: { employee_id: veteran, leave_type_id: el.id, period_id: next.id } })
      .expect(200);
    expect(ledger.body.data.map((e) => [e.entry_type, e.days]).sort()).toEqual([
      ["allocation", "15.0"],
      ["carry_forward", "5.0"],
      ["expiry", "-5.0"],
    ]);
    await api(w.hr.agent)
      .op("updateLeavePeriod", { params: { id: w.periodId }, body: { is_current: true } })
      .expect(200);
  });

  it("bulk allocation follows the policy each employee falls under (department, designation, individual)", async () => {
    const ty = await createType(w.hr.agent, { name: "Field days", code: "FD" });
    const sales = await insertEmployee(t, w.owner.tenantId, { department: "Sales", first_name: "Sam" });
    const lead = await insertEmployee(t, w.owner.tenantId, { department: "Sales", designation: "Team Lead", first_name: "Lee" });
    const item = (n: string) => [{ leave_type_id: ty.id, annual_quota: n }];
    const dept = (
      await api(w.hr.agent)
        .op("createLeavePolicy", { body: { name: "Sales", assignment: "department", departments: ["sales"], items: item("4") } })
        .expect(201)
    ).body.data;
    const desig = (
      await api(w.hr.agent)
        .op("createLeavePolicy", { body: { name: "Leads", assignment: "designation", designations: ["Team Lead"], items: item("6") } })
        .expect(201)
    ).body.data;
    const indiv = (
      await api(w.hr.agent)
        .op("createLeavePolicy", { body: { name: "Veteran", assignment: "individual", employee_ids: [veteran], items: item("9") } })
        .expect(201)
    ).body.data;
    const byDept = await api(w.hr.agent)
      .op("createLeaveAllocations", { body: { policy_id: dept.id } })
      .expect(201);
    expect(byDept.body.data.allocations.map((a) => [a.employee_id, a.days])).toEqual([[sales, "4.0"]]);
    const byDesig = await api(w.hr.agent)
      .op("createLeaveAllocations", { body: { policy_id: desig.id } })
      .expect(201);
    expect(byDesig.body.data.allocations.map((a) => [a.employee_id, a.days])).toEqual([[lead, "6.0"]]);
    const byIndiv = await api(w.hr.agent)
      .op("createLeaveAllocations", { body: { policy_id: indiv.id } })
      .expect(201);
    expect(byIndiv.body.data.allocations.map((a) => [a.employee_id, a.days])).toEqual([[veteran, "9.0"]]);
    // the individual policy now wins over the default one for the veteran, who already has the default types
    const ind = await api(w.hr.agent)
      .op("createLeaveAllocations", { body: { employee_id: veteran } })
      .expect(201);
    expect(ind.body.data).toMatchObject({ created_count: 0, skipped_count: 1 });
    await api(w.hr.agent)
      .op("updateLeavePolicy", { params: { id: dept.id }, body: { active: false } })
      .expect(200);
    expectError(await api(w.hr.agent).op("createLeaveAllocations", { body: { policy_id: dept.id } }), 409);
    expectError(await api(w.hr.agent).op("deleteLeavePolicy", { params: { id: desig.id } }), 409); // allocations were made from it
  });

  it("the scheduled jobs are registered and can be run by name", async () => {
    const { registerAllJobs } = await import("../../src/modules/jobs.ts");
    const { jobs } = await import("../../src/platform/jobs/queue.ts");
    registerAllJobs();
    await jobs.runNow("leave.accrue");
    await jobs.runNow("leave.expire");
  });

  it("the ledger is append-only", async () => {
    await expect(t.query("UPDATE leave_ledger_entries SET days = 99")).rejects.toThrow(/append-only/);
    await expect(t.query("DELETE FROM leave_ledger_entries")).rejects.toThrow(/append-only/);
  });
});

describe("listLeaveBalances, createLeaveAdjustment: balances and adjustments", () => {
  it("employees see their own balances, managers their reports', hr everyone's", async () => {
    const mine = await balances(w.employee.agent, {});
    expect(new Set(mine.data.map((b) => b.employee_id))).toEqual(new Set([w.employeeId]));
    expect(mine.pagination.total).toBe(1);
    expect((await balances(w.employee.agent, { employee_id: veteran })).data).toEqual([]);
    const mgr = await balances(w.manager.agent, {});
    expect(new Set(mgr.data.map((b) => b.employee_id))).toEqual(new Set([w.employeeId, w.managerEmployeeId]));
    const all = await balances(w.hr.agent, { limit: 2 });
    // the company's total is every live employee (from the kept department counts): exactly what
    // counting them gives, and one fewer once an employee is deleted
    const live = async () =>
      (
        await t.query<{ n: number }>(`SELECT count(*)::int AS n FROM employees WHERE tenant_id = $1 AND deleted_at IS NULL`, [
          w.owner.tenantId,
        ])
      )[0].n;
    expect(all.pagination.total).toBe(await live());
    expect(all.pagination.total).toBeGreaterThanOrEqual(5);
    const spare = await insertEmployee(t, w.owner.tenantId, { first_name: "Spare" });
    expect((await balances(w.hr.agent, { limit: 2 })).pagination.total).toBe(all.pagination.total + 1);
    await t.query(`UPDATE employees SET deleted_at = now() WHERE tenant_id = $1 AND id = $2`, [w.owner.tenantId, spare]);
    expect((await balances(w.hr.agent, { limit: 2 })).pagination.total).toBe(all.pagination.total);
    expect(new Set(all.data.map((b) => b.employee_id)).size).toBe(2);
    expectError(await api(other.agent).op("listLeaveBalances"), 404); // no current period there
  });

  it("adjustments need hr, a reason, and cannot take the ledger below the minimum", async () => {
    expectError(
      await api(w.employee.agent).op("createLeaveAdjustment", {
        body: { employee_id: w.employeeId, leave_type_id: sl.id, days: "5", reason: "please" },
      }),
      403,
    );
    expectError(await w.hr.agent.post("/api/leave-adjustments").send({ employee_id: w.employeeId, leave_type_id: sl.id, days: "5" }), 400);
    expectError(
      await api(w.hr.agent).op("createLeaveAdjustment", {
        body: { employee_id: w.employeeId, leave_type_id: sl.id, days: "0", reason: "nothing" },
      }),
      400,
    );
    expectError(
      await api(w.hr.agent).op("createLeaveAdjustment", {
        body: { employee_id: w.employeeId, leave_type_id: sl.id, days: "-12.5", reason: "too much" },
      }),
      409,
    );
    const r = await api(w.hr.agent)
      .op("createLeaveAdjustment", { body: { employee_id: w.employeeId, leave_type_id: sl.id, days: "1.5", reason: "long service" } })
      .expect(201);
    expect(r.body.data).toMatchObject({ entry_type: "adjustment", days: "1.5", reason: "long service", created_by: w.hr.userId });
    expect((await balanceOf(w.employeeId, sl.id)).adjusted).toBe("1.5");
    const notes = await api(w.employee.agent).op("listNotifications").expect(200);
    expect(notes.body.data.map((n) => n.kind)).toContain("leave.adjusted");
    expectError(
      await api(other.agent).op("createLeaveAdjustment", {
        body: { employee_id: w.employeeId, leave_type_id: sl.id, days: "1", reason: "cross" },
      }),
      404,
    );
  });
});
