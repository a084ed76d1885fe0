// Decisions about money or balances on one's own employee record. An hr member
// (or admin) linked to an employee record cannot take them on that record - 403 - and can on
// anyone else's; the company's owner may on their own (there is no one above them), and the audit
// entry says `self_decision: true`. One rule (assertNotOwnRecord) for every such operation.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { addDays } from "../../src/lib/dates.ts";
import { addMember, expectError, type TenantSession, useTestApp } from "../support/app.ts";
import { createType, insertEmployee, type LeaveWorld, leaveWorld, nextWeekday, today } from "../support/leave-factories.ts";

const t = useTestApp();
let w: LeaveWorld;
let hrSelf: TenantSession; // hr, linked to their own employee record
let hrSelfId: string;
let ownerId: string; // the owner's employee record
let leaveTypeId: string;
let lopTypeId: string;

const OWN = /only the company's owner may decide on their own record/;

/** The audit entries of an action about an entity, oldest first. */
const audits = (action: string, entityId: string) =>
  t.query<{ changes: any }>(`SELECT changes FROM audit_logs WHERE action = $1 AND entity_id = $2 ORDER BY created_at`, [action, entityId]);

beforeAll(async () => {
  w = await leaveWorld(t);
  await w.owner.agent
    .post("/api/configuration/company-settings")
    .send({ modules: ["payroll"] })
    .expect(200);
  hrSelfId = await insertEmployee(t, w.owner.tenantId, { first_name: "Harper", last_name: "Self" });
  hrSelf = await addMember(t, w.owner, "hr", { employeeId: hrSelfId, name: "Harper Self" });
  ownerId = await insertEmployee(t, w.owner.tenantId, { first_name: "Olivia", last_name: "Owner" });
  await t.query(`UPDATE memberships SET employee_id = $1 WHERE tenant_id = $2 AND user_id = $3`, [
    ownerId,
    w.owner.tenantId,
    w.owner.userId,
  ]);
  leaveTypeId = (await createType(w.hr.agent, { name: "Earned leave" })).id;
  lopTypeId = (await createType(w.hr.agent, { name: "Leave without pay", is_paid: false })).id;
});

describe("setEmployeeSalarySetup: not on one's own record", () => {
  const setup = { effective_from: "2024-04-01", monthly_ctc: "50000.00", components: [] };
  it("hr on their own record is a 403 and nothing is saved; on another employee a 200; the owner on their own a 200, audited", async () => {
    const e = expectError(await hrSelf.agent.put(`/api/payroll/employee-setup/${hrSelfId}`).send(setup), 403, "forbidden");
    expect(e.error).toMatch(/^You cannot set your own salary/);
    expect(e.error).toMatch(OWN);
    expect(
      (
        await api(w.owner.agent)
          .op("getEmployeeSalarySetup", { params: { employeeId: hrSelfId } })
          .expect(200)
      ).body.data.current,
    ).toBeNull();

    await hrSelf.agent.put(`/api/payroll/employee-setup/${w.employeeId}`).send(setup).expect(200);
    expect((await audits("salary_setup.created", w.employeeId))[0].changes.self_decision).toBeUndefined();

    await w.owner.agent.put(`/api/payroll/employee-setup/${ownerId}`).send(setup).expect(200);
    expect((await audits("salary_setup.created", ownerId))[0].changes).toMatchObject({ monthly_ctc: "50000.00", self_decision: true });
  });
});

describe("createLeaveAdjustment, createLeaveAllocations: not on one's own record", () => {
  it("hr crediting their own leave is a 403; another employee's a 201; the owner their own a 201, audited", async () => {
    const credit = (employee_id: string) => ({ employee_id, leave_type_id: leaveTypeId, days: "5.0", reason: "Goodwill" });
    const e = expectError(await hrSelf.agent.post("/api/leave-adjustments").send(credit(hrSelfId)), 403, "forbidden");
    expect(e.error).toMatch(/^You cannot adjust your own leave balance/);
    const mine = await api(hrSelf.agent)
      .op("listLeaveLedger", { query: { employee_id: hrSelfId } })
      .expect(200);
    expect(mine.body.data).toEqual([]);

    await hrSelf.agent.post("/api/leave-adjustments").send(credit(w.employeeId)).expect(201);
    await w.owner.agent.post("/api/leave-adjustments").send(credit(ownerId)).expect(201);
    expect((await audits("leave_balance.adjusted", ownerId))[0].changes).toMatchObject({ days: "5.0", self_decision: true });
    expect((await audits("leave_balance.adjusted", w.employeeId))[0].changes.self_decision).toBeUndefined();
  });

  it("an individual allocation to oneself is a 403 (the owner may); a bulk one by policy covers everyone", async () => {
    const grant = (employee_id: string) => ({ employee_id, leave_type_id: leaveTypeId, days: "12.0" });
    const e = expectError(await hrSelf.agent.post("/api/leave-allocations").send(grant(hrSelfId)), 403, "forbidden");
    expect(e.error).toMatch(/^You cannot allocate leave to yourself/);
    expect((await hrSelf.agent.post("/api/leave-allocations").send(grant(w.employeeId)).expect(201)).body.data.created_count).toBe(1);
    expect((await w.owner.agent.post("/api/leave-allocations").send(grant(ownerId)).expect(201)).body.data.created_count).toBe(1);
    expect((await audits("leave_allocation.created", ownerId))[0].changes).toMatchObject({ days: "12.0", self_decision: true });
  });
});

describe("updateExpenseClaim, updateLoanAdvance, deferLoanAdvance, cancelLoanAdvance: claims and loans", () => {
  let categoryId: string;
  let loanTypeId: string;
  beforeAll(async () => {
    categoryId = (
      await w.hr.agent.post("/api/configuration/payroll/expense-categories").send({ name: "Travel", requires_receipt: false }).expect(201)
    ).body.data.id;
    loanTypeId = (
      await w.hr.agent
        .post("/api/configuration/payroll/loan-types")
        .send({ name: "Salary advance", max_amount: "100000.00", max_installments: 12 })
        .expect(201)
    ).body.data.id;
  });
  const claim = async (as: TenantSession, employee_id?: string) =>
    (
      await as.agent
        .post("/api/payroll/expense-claims")
        .send({ employee_id, category_id: categoryId, amount: "900.00", expense_date: addDays(today(), -2), description: "Taxi" })
        .expect(201)
    ).body.data.id as string;
  const loan = async (as: TenantSession) =>
    (await as.agent.post("/api/payroll/loan-advances").send({ loan_type_id: loanTypeId, amount: "12000.00", installments: 6 }).expect(201))
      .body.data.id as string;

  it("hr approving their own claim or loan is a 403; another's is a 200; the owner their own a 200, audited", async () => {
    const own = await claim(hrSelf);
    expect(
      expectError(await hrSelf.agent.put(`/api/payroll/expense-claims/${own}`).send({ status: "approved" }), 403, "forbidden").error,
    ).toMatch(OWN);
    const theirs = await claim(w.employee);
    await hrSelf.agent.put(`/api/payroll/expense-claims/${theirs}`).send({ status: "approved" }).expect(200);
    await w.hr.agent.put(`/api/payroll/expense-claims/${own}`).send({ status: "approved" }).expect(200);

    const ownerClaim = await claim(w.owner);
    await w.owner.agent.put(`/api/payroll/expense-claims/${ownerClaim}`).send({ status: "approved" }).expect(200);
    expect((await audits("expense_claim.approved", ownerClaim))[0].changes).toMatchObject({ self_decision: true });
    expect((await audits("expense_claim.approved", theirs))[0].changes.self_decision).toBeUndefined();

    const ownLoan = await loan(hrSelf);
    const l = expectError(await hrSelf.agent.put(`/api/payroll/loan-advances/${ownLoan}`).send({ status: "approved" }), 403, "forbidden");
    expect(l.error).toMatch(/^You cannot decide your own loan application/);
    const ownerLoan = await loan(w.owner);
    await w.owner.agent.put(`/api/payroll/loan-advances/${ownerLoan}`).send({ status: "approved" }).expect(200);
    expect((await audits("loan_advance.approved", ownerLoan))[0].changes).toMatchObject({ self_decision: true });
    await w.owner.agent.delete(`/api/payroll/loan-advances/${ownerLoan}`).expect(200);
    expect((await audits("loan_advance.cancelled", ownerLoan))[0].changes).toMatchObject({ self_decision: true });
  });

  it("hr deferring an installment of their own loan, or cancelling it once approved, is a 403; another hr may", async () => {
    const own = await loan(hrSelf);
    await w.hr.agent.put(`/api/payroll/loan-advances/${own}`).send({ status: "approved" }).expect(200);
    const d = expectError(await hrSelf.agent.post(`/api/payroll/loan-advances/${own}/defer`).send({ reason: "Tight month" }), 403);
    expect(d.error).toMatch(/^You cannot defer an installment of your own loan/);
    const c = expectError(await hrSelf.agent.delete(`/api/payroll/loan-advances/${own}`), 403, "forbidden");
    expect(c.error).toMatch(/^You cannot cancel your own approved request/);
    expect(
      (
        await api(w.hr.agent)
          .op("getLoanAdvance", { params: { id: own } })
          .expect(200)
      ).body.data.status,
    ).toBe("approved");
    await w.hr.agent.post(`/api/payroll/loan-advances/${own}/defer`).send({ reason: "Tight month" }).expect(200);
    await w.hr.agent.delete(`/api/payroll/loan-advances/${own}`).expect(200);
    // a pending application of one's own is still one's to withdraw
    await hrSelf.agent.delete(`/api/payroll/loan-advances/${await loan(hrSelf)}`).expect(200);
  });
});

describe("updateLeaveRequest, cancelLeaveRequest: leave of one's own", () => {
  it("the owner may approve their own leave (audited); hr cannot cancel their own leave once it has started, another hr can", async () => {
    const next = nextWeekday(addDays(today(), 7), 3);
    const ownerLeave = await w.owner.agent
      .post("/api/leave-requests")
      .send({ leave_type_id: lopTypeId, from_date: next, to_date: next, reason: "Away" })
      .expect(201);
    await w.owner.agent.put(`/api/leave-requests/${ownerLeave.body.data.id}`).send({ status: "approved" }).expect(200);
    expect((await audits("leave_request.approved", ownerLeave.body.data.id))[0].changes).toMatchObject({ self_decision: true });

    const past = nextWeekday(addDays(today(), -12), 3); // a Wednesday last week or the one before
    const own = await hrSelf.agent
      .post("/api/leave-requests")
      .send({ leave_type_id: lopTypeId, from_date: past, to_date: past, reason: "Was ill" })
      .expect(201);
    expectError(await hrSelf.agent.put(`/api/leave-requests/${own.body.data.id}`).send({ status: "approved" }), 403, "forbidden");
    await w.hr.agent.put(`/api/leave-requests/${own.body.data.id}`).send({ status: "approved" }).expect(200);
    const e = expectError(await hrSelf.agent.delete(`/api/leave-requests/${own.body.data.id}`), 403, "forbidden");
    expect(e.error).toMatch(/^You cannot cancel your own approved request once it has started/);
    await w.hr.agent.delete(`/api/leave-requests/${own.body.data.id}`).expect(200);
  });
});

describe("importAttendance: not one's own attendance", () => {
  it("hr importing their own day is a 403 and nothing is written; others' a 200; the owner's own a 200, audited", async () => {
    const d = nextWeekday(addDays(today(), -9), 2);
    const e = expectError(
      await hrSelf.agent.post("/api/attendance/import").send({
        records: [
          { employee_id: w.employeeId, date: d, status: "present" },
          { employee_id: hrSelfId, date: d, status: "present" },
        ],
      }),
      403,
      "forbidden",
    );
    expect(e.error).toMatch(/^You cannot import your own attendance \(records\.1\)/);
    expect(await t.query(`SELECT 1 FROM attendance_records WHERE employee_id = ANY($1)`, [[w.employeeId, hrSelfId]])).toEqual([]);
    await hrSelf.agent
      .post("/api/attendance/import")
      .send({ records: [{ employee_id: w.employeeId, date: d, status: "present" }] })
      .expect(200);
    await w.owner.agent
      .post("/api/attendance/import")
      .send({ records: [{ employee_id: ownerId, date: d, status: "present" }] })
      .expect(200);
    const [entry] = await t.query(`SELECT changes FROM audit_logs WHERE action = 'attendance.imported' AND actor_user_id = $1`, [
      w.owner.userId,
    ]);
    expect(entry.changes).toMatchObject({ created: 1, self_decision: true });
  });
});

describe("updateEmployee: the fields that decide pay, not on one's own record", () => {
  it("hr on their own bank account or joining date: 403; other fields, another employee: 200; the owner: audited", async () => {
    const e = expectError(
      await hrSelf.agent.put(`/api/employees/${hrSelfId}`).send({ bank_account_number: "99998888777766" }),
      403,
      "forbidden",
    );
    expect(e.error).toMatch(/^Changing bank_account_number of your own record/);
    expect(e.error).toMatch(OWN);
    expectError(await hrSelf.agent.put(`/api/employees/${hrSelfId}`).send({ joining_date: "2010-01-04" }), 403, "forbidden");
    const [row] = await t.query(`SELECT bank_account_number FROM employees WHERE id = $1`, [hrSelfId]);
    expect(row.bank_account_number).not.toBe("99998888777766");
    // not about pay, or unchanged: allowed (also when the record has pay fields set)
    await t.query(`UPDATE employees SET state = 'Karnataka', gender = 'female' WHERE id = $1`, [hrSelfId]);
    await hrSelf.agent.put(`/api/employees/${hrSelfId}`).send({ designation: "HR Partner" }).expect(200);
    await hrSelf.agent.put(`/api/employees/${hrSelfId}`).send({ state: "KA", gender: "female" }).expect(200);
    const current = (
      await api(hrSelf.agent)
        .op("getEmployee", { params: { employeeId: hrSelfId } })
        .expect(200)
    ).body.data;
    await hrSelf.agent.put(`/api/employees/${hrSelfId}`).send({ joining_date: current.joining_date }).expect(200);
    // another employee's: allowed, no self-decision
    await hrSelf.agent.put(`/api/employees/${w.employeeId}`).send({ bank_account_number: "11112222333344" }).expect(200);
    const [other] = await audits("employee.updated", w.employeeId);
    expect(other.changes.self_decision).toBeUndefined();
    // the owner on their own: allowed and marked
    await w.owner.agent.put(`/api/employees/${ownerId}`).send({ bank_account_number: "55556666777788" }).expect(200);
    const mine = await audits("employee.updated", ownerId);
    expect(mine[mine.length - 1].changes).toMatchObject({ bank_account_number: { to: "********7788" }, self_decision: true });
  });
});

describe("updateMember, setEmployeeSalarySetup, updateEmployee, listEmployeeActivityLog: unlinking does not lift the rule", () => {
  // Security review, item 4: an admin unlinked their membership from their own record,
  // set their own salary (200) and linked it again. The record stays the person's own.
  it("an admin unlinked from their own record still gets 403 on its salary and pay fields; link changes are logged", async () => {
    const adminSelfId = await insertEmployee(t, w.owner.tenantId, { first_name: "Ada", last_name: "Admin" });
    const admin = await addMember(t, w.owner, "admin", { employeeId: adminSelfId, name: "Ada Admin" });
    await admin.agent.put(`/api/configuration/members/${admin.userId}`).send({ employee_id: null }).expect(200);
    const setup = { effective_from: "2024-04-01", monthly_ctc: "999999.00", components: [] };
    const e = expectError(await admin.agent.put(`/api/payroll/employee-setup/${adminSelfId}`).send(setup), 403, "forbidden");
    expect(e.error).toMatch(/^You cannot set your own salary/);
    expectError(await admin.agent.put(`/api/employees/${adminSelfId}`).send({ bank_account_number: "12121212121212" }), 403, "forbidden");
    expect(
      (
        await api(w.owner.agent)
          .op("getEmployeeSalarySetup", { params: { employeeId: adminSelfId } })
          .expect(200)
      ).body.data.current,
    ).toBeNull();
    // linked again (or to another record meanwhile): still theirs
    const otherId = await insertEmployee(t, w.owner.tenantId, { first_name: "Other", last_name: "Record" });
    await admin.agent.put(`/api/configuration/members/${admin.userId}`).send({ employee_id: otherId }).expect(200);
    expectError(await admin.agent.put(`/api/payroll/employee-setup/${adminSelfId}`).send(setup), 403, "forbidden");
    await admin.agent.put(`/api/configuration/members/${admin.userId}`).send({ employee_id: adminSelfId }).expect(200);
    expectError(await admin.agent.put(`/api/payroll/employee-setup/${adminSelfId}`).send(setup), 403, "forbidden");
    // someone else's record is not theirs: allowed
    await admin.agent.put(`/api/payroll/employee-setup/${w.employeeId}`).send(setup).expect(200);

    const member = { user_id: admin.userId, email: admin.email, name: "Ada Admin" };
    const log = (
      await api(w.owner.agent)
        .op("getEmployeeActivityLog", { params: { employeeId: adminSelfId } })
        .expect(200)
    ).body.data;
    expect(log.filter((l) => l.action.startsWith("employee.member_")).map((l) => [l.action, l.actor_user_id, l.changes])).toEqual([
      ["employee.member_linked", admin.userId, { member }],
      ["employee.member_unlinked", admin.userId, { member }],
    ]);
    const otherLog = (
      await api(w.owner.agent)
        .op("getEmployeeActivityLog", { params: { employeeId: otherId } })
        .expect(200)
    ).body.data;
    expect(otherLog.map((l) => l.action)).toEqual(["employee.member_unlinked", "employee.member_linked"]);
  });
});
