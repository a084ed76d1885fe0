// One availability everywhere: with a carry-forward that expires (cap 5, expiry 31 days) the
// balances page, leave requests, encashments and the expiry job agree at every moment - the expiry
// counts from the day after its date whether or not the nightly job has posted it, the job posts
// exactly what is shown (and nothing twice), and a balance below its minimum says why.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { withTenant } from "../../src/db/tenancy.ts";
import { addDays } from "../../src/lib/dates.ts";
import { runLeaveExpiries } from "../../src/modules/leave/jobs.ts";
import { useTestApp } from "../support/app.ts";
import { balanceOf, createType, insertEmployee, type LeaveWorld, leaveWorld, nextWeekday, today, type LeaveType } from "./fixtures.ts";

const t = useTestApp();
let w: LeaveWorld;
let el: LeaveType;
let previousId: string;
let expiresOn: string;

const balance = (employeeId: string) => balanceOf(w.hr, employeeId, el.id);
const expire = () => withTenant(w.owner.tenantId, () => runLeaveExpiries({ today: today() }));
/** Monday in 4 weeks: 11 working days run to the Monday two weeks later. */
const monday = () => nextWeekday(addDays(today(), 28), 1);
const requestDays = (employee_id: string, from_date: string, to_date: string) =>
  api(w.hr.agent).op("createLeaveRequest", { body: { employee_id, leave_type_id: el.id, from_date, to_date } });
const encash = (employee_id: string, days: string) =>
  api(w.hr.agent).op("createLeaveEncashment", { body: { employee_id, leave_type_id: el.id, days } });

/** An employee with 10 unused days in the previous period and 10 allocated in the current one: 5 carried, expired 120 days ago. */
async function carriedEmployee(first_name: string, current = "10"): Promise<string> {
  const id = await insertEmployee(t, w.owner.tenantId, { first_name, joining_date: "2020-01-06" });
  await api(w.hr.agent)
    .op("createLeaveAllocations", { body: { employee_id: id, leave_type_id: el.id, days: "10", period_id: previousId } })
    .expect(201);
  const r = await api(w.hr.agent)
    .op("createLeaveAllocations", { body: { employee_id: id, leave_type_id: el.id, days: current } })
    .expect(201);
  expect(r.body.data.allocations[0]).toMatchObject({ carried_forward: "5.0", carry_forward_expires_on: expiresOn });
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
  const prevEnd = addDays(w.periodStart, -1);
  previousId = (
    await api(w.hr.agent)
      .op("createLeavePeriod", { body: { name: "Previous", start_date: addDays(prevEnd, -364), end_date: prevEnd } })
      .expect(201)
  ).body.data.id;
  expiresOn = addDays(w.periodStart, 30); // 31 days from the period's start: 120 days before today
});

describe("listLeaveBalances, createLeaveRequest, createLeaveEncashment: one availability with an expired carry-forward", () => {
  it("before the expiry job runs the balance shows the 5 carried days expired: 10 available, as requests and encashments say", async () => {
    const emp = await carriedEmployee("Ezra");
    expect(await balance(emp)).toMatchObject({
      allocated: "10.0",
      carried: "5.0",
      expired: "5.0",
      pending: "0.0",
      available: "10.0",
      minimum: "0.0",
      below_minimum_reason: null,
    });
    const from = monday();
    const eleven = await requestDays(emp, from, addDays(from, 14));
    expect(eleven.status).toBe(409);
    expect(eleven.body.error).toBe("Insufficient Earned leave balance: 10.0 days available, 11.0 requested");
    const tooMuch = await encash(emp, "10.5");
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.error).toMatch(/^10\.0 days of Earned leave are available/);

    // the job posts exactly the lapse already shown, once; nothing changes for the reader
    expect(await expire()).toBe(1);
    expect(await expire()).toBe(0);
    expect(await balance(emp)).toMatchObject({ carried: "5.0", expired: "5.0", available: "10.0", below_minimum_reason: null });
    const ledger = await api(w.hr.agent)
      .op("listLeaveLedger", { query: { employee_id: emp, leave_type_id: el.id } })
      .expect(200);
    expect(ledger.body.data.map((e) => [e.entry_type, e.days, e.effective_date])).toContainEqual(["expiry", "-5.0", addDays(expiresOn, 1)]);
    const again = await requestDays(emp, from, addDays(from, 14));
    expect(again.body.error).toBe("Insufficient Earned leave balance: 10.0 days available, 11.0 requested");
    // 10 fit (Mon-Fri twice), after the job as before it
    await requestDays(emp, from, addDays(from, 11)).expect(201);
    expect(await balance(emp)).toMatchObject({ pending: "10.0", available: "0.0" });
    expect((await encash(emp, "0.5")).status).toBe(409);
  });

  it("encashment sees the same 10 days; approving it debits them and the balance follows", async () => {
    const emp = await carriedEmployee("Enya");
    const x = await encash(emp, "4").expect(201);
    expect(await balance(emp)).toMatchObject({ expired: "5.0", pending: "4.0", available: "6.0" });
    await api(w.hr.agent)
      .op("updateLeaveEncashment", { params: { id: x.body.data.id }, body: { status: "approved" } })
      .expect(200);
    expect(await balance(emp)).toMatchObject({ expired: "5.0", encashed: "4.0", pending: "0.0", available: "6.0" });
    expect(await expire()).toBe(1);
    expect(await balance(emp)).toMatchObject({ expired: "5.0", encashed: "4.0", available: "6.0" });
  });

  it("leave dated before the expiry uses the carried days first; the job waits while such a request is pending", async () => {
    const emp = await carriedEmployee("Omar");
    // Monday and Tuesday of the week the carried days were still valid
    const mon = nextWeekday(addDays(expiresOn, -10), 1);
    const r = await requestDays(emp, mon, addDays(mon, 1)).expect(201);
    // 2 of the 5 carried days are reserved before their expiry: 3 lapsed; 15 - 2 pending - 3 = 10
    expect(await balance(emp)).toMatchObject({ expired: "3.0", pending: "2.0", available: "10.0" });
    expect(await expire()).toBe(0); // the request may still be rejected: nothing is posted yet
    expect(await balance(emp)).toMatchObject({ expired: "3.0", available: "10.0" });
    await api(w.hr.agent)
      .op("updateLeaveRequest", { params: { id: r.body.data.id }, body: { status: "rejected" } })
      .expect(200);
    // rejected: the 2 days were not used by the expiry after all, all 5 lapse
    expect(await balance(emp)).toMatchObject({ expired: "5.0", pending: "0.0", available: "10.0" });
    expect(await expire()).toBe(1);
    expect(await balance(emp)).toMatchObject({ expired: "5.0", available: "10.0" });
  });

  it("an approved request dated before the expiry: 3 lapse, posted by the job as shown before it", async () => {
    const emp = await carriedEmployee("Ines");
    const mon = nextWeekday(addDays(expiresOn, -10), 1);
    const r = await requestDays(emp, mon, addDays(mon, 1)).expect(201);
    await api(w.hr.agent)
      .op("updateLeaveRequest", { params: { id: r.body.data.id }, body: { status: "approved" } })
      .expect(200);
    expect(await balance(emp)).toMatchObject({ taken: "2.0", expired: "3.0", pending: "0.0", available: "10.0" });
    expect(await expire()).toBe(1);
    expect(await expire()).toBe(0);
    expect(await balance(emp)).toMatchObject({ taken: "2.0", expired: "3.0", available: "10.0" });
  });
});

describe("updateLeaveRequest: approving leave dated before the expiry", () => {
  it("counts it against the carried days it uses (1 day allocated + 5 carried, 3 taken before the expiry: 2 lapse)", async () => {
    const emp = await carriedEmployee("Uma", "1");
    const mon = nextWeekday(addDays(expiresOn, -10), 1);
    const r = await requestDays(emp, mon, addDays(mon, 2)).expect(201); // Mon-Wed: 3 days
    expect(await balance(emp)).toMatchObject({ allocated: "1.0", carried: "5.0", expired: "2.0", pending: "3.0", available: "1.0" });
    await api(w.hr.agent)
      .op("updateLeaveRequest", { params: { id: r.body.data.id }, body: { status: "approved" } })
      .expect(200);
    expect(await balance(emp)).toMatchObject({ taken: "3.0", expired: "2.0", pending: "0.0", available: "1.0" });
    expect(await expire()).toBe(1);
    expect(await balance(emp)).toMatchObject({ taken: "3.0", expired: "2.0", available: "1.0", below_minimum_reason: null });
  });
});

describe("listLeaveBalances, createLeaveAdjustment: a balance below its minimum says why", () => {
  it("hr takes back days that pending requests reserve: available -2.0 with the reason", async () => {
    const ty = await createType(w.hr.agent, { name: "Casual leave", code: "CLX" });
    const emp = await insertEmployee(t, w.owner.tenantId, { first_name: "Pia" });
    await api(w.hr.agent)
      .op("createLeaveAllocations", { body: { employee_id: emp, leave_type_id: ty.id, days: "6" } })
      .expect(201);
    const from = monday();
    // Mon-Wed twice: 6 days pending
    for (const start of [from, addDays(from, 7)])
      await api(w.hr.agent)
        .op("createLeaveRequest", { body: { employee_id: emp, leave_type_id: ty.id, from_date: start, to_date: addDays(start, 2) } })
        .expect(201);
    await api(w.hr.agent)
      .op("createLeaveAdjustment", { body: { employee_id: emp, leave_type_id: ty.id, days: "-2", reason: "correction" } })
      .expect(201);
    const b = (
      await api(w.hr.agent)
        .op("listLeaveBalances", { query: { employee_id: emp, leave_type_id: ty.id } })
        .expect(200)
    ).body.data[0];
    expect(b).toMatchObject({ pending: "6.0", available: "-2.0", minimum: "0.0" });
    expect(b.below_minimum_reason).toBe(
      "Pending requests and encashments reserve 6.0 days, 2.0 more than the balance allows (below zero): they cannot all be approved",
    );
    // a type allowing 3 days negative shows its minimum and no reason at -2
    await api(w.hr.agent)
      .op("updateLeaveType", { params: { id: ty.id }, body: { allow_negative_balance: true, negative_balance_limit: "3" } })
      .expect(200);
    const neg = (
      await api(w.hr.agent)
        .op("listLeaveBalances", { query: { employee_id: emp, leave_type_id: ty.id } })
        .expect(200)
    ).body.data[0];
    expect(neg).toMatchObject({ available: "-2.0", minimum: "-3.0", below_minimum_reason: null });
  });
});

describe("createLeaveRequest, updateLeaveRequest, cancelLeaveRequest: leave dated before an expiry whose lapse is posted", () => {
  const ledgerOf = async (emp: string) =>
    (
      await api(w.hr.agent)
        .op("listLeaveLedger", { query: { employee_id: emp, leave_type_id: el.id, limit: 100 } })
        .expect(200)
    ).body.data;
  const expiries = async (emp: string) =>
    (await ledgerOf(emp)).filter((e) => e.entry_type === "expiry").map((e) => [e.days, e.effective_date]);
  const sum = async (emp: string) => (await ledgerOf(emp)).reduce((s, e) => s + Number(e.days), 0).toFixed(1);
  const figures = (b: Awaited<ReturnType<typeof balance>>) => ({
    taken: b.taken,
    expired: b.expired,
    pending: b.pending,
    available: b.available,
  });

  /**
   * 1 day allocated + 5 carried that lapsed 120 days ago: 1 available today, 6 as of a day before the
   * expiry. With `job`, the expiry job has posted the lapse of 5 before the leave is requested.
   * Returns the figures at each step, to compare with and without the job.
   */
  async function lateRequest(name: string, job: boolean) {
    const emp = await carriedEmployee(name, "1");
    const seen: unknown[] = [];
    if (job) {
      expect(await expire()).toBe(1);
      expect(await expiries(emp)).toEqual([["-5.0", addDays(expiresOn, 1)]]);
      expect(await sum(emp)).toBe("1.0");
    }
    seen.push(figures(await balance(emp)));
    expect(await balance(emp)).toMatchObject({ allocated: "1.0", carried: "5.0", expired: "5.0", pending: "0.0", available: "1.0" });
    // Monday-Tuesday of the week the carried days were still valid: they pay for it
    // a Monday 8 to 14 days before the expiry: the Tuesday after next (mon + 8) is still before it
    const mon = nextWeekday(addDays(expiresOn, -14), 1);
    const seven = await requestDays(emp, mon, addDays(mon, 8)); // Mon-Fri, Mon-Tue
    expect(seven.status).toBe(409);
    expect(seven.body.error).toBe("Insufficient Earned leave balance: 6.0 days available, 7.0 requested");
    const r = await requestDays(emp, mon, addDays(mon, 1)).expect(201);
    // 2 of the 5 used before the expiry: 3 lapse; 6 - 2 pending - 3 = 1
    expect(await balance(emp)).toMatchObject({ expired: "3.0", pending: "2.0", available: "1.0" });
    seen.push(figures(await balance(emp)));
    // the page of every employee completes this row (and only the rows that need it) the same way
    const page = (
      await api(w.hr.agent)
        .op("listLeaveBalances", { query: { leave_type_id: el.id, limit: 100 } })
        .expect(200)
    ).body.data;
    expect(page.find((b) => b.employee_id === emp)).toEqual(await balance(emp));
    expect(await expire()).toBe(0); // waits for the decision; posts nothing
    await api(w.hr.agent)
      .op("updateLeaveRequest", { params: { id: r.body.data.id }, body: { status: "approved" } })
      .expect(200);
    expect(await balance(emp)).toMatchObject({ taken: "2.0", expired: "3.0", pending: "0.0", available: "1.0" });
    seen.push(figures(await balance(emp)));
    // with the job, the approval gave back 2 of the posted lapse in its transaction: the ledger holds the figures
    if (job) {
      expect(await expiries(emp)).toEqual([
        ["-5.0", addDays(expiresOn, 1)],
        ["2.0", addDays(expiresOn, 1)],
      ]);
      expect(await sum(emp)).toBe("1.0");
    } else expect(await expiries(emp)).toEqual([]);
    expect(await expire()).toBe(job ? 0 : 1);
    expect(await sum(emp)).toBe("1.0");
    expect(await balance(emp)).toMatchObject({ taken: "2.0", expired: "3.0", available: "1.0" });

    // cancelled: the 2 days lapse again (the cancellation posts it), nothing left for the job
    await api(w.hr.agent)
      .op("cancelLeaveRequest", { params: { id: r.body.data.id } })
      .expect(200);
    expect(await balance(emp)).toMatchObject({ taken: "0.0", expired: "5.0", pending: "0.0", available: "1.0" });
    seen.push(figures(await balance(emp)));
    expect(await sum(emp)).toBe("1.0");
    expect(await expire()).toBe(0);
    // a rejected request dated before the expiry leaves the lapse as it is
    const again = await requestDays(emp, addDays(mon, 7), addDays(mon, 7)).expect(201);
    expect(await balance(emp)).toMatchObject({ expired: "4.0", pending: "1.0", available: "1.0" });
    await api(w.hr.agent)
      .op("updateLeaveRequest", { params: { id: again.body.data.id }, body: { status: "rejected" } })
      .expect(200);
    expect(await balance(emp)).toMatchObject({ taken: "0.0", expired: "5.0", pending: "0.0", available: "1.0" });
    seen.push(figures(await balance(emp)));
    expect(await sum(emp)).toBe("1.0");
    return { seen, expiries: await expiries(emp) };
  }

  it("after the job posted the lapse, the days it uses are available, approval gives them back, cancelling lapses them again", async () => {
    const withJob = await lateRequest("Lena", true);
    expect(withJob.expiries).toEqual([
      ["-5.0", addDays(expiresOn, 1)],
      ["2.0", addDays(expiresOn, 1)],
      ["-2.0", addDays(expiresOn, 1)],
    ]);
    // the same figures at every step when the job had not run before the request
    const without = await lateRequest("Lars", false);
    expect(without.expiries).toEqual([
      ["-3.0", addDays(expiresOn, 1)],
      ["-2.0", addDays(expiresOn, 1)],
    ]);
    expect(without.seen).toEqual(withJob.seen);
  });
});
