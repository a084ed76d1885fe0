// Employee factories for tests of every area: records are created through the API
// (POST /api/employees), so they carry generated codes, search text and an activity-log entry.
import type { TenantSession } from "./app.ts";

let seq = 0;

/** A valid body for POST /api/employees; `overrides` replace or add fields. */
export function employeeInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const n = ++seq;
  return {
    first_name: `Test${n}`,
    last_name: `Person${n}`,
    email: `employee.${process.pid}.${Date.now()}.${n}@example.test`,
    department: "Engineering",
    designation: "Engineer",
    joining_date: "2023-04-03",
    ...overrides,
  };
}

/** Creates an employee as `owner` (any hr/admin/owner session) and returns the response's `data`. */
export async function createEmployee(owner: TenantSession, overrides: Record<string, unknown> = {}): Promise<any> {
  const res = await owner.agent.post("/api/employees").send(employeeInput(overrides));
  if (res.status !== 201) throw new Error(`createEmployee failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}
