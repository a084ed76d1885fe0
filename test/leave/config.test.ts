// Leave configuration: types, periods, policies, holidays - validation, conflicts, roles, tenancy.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { addDays } from "../../src/lib/dates.ts";
import { expectError, signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { createType, insertEmployee, type LeaveWorld, leaveWorld } from "./fixtures.ts";

const t = useTestApp();
let w: LeaveWorld;
let other: TenantSession;

beforeAll(async () => {
  [w, other] = await Promise.all([leaveWorld(t), signupTenant(t)]);
});

describe("listLeaveTypes, createLeaveType, getLeaveType, updateLeaveType, deleteLeaveType: leave types", () => {
  it("creates with defaults, reads, updates, and refuses duplicates and inconsistent options", async () => {
    const res = await api(w.hr.agent)
      .op("createLeaveType", { body: { name: "Sick leave", code: "sl", attachment_required_above_days: 2 } })
      .expect(201);
    const sl = res.body.data;
    expect(sl).toMatchObject({
      code: "SL",
      is_paid: true,
      allow_half_day: true,
      min_notice_days: 0,
      negative_balance_limit: "0.0",
      carry_forward_max_days: null,
      active: true,
      sandwich_rule: false,
    });
    expectError(await api(w.hr.agent).op("createLeaveType", { body: { name: "Other", code: "SL" } }), 409, "conflict");
    expectError(
      await api(w.hr.agent).op("createLeaveType", { body: { name: "X", code: "X1", carry_forward_max_days: "5" } }),
      400,
      "validation_failed",
    );
    expectError(await w.hr.agent.post("/api/leave-types").send({ name: "X", code: "X1", unknown_field: 1 }), 400);
    expectError(await api(w.hr.agent).op("createLeaveType", { body: { name: "X", code: "X1", negative_balance_limit: "1.25" } }), 400);
    const upd = await api(w.hr.agent)
      .op("updateLeaveType", {
        params: { id: sl.id },
        body: { max_consecutive_days: 5, carry_forward: true, carry_forward_max_days: "10" },
      })
      .expect(200);
    expect(upd.body.data).toMatchObject({ max_consecutive_days: 5, carry_forward_max_days: "10.0" });
    const got = await api(w.employee.agent)
      .op("getLeaveType", { params: { id: sl.id } })
      .expect(200);
    expect(got.body.data.code).toBe("SL");
    const list = await api(w.employee.agent)
      .op("listLeaveTypes", { query: { active: true } })
      .expect(200);
    expect(list.body.data.map((x) => x.code)).toContain("SL");
    const audit = await api(w.owner.agent)
      .op("listActivityLog", { query: { entity_id: sl.id } })
      .expect(200);
    expect(audit.body.data.map((a) => a.action)).toEqual(["leave_type.updated", "leave_type.created"]);
  });

  it("only hr/admin/owner manage types", async () => {
    expectError(await api(w.employee.agent).op("createLeaveType", { body: { name: "Mine", code: "MINE" } }), 403, "forbidden");
    expectError(await api(w.manager.agent).op("createLeaveType", { body: { name: "Mine", code: "MINE" } }), 403, "forbidden");
    const ty = await createType(w.owner.agent);
    expectError(await api(w.employee.agent).op("updateLeaveType", { params: { id: ty.id }, body: { name: "x" } }), 403);
    expectError(await api(w.employee.agent).op("deleteLeaveType", { params: { id: ty.id } }), 403);
  });

  it("deletes an unused type; a type in use must be retired instead", async () => {
    const unused = await createType(w.hr.agent);
    await api(w.hr.agent)
      .op("deleteLeaveType", { params: { id: unused.id } })
      .expect(200);
    expectError(await api(w.hr.agent).op("getLeaveType", { params: { id: unused.id } }), 404, "not_found");
    const used = await createType(w.hr.agent);
    await api(w.hr.agent)
      .op("createLeavePolicy", { body: { name: "Uses it", items: [{ leave_type_id: used.id, annual_quota: "3" }] } })
      .expect(201);
    expectError(await api(w.hr.agent).op("deleteLeaveType", { params: { id: used.id } }), 409, "conflict");
    await api(w.hr.agent)
      .op("updateLeaveType", { params: { id: used.id }, body: { active: false } })
      .expect(200);
  });
});

describe("listLeavePeriods, createLeavePeriod, getLeavePeriod, updateLeavePeriod, deleteLeavePeriod: leave periods", () => {
  it("refuses overlaps (409) and bad ranges (400); exactly one period is current", async () => {
    const cur = await api(w.hr.agent)
      .op("getLeavePeriod", { params: { id: w.periodId } })
      .expect(200);
    expect(cur.body.data.is_current).toBe(true);
    expectError(
      await api(w.hr.agent).op("createLeavePeriod", { body: { name: "Overlap", start_date: w.periodEnd, end_date: "2099-01-01" } }),
      400,
    ); // > 366 days
    const dayAfter = new Date(Date.parse(w.periodEnd) + 86400000).toISOString().slice(0, 10);
    const yearAfter = new Date(Date.parse(dayAfter) + 364 * 86400000).toISOString().slice(0, 10);
    expectError(
      await api(w.hr.agent).op("createLeavePeriod", {
        body: { name: "Overlap", start_date: addDays(w.periodEnd, -10), end_date: addDays(w.periodEnd, 30) },
      }),
      409,
      "conflict",
    );
    expectError(
      await api(w.hr.agent).op("createLeavePeriod", { body: { name: "Backwards", start_date: yearAfter, end_date: dayAfter } }),
      400,
    );
    const next = await api(w.hr.agent)
      .op("createLeavePeriod", { body: { name: "Next", start_date: dayAfter, end_date: yearAfter } })
      .expect(201);
    expect(next.body.data.is_current).toBe(false);
    expectError(await api(w.hr.agent).op("updateLeavePeriod", { params: { id: w.periodId }, body: { is_current: false } }), 409);
    await api(w.hr.agent)
      .op("updateLeavePeriod", { params: { id: next.body.data.id }, body: { is_current: true } })
      .expect(200);
    const list = await api(w.employee.agent).op("listLeavePeriods").expect(200);
    expect(list.body.data.filter((p) => p.is_current).map((p) => p.id)).toEqual([next.body.data.id]);
    await api(w.hr.agent)
      .op("updateLeavePeriod", { params: { id: w.periodId }, body: { is_current: true } })
      .expect(200);
    expectError(
      await api(w.hr.agent).op("updateLeavePeriod", {
        params: { id: next.body.data.id },
        body: { start_date: addDays(w.periodEnd, -5), end_date: addDays(w.periodEnd, 100) },
      }),
      409,
    ); // would overlap
    await api(w.hr.agent)
      .op("deleteLeavePeriod", { params: { id: next.body.data.id } })
      .expect(200);
    expectError(
      await api(w.employee.agent).op("createLeavePeriod", { body: { name: "x", start_date: dayAfter, end_date: yearAfter } }),
      403,
    );
  });

  it("the first period of a company becomes current", async () => {
    const o = await signupTenant(t);
    const p = await api(o.agent)
      .op("createLeavePeriod", { body: { name: "FY", start_date: "2030-04-01", end_date: "2031-03-31" } })
      .expect(201);
    expect(p.body.data.is_current).toBe(true);
    expectError(await api(o.agent).op("deleteLeavePeriod", { params: { id: w.periodId } }), 404); // another tenant's period
  });
});

describe("listLeavePolicies, createLeavePolicy, getLeavePolicy, updateLeavePolicy, deleteLeavePolicy: leave policies", () => {
  it("validates assignment and references", async () => {
    const ty = await createType(w.hr.agent);
    expectError(
      await api(w.hr.agent).op("createLeavePolicy", {
        body: { name: "Dept", assignment: "department", items: [{ leave_type_id: ty.id, annual_quota: "5" }] },
      }),
      400,
    );
    expectError(
      await api(w.hr.agent).op("createLeavePolicy", {
        body: {
          name: "Twice",
          items: [
            { leave_type_id: ty.id, annual_quota: "5" },
            { leave_type_id: ty.id, annual_quota: "2" },
          ],
        },
      }),
      400,
    );
    expectError(
      await api(w.hr.agent).op("createLeavePolicy", {
        body: { name: "Ghost", items: [{ leave_type_id: "00000000-0000-4000-8000-000000000000", annual_quota: "5" }] },
      }),
      404,
    );
    expectError(
      await api(w.hr.agent).op("createLeavePolicy", {
        body: {
          name: "Ghost",
          assignment: "individual",
          employee_ids: ["00000000-0000-4000-8000-000000000000"],
          items: [{ leave_type_id: ty.id, annual_quota: "5" }],
        },
      }),
      404,
    );
    const p = await api(w.hr.agent)
      .op("createLeavePolicy", {
        body: {
          name: "Individual",
          assignment: "individual",
          employee_ids: [w.employeeId],
          items: [{ leave_type_id: ty.id, annual_quota: "12", accrual: "monthly" }],
        },
      })
      .expect(201);
    expect(p.body.data).toMatchObject({
      assignment: "individual",
      employee_ids: [w.employeeId],
      items: [{ leave_type_id: ty.id, annual_quota: "12.0", accrual: "monthly", accrual_day: "first_day" }],
    });
    const u = await api(w.hr.agent)
      .op("updateLeavePolicy", { params: { id: p.body.data.id }, body: { assignment: "designation", designations: ["Engineer"] } })
      .expect(200);
    expect(u.body.data.designations).toEqual(["Engineer"]);
    expectError(await api(w.hr.agent).op("updateLeavePolicy", { params: { id: p.body.data.id }, body: { designations: [] } }), 400);
    const got = await api(w.hr.agent)
      .op("getLeavePolicy", { params: { id: p.body.data.id } })
      .expect(200);
    expect(got.body.data).toMatchObject({
      id: p.body.data.id,
      name: "Individual",
      assignment: "designation",
      designations: ["Engineer"],
      items: [{ leave_type_id: ty.id, annual_quota: "12.0" }],
    });
    expectError(await api(w.employee.agent).op("getLeavePolicy", { params: { id: p.body.data.id } }), 403);
    await api(w.hr.agent).op("listLeavePolicies").expect(200);
    await api(w.hr.agent)
      .op("deleteLeavePolicy", { params: { id: p.body.data.id } })
      .expect(200);
  });
});

describe("listHolidays, createHoliday, createHolidaysBulk, getHoliday, updateHoliday, deleteHoliday: holidays", () => {
  it("creates one or many, refuses duplicates, filters by year and branch", async () => {
    // a branch of the company (a holiday naming another company's or no branch is a 400 on branch_id)
    const branch: string = (
      await api(w.hr.agent)
        .op("createBranch", { body: { name: "Pune" } })
        .expect(201)
    ).body.data.id;
    const h = await api(w.hr.agent)
      .op("createHoliday", { body: { date: "2031-01-26", name: "Republic Day" } })
      .expect(201);
    expect(h.body.data).toMatchObject({ date: "2031-01-26", is_optional: false, branch_id: null });
    expectError(await api(w.hr.agent).op("createHoliday", { body: { date: "2031-01-26", name: "republic day" } }), 409, "conflict");
    // the same name for one branch only is a different holiday
    await api(w.hr.agent)
      .op("createHoliday", { body: { date: "2031-01-26", name: "Republic Day", branch_id: branch } })
      .expect(201);
    const bulk = await api(w.hr.agent)
      .op("createHolidaysBulk", {
        body: {
          holidays: [
            { date: "2031-08-15", name: "Independence Day" },
            { date: "2031-03-10", name: "Holi", is_optional: true },
          ],
        },
      })
      .expect(201);
    expect(bulk.body.data.map((x) => x.date)).toEqual(["2031-03-10", "2031-08-15"]);
    expectError(
      await api(w.hr.agent).op("createHolidaysBulk", {
        body: {
          holidays: [
            { date: "2031-10-02", name: "Gandhi Jayanti" },
            { date: "2031-10-02", name: "Gandhi Jayanti" },
          ],
        },
      }),
      409,
    );
    expectError(
      await api(w.hr.agent).op("createHolidaysBulk", {
        body: {
          holidays: [
            { date: "2031-10-02", name: "Gandhi Jayanti" },
            { date: "2031-08-15", name: "Independence Day" },
          ],
        },
      }),
      409,
    );
    const year = await api(w.employee.agent)
      .op("listHolidays", { query: { year: 2031 } })
      .expect(200);
    expect(year.body.data.map((x) => x.name)).toEqual(["Republic Day", "Republic Day", "Holi", "Independence Day"]);
    const otherBranch = await api(w.employee.agent)
      .op("listHolidays", { query: { year: 2031, branch_id: "22222222-2222-4222-8222-222222222222" } })
      .expect(200);
    expect(otherBranch.body.data).toHaveLength(3);
    const upd = await api(w.hr.agent)
      .op("updateHoliday", { params: { id: h.body.data.id }, body: { is_optional: true } })
      .expect(200);
    expect(upd.body.data.is_optional).toBe(true);
    // every member reads a holiday
    expect(
      (
        await api(w.employee.agent)
          .op("getHoliday", { params: { id: h.body.data.id } })
          .expect(200)
      ).body.data,
    ).toMatchObject({
      id: h.body.data.id,
      date: "2031-01-26",
      name: "Republic Day",
      is_optional: true,
    });
    expectError(await api(w.employee.agent).op("createHoliday", { body: { date: "2031-12-25", name: "Christmas" } }), 403);
    await api(w.hr.agent)
      .op("deleteHoliday", { params: { id: h.body.data.id } })
      .expect(200);
    expectError(await api(w.hr.agent).op("getHoliday", { params: { id: h.body.data.id } }), 404);
  });
});

describe("tenancy", () => {
  it("another company's ids are 404 for every id-taking configuration operation", async () => {
    const ty = await createType(w.hr.agent);
    const hol = (
      await api(w.hr.agent)
        .op("createHoliday", { body: { date: "2032-01-01", name: "New Year" } })
        .expect(201)
    ).body.data;
    const pol = (
      await api(w.hr.agent)
        .op("createLeavePolicy", { body: { name: "P", items: [{ leave_type_id: ty.id, annual_quota: "1" }] } })
        .expect(201)
    ).body.data;
    const a = other.agent;
    for (const [path, id] of [
      ["leave-types", ty.id],
      ["leave-periods", w.periodId],
      ["leave-policies", pol.id],
      ["holidays", hol.id],
    ] as const) {
      expectError(await a.get(`/api/${path}/${id}`), 404, "not_found");
      expectError(await a.put(`/api/${path}/${id}`).send({ name: "x" }), 404, "not_found");
      expectError(await a.delete(`/api/${path}/${id}`), 404, "not_found");
    }
    expect((await api(a).op("listLeaveTypes").expect(200)).body.data).toEqual([]);
    // and an employee of the other company cannot be named in a policy
    const stranger = await insertEmployee(t, other.tenantId);
    expectError(
      await api(w.hr.agent).op("createLeavePolicy", {
        body: { name: "X", assignment: "individual", employee_ids: [stranger], items: [{ leave_type_id: ty.id, annual_quota: "1" }] },
      }),
      404,
    );
  });
});
