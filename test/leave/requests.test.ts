// Leave requests: day counting (weekly offs, holidays, half days, sandwich inside and across
// requests), every refusal (409/400), approvals and roles, cancellation restoring the balance,
// notifications, list filters, tenancy, and concurrency (no overdraw under parallel calls).
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { addDays } from "../../src/lib/dates.ts";
import { expectDetails, expectError, signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import {
  balanceOf,
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
let other: TenantSession;
let CL: LeaveType, SL: LeaveType, NL: LeaveType, LOP: LeaveType, NEG: LeaveType, FULL: LeaveType;
// Monday of the first test week (≥ 2 weeks ahead); the Wednesday of week 0 is a holiday.
let M: string;
const day = (week: number, dow: number) => addDays(M, week * 7 + dow); // dow 0 = Monday … 6 = Sunday

const apply = (agent: TenantSession["agent"], body: Record<string, unknown>) => agent.post("/api/leave-requests").send(body);
const balance = (employeeId: string, typeId: string) => balanceOf(w.hr, employeeId, typeId);

beforeAll(async () => {
  [w, other] = await Promise.all([leaveWorld(t), signupTenant(t)]);
  M = nextWeekday(addDays(today(), 14), 1);
  [CL, SL, NL, LOP, NEG, FULL] = await Promise.all([
    createType(w.hr.agent, { name: "Casual leave", code: "CL", sandwich_rule: true, max_consecutive_days: 5 }),
    createType(w.hr.agent, { name: "Sick leave", code: "SL", attachment_required_above_days: 2 }),
    createType(w.hr.agent, { name: "Planned leave", code: "NL", min_notice_days: 7, allow_half_day: false }),
    createType(w.hr.agent, { name: "Leave without pay", code: "LOP", is_paid: false }),
    createType(w.hr.agent, { name: "Advance leave", code: "NEG", allow_negative_balance: true, negative_balance_limit: "2" }),
    createType(w.hr.agent, { name: "Restricted", code: "FULL", applicable_genders: ["female"] }),
  ]);
  await api(w.hr.agent)
    .op("createHoliday", { body: { date: day(0, 2), name: "Mid-week holiday" } })
    .expect(201);
  for (const [ty, n] of [
    [CL, "20"],
    [SL, "10"],
    [NL, "10"],
    [NEG, "1"],
  ] as const)
    await grant(w.hr.agent, w.employeeId, ty.id, n);
});

describe("createLeaveRequest, getLeaveRequest: counting", () => {
  it("excludes weekly offs and holidays; half days count 0.5", async () => {
    const r = await apply(w.employee.agent, { leave_type_id: SL.id, from_date: day(0, 0), to_date: day(0, 1) }).expect(201);
    expect(r.body.data).toMatchObject({
      days: "2.0",
      status: "pending",
      employee_id: w.employeeId,
      employee_name: "Eli Employee",
      leave_type_name: "Sick leave",
      requested_by: w.employee.userId,
    });
    const half = await apply(w.employee.agent, {
      leave_type_id: SL.id,
      from_date: day(0, 3),
      to_date: day(0, 4),
      half_day_start: true,
      half_day_end: true,
    }).expect(201);
    expect(half.body.data.days).toBe("1.0");
    expect((await balance(w.employeeId, SL.id)).pending).toBe("3.0");
    // the holiday alone is no working day
    expectError(await apply(w.employee.agent, { leave_type_id: SL.id, from_date: day(0, 2), to_date: day(0, 2) }), 409);
    expectError(await apply(w.employee.agent, { leave_type_id: SL.id, from_date: day(1, 5), to_date: day(1, 6) }), 409);
    for (const id of [r.body.data.id, half.body.data.id])
      await api(w.employee.agent).op("cancelLeaveRequest", { params: { id } }).expect(200);
    expect((await balance(w.employeeId, SL.id)).pending).toBe("0.0");
  });

  it("sandwich inside one request: Friday to Monday is 4 days", async () => {
    const r = await apply(w.employee.agent, { leave_type_id: CL.id, from_date: day(2, 4), to_date: day(3, 0) }).expect(201);
    expect(r.body.data.days).toBe("4.0");
    // the holiday between Tuesday and Thursday counts as well
    const h = await apply(w.employee.agent, { leave_type_id: CL.id, from_date: day(0, 1), to_date: day(0, 3) }).expect(201);
    expect(h.body.data.days).toBe("3.0");
    for (const id of [r.body.data.id, h.body.data.id]) await api(w.employee.agent).op("cancelLeaveRequest", { params: { id } }).expect(200);
  });

  it("sandwich across two requests: the later one is charged the weekend, and recounted when the first goes away", async () => {
    const fri = await apply(w.employee.agent, { leave_type_id: CL.id, from_date: day(4, 4), to_date: day(4, 4) }).expect(201);
    expect(fri.body.data.days).toBe("1.0");
    const mon = await apply(w.employee.agent, { leave_type_id: CL.id, from_date: day(5, 0), to_date: day(5, 0) }).expect(201);
    expect(mon.body.data.days).toBe("3.0");
    await api(w.manager.agent)
      .op("updateLeaveRequest", { params: { id: fri.body.data.id }, body: { status: "approved" } })
      .expect(200);
    await api(w.manager.agent)
      .op("updateLeaveRequest", { params: { id: mon.body.data.id }, body: { status: "approved" } })
      .expect(200);
    const before = await balance(w.employeeId, CL.id);
    expect(before.taken).toBe("4.0");
    // hr cancels the Friday: Monday is recounted to 1 day and the 2 bridge days come back
    await api(w.hr.agent)
      .op("cancelLeaveRequest", { params: { id: fri.body.data.id } })
      .expect(200);
    const monNow = await api(w.employee.agent)
      .op("getLeaveRequest", { params: { id: mon.body.data.id } })
      .expect(200);
    expect(monNow.body.data.days).toBe("1.0");
    expect((await balance(w.employeeId, CL.id)).taken).toBe("1.0");
    const log = await api(w.owner.agent)
      .op("listActivityLog", { query: { entity_id: mon.body.data.id } })
      .expect(200);
    expect(log.body.data.map((a) => a.action)).toContain("leave_request.recounted");
    await api(w.hr.agent)
      .op("cancelLeaveRequest", { params: { id: mon.body.data.id } })
      .expect(200);
    expect((await balance(w.employeeId, CL.id)).taken).toBe("0.0");
  });
});

describe("createLeaveRequest: refusals", () => {
  it("400: to_date before from_date, both half-day flags on one day, missing attachment", async () => {
    expectError(
      await apply(w.employee.agent, { leave_type_id: SL.id, from_date: day(6, 1), to_date: day(6, 0) }),
      400,
      "validation_failed",
    );
    expectError(
      await apply(w.employee.agent, {
        leave_type_id: SL.id,
        from_date: day(6, 1),
        to_date: day(6, 1),
        half_day_start: true,
        half_day_end: true,
      }),
      400,
    );
    const miss = expectDetails(await apply(w.employee.agent, { leave_type_id: SL.id, from_date: day(6, 0), to_date: day(6, 2) }), 400);
    expect(miss.details[0].path).toBe("body.attachment_file_id");
    const up = await w.employee.agent
      .post("/api/upload")
      .attach("file", Buffer.from("medical certificate"), { filename: "cert.txt", contentType: "text/plain" })
      .expect(201);
    const ok = await apply(w.employee.agent, {
      leave_type_id: SL.id,
      from_date: day(6, 0),
      to_date: day(6, 2),
      attachment_file_id: up.body.data.id,
    }).expect(201);
    expect(ok.body.data.attachment_file_id).toBe(up.body.data.id);
    await api(w.employee.agent)
      .op("cancelLeaveRequest", { params: { id: ok.body.data.id } })
      .expect(200);
    // someone else's upload cannot be attached by an employee
    const hrFile = await w.hr.agent
      .post("/api/upload")
      .attach("file", Buffer.from("x"), { filename: "x.txt", contentType: "text/plain" })
      .expect(201);
    expectError(
      await apply(w.employee.agent, {
        leave_type_id: SL.id,
        from_date: day(6, 0),
        to_date: day(6, 2),
        attachment_file_id: hrFile.body.data.id,
      }),
      404,
    );
  });

  it("409: overlap with a pending or approved request", async () => {
    const a = await apply(w.employee.agent, { leave_type_id: SL.id, from_date: day(8, 0), to_date: day(8, 1) }).expect(201);
    const e = expectError(
      await apply(w.employee.agent, { leave_type_id: CL.id, from_date: day(8, 1), to_date: day(8, 3) }),
      409,
      "conflict",
    );
    expect(e.error).toMatch(/overlap/);
    await api(w.manager.agent)
      .op("updateLeaveRequest", { params: { id: a.body.data.id }, body: { status: "approved" } })
      .expect(200);
    expectError(await apply(w.employee.agent, { leave_type_id: CL.id, from_date: day(8, 0), to_date: day(8, 0) }), 409);
    await api(w.employee.agent)
      .op("cancelLeaveRequest", { params: { id: a.body.data.id } })
      .expect(200);
    // cancelled requests no longer block
    const b = await apply(w.employee.agent, { leave_type_id: SL.id, from_date: day(8, 0), to_date: day(8, 0) }).expect(201);
    await api(w.employee.agent)
      .op("cancelLeaveRequest", { params: { id: b.body.data.id } })
      .expect(200);
  });

  it("409: insufficient balance, with pending requests reserved", async () => {
    const up = await w.employee.agent
      .post("/api/upload")
      .attach("file", Buffer.from("certificate"), { filename: "c.txt", contentType: "text/plain" })
      .expect(201);
    const e = expectError(
      await apply(w.employee.agent, {
        leave_type_id: SL.id,
        from_date: day(10, 0),
        to_date: day(12, 0),
        attachment_file_id: up.body.data.id,
      }),
      409,
    );
    expect(e.error).toMatch(/Insufficient Sick leave balance: 10\.0 days available, 11\.0 requested/);
    const three = await createType(w.hr.agent, { name: "Three", code: "THREE" });
    await grant(w.hr.agent, w.employeeId, three.id, "3");
    const first = await apply(w.employee.agent, { leave_type_id: three.id, from_date: day(10, 0), to_date: day(10, 1) }).expect(201);
    expectError(await apply(w.employee.agent, { leave_type_id: three.id, from_date: day(10, 3), to_date: day(10, 4) }), 409);
    await apply(w.employee.agent, { leave_type_id: three.id, from_date: day(10, 3), to_date: day(10, 3) }).expect(201);
    expect(await balance(w.employeeId, three.id)).toMatchObject({ allocated: "3.0", pending: "3.0", available: "0.0" });
    await api(w.employee.agent)
      .op("cancelLeaveRequest", { params: { id: first.body.data.id } })
      .expect(200);
    expect((await balance(w.employeeId, three.id)).available).toBe("2.0");
  });

  it("negative balance down to the type's limit; unpaid leave needs no balance", async () => {
    // 1 available, limit -2
    await apply(w.employee.agent, { leave_type_id: NEG.id, from_date: day(12, 0), to_date: day(12, 2) }).expect(201);
    expectError(await apply(w.employee.agent, { leave_type_id: NEG.id, from_date: day(12, 3), to_date: day(12, 3) }), 409);
    const lop = await apply(w.employee.agent, { leave_type_id: LOP.id, from_date: day(12, 3), to_date: day(12, 4) }).expect(201);
    expect(lop.body.data.days).toBe("2.0");
  });

  it("409: more consecutive days than allowed, also across adjacent requests", async () => {
    // 8 with the weekend
    expectError(await apply(w.employee.agent, { leave_type_id: CL.id, from_date: day(14, 0), to_date: day(15, 0) }), 409);
    await apply(w.employee.agent, { leave_type_id: CL.id, from_date: day(14, 0), to_date: day(14, 3) }).expect(201); // Mon-Thu = 4
    // Fri + Mon = 4 (the weekend is sandwiched); together with Mon-Thu that is 8 in a row
    const e = expectError(await apply(w.employee.agent, { leave_type_id: CL.id, from_date: day(14, 4), to_date: day(15, 0) }), 409);
    expect(e.error).toMatch(/at most 5 consecutive days; this makes 8\.0 in a row/);
    await apply(w.employee.agent, { leave_type_id: CL.id, from_date: day(14, 4), to_date: day(14, 4) }).expect(201); // 4 + 1 = 5
  });

  it("409: notice too short for self-service (hr may record it), dates outside any period, wrong type", async () => {
    const soon = addDays(today(), 3);
    const e = expectError(await apply(w.employee.agent, { leave_type_id: NL.id, from_date: soon, to_date: soon }), 409);
    expect(e.error).toMatch(/notice/);
    // hr records it for the employee regardless of notice
    const byHr = await apply(w.hr.agent, { employee_id: w.employeeId, leave_type_id: NL.id, from_date: soon, to_date: soon });
    if (byHr.status === 409) expect(byHr.body.error).toMatch(/no working day/);
    else expect(byHr.status).toBe(201);
    expectError(
      await apply(w.employee.agent, { leave_type_id: NL.id, from_date: day(16, 0), to_date: day(16, 0), half_day_start: true }),
      409,
    ); // no half days
    const far = addDays(w.periodEnd, 30);
    expect(expectError(await apply(w.employee.agent, { leave_type_id: SL.id, from_date: far, to_date: far }), 409).error).toMatch(
      /No leave period/,
    );
    expect(
      expectError(await apply(w.employee.agent, { leave_type_id: SL.id, from_date: w.periodEnd, to_date: addDays(w.periodEnd, 3) }), 409)
        .error,
    ).toMatch(/No leave period|span/);
    // does not apply to the employee
    expectError(await apply(w.employee.agent, { leave_type_id: FULL.id, from_date: day(16, 0), to_date: day(16, 0) }), 409);
    const newcomer = await insertEmployee(t, w.owner.tenantId, { joining_date: day(17, 0) });
    expect(
      expectError(
        await apply(w.hr.agent, { employee_id: newcomer, leave_type_id: LOP.id, from_date: day(16, 0), to_date: day(17, 0) }),
        409,
      ).error,
    ).toMatch(/joins on/);
    await api(w.hr.agent)
      .op("updateLeaveType", { params: { id: LOP.id }, body: { active: false } })
      .expect(200);
    expectError(await apply(w.employee.agent, { leave_type_id: LOP.id, from_date: day(16, 0), to_date: day(16, 0) }), 409);
    await api(w.hr.agent)
      .op("updateLeaveType", { params: { id: LOP.id }, body: { active: true } })
      .expect(200);
  });

  it("403: employees and managers apply only for themselves", async () => {
    expectError(
      await apply(w.employee.agent, { employee_id: w.managerEmployeeId, leave_type_id: SL.id, from_date: day(16, 0), to_date: day(16, 0) }),
      403,
      "forbidden",
    );
    expectError(
      await apply(w.manager.agent, { employee_id: w.employeeId, leave_type_id: SL.id, from_date: day(16, 0), to_date: day(16, 0) }),
      403,
    );
    // the owner has no employee record: employee_id is required
    expectError(await apply(w.owner.agent, { leave_type_id: SL.id, from_date: day(16, 0), to_date: day(16, 0) }), 400);
  });
});

describe("updateLeaveRequest, cancelLeaveRequest: approval and cancellation", () => {
  it("the manager approves a report's request: ledger debit, notification, audit; decided requests are final", async () => {
    const r = await apply(w.employee.agent, { leave_type_id: SL.id, from_date: day(18, 0), to_date: day(18, 1), reason: "Dentist" }).expect(
      201,
    );
    const id = r.body.data.id;
    expectError(await api(w.employee.agent).op("updateLeaveRequest", { params: { id }, body: { status: "approved" } }), 403);
    const a = await api(w.manager.agent)
      .op("updateLeaveRequest", { params: { id }, body: { status: "approved", comment: "Get well" } })
      .expect(200);
    expect(a.body.data).toMatchObject({ status: "approved", decided_by: w.manager.userId, decision_comment: "Get well" });
    expect(await balance(w.employeeId, SL.id)).toMatchObject({ taken: "2.0", pending: "0.0", available: "8.0" });
    expectError(await api(w.hr.agent).op("updateLeaveRequest", { params: { id }, body: { status: "rejected" } }), 409);
    const notes = await api(w.employee.agent).op("listNotifications").expect(200);
    expect(notes.body.data.map((n) => n.kind)).toEqual(expect.arrayContaining(["leave.submitted", "leave.approved"]));
    const mgrNotes = await api(w.manager.agent).op("listNotifications").expect(200);
    expect(mgrNotes.body.data.map((n) => n.kind)).toContain("leave.approval_needed");
    const mail = await t.query("SELECT to_address, subject FROM email_outbox WHERE subject LIKE 'Your leave from%approved'");
    expect(mail.length).toBeGreaterThan(0);
    const log = await api(w.owner.agent)
      .op("listActivityLog", { query: { entity_id: id } })
      .expect(200);
    expect(log.body.data.map((x) => x.action)).toEqual(["leave_request.approved", "leave_request.created"]);
    // the employee cancels before it starts: the days come back through a `cancelled` entry
    const c = await api(w.employee.agent).op("cancelLeaveRequest", { params: { id } }).expect(200);
    expect(c.body.data).toMatchObject({ status: "cancelled", cancelled_by: w.employee.userId });
    expect(await balance(w.employeeId, SL.id)).toMatchObject({ taken: "0.0", available: "10.0" });
    const ledger = await api(w.hr.agent)
      .op("listLeaveLedger", { query: { employee_id: w.employeeId, leave_type_id: SL.id } })
      .expect(200);
    expect(ledger.body.data.filter((e) => e.reference_id === id).map((e) => [e.entry_type, e.days])).toEqual([
      ["taken", "-2.0"],
      ["cancelled", "2.0"],
    ]);
    expectError(await api(w.employee.agent).op("cancelLeaveRequest", { params: { id } }), 409);
  });

  it("nobody decides their own request; a manager only their reports'; rejection is final", async () => {
    const mine = await apply(w.manager.agent, { leave_type_id: LOP.id, from_date: day(18, 3), to_date: day(18, 3) }).expect(201);
    expectError(
      await api(w.manager.agent).op("updateLeaveRequest", { params: { id: mine.body.data.id }, body: { status: "approved" } }),
      403,
    );
    await api(w.hr.agent)
      .op("updateLeaveRequest", { params: { id: mine.body.data.id }, body: { status: "rejected", comment: "Busy week" } })
      .expect(200);
    expectError(await api(w.manager.agent).op("cancelLeaveRequest", { params: { id: mine.body.data.id } }), 409);
    // a manager who is not the employee's manager does not even see the request
    const otherMgrEmp = await insertEmployee(t, w.owner.tenantId, { first_name: "Olaf" });
    const { addMember } = await import("../support/app.ts");
    const otherMgr = await addMember(t, w.owner, "manager", { employeeId: otherMgrEmp });
    const r = await apply(w.employee.agent, { leave_type_id: LOP.id, from_date: day(18, 4), to_date: day(18, 4) }).expect(201);
    expectError(await api(otherMgr.agent).op("updateLeaveRequest", { params: { id: r.body.data.id }, body: { status: "approved" } }), 404);
    expectError(await api(otherMgr.agent).op("getLeaveRequest", { params: { id: r.body.data.id } }), 404);
    const owner = await api(w.owner.agent)
      .op("updateLeaveRequest", { params: { id: r.body.data.id }, body: { status: "approved" } })
      .expect(200);
    expect(owner.body.data.status).toBe("approved");
  });

  it("approved leave that has started: only hr/admin/owner can cancel it", async () => {
    const past = addDays(today(), -3);
    const r = await apply(w.employee.agent, { leave_type_id: LOP.id, from_date: past, to_date: past });
    if (r.status === 409) return; // a weekend/holiday three days ago: nothing to check
    expect(r.status).toBe(201);
    await api(w.manager.agent)
      .op("updateLeaveRequest", { params: { id: r.body.data.id }, body: { status: "approved" } })
      .expect(200);
    expect(expectError(await api(w.employee.agent).op("cancelLeaveRequest", { params: { id: r.body.data.id } }), 409).error).toMatch(
      /started/,
    );
    expectError(await api(w.manager.agent).op("cancelLeaveRequest", { params: { id: r.body.data.id } }), 409);
    await api(w.hr.agent)
      .op("cancelLeaveRequest", { params: { id: r.body.data.id } })
      .expect(200);
  });
});

describe("listLeaveRequests: lists and tenancy", () => {
  it("filters by status, employee and overlapping dates; employees see only their own", async () => {
    const mine = await api(w.employee.agent)
      .op("listLeaveRequests", { query: { limit: 100 } })
      .expect(200);
    expect(mine.body.data.length).toBeGreaterThan(3);
    expect(new Set(mine.body.data.map((r) => r.employee_id))).toEqual(new Set([w.employeeId]));
    const approved = await api(w.hr.agent)
      .op("listLeaveRequests", { query: { status: "approved", limit: 100 } })
      .expect(200);
    expect(approved.body.data.every((r) => r.status === "approved")).toBe(true);
    const range = await api(w.hr.agent)
      .op("listLeaveRequests", { query: { from_date: day(12, 2), to_date: day(12, 3), employee_id: w.employeeId } })
      .expect(200);
    expect(range.body.data.map((r) => [r.from_date, r.to_date]).sort()).toEqual([
      [day(12, 0), day(12, 2)],
      [day(12, 3), day(12, 4)],
    ]);
    const paged = await api(w.hr.agent)
      .op("listLeaveRequests", { query: { limit: 2, page: 2 } })
      .expect(200);
    expect(paged.body.pagination).toMatchObject({ page: 2, limit: 2 });
    expect(paged.body.data).toHaveLength(2);
    expect(
      (
        await api(w.employee.agent)
          .op("listLeaveRequests", { query: { employee_id: w.managerEmployeeId } })
          .expect(200)
      ).body.data,
    ).toEqual([]);
    const mgr = await api(w.manager.agent)
      .op("listLeaveRequests", { query: { limit: 100 } })
      .expect(200);
    expect(new Set(mgr.body.data.map((r) => r.employee_id))).toEqual(new Set([w.employeeId, w.managerEmployeeId]));
    expectError(await w.hr.agent.get("/api/leave-requests?status=unknown"), 400);
    expectError(await api(w.hr.agent).op("listLeaveRequests", { query: { limit: 101 } }), 400);
  });

  it("another company's request is a 404 for get, update and cancel; its ids cannot be used", async () => {
    const r = await apply(w.employee.agent, { leave_type_id: LOP.id, from_date: day(20, 0), to_date: day(20, 0) }).expect(201);
    expectError(await api(other.agent).op("getLeaveRequest", { params: { id: r.body.data.id } }), 404, "not_found");
    expectError(await api(other.agent).op("updateLeaveRequest", { params: { id: r.body.data.id }, body: { status: "approved" } }), 404);
    expectError(await api(other.agent).op("cancelLeaveRequest", { params: { id: r.body.data.id } }), 404);
    expectError(
      await api(other.agent).op("createLeaveRequest", {
        body: { employee_id: w.employeeId, leave_type_id: LOP.id, from_date: day(20, 1), to_date: day(20, 1) },
      }),
      404,
    );
    expect((await api(other.agent).op("listLeaveRequests").expect(200)).body.data).toEqual([]);
  });
});

describe("concurrency", () => {
  it("parallel requests against one balance never overdraw it", async () => {
    const emp = await insertEmployee(t, w.owner.tenantId, { first_name: "Para" });
    const ty = await createType(w.hr.agent, { name: "Race", code: "RACE" });
    await grant(w.hr.agent, emp, ty.id, "5");
    const results = await Promise.all(
      [0, 2, 4, 6].map((wk) => apply(w.hr.agent, { employee_id: emp, leave_type_id: ty.id, from_date: day(wk, 3), to_date: day(wk, 4) })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 201, 409, 409]);
    expect(await balance(emp, ty.id)).toMatchObject({ pending: "4.0", available: "1.0" });
    // and parallel overlapping requests of different types: only one wins
    const overlapping = await Promise.all(
      [ty.id, LOP.id, LOP.id].map((id) =>
        apply(w.hr.agent, { employee_id: emp, leave_type_id: id, from_date: day(9, 0), to_date: day(9, 0) }),
      ),
    );
    expect(overlapping.map((r) => r.status).sort()).toEqual([201, 409, 409]);
  });

  it("parallel approvals never take a balance below its minimum", async () => {
    const emp = await insertEmployee(t, w.owner.tenantId, { first_name: "Appro" });
    const ty = await createType(w.hr.agent, { name: "Race2", code: "RACE2" });
    await grant(w.hr.agent, emp, ty.id, "6");
    // Thu Fri Mon = 3
    const a = await apply(w.hr.agent, { employee_id: emp, leave_type_id: ty.id, from_date: day(0, 3), to_date: day(1, 0) }).expect(201);
    // 3
    const b = await apply(w.hr.agent, { employee_id: emp, leave_type_id: ty.id, from_date: day(4, 0), to_date: day(4, 2) }).expect(201);
    await api(w.hr.agent)
      .op("createLeaveAdjustment", { body: { employee_id: emp, leave_type_id: ty.id, days: "-2", reason: "correction" } })
      .expect(201);
    const decisions = await Promise.all(
      [a, b].map((r) => api(w.owner.agent).op("updateLeaveRequest", { params: { id: r.body.data.id }, body: { status: "approved" } })),
    );
    expect(decisions.map((d) => d.status).sort()).toEqual([200, 409]);
    expect(await balance(emp, ty.id)).toMatchObject({ taken: "3.0", available: "-2.0" }); // 6 - 2 - 3 taken - 3 still pending
    const ledger = await t.query<{ sum: string }>("SELECT sum(days)::text AS sum FROM leave_ledger_entries WHERE employee_id = $1", [emp]);
    expect(ledger[0].sum).toBe("1.0");
  });
});
