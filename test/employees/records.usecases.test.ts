// The employee rules called as use cases, without HTTP: generated codes, the resignation and the
// exit job's completion. Data is set up through the API (test/support), the rules run inside
// withTenant as an operation would.
import { describe, expect, it } from "vitest";
import { authOf } from "../support/auth-context.ts";
import { withTenant } from "../../src/db/tenancy.ts";
import type { AuthContext } from "../../src/http/types.ts";
import { completeDueExitsOfTenant, resign } from "../../src/modules/employees/exits.ts";
import { addEmployee, changeEmployee } from "../../src/modules/employees/records.ts";
import { signupTenant, type TenantSession, useTestApp, type AuditChanges } from "../support/app.ts";
import { employeeInput } from "../support/employees.ts";

const t = useTestApp();

const ownerAuth = (o: TenantSession): AuthContext => authOf(o, "owner", { name: "Olivia Owner" });
const input = (overrides: Record<string, unknown> = {}) => employeeInput(overrides) as Parameters<typeof addEmployee>[0];

async function rejection(p: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await p;
  } catch (err) {
    return err as { status: number; message: string };
  }
  throw new Error("expected the use case to fail");
}

describe("createEmployee: generated employee codes", () => {
  it("numbers the company's employees EMP-00001, EMP-00002, … skipping codes given by hand, per company", async () => {
    const o = await signupTenant(t);
    const other = await signupTenant(t);
    await withTenant(o.tenantId, async () => {
      expect((await addEmployee(input())).employee_code).toBe("EMP-00001");
      expect((await addEmployee(input({ employee_code: "EMP-00003" }))).employee_code).toBe("EMP-00003");
      expect((await addEmployee(input())).employee_code).toBe("EMP-00002");
      // EMP-00003 is taken: the counter's next number is skipped
      expect((await addEmployee(input())).employee_code).toBe("EMP-00004");
    });
    // another company starts at 1
    await withTenant(other.tenantId, async () => expect((await addEmployee(input())).employee_code).toBe("EMP-00001"));
  });

  it("refuses a code or an email already in use (409) and writes the creation to the activity log", async () => {
    const o = await signupTenant(t);
    await withTenant(o.tenantId, async () => {
      const first = await addEmployee(input({ employee_code: "IMP-1", email: "asha@example.test", first_name: "  Asha " }));
      expect(first).toMatchObject({
        view: "full",
        employee_code: "IMP-1",
        first_name: "Asha",
        email: "asha@example.test",
        status: "active",
        exit: null,
      });
      const taken = await rejection(addEmployee(input({ employee_code: "IMP-1" })));
      expect(taken.status).toBe(409);
      expect(taken.message).toBe("The employee code IMP-1 is already taken");
      const email = await rejection(addEmployee(input({ email: "ASHA@example.test" })));
      expect(email.status).toBe(409);
    });
    const [entry] = await t.query<{ action: string; changes: AuditChanges }>(
      `SELECT action, changes FROM audit_logs WHERE tenant_id = $1 AND entity_type = 'employee' ORDER BY created_at`,
      [o.tenantId],
    );
    expect(entry.action).toBe("employee.created");
    expect(entry.changes.employee_code).toEqual({ from: null, to: "IMP-1" });
  });
});

describe("submitResignation: the exit process", () => {
  it("puts the employee on notice with the four-item checklist, once; the status then follows the exit", async () => {
    const o = await signupTenant(t);
    const auth = ownerAuth(o);
    await withTenant(o.tenantId, async () => {
      const e = await addEmployee(input({ joining_date: "2022-01-01" }));
      const exit = await resign(auth, e.id, { resignation_date: "2024-05-02", last_working_day: "2024-06-01", reason: " Relocating " });
      expect(exit).toMatchObject({ employee_id: e.id, status: "in_progress", reason: "Relocating", submitted_by: o.userId });
      expect(exit.checklist.map((c) => c.item)).toEqual(["asset_return", "knowledge_transfer", "clearance", "final_settlement"]);
      expect(
        (await rejection(resign(auth, e.id, { resignation_date: "2024-05-03", last_working_day: "2024-06-02", reason: "again" }))).status,
      ).toBe(409);
      const byHand = await rejection(changeEmployee(auth, e.id, { status: "active" }));
      expect(byHand.status).toBe(409);
      expect(byHand.message).toBe("The employee is on notice; their status follows the exit process and cannot be set by hand");
      const before = await rejection(
        resign(auth, (await addEmployee(input({ joining_date: "2024-01-01" }))).id, {
          resignation_date: "2023-12-31",
          last_working_day: "2024-01-31",
          reason: "x",
        }),
      );
      expect(before.status).toBe(400);
    });
  });
});

describe("submitResignation, then the employees.complete-exits job: exit completion", () => {
  it("marks the employee exited only once the last working day has passed, and only once", async () => {
    const o = await signupTenant(t);
    const auth = ownerAuth(o);
    const id = await withTenant(o.tenantId, async () => {
      const e = await addEmployee(input({ joining_date: "2022-01-01" }));
      await resign(auth, e.id, { resignation_date: "2024-05-02", last_working_day: "2024-06-01", reason: "Moving on" });
      return e.id;
    });
    const status = async () => (await t.query(`SELECT status FROM employees WHERE id = $1`, [id]))[0].status;
    await withTenant(o.tenantId, async () => {
      // with checklist items pending the exit waits
      expect(await completeDueExitsOfTenant("2024-06-02")).toBe(0);
      expect(await status()).toBe("on_notice");
    });
    await t.query(`UPDATE exit_checklist_items SET status = 'done' WHERE tenant_id = $1`, [o.tenantId]);
    await withTenant(o.tenantId, async () => {
      expect(await completeDueExitsOfTenant("2024-06-01")).toBe(0); // the last working day itself
      expect(await status()).toBe("on_notice");
      expect(await completeDueExitsOfTenant("2024-06-02")).toBe(1);
      expect(await status()).toBe("exited");
      expect(await completeDueExitsOfTenant("2024-06-03")).toBe(0); // already completed
    });
    const [exit] = await t.query(`SELECT status, completed_at FROM employee_exits WHERE employee_id = $1`, [id]);
    expect(exit.status).toBe("completed");
    expect(exit.completed_at).not.toBeNull();
    const actions = (await t.query(`SELECT action, changes FROM audit_logs WHERE entity_id = $1 ORDER BY created_at`, [id])).map(
      (r) => r.action,
    );
    expect(actions).toEqual(["employee.created", "employee.resigned", "employee.exited"]);
  });
});
