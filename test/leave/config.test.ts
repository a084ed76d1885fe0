// Leave configuration: types, periods, policies, holidays - validation, conflicts, roles, tenancy.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { addDays } from "../../src/lib/dates.ts";
import { expectError, signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { createType, insertEmployee, type LeaveWorld, leaveWorld } from "../support/leave-factories.ts";

const t = useTestApp();
let w: LeaveWorld;
let other: TenantSession;

beforeAll(async () => {
  [w, other] = await Promise.all([leaveWorld(t), signupTenant(t)]);
});

describe("listLeaveTypes, createLeaveType, getLeaveType, updateLeaveType, deleteLeaveType: leave types", () => {
  it("creates with defaults, reads, updates, and refuses duplicates and inconsistent options", async () => {
    const res = await w.hr.agent
      .post("/api/leave-types")
      .send({ name: "Sick leave", code: "sl", attachment_required_above_days: 2 })
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
    expectError(await w.hr.agent.post("/api/leave-types").send({ name: "Other", code: "SL" }), 409, "conflict");
    expectError(
      await w.hr.agent.post("/api/leave-types").send({ name: "X", code: "X1", carry_forward_max_days: "5" }),
      400,
      "validation_failed",
    );
    expectError(await w.hr.agent.post("/api/leave-types").send({ name: "X", code: "X1", unknown_field: 1 }), 400);
    expectError(await w.hr.agent.post("/api/leave-types").send({ name: "X", code: "X1", negative_balance_limit: "1.25" }), 400);
    const upd = await w.hr.agent
      .put(`/api/leave-types/${sl.id}`)
      .send({ max_consecutive_days: 5, carry_forward: true, carry_forward_max_days: "10" })
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
    expectError(await w.employee.agent.post("/api/leave-types").send({ name: "Mine", code: "MINE" }), 403, "forbidden");
    expectError(await w.manager.agent.post("/api/leave-types").send({ name: "Mine", code: "MINE" }), 403, "forbidden");
    const ty = await createType(w.owner.agent);
    expectError(await w.employee.agent.put(`/api/leave-types/${ty.id}`).send({ name: "x" }), 403);
    expectError(await w.employee.agent.delete(`/api/leave-types/${ty.id}`), 403);
  });

  it("deletes an unused type; a type in use must be retired instead", async () => {
    const unused = await createType(w.hr.agent);
    await w.hr.agent.delete(`/api/leave-types/${unused.id}`).expect(200);
    expectError(await w.hr.agent.get(`/api/leave-types/${unused.id}`), 404, "not_found");
    const used = await createType(w.hr.agent);
    await w.hr.agent
      .post("/api/leave-policies")
      .send({ name: "Uses it", items: [{ leave_type_id: used.id, annual_quota: "3" }] })
      .expect(201);
    expectError(await w.hr.agent.delete(`/api/leave-types/${used.id}`), 409, "conflict");
    await w.hr.agent.put(`/api/leave-types/${used.id}`).send({ active: false }).expect(200);
  });
});

describe("listLeavePeriods, createLeavePeriod, getLeavePeriod, updateLeavePeriod, deleteLeavePeriod: leave periods", () => {
  it("refuses overlaps (409) and bad ranges (400); exactly one period is current", async () => {
    const cur = await api(w.hr.agent)
      .op("getLeavePeriod", { params: { id: w.periodId } })
      .expect(200);
    expect(cur.body.data.is_current).toBe(true);
    expectError(
      await w.hr.agent.post("/api/leave-periods").send({ name: "Overlap", start_date: w.periodEnd, end_date: "2099-01-01" }),
      400,
    ); // > 366 days
    const dayAfter = new Date(Date.parse(w.periodEnd) + 86400000).toISOString().slice(0, 10);
    const yearAfter = new Date(Date.parse(dayAfter) + 364 * 86400000).toISOString().slice(0, 10);
    expectError(
      await w.hr.agent
        .post("/api/leave-periods")
        .send({ name: "Overlap", start_date: addDays(w.periodEnd, -10), end_date: addDays(w.periodEnd, 30) }),
      409,
      "conflict",
    );
    expectError(await w.hr.agent.post("/api/leave-periods").send({ name: "Backwards", start_date: yearAfter, end_date: dayAfter }), 400);
    const next = await w.hr.agent.post("/api/leave-periods").send({ name: "Next", start_date: dayAfter, end_date: yearAfter }).expect(201);
    expect(next.body.data.is_current).toBe(false);
    expectError(await w.hr.agent.put(`/api/leave-periods/${w.periodId}`).send({ is_current: false }), 409);
    await w.hr.agent.put(`/api/leave-periods/${next.body.data.id}`).send({ is_current: true }).expect(200);
    const list = await api(w.employee.agent).op("listLeavePeriods").expect(200);
    expect(list.body.data.filter((p) => p.is_current).map((p) => p.id)).toEqual([next.body.data.id]);
    await w.hr.agent.put(`/api/leave-periods/${w.periodId}`).send({ is_current: true }).expect(200);
    expectError(
      await w.hr.agent
        .put(`/api/leave-periods/${next.body.data.id}`)
        .send({ start_date: addDays(w.periodEnd, -5), end_date: addDays(w.periodEnd, 100) }),
      409,
    ); // would overlap
    await w.hr.agent.delete(`/api/leave-periods/${next.body.data.id}`).expect(200);
    expectError(await w.employee.agent.post("/api/leave-periods").send({ name: "x", start_date: dayAfter, end_date: yearAfter }), 403);
  });

  it("the first period of a company becomes current", async () => {
    const o = await signupTenant(t);
    const p = await o.agent.post("/api/leave-periods").send({ name: "FY", start_date: "2030-04-01", end_date: "2031-03-31" }).expect(201);
    expect(p.body.data.is_current).toBe(true);
    expectError(await o.agent.delete(`/api/leave-periods/${w.periodId}`), 404); // another tenant's period
  });
});

describe("listLeavePolicies, createLeavePolicy, getLeavePolicy, updateLeavePolicy, deleteLeavePolicy: leave policies", () => {
  it("validates assignment and references", async () => {
    const ty = await createType(w.hr.agent);
    expectError(
      await w.hr.agent
        .post("/api/leave-policies")
        .send({ name: "Dept", assignment: "department", items: [{ leave_type_id: ty.id, annual_quota: "5" }] }),
      400,
    );
    expectError(
      await w.hr.agent.post("/api/leave-policies").send({
        name: "Twice",
        items: [
          { leave_type_id: ty.id, annual_quota: "5" },
          { leave_type_id: ty.id, annual_quota: "2" },
        ],
      }),
      400,
    );
    expectError(
      await w.hr.agent
        .post("/api/leave-policies")
        .send({ name: "Ghost", items: [{ leave_type_id: "00000000-0000-4000-8000-000000000000", annual_quota: "5" }] }),
      404,
    );
    expectError(
      await w.hr.agent.post("/api/leave-policies").send({
        name: "Ghost",
        assignment: "individual",
        employee_ids: ["00000000-0000-4000-8000-000000000000"],
        items: [{ leave_type_id: ty.id, annual_quota: "5" }],
      }),
      404,
    );
    const p = await w.hr.agent
      .post("/api/leave-policies")
      .send({
        name: "Individual",
        assignment: "individual",
        employee_ids: [w.employeeId],
        items: [{ leave_type_id: ty.id, annual_quota: "12", accrual: "monthly" }],
      })
      .expect(201);
    expect(p.body.data).toMatchObject({
      assignment: "individual",
      employee_ids: [w.employeeId],
      items: [{ leave_type_id: ty.id, annual_quota: "12.0", accrual: "monthly", accrual_day: "first_day" }],
    });
    const u = await w.hr.agent
      .put(`/api/leave-policies/${p.body.data.id}`)
      .send({ assignment: "designation", designations: ["Engineer"] })
      .expect(200);
    expect(u.body.data.designations).toEqual(["Engineer"]);
    expectError(await w.hr.agent.put(`/api/leave-policies/${p.body.data.id}`).send({ designations: [] }), 400);
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
    expectError(await w.employee.agent.get(`/api/leave-policies/${p.body.data.id}`), 403);
    await api(w.hr.agent).op("listLeavePolicies").expect(200);
    await w.hr.agent.delete(`/api/leave-policies/${p.body.data.id}`).expect(200);
  });
});

describe("listHolidays, createHoliday, createHolidaysBulk, getHoliday, updateHoliday, deleteHoliday: holidays", () => {
  it("creates one or many, refuses duplicates, filters by year and branch", async () => {
    // a branch of the company (a holiday naming another company's or no branch is a 400 on branch_id)
    const branch: string = (await w.hr.agent.post("/api/configuration/branches").send({ name: "Pune" }).expect(201)).body.data.id;
    const h = await w.hr.agent.post("/api/holidays").send({ date: "2031-01-26", name: "Republic Day" }).expect(201);
    expect(h.body.data).toMatchObject({ date: "2031-01-26", is_optional: false, branch_id: null });
    expectError(await w.hr.agent.post("/api/holidays").send({ date: "2031-01-26", name: "republic day" }), 409, "conflict");
    // the same name for one branch only is a different holiday
    await w.hr.agent.post("/api/holidays").send({ date: "2031-01-26", name: "Republic Day", branch_id: branch }).expect(201);
    const bulk = await w.hr.agent
      .post("/api/holidays/bulk")
      .send({
        holidays: [
          { date: "2031-08-15", name: "Independence Day" },
          { date: "2031-03-10", name: "Holi", is_optional: true },
        ],
      })
      .expect(201);
    expect(bulk.body.data.map((x: any) => x.date)).toEqual(["2031-03-10", "2031-08-15"]);
    expectError(
      await w.hr.agent.post("/api/holidays/bulk").send({
        holidays: [
          { date: "2031-10-02", name: "Gandhi Jayanti" },
          { date: "2031-10-02", name: "Gandhi Jayanti" },
        ],
      }),
      409,
    );
    expectError(
      await w.hr.agent.post("/api/holidays/bulk").send({
        holidays: [
          { date: "2031-10-02", name: "Gandhi Jayanti" },
          { date: "2031-08-15", name: "Independence Day" },
        ],
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
    const upd = await w.hr.agent.put(`/api/holidays/${h.body.data.id}`).send({ is_optional: true }).expect(200);
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
    expectError(await w.employee.agent.post("/api/holidays").send({ date: "2031-12-25", name: "Christmas" }), 403);
    await w.hr.agent.delete(`/api/holidays/${h.body.data.id}`).expect(200);
    expectError(await w.hr.agent.get(`/api/holidays/${h.body.data.id}`), 404);
  });
});

describe("tenancy", () => {
  it("another company's ids are 404 for every id-taking configuration operation", async () => {
    const ty = await createType(w.hr.agent);
    const hol = (await w.hr.agent.post("/api/holidays").send({ date: "2032-01-01", name: "New Year" }).expect(201)).body.data;
    const pol = (
      await w.hr.agent
        .post("/api/leave-policies")
        .send({ name: "P", items: [{ leave_type_id: ty.id, annual_quota: "1" }] })
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
    expect((await a.get("/api/leave-types").expect(200)).body.data).toEqual([]);
    // and an employee of the other company cannot be named in a policy
    const stranger = await insertEmployee(t, other.tenantId);
    expectError(
      await w.hr.agent
        .post("/api/leave-policies")
        .send({ name: "X", assignment: "individual", employee_ids: [stranger], items: [{ leave_type_id: ty.id, annual_quota: "1" }] }),
      404,
    );
  });
});
