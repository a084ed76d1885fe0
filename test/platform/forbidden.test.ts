// Every 403 says what the caller lacks (src/http/guards.ts): a role the operation admits (in words
// and `allowed_roles`), a credential's scope (`required_scope`, test/integrations/credentials.test.ts),
// a session, or the module (`module_disabled`, naming it) - as components/responses/Forbidden says.
import { describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { addMember, expectError, signupTenant, useTestApp } from "../support/app.ts";
import { employeeInput } from "../support/employees.ts";

const t = useTestApp();

describe("403 forbidden names what is missing", () => {
  it("createEmployee by an employee: the roles the operation admits, in the message and in allowed_roles", async () => {
    const owner = await signupTenant(t);
    const employee = await addMember(t, owner, "employee");
    const res = expectError(await api(employee.agent).op("createEmployee", { body: employeeInput() }), 403, "forbidden");
    expect(res.error).toBe("This operation is for the roles owner, admin, hr; your role in this company is employee");
    expect(res.allowed_roles).toEqual(["owner", "admin", "hr"]);
    expect(res.required_scope).toBeUndefined();
    expect(await t.query("SELECT 1 FROM employees WHERE tenant_id = $1", [owner.tenantId])).toHaveLength(0);
  });

  it("listPayrollRuns while the module is off: module_disabled names the module", async () => {
    const owner = await signupTenant(t);
    const res = expectError(await api(owner.agent).op("listPayrollRuns", {}), 403, "module_disabled");
    expect(res.error).toMatch(/payroll/);
  });
});
