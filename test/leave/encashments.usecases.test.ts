// Encashment and compensatory-leave rules called as use cases, without HTTP: the per-period
// maximum and the days that must remain (also under parallel requests), hr-only approval that
// re-checks the balance and debits the ledger, cancellation (refused once payroll priced it), and
// the comp-off credit that cannot be taken back once used.
import { beforeAll, describe, expect, it } from "vitest";
import { withTenant } from "../../src/db/tenancy.ts";
import type { AuthContext, Role } from "../../src/http/types.ts";
import { addDays } from "../../src/lib/dates.ts";
import { balancePage } from "../../src/modules/leave/balances.ts";
import { decideEncashment, requestEncashment, withdrawEncashment } from "../../src/modules/leave/encashments.ts";
import { decideHolidayWorkClaim, submitHolidayWorkClaim, withdrawHolidayWorkClaim } from "../../src/modules/leave/holiday-work.ts";
import { submitLeaveRequest, withdrawLeaveRequest } from "../../src/modules/leave/requests.ts";
import type { TenantSession } from "../support/app.ts";
import { authOf } from "../support/auth-context.ts";
import { useTestApp } from "../support/app.ts";
import { createType, grant, insertEmployee, type LeaveWorld, leaveWorld, nextWeekday, today } from "./fixtures.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
let w: LeaveWorld;
let hr: AuthContext, manager: AuthContext, employee: AuthContext;

const as = (s: TenantSession, role: Role, employeeId: string | null): AuthContext => authOf(s, role, { employeeId, name: role });
const inTenant = <T>(fn: () => Promise<T>) => withTenant(w.owner.tenantId, fn);

async function balance(employeeId: string, typeId: string) {
  const page = await inTenant(() => balancePage(hr, { employee_id: employeeId, leave_type_id: typeId }));
  return JSON.parse(`[${page.rowsJson.join(",")}]`)[0];
}
const ledgerOf = async (id: string) =>
  (
    await t.query<{ entry_type: string; days: string }>(
      "SELECT entry_type, days::text FROM leave_ledger_entries WHERE reference_id = $1 ORDER BY created_at",
      [id],
    )
  ).map((e) => `${e.entry_type} ${e.days}`);

beforeAll(async () => {
  w = await leaveWorld(t);
  hr = as(w.hr, "hr", null);
  manager = as(w.manager, "manager", w.managerEmployeeId);
  employee = as(w.employee, "employee", w.employeeId);
});

describe("createLeaveEncashment: the limits", () => {
  it("at most encashment_max_days per period (pending and approved count), and encashment_min_balance must remain", async () => {
    const ty = await createType(w.hr.agent, {
      name: "Privilege",
      code: "EL1",
      encashable: true,
      encashment_max_days: "4",
      encashment_min_balance: "2",
    });
    await grant(w.hr.agent, w.employeeId, ty.id, "10");
    await expect(inTenant(() => requestEncashment(employee, { leave_type_id: ty.id, days: "4.5" }))).rejects.toMatchObject({
      status: 409,
      message: "At most 4.0 days of Privilege can be encashed per period (0.0 already requested or encashed)",
    });
    await expect(inTenant(() => requestEncashment(employee, { leave_type_id: ty.id, days: "0" }))).rejects.toMatchObject({ status: 400 });
    const first = await inTenant(() => requestEncashment(employee, { leave_type_id: ty.id, days: "3" }));
    expect(first).toMatchObject({ status: "pending", days: "3.0", employee_id: w.employeeId, amount: null });
    await expect(inTenant(() => requestEncashment(employee, { leave_type_id: ty.id, days: "1.5" }))).rejects.toMatchObject({
      status: 409,
      message: "At most 4.0 days of Privilege can be encashed per period (3.0 already requested or encashed)",
    });
    // leave reserves days too: 10 - 3 encashment - 5 leave = 2 available, all of which must remain
    await inTenant(() =>
      submitLeaveRequest(employee, {
        leave_type_id: ty.id,
        from_date: nextWeekday(addDays(today(), 14), 1),
        to_date: addDays(nextWeekday(addDays(today(), 14), 1), 4),
      }),
    );
    await expect(inTenant(() => requestEncashment(employee, { leave_type_id: ty.id, days: "1" }))).rejects.toMatchObject({
      status: 409,
      message: "2.0 days of Privilege are available and 2.0 must remain: at most 0.0 can be encashed",
    });
  });

  it("parallel requests never pass the per-period maximum", async () => {
    const emp = await insertEmployee(t, w.owner.tenantId, { first_name: "Cash" });
    const ty = await createType(w.hr.agent, { name: "Race cash", code: "EL2", encashable: true, encashment_max_days: "5" });
    await grant(w.hr.agent, emp, ty.id, "20");
    const results = await Promise.allSettled(
      [1, 2, 3, 4].map(() => inTenant(() => requestEncashment(hr, { employee_id: emp, leave_type_id: ty.id, days: "2" }))),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(2);
    expect(await balance(emp, ty.id)).toMatchObject({ pending: "4.0", available: "16.0" });
  });
});

describe("updateLeaveEncashment: hr approves, the balance is checked again", () => {
  it("a manager cannot decide; an approval that no longer fits is refused; an approval debits the ledger", async () => {
    const emp = await insertEmployee(t, w.owner.tenantId, { first_name: "Payout", reports_to: w.managerEmployeeId });
    const ty = await createType(w.hr.agent, { name: "Payout", code: "EL3", encashable: true, encashment_min_balance: "1" });
    await grant(w.hr.agent, emp, ty.id, "5");
    const e = await inTenant(() => requestEncashment(hr, { employee_id: emp, leave_type_id: ty.id, days: "3" }));
    await expect(inTenant(() => decideEncashment(manager, e.id, { status: "approved" }))).rejects.toMatchObject({
      status: 403,
      message: "Only hr, admin or owner can decide this request",
    });
    await api(w.hr.agent)
      .op("createLeaveAdjustment", { body: { employee_id: emp, leave_type_id: ty.id, days: "-2", reason: "correction" } })
      .expect(201);
    await expect(inTenant(() => decideEncashment(hr, e.id, { status: "approved" }))).rejects.toMatchObject({
      status: 409,
      message: "Only 3.0 days are available and 1.0 must remain: the encashment can no longer be approved",
    });
    await api(w.hr.agent)
      .op("createLeaveAdjustment", { body: { employee_id: emp, leave_type_id: ty.id, days: "2", reason: "undo" } })
      .expect(201);
    const a = await inTenant(() => decideEncashment(hr, e.id, { status: "approved" }));
    expect(a).toMatchObject({ status: "approved", decided_by: w.hr.userId });
    expect(await ledgerOf(e.id)).toEqual(["encashed -3.0"]);
    expect(await balance(emp, ty.id)).toMatchObject({ encashed: "3.0", pending: "0.0", available: "2.0" });
    await expect(inTenant(() => decideEncashment(hr, e.id, { status: "rejected" }))).rejects.toMatchObject({
      status: 409,
      message: "The encashment is already approved",
    });
  });
});

describe("cancelLeaveEncashment: the days come back until payroll has priced it", () => {
  it("hr cancels an approved encashment (days returned); a priced one cannot be cancelled", async () => {
    const emp = await insertEmployee(t, w.owner.tenantId, { first_name: "Priced" });
    const ty = await createType(w.hr.agent, { name: "Priced", code: "EL4", encashable: true });
    await grant(w.hr.agent, emp, ty.id, "6");
    const [a, b] = [
      await inTenant(() => requestEncashment(hr, { employee_id: emp, leave_type_id: ty.id, days: "1" })),
      await inTenant(() => requestEncashment(hr, { employee_id: emp, leave_type_id: ty.id, days: "2" })),
    ];
    for (const e of [a, b]) await inTenant(() => decideEncashment(hr, e.id, { status: "approved" }));
    expect(await balance(emp, ty.id)).toMatchObject({ encashed: "3.0", available: "3.0" });
    expect(await inTenant(() => withdrawEncashment(hr, a.id))).toMatchObject({ status: "cancelled", cancelled_by: w.hr.userId });
    expect(await ledgerOf(a.id)).toEqual(["encashed -1.0", "encashed 1.0"]);
    await t.query("UPDATE leave_encashments SET amount = 1234.50 WHERE id = $1", [b.id]);
    await expect(inTenant(() => withdrawEncashment(hr, b.id))).rejects.toMatchObject({
      status: 409,
      message: "Payroll has already priced this encashment; it cannot be cancelled",
    });
    expect(await balance(emp, ty.id)).toMatchObject({ encashed: "2.0", available: "4.0" });
  });
});

describe("cancelWorkingOnHolidayRequest: a used comp-off credit cannot be taken back", () => {
  it(
    "approval credits the day (expiring after the validity); " + "cancelling is refused while the day is reserved, allowed once free",
    async () => {
      const ty = await createType(w.hr.agent, { name: "Comp off", code: "CO1", is_compensatory: true, comp_off_validity_days: 30 });
      const saturday = nextWeekday(addDays(today(), -13), 6);
      await expect(
        inTenant(() =>
          submitHolidayWorkClaim(employee, { date: nextWeekday(addDays(today(), 2), 6), leave_type_id: ty.id, reason: "Future" }),
        ),
      ).rejects.toMatchObject({ status: 400 });
      await expect(
        inTenant(() =>
          submitHolidayWorkClaim(employee, { date: nextWeekday(addDays(today(), -13), 3), leave_type_id: ty.id, reason: "Wednesday" }),
        ),
      ).rejects.toMatchObject({ status: 409 });
      const claim = await inTenant(() => submitHolidayWorkClaim(employee, { date: saturday, leave_type_id: ty.id, reason: "Release" }));
      await expect(
        inTenant(() => submitHolidayWorkClaim(employee, { date: saturday, leave_type_id: ty.id, reason: "Again" })),
      ).rejects.toMatchObject({ status: 409, message: `A pending claim for ${saturday} exists already` });
      const approved = await inTenant(() => decideHolidayWorkClaim(manager, claim.id, { status: "approved" }));
      expect(approved).toMatchObject({ status: "approved", comp_off_days: "1.0", comp_off_expires_on: addDays(saturday, 29) });
      expect(await ledgerOf(claim.id)).toEqual(["comp_off 1.0"]);
      // the day is reserved by a leave request: the credit cannot be taken back
      const leave = await inTenant(() =>
        submitLeaveRequest(employee, {
          leave_type_id: ty.id,
          from_date: nextWeekday(addDays(today(), 3), 2),
          to_date: nextWeekday(addDays(today(), 3), 2),
        }),
      );
      // approved: hr only
      await expect(inTenant(() => withdrawHolidayWorkClaim(employee, claim.id))).rejects.toMatchObject({ status: 403 });
      await expect(inTenant(() => withdrawHolidayWorkClaim(hr, claim.id))).rejects.toMatchObject({
        status: 409,
        message: "The compensatory leave has already been used or has lapsed (0.0 days available, 1.0 credited)",
      });
      await inTenant(() => withdrawLeaveRequest(employee, leave.id));
      expect(await inTenant(() => withdrawHolidayWorkClaim(hr, claim.id))).toMatchObject({ status: "cancelled" });
      expect(await ledgerOf(claim.id)).toEqual(["comp_off 1.0", "comp_off -1.0"]);
      expect(await balance(w.employeeId, ty.id)).toMatchObject({ comp_off: "0.0", available: "0.0" });
    },
  );
});
