// The exit checklist: who ticks which item, the audit trail, and an exit that completes only with
// its checklist done (the exit job) or by hr with a reason (completeExit).
import { describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { completeDueExits } from "../../src/modules/employees/exits.ts";
import { addDays } from "../../src/lib/dates.ts";
import { addMember, expectError, signupTenant, useTestApp, type TenantSession } from "../support/app.ts";
import { createEmployee } from "../support/employees.ts";
import { today } from "../support/clock.ts";

const t = useTestApp();

async function resigned(o: TenantSession, overrides: Record<string, unknown> = {}, lwd = "2024-06-01") {
  const e = await createEmployee(o, { joining_date: "2022-01-01", ...overrides });
  const exit = (
    await api(o.agent)
      .op("submitResignation", {
        params: { employeeId: e.id },
        body: { resignation_date: "2024-05-02", last_working_day: lwd, reason: "Moving on" },
      })
      .expect(201)
  ).body.data;
  const item = (name: string) => exit.checklist.find((c) => c.item === name)!.id;
  return { e, exit, item };
}

const itemUrl = (employeeId: string, itemId: string) => `/api/employees/${employeeId}/exit/checklist/${itemId}`;

describe("updateExitChecklistItem: ticking the exit checklist", () => {
  it("hr ticks and unticks an item, with notes; each change is in the employee's activity log", async () => {
    const o = await signupTenant(t);
    const hr = await addMember(t, o, "hr");
    const { e, exit, item } = await resigned(o);
    expect(exit.checklist.map((c) => [c.item, c.owner, c.reference])).toEqual([
      ["asset_return", "hr", null],
      ["knowledge_transfer", "manager", null],
      ["clearance", "hr", null],
      ["final_settlement", "hr", null],
    ]);
    const res = await api(hr.agent)
      .op("updateExitChecklistItem", {
        params: { employeeId: e.id, itemId: item("asset_return") },
        body: { status: "done", notes: " Laptop returned " },
      })
      .expect(200);
    const ticked = res.body.data.checklist.find((c) => c.item === "asset_return");
    expect(ticked).toMatchObject({ status: "done", completed_by: hr.userId, notes: "Laptop returned" });
    expect(ticked?.completed_at).toEqual(expect.any(String));
    // the profile shows the same exit (by hand: getEmployee answers Employee | EmployeeDirectoryEntry, this reads the full record)
    expect((await o.agent.get(`/api/employees/${e.id}`).expect(200)).body.data.exit).toEqual(res.body.data);

    const back = (
      await api(hr.agent)
        .op("updateExitChecklistItem", { params: { employeeId: e.id, itemId: item("asset_return") }, body: { status: "pending" } })
        .expect(200)
    ).body.data;
    expect(back.checklist.find((c) => c.item === "asset_return")).toMatchObject({
      status: "pending",
      completed_at: null,
      completed_by: null,
      notes: "Laptop returned",
    });
    const log = (
      await api(o.agent)
        .op("getEmployeeActivityLog", { params: { employeeId: e.id } })
        .expect(200)
    ).body.data;
    expect(log.slice(0, 2).map((l) => [l.action, l.actor_user_id, l.changes])).toEqual([
      ["exit_checklist.item_updated", hr.userId, { item: "asset_return", status: { from: "done", to: "pending" } }],
      [
        "exit_checklist.item_updated",
        hr.userId,
        { item: "asset_return", status: { from: "pending", to: "done" }, notes: { from: null, to: "Laptop returned" } },
      ],
    ]);
  });

  it("the direct manager ticks knowledge transfer only; others are refused", async () => {
    const o = await signupTenant(t);
    const boss = await createEmployee(o);
    const manager = await addMember(t, o, "manager", { employeeId: boss.id });
    const otherManager = await addMember(t, o, "manager", { employeeId: (await createEmployee(o)).id });
    const employee = await addMember(t, o, "employee", { employeeId: (await createEmployee(o)).id });
    const { e, item } = await resigned(o, { reports_to: boss.id });

    const done = await api(manager.agent)
      .op("updateExitChecklistItem", { params: { employeeId: e.id, itemId: item("knowledge_transfer") }, body: { status: "done" } })
      .expect(200);
    expect(done.body.data.checklist.find((c) => c.item === "knowledge_transfer")).toMatchObject({
      status: "done",
      completed_by: manager.userId,
    });
    // items hr owns: 403 for the manager; not a report: 404; employees may not tick (x-roles): 403
    expectError(await manager.agent.put(itemUrl(e.id, item("asset_return"))).send({ status: "done" }), 403, "forbidden");
    expectError(await otherManager.agent.put(itemUrl(e.id, item("knowledge_transfer"))).send({ status: "pending" }), 404, "not_found");
    expectError(await employee.agent.put(itemUrl(e.id, item("clearance"))).send({ status: "done" }), 403, "forbidden");
    // an unknown item, or an item of another employee's exit: 404
    const other = await resigned(o);
    expectError(await o.agent.put(itemUrl(e.id, other.item("clearance"))).send({ status: "done" }), 404, "not_found");
    expectError(await o.agent.put(itemUrl(e.id, "6f1c8a1e-0000-4000-8000-000000000000")).send({ status: "done" }), 404);
    // a bad status: 400
    expectError(await o.agent.put(itemUrl(e.id, item("clearance"))).send({ status: "finished" }), 400, "validation_failed");
    const rows = await t.query(
      `SELECT item, status FROM exit_checklist_items WHERE exit_id = (SELECT id FROM employee_exits
      WHERE employee_id = $1) ORDER BY position`,
      [e.id],
    );
    expect(rows.map((r) => r.status)).toEqual(["pending", "done", "pending", "pending"]);
  });

  it("hr cannot tick their own exit's items (the owner may)", async () => {
    const o = await signupTenant(t);
    const self = await createEmployee(o);
    const hr = await addMember(t, o, "hr", { employeeId: self.id });
    const exit = (
      await api(hr.agent)
        .op("submitResignation", {
          params: { employeeId: self.id },
          body: { resignation_date: today(), last_working_day: addDays(today(), 30), reason: "x" },
        })
        .expect(201)
    ).body.data;
    expectError(await hr.agent.put(itemUrl(self.id, exit.checklist[0].id)).send({ status: "done" }), 403, "forbidden");
    await o.agent.put(itemUrl(self.id, exit.checklist[0].id)).send({ status: "done" }).expect(200);
  });
});

describe("completeExit and the exit job: the exit completes only with its checklist done, or by hr with a reason", () => {
  it("the exit job waits for the checklist; ticking the last item lets it complete", async () => {
    const o = await signupTenant(t);
    const { e, exit } = await resigned(o);
    const status = async () => (await t.query(`SELECT status FROM employees WHERE id = $1`, [e.id]))[0].status;
    await completeDueExits();
    expect(await status()).toBe("on_notice");
    for (const c of exit.checklist.slice(0, 3)) await o.agent.put(itemUrl(e.id, c.id)).send({ status: "done" }).expect(200);
    await completeDueExits();
    expect(await status()).toBe("on_notice"); // final_settlement still pending
    await o.agent.put(itemUrl(e.id, exit.checklist[3].id)).send({ status: "done", notes: "Paid by cheque" }).expect(200);
    await completeDueExits();
    expect(await status()).toBe("exited");
    // by hand: getEmployee answers Employee | EmployeeDirectoryEntry, and this reads the full record
    const profile = (await o.agent.get(`/api/employees/${e.id}`).expect(200)).body.data;
    expect(profile.exit).toMatchObject({ status: "completed", completed_by: null, override_reason: null });
    // the checklist of a completed exit is closed
    expectError(await o.agent.put(itemUrl(e.id, exit.checklist[0].id)).send({ status: "pending" }), 409, "conflict");
  });

  it("hr completes an exit with pending items only with a reason, after the last working day", async () => {
    const o = await signupTenant(t);
    const hr = await addMember(t, o, "hr");
    const { e, item } = await resigned(o);
    await api(hr.agent)
      .op("updateExitChecklistItem", { params: { employeeId: e.id, itemId: item("clearance") }, body: { status: "done" } })
      .expect(200);
    const refused = expectError(await api(hr.agent).op("completeExit", { params: { employeeId: e.id }, body: {} }), 409, "conflict");
    expect(refused.error).toBe(
      "Checklist items are still pending (asset_return, knowledge_transfer, final_settlement): " +
        "tick them, or give override_reason to complete the exit without them",
    );
    expect((await t.query(`SELECT status FROM employees WHERE id = $1`, [e.id]))[0].status).toBe("on_notice");
    const res = await api(hr.agent)
      .op("completeExit", { params: { employeeId: e.id }, body: { override_reason: " Assets written off " } })
      .expect(200);
    expect(res.body.data).toMatchObject({ status: "completed", completed_by: hr.userId, override_reason: "Assets written off" });
    expect((await t.query(`SELECT status FROM employees WHERE id = $1`, [e.id]))[0].status).toBe("exited");
    const [entry] = (
      await api(o.agent)
        .op("getEmployeeActivityLog", { params: { employeeId: e.id } })
        .expect(200)
    ).body.data;
    expect(entry).toMatchObject({ action: "employee.exited", actor_user_id: hr.userId });
    expect(entry.changes).toEqual({
      status: { from: "on_notice", to: "exited" },
      override_reason: "Assets written off",
      pending_items: ["asset_return", "knowledge_transfer", "final_settlement"],
    });
    expectError(await api(hr.agent).op("completeExit", { params: { employeeId: e.id }, body: {} }), 409, "conflict");
  });

  it("refuses before the last working day, without an exit, and for managers (403)", async () => {
    const o = await signupTenant(t);
    const { e, exit } = await resigned(o, {}, addDays(today(), 10));
    for (const c of exit.checklist) await o.agent.put(itemUrl(e.id, c.id)).send({ status: "done" }).expect(200);
    const early = expectError(await api(o.agent).op("completeExit", { params: { employeeId: e.id }, body: {} }), 409, "conflict");
    expect(early.error).toBe(`The exit can be completed after the last working day (${addDays(today(), 10)})`);
    const stay = await createEmployee(o);
    expectError(await api(o.agent).op("completeExit", { params: { employeeId: stay.id }, body: {} }), 409, "conflict");
    const manager = await addMember(t, o, "manager");
    expectError(await api(manager.agent).op("completeExit", { params: { employeeId: e.id }, body: {} }), 403, "forbidden");
    // with every item done and the last day passed, no reason is needed
    const done = await resigned(o);
    for (const c of done.exit.checklist) await o.agent.put(itemUrl(done.e.id, c.id)).send({ status: "done" }).expect(200);
    const res = await api(o.agent)
      .op("completeExit", { params: { employeeId: done.e.id }, body: { override_reason: "not needed" } })
      .expect(200);
    expect(res.body.data).toMatchObject({ status: "completed", completed_by: o.userId, override_reason: null });
  });
});
