// The balances page reads each account's figures from leave_balance_totals, which triggers keep in
// the transaction of every write to the ledger and to pending requests and encashments (migration
// 20261127081556_leave_balance_totals). After every kind of posting - allocations (individual, with
// a carry-forward and its expiry, bulk by policy), accruals, requests approved, rejected and
// cancelled, encashments approved and withdrawn, adjustments, lapses posted by the expiry job and
// given back by leave dated before the expiry, compensatory credits, and concurrent approvals beside
// the accrual job - every total equals the sums of the rows it derives from, and rebuilding them all
// from those rows changes nothing.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { withTenant } from "../../src/db/tenancy.ts";
import { addDays } from "../../src/lib/dates.ts";
import { runLeaveAccruals, runLeaveExpiries } from "../../src/modules/leave/jobs.ts";
import { useTestApp } from "../support/app.ts";
import {
  balanceTotalDrift,
  createType,
  grant,
  insertEmployee,
  type LeaveWorld,
  leaveWorld,
  nextWeekday,
  today,
  type LeaveType,
} from "./fixtures.ts";

const t = useTestApp();
let w: LeaveWorld;
let el: LeaveType;
let unpaid: LeaveType;
let previousId: string;
let expiresOn: string;

const exact = async () => expect(await balanceTotalDrift(t)).toEqual([]);
const balances = async (employeeId: string) =>
  (
    await api(w.hr.agent)
      .op("listLeaveBalances", { query: { employee_id: employeeId } })
      .expect(200)
  ).body.data;
const request = (employee_id: string, leave_type_id: string, from_date: string, to_date = from_date) =>
  api(w.hr.agent).op("createLeaveRequest", { body: { employee_id, leave_type_id, from_date, to_date } }).expect(201);
const decide = (id: string, status: "approved" | "rejected") =>
  api(w.hr.agent).op("updateLeaveRequest", { params: { id }, body: { status } }).expect(200);
/** A weekday `weeks` weeks from today (Monday + `day`). */
const weekday = (weeks: number, day = 0) => addDays(nextWeekday(addDays(today(), 7 * weeks), 1), day);

/** 10 days in the previous period (5 carried, expired 120 days ago) and `current` in this one. */
async function carriedEmployee(first_name: string, current = "10"): Promise<string> {
  const id = await insertEmployee(t, w.owner.tenantId, { first_name, joining_date: "2020-01-06" });
  await api(w.hr.agent)
    .op("createLeaveAllocations", { body: { employee_id: id, leave_type_id: el.id, days: "10", period_id: previousId } })
    .expect(201);
  await api(w.hr.agent)
    .op("createLeaveAllocations", { body: { employee_id: id, leave_type_id: el.id, days: current } })
    .expect(201);
  return id;
}

beforeAll(async () => {
  w = await leaveWorld(t);
  el = await createType(w.hr.agent, {
    name: "Earned leave",
    code: "EL",
    carry_forward: true,
    carry_forward_max_days: "5",
    carry_forward_expiry_days: 31,
    encashable: true,
  });
  unpaid = await createType(w.hr.agent, { name: "Unpaid leave", code: "UL", is_paid: false });
  const prevEnd = addDays(w.periodStart, -1);
  previousId = (
    await api(w.hr.agent)
      .op("createLeavePeriod", { body: { name: "Previous", start_date: addDays(prevEnd, -364), end_date: prevEnd } })
      .expect(201)
  ).body.data.id;
  expiresOn = addDays(w.periodStart, 30);
});

describe("createLeaveAllocations, createLeaveRequest, updateLeaveRequest, cancelLeaveRequest: totals follow every posting", () => {
  it("allocations with a carry-forward, then a request pending, approved and cancelled, and one rejected", async () => {
    const emp = await carriedEmployee("Tara");
    await exact();
    expect(await balances(emp)).toEqual([
      expect.objectContaining({ leave_type_id: el.id, allocated: "10.0", carried: "5.0", expired: "5.0", available: "10.0" }),
    ]);
    const r = await request(emp, el.id, weekday(3), weekday(3, 1));
    await exact();
    await decide(r.body.data.id, "approved");
    await exact();
    await api(w.hr.agent)
      .op("cancelLeaveRequest", { params: { id: r.body.data.id } })
      .expect(200);
    await exact();
    const rejected = await request(emp, el.id, weekday(4));
    await exact();
    await decide(rejected.body.data.id, "rejected");
    await exact();
    expect(await balances(emp)).toEqual([
      expect.objectContaining({ taken: "0.0", pending: "0.0", expired: "5.0", available: "10.0", below_minimum_reason: null }),
    ]);
  });

  it("an unpaid type: the account is on the page while a request reserves days, and leaves it when the request is cancelled", async () => {
    const emp = await insertEmployee(t, w.owner.tenantId, { first_name: "Umar" });
    expect(await balances(emp)).toEqual([]);
    const r = await request(emp, unpaid.id, weekday(2));
    await exact();
    expect(await balances(emp)).toEqual([
      expect.objectContaining({ leave_type_id: unpaid.id, is_paid: false, pending: "1.0", available: "-1.0", minimum: null }),
    ]);
    await api(w.hr.agent)
      .op("cancelLeaveRequest", { params: { id: r.body.data.id } })
      .expect(200);
    await exact();
    expect(await balances(emp)).toEqual([]);
  });

  it("lapses: posted by the job, given back by leave dated before the expiry once approved, lapsed again on cancelling", async () => {
    const emp = await carriedEmployee("Lena", "1");
    expect(await withTenant(w.owner.tenantId, () => runLeaveExpiries({ today: today() }))).toBeGreaterThan(0);
    await exact();
    const mon = nextWeekday(addDays(expiresOn, -10), 1);
    const r = await request(emp, el.id, mon, addDays(mon, 1));
    await exact();
    await decide(r.body.data.id, "approved");
    await exact();
    expect(await balances(emp)).toEqual([expect.objectContaining({ taken: "2.0", expired: "3.0", available: "1.0" })]);
    await api(w.hr.agent)
      .op("cancelLeaveRequest", { params: { id: r.body.data.id } })
      .expect(200);
    await exact();
    expect(await balances(emp)).toEqual([expect.objectContaining({ taken: "0.0", expired: "5.0", available: "1.0" })]);
  });
});

describe("createLeaveEncashment, updateLeaveEncashment, cancelLeaveEncashment, createLeaveAdjustment: totals follow every posting", () => {
  it("an encashment approved, another withdrawn, and adjustments either way", async () => {
    const emp = await carriedEmployee("Esme");
    const x = await api(w.hr.agent)
      .op("createLeaveEncashment", { body: { employee_id: emp, leave_type_id: el.id, days: "3" } })
      .expect(201);
    await exact();
    await api(w.hr.agent)
      .op("updateLeaveEncashment", { params: { id: x.body.data.id }, body: { status: "approved" } })
      .expect(200);
    await exact();
    const y = await api(w.hr.agent)
      .op("createLeaveEncashment", { body: { employee_id: emp, leave_type_id: el.id, days: "2" } })
      .expect(201);
    await exact();
    await api(w.hr.agent)
      .op("cancelLeaveEncashment", { params: { id: y.body.data.id } })
      .expect(200);
    await exact();
    for (const days of ["2.5", "-1"]) {
      await api(w.hr.agent)
        .op("createLeaveAdjustment", { body: { employee_id: emp, leave_type_id: el.id, days, reason: "correction" } })
        .expect(201);
      await exact();
    }
    expect(await balances(emp)).toEqual([
      expect.objectContaining({ encashed: "3.0", adjusted: "1.5", pending: "0.0", expired: "5.0", available: "8.5" }),
    ]);
  });
});

describe("createWorkingOnHolidayRequest, updateWorkingOnHolidayRequest: compensatory credits", () => {
  it("an approved claim credits the comp-off type; its total follows", async () => {
    const co = await createType(w.hr.agent, { name: "Compensatory off", code: "CO", is_compensatory: true, comp_off_validity_days: 30 });
    const saturday = nextWeekday(addDays(today(), -7), 6);
    const r = await api(w.employee.agent)
      .op("createWorkingOnHolidayRequest", { body: { date: saturday, reason: "Release" } })
      .expect(201);
    await api(w.manager.agent)
      .op("updateWorkingOnHolidayRequest", { params: { id: r.body.data.id }, body: { status: "approved" } })
      .expect(200);
    await exact();
    expect(await balances(w.employeeId)).toEqual([expect.objectContaining({ leave_type_id: co.id, comp_off: "1.0", available: "1.0" })]);
  });
});

describe("createLeavePolicy, createLeaveAllocations: bulk allocation, accruals and concurrent approvals", () => {
  it("bulk by policy with monthly accrual, the accrual job beside concurrent approvals: totals exact; a rebuild changes none", async () => {
    const cl = await createType(w.hr.agent, { name: "Casual leave", code: "CL" });
    const people = await Promise.all(
      ["Ada", "Ben", "Cy", "Dee", "Eve", "Fay"].map((first_name) =>
        insertEmployee(t, w.owner.tenantId, { first_name, joining_date: "2020-01-06" }),
      ),
    );
    const policy = (
      await api(w.hr.agent)
        .op("createLeavePolicy", { body: { name: "Accruing", items: [{ leave_type_id: cl.id, annual_quota: "12", accrual: "monthly" }] } })
        .expect(201)
    ).body.data;
    await api(w.hr.agent)
      .op("createLeaveAllocations", { body: { policy_id: policy.id } })
      .expect(201);
    await exact();
    const requests = [];
    for (const [i, emp] of people.entries()) {
      await grant(w.hr.agent, emp, el.id, "4");
      requests.push((await request(emp, el.id, weekday(5, i % 5))).body.data.id as string);
    }
    await exact();
    await Promise.all([
      ...requests.map((id) => decide(id, "approved")),
      withTenant(w.owner.tenantId, () => runLeaveAccruals({ today: today() })),
    ]);
    await exact();
    // a rebuild keeps only accounts with rows (a cancelled unpaid request's account keeps zeros until then)
    const totals = () =>
      t.query(
        "SELECT * FROM leave_balance_totals WHERE entries > 0 OR pendings > 0 ORDER BY tenant_id, employee_id, period_id, leave_type_id",
      );
    const kept = await totals();
    await t.query("SELECT leave_balance_totals_rebuild()");
    expect(await totals()).toEqual(kept);
    await exact();
    expect((await balances(people[0])).map((b) => [b.leave_type_code, b.taken, b.pending])).toEqual([
      ["CL", "0.0", "0.0"],
      ["EL", "1.0", "0.0"],
    ]);
  });
});
