// Leave request rules called as use cases, without HTTP: the balance check (sequential and under
// parallel submissions), one approval of a request however many race, cancellation returning
// days to the balance, and the sandwich recount when a neighbouring request goes away.
import { beforeAll, describe, expect, it } from "vitest";
import { withTenant } from "../../src/db/tenancy.ts";
import type { AuthContext, Role } from "../../src/http/types.ts";
import { addDays } from "../../src/lib/dates.ts";
import { balancePage } from "../../src/modules/leave/balances.ts";
import { decideLeaveRequest, leaveRequestById, submitLeaveRequest, withdrawLeaveRequest } from "../../src/modules/leave/requests.ts";
import type { TenantSession } from "../support/app.ts";
import { authOf } from "../support/auth-context.ts";
import { useTestApp } from "../support/app.ts";
import { createType, grant, insertEmployee, type LeaveWorld, leaveWorld, nextWeekday, today } from "./fixtures.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
let w: LeaveWorld;
let hr: AuthContext, manager: AuthContext, employee: AuthContext, owner: AuthContext;
let M: string;
const day = (week: number, dow: number) => addDays(M, week * 7 + dow); // dow 0 = Monday … 6 = Sunday

const as = (s: TenantSession, role: Role, employeeId: string | null): AuthContext => authOf(s, role, { employeeId, name: role });
const inTenant = <T>(fn: () => Promise<T>) => withTenant(w.owner.tenantId, fn);

async function balance(employeeId: string, typeId: string) {
  const page = await inTenant(() => balancePage(hr, { employee_id: employeeId, leave_type_id: typeId }));
  return JSON.parse(`[${page.rowsJson.join(",")}]`)[0];
}
const ledgerOf = async (requestId: string) =>
  (
    await t.query<{ entry_type: string; days: string }>(
      "SELECT entry_type, days::text FROM leave_ledger_entries WHERE reference_id = $1 ORDER BY created_at",
      [requestId],
    )
  ).map((e) => `${e.entry_type} ${e.days}`);

beforeAll(async () => {
  w = await leaveWorld(t);
  hr = as(w.hr, "hr", null);
  owner = as(w.owner, "owner", null);
  manager = as(w.manager, "manager", w.managerEmployeeId);
  employee = as(w.employee, "employee", w.employeeId);
  M = nextWeekday(addDays(today(), 14), 1);
});

describe("createLeaveRequest: the balance check", () => {
  it("pending requests reserve days: a request beyond what is left is refused with what is available", async () => {
    const ty = await createType(w.hr.agent, { name: "Casual", code: "UC1" });
    await grant(w.hr.agent, w.employeeId, ty.id, "3");
    const first = await inTenant(() => submitLeaveRequest(employee, { leave_type_id: ty.id, from_date: day(0, 0), to_date: day(0, 1) }));
    expect(first).toMatchObject({ status: "pending", days: "2.0", employee_id: w.employeeId, requested_by: w.employee.userId });
    await expect(
      inTenant(() => submitLeaveRequest(employee, { leave_type_id: ty.id, from_date: day(1, 0), to_date: day(1, 1) })),
    ).rejects.toMatchObject({
      status: 409,
      message: "Insufficient Casual balance: 1.0 days available, 2.0 requested",
    });
    // the ledger is untouched until approval; the balance shows the reservation
    expect(await ledgerOf(first.id)).toEqual([]);
    expect(await balance(w.employeeId, ty.id)).toMatchObject({ allocated: "3.0", pending: "2.0", available: "1.0" });
    // what is left can still be taken (half days count 0.5)
    const half = await inTenant(() =>
      submitLeaveRequest(employee, { leave_type_id: ty.id, from_date: day(1, 2), to_date: day(1, 2), half_day_start: true }),
    );
    expect(half.days).toBe("0.5");
  });

  it("parallel submissions against one balance never overdraw it", async () => {
    const emp = await insertEmployee(t, w.owner.tenantId, { first_name: "Racer" });
    const ty = await createType(w.hr.agent, { name: "Race", code: "UC2" });
    await grant(w.hr.agent, emp, ty.id, "5");
    // four requests of 2 days each against 5 days: exactly two fit
    const results = await Promise.allSettled(
      [0, 2, 4, 6].map((wk) =>
        inTenant(() => submitLeaveRequest(hr, { employee_id: emp, leave_type_id: ty.id, from_date: day(wk, 3), to_date: day(wk, 4) })),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(refused.map((r) => r.reason.status)).toEqual([409, 409]);
    expect(await balance(emp, ty.id)).toMatchObject({ pending: "4.0", available: "1.0" });
  });

  it("a type that allows a negative balance may go down to its limit, not beyond", async () => {
    const emp = await insertEmployee(t, w.owner.tenantId, { first_name: "Advance" });
    const ty = await createType(w.hr.agent, { name: "Advance", code: "UC3", allow_negative_balance: true, negative_balance_limit: "2" });
    await grant(w.hr.agent, emp, ty.id, "1");
    // 3 of 1 + 2
    await inTenant(() => submitLeaveRequest(hr, { employee_id: emp, leave_type_id: ty.id, from_date: day(0, 0), to_date: day(0, 2) }));
    await expect(
      inTenant(() => submitLeaveRequest(hr, { employee_id: emp, leave_type_id: ty.id, from_date: day(1, 0), to_date: day(1, 0) })),
    ).rejects.toMatchObject({
      status: 409,
      message: "Insufficient Advance balance: -2.0 days available (may go down to -2.0), 1.0 requested",
    });
  });
});

describe("updateLeaveRequest: one approval debits the ledger once", () => {
  it("parallel approvals of the same request: one wins, the other finds it decided", async () => {
    const emp = await insertEmployee(t, w.owner.tenantId, { first_name: "Twice", reports_to: w.managerEmployeeId });
    const ty = await createType(w.hr.agent, { name: "Once", code: "UA1" });
    await grant(w.hr.agent, emp, ty.id, "10");
    const r = await inTenant(() =>
      submitLeaveRequest(hr, { employee_id: emp, leave_type_id: ty.id, from_date: day(0, 0), to_date: day(0, 2) }),
    );
    const results = await Promise.allSettled(
      [manager, owner].map((who) => inTenant(() => decideLeaveRequest(who, r.id, { status: "approved" }))),
    );
    expect(results.filter((x) => x.status === "fulfilled")).toHaveLength(1);
    const lost = results.find((x): x is PromiseRejectedResult => x.status === "rejected")!;
    expect(lost.reason).toMatchObject({ status: 409, message: "The request is already approved" });
    expect(await ledgerOf(r.id)).toEqual(["taken -3.0"]);
    expect(await balance(emp, ty.id)).toMatchObject({ taken: "3.0", pending: "0.0", available: "7.0" });
  });

  it("the employee cannot decide their own request; an approval re-checks the balance", async () => {
    const ty = await createType(w.hr.agent, { name: "Recheck", code: "UA2" });
    await grant(w.hr.agent, w.employeeId, ty.id, "2");
    const r = await inTenant(() => submitLeaveRequest(employee, { leave_type_id: ty.id, from_date: day(3, 0), to_date: day(3, 1) }));
    await expect(inTenant(() => decideLeaveRequest(employee, r.id, { status: "approved" }))).rejects.toMatchObject({ status: 403 });
    // hr takes a day away meanwhile: the approval no longer fits
    await api(w.hr.agent)
      .op("createLeaveAdjustment", { body: { employee_id: w.employeeId, leave_type_id: ty.id, days: "-1", reason: "correction" } })
      .expect(201);
    await expect(inTenant(() => decideLeaveRequest(manager, r.id, { status: "approved" }))).rejects.toMatchObject({
      status: 409,
      message: "Insufficient Recheck balance to approve: 1.0 days left, 2.0 requested",
    });
    const rejected = await inTenant(() => decideLeaveRequest(manager, r.id, { status: "rejected", comment: "not now" }));
    expect(rejected).toMatchObject({ status: "rejected", decided_by: w.manager.userId, decision_comment: "not now" });
    expect(await ledgerOf(r.id)).toEqual([]);
  });
});

describe("cancelLeaveRequest: cancelling returns the days", () => {
  it("an approved leave's days come back to the balance, once", async () => {
    const ty = await createType(w.hr.agent, { name: "Returnable", code: "UR1" });
    await grant(w.hr.agent, w.employeeId, ty.id, "5");
    const r = await inTenant(() => submitLeaveRequest(employee, { leave_type_id: ty.id, from_date: day(5, 0), to_date: day(5, 3) }));
    await inTenant(() => decideLeaveRequest(manager, r.id, { status: "approved" }));
    expect(await balance(w.employeeId, ty.id)).toMatchObject({ taken: "4.0", available: "1.0" });
    // before it starts, the employee may cancel their approved leave
    const c = await inTenant(() => withdrawLeaveRequest(employee, r.id));
    expect(c).toMatchObject({ status: "cancelled", cancelled_by: w.employee.userId });
    expect(await ledgerOf(r.id)).toEqual(["taken -4.0", "cancelled 4.0"]);
    expect(await balance(w.employeeId, ty.id)).toMatchObject({ taken: "0.0", available: "5.0" });
    const [notice] = await t.query(
      "SELECT kind, body FROM notifications WHERE user_id = $1 AND kind = 'leave.cancelled' ORDER BY created_at DESC LIMIT 1",
      [w.employee.userId],
    );
    expect(notice).toEqual({ kind: "leave.cancelled", body: "4.0 days returned to your balance." });
    await expect(inTenant(() => withdrawLeaveRequest(hr, r.id))).rejects.toMatchObject({
      status: 409,
      message: "A cancelled request cannot be cancelled",
    });
    expect(await ledgerOf(r.id)).toEqual(["taken -4.0", "cancelled 4.0"]);
  });

  it("once an approved leave has started only hr may cancel it", async () => {
    const emp = await insertEmployee(t, w.owner.tenantId, { first_name: "Started", reports_to: w.managerEmployeeId });
    const ty = await createType(w.hr.agent, { name: "Started", code: "UR2" });
    await grant(w.hr.agent, emp, ty.id, "5");
    const monday = nextWeekday(addDays(today(), -10), 1);
    const r = await inTenant(() => submitLeaveRequest(hr, { employee_id: emp, leave_type_id: ty.id, from_date: monday, to_date: monday }));
    await inTenant(() => decideLeaveRequest(manager, r.id, { status: "approved" }));
    await expect(inTenant(() => withdrawLeaveRequest(manager, r.id))).rejects.toMatchObject({
      status: 409,
      message: "The request has already started; only hr, admin or owner can cancel it now",
    });
    await inTenant(() => withdrawLeaveRequest(hr, r.id));
    expect(await balance(emp, ty.id)).toMatchObject({ taken: "0.0", available: "5.0" });
  });
});

describe("cancelLeaveRequest: the sandwich recount", () => {
  it("a later request charged the weekend between it and an earlier one is recounted when the earlier one goes", async () => {
    const emp = await insertEmployee(t, w.owner.tenantId, { first_name: "Sandwich", reports_to: w.managerEmployeeId });
    const ty = await createType(w.hr.agent, { name: "Sandwiched", code: "US1", sandwich_rule: true });
    await grant(w.hr.agent, emp, ty.id, "10");
    const fri = await inTenant(() =>
      submitLeaveRequest(hr, { employee_id: emp, leave_type_id: ty.id, from_date: day(8, 4), to_date: day(8, 4) }),
    );
    const mon = await inTenant(() =>
      submitLeaveRequest(hr, { employee_id: emp, leave_type_id: ty.id, from_date: day(9, 0), to_date: day(9, 0) }),
    );
    expect([fri.days, mon.days]).toEqual(["1.0", "3.0"]); // Monday carries Saturday and Sunday
    for (const r of [fri, mon]) await inTenant(() => decideLeaveRequest(manager, r.id, { status: "approved" }));
    expect(await balance(emp, ty.id)).toMatchObject({ taken: "4.0" });
    await inTenant(() => withdrawLeaveRequest(hr, fri.id));
    expect((await inTenant(() => leaveRequestById(hr, mon.id))).days).toBe("1.0");
    expect(await ledgerOf(mon.id)).toEqual(["taken -3.0", "cancelled 2.0"]);
    expect(await balance(emp, ty.id)).toMatchObject({ taken: "1.0", available: "9.0" });
    const audit = await t.query("SELECT changes FROM audit_logs WHERE entity_id = $1 AND action = 'leave_request.recounted'", [mon.id]);
    expect(audit.map((a) => a.changes)).toEqual([{ days: { from: "3.0", to: "1.0" }, because_of: fri.id }]);
  });
});

describe("updateLeaveRequest: a rejection recounts the sandwich neighbour", () => {
  it("rejecting the earlier request recounts a pending neighbour without touching the ledger", async () => {
    const emp = await insertEmployee(t, w.owner.tenantId, { first_name: "Rejected", reports_to: w.managerEmployeeId });
    const ty = await createType(w.hr.agent, { name: "Sandwiched 2", code: "US2", sandwich_rule: true });
    await grant(w.hr.agent, emp, ty.id, "10");
    const fri = await inTenant(() =>
      submitLeaveRequest(hr, { employee_id: emp, leave_type_id: ty.id, from_date: day(10, 4), to_date: day(10, 4) }),
    );
    const mon = await inTenant(() =>
      submitLeaveRequest(hr, { employee_id: emp, leave_type_id: ty.id, from_date: day(11, 0), to_date: day(11, 0) }),
    );
    expect(await balance(emp, ty.id)).toMatchObject({ pending: "4.0" });
    await inTenant(() => decideLeaveRequest(manager, fri.id, { status: "rejected" }));
    expect((await inTenant(() => leaveRequestById(hr, mon.id))).days).toBe("1.0");
    expect(await ledgerOf(mon.id)).toEqual([]);
    expect(await balance(emp, ty.id)).toMatchObject({ pending: "1.0", available: "9.0" });
  });
});
