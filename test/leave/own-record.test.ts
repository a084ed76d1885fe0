// Decisions about money or balances on one's own employee record. An hr member
// (or admin) linked to an employee record cannot take them on that record - 403 - and can on
// anyone else's; the company's owner may on their own (there is no one above them), and the audit
// entry says `self_decision: true`. One rule (assertNotOwnRecord) for every such operation.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { addDays } from "../../src/lib/dates.ts";
import { addMember, expectError, type TenantSession, useTestApp, type AuditChanges } from "../support/app.ts";
import { createType, insertEmployee, type LeaveWorld, leaveWorld, nextWeekday, today } from "./fixtures.ts";

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
  t.query<{ changes: AuditChanges }>(`SELECT changes FROM audit_logs WHERE action = $1 AND entity_id = $2 ORDER BY created_at`, [
    action,
    entityId,
  ]);

beforeAll(async () => {
  w = await leaveWorld(t);
  await api(w.owner.agent)
    .op("updateCompanySettings", { body: { modules: ["payroll"] } })
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
    const e = expectError(
      await api(hrSelf.agent).op("setEmployeeSalarySetup", { params: { employeeId: hrSelfId }, body: setup }),
      403,
      "forbidden",
    );
    expect(e.error).toMatch(/^You cannot set your own salary/);
    expect(e.error).toMatch(OWN);
    expect(
      (
        await api(w.owner.agent)
          .op("getEmployeeSalarySetup", { params: { employeeId: hrSelfId } })
          .expect(200)
      ).body.data.current,
    ).toBeNull();

    await api(hrSelf.agent)
      .op("setEmployeeSalarySetup", { params: { employeeId: w.employeeId }, body: setup })
      .expect(200);
    expect((await audits("salary_setup.created", w.employeeId))[0].changes.self_decision).toBeUndefined();

    await api(w.owner.agent)
      .op("setEmployeeSalarySetup", { params: { employeeId: ownerId }, body: setup })
      .expect(200);
    expect((await audits("salary_setup.created", ownerId))[0].changes).toMatchObject({ monthly_ctc: "50000.00", self_decision: true });
  });
});

describe("createLeaveAdjustment, createLeaveAllocations: not on one's own record", () => {
  it("hr crediting their own leave is a 403; another employee's a 201; the owner their own a 201, audited", async () => {
    const credit = (employee_id: string) => ({ employee_id, leave_type_id: leaveTypeId, days: "5.0", reason: "Goodwill" });
    const e = expectError(await api(hrSelf.agent).op("createLeaveAdjustment", { body: credit(hrSelfId) }), 403, "forbidden");
    expect(e.error).toMatch(/^You cannot adjust your own leave balance/);
    const mine = await api(hrSelf.agent)
      .op("listLeaveLedger", { query: { employee_id: hrSelfId } })
      .expect(200);
    expect(mine.body.data).toEqual([]);

    await api(hrSelf.agent)
      .op("createLeaveAdjustment", { body: credit(w.employeeId) })
      .expect(201);
    await api(w.owner.agent)
      .op("createLeaveAdjustment", { body: credit(ownerId) })
      .expect(201);
    expect((await audits("leave_balance.adjusted", ownerId))[0].changes).toMatchObject({ days: "5.0", self_decision: true });
    expect((await audits("leave_balance.adjusted", w.employeeId))[0].changes.self_decision).toBeUndefined();
  });

  it("an individual allocation to oneself is a 403 (the owner may); a bulk one by policy covers everyone", async () => {
    const grant = (employee_id: string) => ({ employee_id, leave_type_id: leaveTypeId, days: "12.0" });
    const e = expectError(await api(hrSelf.agent).op("createLeaveAllocations", { body: grant(hrSelfId) }), 403, "forbidden");
    expect(e.error).toMatch(/^You cannot allocate leave to yourself/);
    expect(
      (
        await api(hrSelf.agent)
          .op("createLeaveAllocations", { body: grant(w.employeeId) })
          .expect(201)
      ).body.data.created_count,
    ).toBe(1);
    expect(
      (
        await api(w.owner.agent)
          .op("createLeaveAllocations", { body: grant(ownerId) })
          .expect(201)
      ).body.data.created_count,
    ).toBe(1);
    expect((await audits("leave_allocation.created", ownerId))[0].changes).toMatchObject({ days: "12.0", self_decision: true });
  });
});

describe("updateExpenseClaim, updateLoanAdvance, deferLoanAdvance, cancelLoanAdvance: claims and loans", () => {
  let categoryId: string;
  let loanTypeId: string;
  beforeAll(async () => {
    categoryId = (
      await api(w.hr.agent)
        .op("createExpenseCategory", { body: { name: "Travel", requires_receipt: false } })
        .expect(201)
    ).body.data.id;
    loanTypeId = (
      await api(w.hr.agent)
        .op("createLoanType", { body: { name: "Salary advance", max_amount: "100000.00", max_installments: 12 } })
        .expect(201)
    ).body.data.id;
  });
  const claim = async (as: TenantSession, employee_id?: string) =>
    (
      await api(as.agent)
        .op("createExpenseClaim", {
          body: { employee_id, category_id: categoryId, amount: "900.00", expense_date: addDays(today(), -2), description: "Taxi" },
        })
        .expect(201)
    ).body.data.id as string;
  const loan = async (as: TenantSession) =>
    (
      await api(as.agent)
        .op("createLoanAdvance", { body: { loan_type_id: loanTypeId, amount: "12000.00", installments: 6 } })
        .expect(201)
    ).body.data.id as string;

  it("hr approving their own claim or loan is a 403; another's is a 200; the owner their own a 200, audited", async () => {
    const own = await claim(hrSelf);
    expect(
      expectError(await api(hrSelf.agent).op("updateExpenseClaim", { params: { id: own }, body: { status: "approved" } }), 403, "forbidden")
        .error,
    ).toMatch(OWN);
    const theirs = await claim(w.employee);
    await api(hrSelf.agent)
      .op("updateExpenseClaim", { params: { id: theirs }, body: { status: "approved" } })
      .expect(200);
    await api(w.hr.agent)
      .op("updateExpenseClaim", { params: { id: own }, body: { status: "approved" } })
      .expect(200);

    const ownerClaim = await claim(w.owner);
    await api(w.owner.agent)
      .op("updateExpenseClaim", { params: { id: ownerClaim }, body: { status: "approved" } })
      .expect(200);
    expect((await audits("expense_claim.approved", ownerClaim))[0].changes).toMatchObject({ self_decision: true });
    expect((await audits("expense_claim.approved", theirs))[0].changes.self_decision).toBeUndefined();

    const ownLoan = await loan(hrSelf);
    const l = expectError(
      await api(hrSelf.agent).op("updateLoanAdvance", { params: { id: ownLoan }, body: { status: "approved" } }),
      403,
      "forbidden",
    );
    expect(l.error).toMatch(/^You cannot decide your own loan application/);
    const ownerLoan = await loan(w.owner);
    await api(w.owner.agent)
      .op("updateLoanAdvance", { params: { id: ownerLoan }, body: { status: "approved" } })
      .expect(200);
    expect((await audits("loan_advance.approved", ownerLoan))[0].changes).toMatchObject({ self_decision: true });
    await api(w.owner.agent)
      .op("cancelLoanAdvance", { params: { id: ownerLoan } })
      .expect(200);
    expect((await audits("loan_advance.cancelled", ownerLoan))[0].changes).toMatchObject({ self_decision: true });
  });

  it("hr deferring an installment of their own loan, or cancelling it once approved, is a 403; another hr may", async () => {
    const own = await loan(hrSelf);
    await api(w.hr.agent)
      .op("updateLoanAdvance", { params: { id: own }, body: { status: "approved" } })
      .expect(200);
    const d = expectError(await api(hrSelf.agent).op("deferLoanAdvance", { params: { id: own }, body: { reason: "Tight month" } }), 403);
    expect(d.error).toMatch(/^You cannot defer an installment of your own loan/);
    const c = expectError(await api(hrSelf.agent).op("cancelLoanAdvance", { params: { id: own } }), 403, "forbidden");
    expect(c.error).toMatch(/^You cannot cancel your own approved request/);
    expect(
      (
        await api(w.hr.agent)
          .op("getLoanAdvance", { params: { id: own } })
          .expect(200)
      ).body.data.status,
    ).toBe("approved");
    await api(w.hr.agent)
      .op("deferLoanAdvance", { params: { id: own }, body: { reason: "Tight month" } })
      .expect(200);
    await api(w.hr.agent)
      .op("cancelLoanAdvance", { params: { id: own } })
      .expect(200);
    // a pending application of one's own is still one's to withdraw
    await api(hrSelf.agent)
      .op("cancelLoanAdvance", { params: { id: await loan(hrSelf) } })
      .expect(200);
  });
});

describe("updateLeaveRequest, cancelLeaveRequest: leave of one's own", () => {
  it("the owner may approve their own leave (audited); hr cannot cancel their own leave once it has started, another hr can", async () => {
    const next = nextWeekday(addDays(today(), 7), 3);
    const ownerLeave = await api(w.owner.agent)
      .op("createLeaveRequest", { body: { leave_type_id: lopTypeId, from_date: next, to_date: next, reason: "Away" } })
      .expect(201);
    await api(w.owner.agent)
      .op("updateLeaveRequest", { params: { id: ownerLeave.body.data.id }, body: { status: "approved" } })
      .expect(200);
    expect((await audits("leave_request.approved", ownerLeave.body.data.id))[0].changes).toMatchObject({ self_decision: true });

    const past = nextWeekday(addDays(today(), -12), 3); // a Wednesday last week or the one before
    const own = await api(hrSelf.agent)
      .op("createLeaveRequest", { body: { leave_type_id: lopTypeId, from_date: past, to_date: past, reason: "Was ill" } })
      .expect(201);
    expectError(
      await api(hrSelf.agent).op("updateLeaveRequest", { params: { id: own.body.data.id }, body: { status: "approved" } }),
      403,
      "forbidden",
    );
    await api(w.hr.agent)
      .op("updateLeaveRequest", { params: { id: own.body.data.id }, body: { status: "approved" } })
      .expect(200);
    const e = expectError(await api(hrSelf.agent).op("cancelLeaveRequest", { params: { id: own.body.data.id } }), 403, "forbidden");
    expect(e.error).toMatch(/^You cannot cancel your own approved request once it has started/);
    await api(w.hr.agent)
      .op("cancelLeaveRequest", { params: { id: own.body.data.id } })
      .expect(200);
  });
});

describe("importAttendance: not one's own attendance", () => {
  it("hr importing their own day is a 403 and nothing is written; others' a 200; the owner's own a 200, audited", async () => {
    const d = nextWeekday(addDays(today(), -9), 2);
    const e = expectError(
      await api(hrSelf.agent).op("importAttendance", {
        body: {
          records: [
            { employee_id: w.employeeId, date: d, status: "present" },
            { employee_id: hrSelfId, date: d, status: "present" },
          ],
        },
      }),
      403,
      "forbidden",
    );
    expect(e.error).toMatch(/^You cannot import your own attendance \(records\.1\)/);
    expect(await t.query(`SELECT 1 FROM attendance_records WHERE employee_id = ANY($1)`, [[w.employeeId, hrSelfId]])).toEqual([]);
    await api(hrSelf.agent)
      .op("importAttendance", { body: { records: [{ employee_id: w.employeeId, date: d, status: "present" }] } })
      .expect(200);
    await api(w.owner.agent)
      .op("importAttendance", { body: { records: [{ employee_id: ownerId, date: d, status: "present" }] } })
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
      await api(hrSelf.agent).op("updateEmployee", { params: { employeeId: hrSelfId }, body: { bank_account_number: "99998888777766" } }),
      403,
      "forbidden",
    );
    expect(e.error).toMatch(/^Changing bank_account_number of your own record/);
    expect(e.error).toMatch(OWN);
    expectError(
      await api(hrSelf.agent).op("updateEmployee", { params: { employeeId: hrSelfId }, body: { joining_date: "2010-01-04" } }),
      403,
      "forbidden",
    );
    const [row] = await t.query(`SELECT bank_account_number FROM employees WHERE id = $1`, [hrSelfId]);
    expect(row.bank_account_number).not.toBe("99998888777766");
    // not about pay, or unchanged: allowed (also when the record has pay fields set)
    await t.query(`UPDATE employees SET state = 'Karnataka', gender = 'female' WHERE id = $1`, [hrSelfId]);
    await api(hrSelf.agent)
      .op("updateEmployee", { params: { employeeId: hrSelfId }, body: { designation: "HR Partner" } })
      .expect(200);
    await api(hrSelf.agent)
      .op("updateEmployee", { params: { employeeId: hrSelfId }, body: { state: "KA", gender: "female" } })
      .expect(200);
    const current = (
      await api(hrSelf.agent)
        .op("getEmployee", { params: { employeeId: hrSelfId } })
        .expect(200)
    ).body.data;
    await api(hrSelf.agent)
      .op("updateEmployee", { params: { employeeId: hrSelfId }, body: { joining_date: current.joining_date } })
      .expect(200);
    // another employee's: allowed, no self-decision
    await api(hrSelf.agent)
      .op("updateEmployee", { params: { employeeId: w.employeeId }, body: { bank_account_number: "11112222333344" } })
      .expect(200);
    const [other] = await audits("employee.updated", w.employeeId);
    expect(other.changes.self_decision).toBeUndefined();
    // the owner on their own: allowed and marked
    await api(w.owner.agent)
      .op("updateEmployee", { params: { employeeId: ownerId }, body: { bank_account_number: "55556666777788" } })
      .expect(200);
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
    await api(admin.agent)
      .op("updateMember", { params: { userId: admin.userId }, body: { employee_id: null } })
      .expect(200);
    const setup = { effective_from: "2024-04-01", monthly_ctc: "999999.00", components: [] };
    const e = expectError(
      await api(admin.agent).op("setEmployeeSalarySetup", { params: { employeeId: adminSelfId }, body: setup }),
      403,
      "forbidden",
    );
    expect(e.error).toMatch(/^You cannot set your own salary/);
    expectError(
      await api(admin.agent).op("updateEmployee", { params: { employeeId: adminSelfId }, body: { bank_account_number: "12121212121212" } }),
      403,
      "forbidden",
    );
    expect(
      (
        await api(w.owner.agent)
          .op("getEmployeeSalarySetup", { params: { employeeId: adminSelfId } })
          .expect(200)
      ).body.data.current,
    ).toBeNull();
    // linked again (or to another record meanwhile): still theirs
    const otherId = await insertEmployee(t, w.owner.tenantId, { first_name: "Other", last_name: "Record" });
    await api(admin.agent)
      .op("updateMember", { params: { userId: admin.userId }, body: { employee_id: otherId } })
      .expect(200);
    expectError(
      await api(admin.agent).op("setEmployeeSalarySetup", { params: { employeeId: adminSelfId }, body: setup }),
      403,
      "forbidden",
    );
    await api(admin.agent)
      .op("updateMember", { params: { userId: admin.userId }, body: { employee_id: adminSelfId } })
      .expect(200);
    expectError(
      await api(admin.agent).op("setEmployeeSalarySetup", { params: { employeeId: adminSelfId }, body: setup }),
      403,
      "forbidden",
    );
    // someone else's record is not theirs: allowed
    await api(admin.agent)
      .op("setEmployeeSalarySetup", { params: { employeeId: w.employeeId }, body: setup })
      .expect(200);

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
