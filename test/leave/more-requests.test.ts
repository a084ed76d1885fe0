// Work from home, working on a holiday (compensatory leave credit and expiry) and encashment
// (limits, approval debit, cancellation), with roles and tenancy.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { withTenant } from "../../src/db/tenancy.ts";
import { addDays } from "../../src/lib/dates.ts";
import { runLeaveExpiries } from "../../src/modules/leave/jobs.ts";
import { expectError, signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { balanceOf, createType, grant, insertEmployee, type LeaveWorld, leaveWorld, nextWeekday, today } from "./fixtures.ts";

const t = useTestApp();
let w: LeaveWorld;
let other: TenantSession;
let M: string;
const day = (week: number, dow: number) => addDays(M, week * 7 + dow);
const balance = (employeeId: string, typeId: string) => balanceOf(w.hr, employeeId, typeId);

beforeAll(async () => {
  [w, other] = await Promise.all([leaveWorld(t), signupTenant(t)]);
  M = nextWeekday(addDays(today(), 14), 1);
});

describe("listWfhRequests, createWfhRequest, getWfhRequest, updateWfhRequest, cancelWfhRequest: work from home", () => {
  it("counts working days, refuses overlaps with WFH and leave, and follows the approval flow", async () => {
    const r = await api(w.employee.agent)
      .op("createWfhRequest", { body: { from_date: day(0, 3), to_date: day(1, 1), reason: "Renovation" } })
      .expect(201);
    expect(r.body.data).toMatchObject({ days: "4.0", status: "pending", employee_id: w.employeeId, reason: "Renovation" });
    expectError(await api(w.employee.agent).op("createWfhRequest", { body: { from_date: day(1, 1), to_date: day(1, 2) } }), 409);
    expectError(await api(w.employee.agent).op("createWfhRequest", { body: { from_date: day(2, 1), to_date: day(2, 0) } }), 400);
    expectError(await api(w.employee.agent).op("createWfhRequest", { body: { from_date: day(2, 0), to_date: day(8, 0) } }), 400);
    // weekend only
    expectError(await api(w.employee.agent).op("createWfhRequest", { body: { from_date: day(2, 5), to_date: day(2, 6) } }), 409);
    // leave on a WFH day and WFH on a leave day are refused
    const lop = await createType(w.hr.agent, { name: "Unpaid", code: "LOPW", is_paid: false });
    expectError(
      await api(w.employee.agent).op("createLeaveRequest", { body: { leave_type_id: lop.id, from_date: day(1, 0), to_date: day(1, 0) } }),
      409,
    );
    await api(w.employee.agent)
      .op("createLeaveRequest", { body: { leave_type_id: lop.id, from_date: day(3, 0), to_date: day(3, 0) } })
      .expect(201);
    expectError(await api(w.employee.agent).op("createWfhRequest", { body: { from_date: day(3, 0), to_date: day(3, 1) } }), 409);

    expectError(await api(w.employee.agent).op("updateWfhRequest", { params: { id: r.body.data.id }, body: { status: "approved" } }), 403);
    const a = await api(w.manager.agent)
      .op("updateWfhRequest", { params: { id: r.body.data.id }, body: { status: "approved", comment: "ok" } })
      .expect(200);
    expect(a.body.data).toMatchObject({ status: "approved", decided_by: w.manager.userId, decision_comment: "ok" });
    // the requester and their manager read the decided request
    for (const reader of [w.employee, w.manager])
      expect(
        (
          await api(reader.agent)
            .op("getWfhRequest", { params: { id: r.body.data.id } })
            .expect(200)
        ).body.data,
      ).toMatchObject({
        id: r.body.data.id,
        status: "approved",
        days: "4.0",
        decided_by: w.manager.userId,
      });
    expectError(await api(w.manager.agent).op("updateWfhRequest", { params: { id: r.body.data.id }, body: { status: "rejected" } }), 409);
    const kinds = (await api(w.employee.agent).op("listNotifications").expect(200)).body.data.map((n) => n.kind);
    expect(kinds).toEqual(expect.arrayContaining(["wfh.submitted", "wfh.approved"]));
    const list = await api(w.manager.agent)
      .op("listWfhRequests", { query: { status: "approved", from_date: day(1, 0), to_date: day(1, 0) } })
      .expect(200);
    expect(list.body.data.map((x) => x.id)).toEqual([r.body.data.id]);
    const c = await api(w.employee.agent)
      .op("cancelWfhRequest", { params: { id: r.body.data.id } })
      .expect(200);
    expect(c.body.data.status).toBe("cancelled");
    expectError(await api(w.employee.agent).op("cancelWfhRequest", { params: { id: r.body.data.id } }), 409);
  });

  it("tenancy: another company's WFH request is a 404", async () => {
    const r = await api(w.employee.agent)
      .op("createWfhRequest", { body: { from_date: day(5, 0), to_date: day(5, 0) } })
      .expect(201);
    for (const res of [
      await api(other.agent).op("getWfhRequest", { params: { id: r.body.data.id } }),
      await api(other.agent).op("updateWfhRequest", { params: { id: r.body.data.id }, body: { status: "approved" } }),
      await api(other.agent).op("cancelWfhRequest", { params: { id: r.body.data.id } }),
    ])
      expectError(res, 404, "not_found");
    expect((await api(other.agent).op("listWfhRequests").expect(200)).body.data).toEqual([]);
  });
});

describe(
  "listWorkingOnHolidayRequests, createWorkingOnHolidayRequest, getWorkingOnHolidayRequest, " +
    "updateWorkingOnHolidayRequest, cancelWorkingOnHolidayRequest: working on a holiday",
  () => {
    it("credits compensatory leave on approval, which lapses when unused", async () => {
      const saturday = nextWeekday(addDays(today(), -7), 6);
      const monday =
        nextWeekday(addDays(today(), -7), 1) < today()
          ? nextWeekday(addDays(today(), -7), 1)
          : addDays(nextWeekday(addDays(today(), -7), 1), -7);
      // no comp-off type yet
      expectError(await api(w.employee.agent).op("createWorkingOnHolidayRequest", { body: { date: saturday, reason: "Release" } }), 409);
      const co = await createType(w.hr.agent, { name: "Compensatory off", code: "CO", is_compensatory: true, comp_off_validity_days: 30 });
      expectError(
        await api(w.employee.agent).op("createWorkingOnHolidayRequest", { body: { date: addDays(today(), 7), reason: "Future" } }),
        400,
      );
      expectError(
        await api(w.employee.agent).op("createWorkingOnHolidayRequest", { body: { date: monday, reason: "Not a holiday" } }),
        409,
      );
      const r = await api(w.employee.agent)
        .op("createWorkingOnHolidayRequest", { body: { date: saturday, reason: "Release" } })
        .expect(201);
      expect(r.body.data).toMatchObject({ status: "pending", leave_type_id: co.id, comp_off_days: null, half_day: false });
      expectError(await api(w.employee.agent).op("createWorkingOnHolidayRequest", { body: { date: saturday, reason: "Again" } }), 409);
      expectError(
        await api(w.employee.agent).op("updateWorkingOnHolidayRequest", { params: { id: r.body.data.id }, body: { status: "approved" } }),
        403,
      );
      const a = await api(w.manager.agent)
        .op("updateWorkingOnHolidayRequest", { params: { id: r.body.data.id }, body: { status: "approved" } })
        .expect(200);
      expect(a.body.data).toMatchObject({ status: "approved", comp_off_days: "1.0", comp_off_expires_on: addDays(saturday, 29) });
      expect(
        (
          await api(w.employee.agent)
            .op("getWorkingOnHolidayRequest", { params: { id: r.body.data.id } })
            .expect(200)
        ).body.data,
      ).toMatchObject({
        id: r.body.data.id,
        date: saturday,
        status: "approved",
        comp_off_days: "1.0",
      });
      expect(await balance(w.employeeId, co.id)).toMatchObject({ comp_off: "1.0", available: "1.0" });
      const kinds = (await api(w.employee.agent).op("listNotifications").expect(200)).body.data.map((n) => n.kind);
      expect(kinds).toContain("comp_off.approved");
      // the employee cannot cancel an approved claim; hr can while the credit is unused
      expectError(await api(w.employee.agent).op("cancelWorkingOnHolidayRequest", { params: { id: r.body.data.id } }), 403);
      // unused by the expiry date: it lapses (and only once)
      expect(await withTenant(w.owner.tenantId, () => runLeaveExpiries({ today: addDays(saturday, 30) }))).toBe(1);
      expect(await withTenant(w.owner.tenantId, () => runLeaveExpiries({ today: addDays(saturday, 40) }))).toBe(0);
      expect(await balance(w.employeeId, co.id)).toMatchObject({ comp_off: "1.0", expired: "1.0", available: "0.0" });
      // lapsed: nothing to take back
      expectError(await api(w.hr.agent).op("cancelWorkingOnHolidayRequest", { params: { id: r.body.data.id } }), 409);
    });

    it("half a day credits 0.5; the credit can be taken as leave; hr cancels an unused claim", async () => {
      const sunday = nextWeekday(addDays(today(), -7), 0);
      const co = (
        await api(w.hr.agent)
          .op("listLeaveTypes", { query: { active: true } })
          .expect(200)
      ).body.data.find((x) => x.code === "CO")!;
      const emp = await insertEmployee(t, w.owner.tenantId, { first_name: "Sunny" });
      const r = await api(w.hr.agent)
        .op("createWorkingOnHolidayRequest", { body: { employee_id: emp, date: sunday, half_day: true, reason: "On call" } })
        .expect(201);
      await api(w.owner.agent)
        .op("updateWorkingOnHolidayRequest", { params: { id: r.body.data.id }, body: { status: "approved" } })
        .expect(200);
      expect((await balance(emp, co.id)).comp_off).toBe("0.5");
      expectError(
        await api(w.hr.agent).op("createLeaveRequest", {
          body: { employee_id: emp, leave_type_id: co.id, from_date: day(0, 1), to_date: day(0, 1) },
        }),
        409,
      ); // 1 day > 0.5
      const leave = await api(w.hr.agent)
        .op("createLeaveRequest", {
          body: { employee_id: emp, leave_type_id: co.id, from_date: day(0, 1), to_date: day(0, 1), half_day_start: true },
        })
        .expect(201);
      // reserved by the pending leave
      expectError(await api(w.hr.agent).op("cancelWorkingOnHolidayRequest", { params: { id: r.body.data.id } }), 409);
      await api(w.hr.agent)
        .op("cancelLeaveRequest", { params: { id: leave.body.data.id } })
        .expect(200);
      const c = await api(w.hr.agent)
        .op("cancelWorkingOnHolidayRequest", { params: { id: r.body.data.id } })
        .expect(200);
      expect(c.body.data.status).toBe("cancelled");
      expect(await balance(emp, co.id)).toMatchObject({ comp_off: "0.0", available: "0.0" });
    });

    it("rejection credits nothing; tenancy", async () => {
      const saturday = addDays(nextWeekday(addDays(today(), -7), 6), -7);
      const r = await api(w.employee.agent)
        .op("createWorkingOnHolidayRequest", { body: { date: saturday, reason: "Migration" } })
        .expect(201);
      const rej = await api(w.hr.agent)
        .op("updateWorkingOnHolidayRequest", {
          params: { id: r.body.data.id },
          body: { status: "rejected", comment: "Not approved in advance" },
        })
        .expect(200);
      expect(rej.body.data).toMatchObject({ status: "rejected", comp_off_days: null });
      for (const res of [
        await api(other.agent).op("getWorkingOnHolidayRequest", { params: { id: r.body.data.id } }),
        await api(other.agent).op("updateWorkingOnHolidayRequest", { params: { id: r.body.data.id }, body: { status: "approved" } }),
        await api(other.agent).op("cancelWorkingOnHolidayRequest", { params: { id: r.body.data.id } }),
      ])
        expectError(res, 404, "not_found");
      const mine = await api(w.employee.agent)
        .op("listWorkingOnHolidayRequests", { query: { status: "rejected" } })
        .expect(200);
      expect(mine.body.data.map((x) => x.id)).toEqual([r.body.data.id]);
    });
  },
);

describe(
  "listLeaveEncashments, createLeaveEncashment, getLeaveEncashment, " + "updateLeaveEncashment, cancelLeaveEncashment: encashment",
  () => {
    it("enforces the encashable maximum and the days that must remain", async () => {
      const en = await createType(w.hr.agent, {
        name: "Privilege leave",
        code: "PL",
        encashable: true,
        encashment_max_days: "5",
        encashment_min_balance: "3",
      });
      const plain = await createType(w.hr.agent, { name: "Not encashable", code: "NE" });
      await grant(w.hr.agent, w.employeeId, en.id, "10");
      await grant(w.hr.agent, w.employeeId, plain.id, "10");
      expectError(await api(w.employee.agent).op("createLeaveEncashment", { body: { leave_type_id: plain.id, days: "1" } }), 409);
      expect(
        expectError(await api(w.employee.agent).op("createLeaveEncashment", { body: { leave_type_id: en.id, days: "6" } }), 409).error,
      ).toMatch(/At most 5\.0 days/);
      expectError(await api(w.employee.agent).op("createLeaveEncashment", { body: { leave_type_id: en.id, days: "0" } }), 400);
      const r = await api(w.employee.agent)
        .op("createLeaveEncashment", { body: { leave_type_id: en.id, days: "4.5", reason: "School fees" } })
        .expect(201);
      expect(r.body.data).toMatchObject({ days: "4.5", amount: null, status: "pending" });
      expect((await balance(w.employeeId, en.id)).pending).toBe("4.5");
      // 4.5 + 1 > 5
      expectError(await api(w.employee.agent).op("createLeaveEncashment", { body: { leave_type_id: en.id, days: "1" } }), 409);
      // days that must remain: 10 - 4.5 pending - 3 = 2.5 could be taken as leave; encashing 0.5 more is fine,
      // but not leave + encashment beyond
      const other2 = await insertEmployee(t, w.owner.tenantId, { first_name: "Keep" });
      await grant(w.hr.agent, other2, en.id, "6");
      expect(
        expectError(
          await api(w.hr.agent).op("createLeaveEncashment", { body: { employee_id: other2, leave_type_id: en.id, days: "4" } }),
          409,
        ).error,
      ).toMatch(/3\.0 must remain/);
      await api(w.hr.agent)
        .op("createLeaveEncashment", { body: { employee_id: other2, leave_type_id: en.id, days: "3" } })
        .expect(201);

      // approval by hr only, debits the ledger; amount stays for payroll
      expectError(
        await api(w.manager.agent).op("updateLeaveEncashment", { params: { id: r.body.data.id }, body: { status: "approved" } }),
        403,
      );
      expectError(
        await api(w.employee.agent).op("updateLeaveEncashment", { params: { id: r.body.data.id }, body: { status: "approved" } }),
        403,
      );
      const a = await api(w.hr.agent)
        .op("updateLeaveEncashment", { params: { id: r.body.data.id }, body: { status: "approved" } })
        .expect(200);
      expect(a.body.data).toMatchObject({ status: "approved", amount: null });
      expect(
        (
          await api(w.employee.agent)
            .op("getLeaveEncashment", { params: { id: r.body.data.id } })
            .expect(200)
        ).body.data,
      ).toMatchObject({
        id: r.body.data.id,
        days: "4.5",
        status: "approved",
        reason: "School fees",
      });
      expect(await balance(w.employeeId, en.id)).toMatchObject({ encashed: "4.5", pending: "0.0", available: "5.5" });
      expectError(await api(w.employee.agent).op("cancelLeaveEncashment", { params: { id: r.body.data.id } }), 403);
      await api(w.hr.agent)
        .op("cancelLeaveEncashment", { params: { id: r.body.data.id } })
        .expect(200);
      expect(await balance(w.employeeId, en.id)).toMatchObject({ encashed: "0.0", available: "10.0" });
      const kinds = (await api(w.employee.agent).op("listNotifications").expect(200)).body.data.map((n) => n.kind);
      expect(kinds).toEqual(expect.arrayContaining(["encashment.submitted", "encashment.approved", "encashment.cancelled"]));
    });

    it("approval re-checks the balance; lists and tenancy", async () => {
      const en = await createType(w.hr.agent, { name: "Encash2", code: "EN2", encashable: true });
      const emp = await insertEmployee(t, w.owner.tenantId, { first_name: "Recheck" });
      await grant(w.hr.agent, emp, en.id, "4");
      const r = await api(w.hr.agent)
        .op("createLeaveEncashment", { body: { employee_id: emp, leave_type_id: en.id, days: "4" } })
        .expect(201);
      await api(w.hr.agent)
        .op("createLeaveAdjustment", { body: { employee_id: emp, leave_type_id: en.id, days: "-1", reason: "correction" } })
        .expect(201);
      expectError(await api(w.hr.agent).op("updateLeaveEncashment", { params: { id: r.body.data.id }, body: { status: "approved" } }), 409);
      await api(w.hr.agent)
        .op("updateLeaveEncashment", { params: { id: r.body.data.id }, body: { status: "rejected" } })
        .expect(200);
      const list = await api(w.hr.agent)
        .op("listLeaveEncashments", { query: { employee_id: emp, status: "rejected" } })
        .expect(200);
      expect(list.body.data.map((x) => x.id)).toEqual([r.body.data.id]);
      expect(
        (
          await api(w.employee.agent)
            .op("listLeaveEncashments", { query: { employee_id: emp } })
            .expect(200)
        ).body.data,
      ).toEqual([]);
      expectError(await api(w.employee.agent).op("getLeaveEncashment", { params: { id: r.body.data.id } }), 404);
      for (const res of [
        await api(other.agent).op("getLeaveEncashment", { params: { id: r.body.data.id } }),
        await api(other.agent).op("updateLeaveEncashment", { params: { id: r.body.data.id }, body: { status: "approved" } }),
        await api(other.agent).op("cancelLeaveEncashment", { params: { id: r.body.data.id } }),
      ])
        expectError(res, 404, "not_found");
    });
  },
);
