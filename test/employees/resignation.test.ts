// Resignation, the exit record and the scheduled exit job.
import { describe, expect, it } from "vitest";
import { COMPLETE_EXITS_JOB, completeDueExits } from "../../src/modules/employees/exits.ts";
import { registerAllJobs } from "../../src/modules/jobs.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { addDays } from "../../src/lib/dates.ts";
import { addMember, expectDetails, expectError, signupTenant, useTestApp } from "../support/app.ts";
import { createEmployee } from "../support/employees.ts";
import { today } from "../support/clock.ts";
import { api } from "../support/api.ts";

const t = useTestApp();

describe("submitResignation: resignation", () => {
  it("moves the employee on notice and opens the exit with its checklist, in one transaction", async () => {
    const o = await signupTenant(t);
    const boss = await createEmployee(o);
    const bossMember = await addMember(t, o, "manager", { employeeId: boss.id });
    const e = await createEmployee(o, { reports_to: boss.id, joining_date: "2022-01-01" });
    const res = await api(o.agent)
      .op("submitResignation", {
        params: { employeeId: e.id },
        body: { resignation_date: "2024-05-02", last_working_day: "2024-06-01", reason: " Relocating " },
      })
      .expect(201);
    const exit = res.body.data;
    expect(exit).toMatchObject({
      employee_id: e.id,
      resignation_date: "2024-05-02",
      last_working_day: "2024-06-01",
      reason: "Relocating",
      status: "in_progress",
      submitted_by: o.userId,
      completed_at: null,
    });
    expect(exit.checklist.map((c) => [c.item, c.status])).toEqual([
      ["asset_return", "pending"],
      ["knowledge_transfer", "pending"],
      ["clearance", "pending"],
      ["final_settlement", "pending"],
    ]);
    const [row] = await t.query(`SELECT status FROM employees WHERE id = $1`, [e.id]);
    expect(row.status).toBe("on_notice");
    expect((await t.query(`SELECT count(*)::int AS n FROM exit_checklist_items WHERE exit_id = $1`, [exit.id]))[0].n).toBe(4);
    // by hand: getEmployee answers Employee | EmployeeDirectoryEntry, and this reads the full record
    const profile = (await o.agent.get(`/api/employees/${e.id}`).expect(200)).body.data;
    expect(profile.status).toBe("on_notice");
    expect(profile.exit).toEqual(exit);
    const [entry] = (
      await api(o.agent)
        .op("getEmployeeActivityLog", { params: { employeeId: e.id } })
        .expect(200)
    ).body.data;
    expect(entry).toMatchObject({ action: "employee.resigned", actor_user_id: o.userId });
    expect(entry.changes).toEqual({
      status: { from: "active", to: "on_notice" },
      resignation_date: { from: null, to: "2024-05-02" },
      last_working_day: { from: null, to: "2024-06-01" },
      reason: { from: null, to: "Relocating" },
    });
    // The manager is told in-app.
    const notes = (await api(bossMember.agent).op("listNotifications").expect(200)).body.data;
    expect(notes[0]).toMatchObject({ kind: "employee.resigned", link: `/api/employees/${e.id}` });
  });

  it("validates the dates (400) and refuses a second resignation (409)", async () => {
    const o = await signupTenant(t);
    const e = await createEmployee(o, { joining_date: "2023-01-01" });
    const bad = expectDetails(
      await api(o.agent).op("submitResignation", {
        params: { employeeId: e.id },
        body: { resignation_date: "2024-05-02", last_working_day: "2024-05-01", reason: "x" },
      }),
      400,
      "validation_failed",
    );
    expect(bad.details[0].path).toBe("body.last_working_day");
    const early = expectDetails(
      await api(o.agent).op("submitResignation", {
        params: { employeeId: e.id },
        body: { resignation_date: "2022-12-31", last_working_day: "2023-01-31", reason: "x" },
      }),
      400,
    );
    expect(early.details[0].path).toBe("body.resignation_date");
    const missing = expectDetails(await o.agent.post(`/api/employees/${e.id}/resignation`).send({ resignation_date: "2024-05-02" }), 400);
    expect(missing.details.map((d) => d.path).sort()).toEqual(["body.last_working_day", "body.reason"]);
    expect((await t.query(`SELECT status FROM employees WHERE id = $1`, [e.id]))[0].status).toBe("active");
    await api(o.agent)
      .op("submitResignation", {
        params: { employeeId: e.id },
        body: { resignation_date: "2024-05-02", last_working_day: "2024-05-02", reason: "x" },
      })
      .expect(201);
    expectError(
      await api(o.agent).op("submitResignation", {
        params: { employeeId: e.id },
        body: { resignation_date: "2024-05-03", last_working_day: "2024-06-02", reason: "again" },
      }),
      409,
      "conflict",
    );
    expect((await t.query(`SELECT count(*)::int AS n FROM employee_exits WHERE employee_id = $1`, [e.id]))[0].n).toBe(1);
  });

  it("two simultaneous resignations open one exit", async () => {
    const o = await signupTenant(t);
    const e = await createEmployee(o);
    const body = { resignation_date: "2024-05-02", last_working_day: "2024-06-01", reason: "x" };
    const statuses = (await Promise.all([1, 2].map(() => api(o.agent).op("submitResignation", { params: { employeeId: e.id }, body }))))
      .map((r) => r.status)
      .sort();
    expect(statuses).toEqual([201, 409]);
  });

  it("an employee resigns for themselves", async () => {
    const o = await signupTenant(t);
    const e = await createEmployee(o);
    const me = await addMember(t, o, "employee", { employeeId: e.id });
    const res = await api(me.agent)
      .op("submitResignation", {
        params: { employeeId: e.id },
        body: { resignation_date: today(), last_working_day: addDays(today(), 30), reason: "New job" },
      })
      .expect(201);
    expect(res.body.data.submitted_by).toBe(me.userId);
  });
});

describe("exit job", () => {
  it("marks employees exited only after their last working day, once", async () => {
    const o = await signupTenant(t);
    const leaving = await createEmployee(o);
    const staying = await createEmployee(o);
    const lwd = addDays(today(), 3);
    await api(o.agent)
      .op("submitResignation", {
        params: { employeeId: leaving.id },
        body: { resignation_date: today(), last_working_day: lwd, reason: "x" },
      })
      .expect(201);
    await api(o.agent)
      .op("submitResignation", {
        params: { employeeId: staying.id },
        body: { resignation_date: today(), last_working_day: addDays(today(), 60), reason: "y" },
      })
      .expect(201);

    // The job completes an exit once its checklist is done (test/employees/exit-checklist.test.ts).
    await t.query(`UPDATE exit_checklist_items SET status = 'done' WHERE tenant_id = $1`, [o.tenantId]);
    // On the last working day itself nothing happens (noon UTC is the same date in Asia/Kolkata).
    await completeDueExits(new Date(`${lwd}T12:00:00Z`));
    expect((await t.query(`SELECT status FROM employees WHERE id = $1`, [leaving.id]))[0].status).toBe("on_notice");

    const dayAfter = new Date(`${addDays(lwd, 1)}T12:00:00Z`);
    expect(await completeDueExits(dayAfter)).toBeGreaterThanOrEqual(1);
    const rows = await t.query(`SELECT id, status FROM employees WHERE id = ANY($1)`, [[leaving.id, staying.id]]);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.status]))).toEqual({ [leaving.id]: "exited", [staying.id]: "on_notice" });
    const [x] = await t.query(`SELECT status, completed_at FROM employee_exits WHERE employee_id = $1`, [leaving.id]);
    expect(x.status).toBe("completed");
    expect(x.completed_at).not.toBeNull();
    const log = (
      await api(o.agent)
        .op("getEmployeeActivityLog", { params: { employeeId: leaving.id } })
        .expect(200)
    ).body.data;
    expect(log[0]).toMatchObject({
      action: "employee.exited",
      actor_user_id: null,
      changes: { status: { from: "on_notice", to: "exited" } },
    });
    const profile = (
      await api(o.agent)
        .op("getEmployee", { params: { employeeId: leaving.id } })
        .expect(200)
    ).body.data;
    expect(profile).toMatchObject({ status: "exited", exit: { status: "completed" } });

    // Running again changes nothing; an exited employee cannot resign or be reactivated.
    await completeDueExits(dayAfter);
    expect(
      (await t.query(`SELECT count(*)::int AS n FROM audit_logs WHERE entity_id = $1 AND action = 'employee.exited'`, [leaving.id]))[0].n,
    ).toBe(1);
    expectError(
      await api(o.agent).op("submitResignation", {
        params: { employeeId: leaving.id },
        body: { resignation_date: today(), last_working_day: today(), reason: "x" },
      }),
      409,
    );
    expectError(await api(o.agent).op("updateEmployee", { params: { employeeId: leaving.id }, body: { status: "active" } }), 409);
  });

  it("is registered as a scheduled job", async () => {
    registerAllJobs();
    await expect(jobs.runNow(COMPLETE_EXITS_JOB)).resolves.toBeUndefined();
  });
});
