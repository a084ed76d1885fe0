// The employee activity log shows each reader only what they may read elsewhere: salary setup
// entries only to the roles that may read payroll data (getEmployeeSalarySetup's roles, module on),
// and the actor's e-mail address and IP only to owner and admin.
import { describe, expect, it } from "vitest";
import { payrollEmployee, payrollWorld } from "../payroll/fixtures.ts";
import { addMember, type TenantSession, useTestApp } from "../support/app.ts";
import { insertEmployee } from "../support/employees.ts";
import { api } from "../support/api.ts";

const t = useTestApp();

const log = async (who: TenantSession, id: string) =>
  (
    await api(who.agent)
      .op("getEmployeeActivityLog", { params: { employeeId: id }, query: { limit: 100 } })
      .expect(200)
  ).body as {
    data: { action: string; actor_email: string | null; ip: string | null; changes: unknown }[];
    pagination: { total: number };
  };

describe("getEmployeeActivityLog: payroll entries and actor details by role", () => {
  it("hides salary setup entries from the manager and the employee, and actor e-mail and IP from all but owner and admin", async () => {
    const w = await payrollWorld(t);
    const bossId = await insertEmployee(t, w.owner.tenantId);
    const id = await payrollEmployee(t, w, "90000.00", { reports_to: bossId });
    const manager = await addMember(t, w.owner, "manager", { employeeId: bossId });
    const self = await addMember(t, w.owner, "employee", { employeeId: id });
    const admin = await addMember(t, w.owner, "admin");
    // An ordinary employee update by hr, so every reader has an entry to see.
    await api(w.hr.agent)
      .op("updateEmployee", { params: { employeeId: id }, body: { designation: "Analyst" } })
      .expect(200);

    for (const reader of [w.owner, admin, w.hr]) {
      const { data } = await log(reader, id);
      const setup = data.find((e) => e.action === "salary_setup.created");
      expect(setup?.changes).toMatchObject({ monthly_ctc: "90000.00" });
    }
    for (const reader of [manager, self]) {
      // The salary is not readable elsewhere ...
      await api(reader.agent)
        .op("getEmployeeSalarySetup", { params: { employeeId: id } })
        .expect(403);
      // ... nor through the log: no entry, not counted, and the serialized page does not carry it.
      const body = await log(reader, id);
      expect(body.data.map((e) => e.action)).toEqual(["employee.updated"]);
      expect(body.pagination.total).toBe(1);
      expect(JSON.stringify(body)).not.toContain("90000");
    }

    for (const reader of [w.owner, admin]) {
      const updated = (await log(reader, id)).data.find((e) => e.action === "employee.updated")!;
      expect(updated.actor_email).toBe(w.hr.email);
      expect(updated.ip).toEqual(expect.any(String));
    }
    for (const reader of [w.hr, manager, self]) {
      for (const entry of (await log(reader, id)).data) {
        expect(entry.actor_email).toBeNull();
        expect(entry.ip).toBeNull();
      }
    }
  });

  it("shows no payroll entries to hr while the payroll module is off", async () => {
    const w = await payrollWorld(t);
    const id = await payrollEmployee(t, w, "50000.00");
    expect((await log(w.hr, id)).data.map((e) => e.action)).toContain("salary_setup.created");
    await api(w.owner.agent)
      .op("updateCompanySettings", { body: { modules: [] } })
      .expect(200);
    expect((await log(w.hr, id)).data.map((e) => e.action)).not.toContain("salary_setup.created");
    expect((await log(w.owner, id)).data.map((e) => e.action)).not.toContain("salary_setup.created");
  });
});
