// Test data for the assets area. Employees are inserted by SQL (the employees API is built
// separately); categories and assets go through the API so every response is contract-checked.
import { expect } from "vitest";
import type { TenantSession, TestContext } from "./app.ts";

let seq = 0;

export interface EmployeeOverrides {
  employee_code?: string;
  first_name?: string;
  last_name?: string;
  email?: string;
  department?: string;
  designation?: string;
  joining_date?: string;
  status?: string;
  deleted_at?: string | null;
}

/** Inserts an employee into `tenantId` and returns its id. */
export async function insertEmployee(ctx: TestContext, tenantId: string, overrides: EmployeeOverrides = {}): Promise<string> {
  const n = ++seq;
  const e = {
    employee_code: `EMP-${process.pid}-${String(n).padStart(5, "0")}`,
    first_name: "Test",
    last_name: `Employee ${n}`,
    email: `employee.${process.pid}.${n}@example.test`,
    department: "Engineering",
    designation: "Engineer",
    joining_date: "2024-04-01",
    status: "active",
    deleted_at: null,
    ...overrides,
  };
  const [row] = await ctx.query<{ id: string }>(
    `INSERT INTO employees (tenant_id, employee_code, first_name, last_name, email, department, designation, joining_date, status, deleted_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id`,
    [tenantId, e.employee_code, e.first_name, e.last_name, e.email, e.department, e.designation, e.joining_date, e.status, e.deleted_at],
  );
  return row.id;
}

export async function createCategory(actor: TenantSession, name = `Category ${++seq}`): Promise<string> {
  const res = await actor.agent.post("/api/configuration/asset-categories").send({ name });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data.id;
}

export async function createAsset(actor: TenantSession, categoryId: string, fields: Record<string, unknown> = {}): Promise<any> {
  const res = await actor.agent.post("/api/assets").send({ name: `Laptop ${++seq}`, category_id: categoryId, ...fields });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

export async function assign(actor: TenantSession, assetId: string, employeeId: string, fields: Record<string, unknown> = {}): Promise<any> {
  const res = await actor.agent.post("/api/assets/assignments").send({ asset_id: assetId, employee_id: employeeId, ...fields });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** A tiny valid PNG, for damage photos. */
export const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082", "hex");
