// The employee factories of every area's tests, in one place:
//   - createEmployee: through the API (POST /api/employees), so the record carries a generated code,
//     search text and an activity-log entry - for tests of the employees area and of the API;
//   - insertEmployee: one SQL insert, for tests of other areas that need many employees quickly;
//     any column of `employees` can be set.
import type { TenantSession, TestContext } from "./app.ts";
import type { components } from "../../generated/api-types.ts";
import type { RequestBodyOf } from "./api.ts";

/** An employee record as the API answers it (components/schemas/Employee). */
export type Employee = components["schemas"]["Employee"];

let seq = 0;

/** Columns of `employees` a test may set (any other column of the table too, by name). */
export interface EmployeeOverrides {
  employee_code?: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  department?: string;
  designation?: string;
  joining_date?: string;
  gender?: string | null;
  employment_type?: string;
  status?: string;
  reports_to?: string | null;
  branch_id?: string | null;
  work_location_id?: string | null;
  deleted_at?: string | null;
  state?: string | null;
  date_of_birth?: string | null;
  labour_card_number?: string | null;
  bank_iban?: string | null;
  bank_routing_code?: string | null;
}

const COLUMN = /^[a-z_]+$/;

/** Inserts an employee into `tenantId` by SQL and returns its id. */
export async function insertEmployee(ctx: TestContext, tenantId: string, overrides: EmployeeOverrides = {}): Promise<string> {
  const n = ++seq;
  const row: Record<string, unknown> = {
    employee_code: `EMP-${process.pid}-${String(n).padStart(5, "0")}`,
    first_name: "Test",
    last_name: `Person ${n}`,
    email: `employee.${process.pid}.${n}@example.test`,
    department: "Engineering",
    designation: "Engineer",
    joining_date: "2020-01-06",
    employment_type: "full_time",
    status: "active",
    ...Object.fromEntries(Object.entries(overrides).filter(([, v]) => v !== undefined)),
  };
  const cols = Object.keys(row);
  for (const c of cols) if (!COLUMN.test(c)) throw new Error(`insertEmployee: not a column name: ${c}`);
  const [r] = await ctx.query<{ id: string }>(
    `INSERT INTO employees (tenant_id, ${cols.join(", ")}) VALUES ($1, ${cols.map((_, i) => `$${i + 2}`).join(", ")}) RETURNING id`,
    [tenantId, ...Object.values(row)],
  );
  return r.id;
}

type EmployeeBody = RequestBodyOf<"createEmployee">;

/**
 * A valid body for POST /api/employees; `overrides` replace or add fields. Typed as the operation's
 * body when the overrides are (for the typed client), else as a plain object (a test's invalid input).
 */
export function employeeInput(overrides?: Partial<EmployeeBody>): EmployeeBody;
export function employeeInput(overrides: Record<string, unknown>): Record<string, unknown>;
export function employeeInput(overrides: Record<string, unknown> = {}): EmployeeBody {
  const n = ++seq;
  return {
    first_name: `Test${n}`,
    last_name: `Person${n}`,
    email: `employee.${process.pid}.${Date.now()}.${n}@example.test`,
    department: "Engineering",
    designation: "Engineer",
    joining_date: "2023-04-03",
    ...overrides,
  } as EmployeeBody;
}

/** Creates an employee as `owner` (any hr/admin/owner session) and returns the response's `data`. */
export async function createEmployee(owner: TenantSession, overrides: Record<string, unknown> = {}): Promise<Employee> {
  const res = await owner.agent.post("/api/employees").send(employeeInput(overrides));
  if (res.status !== 201) throw new Error(`createEmployee failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as Employee;
}
