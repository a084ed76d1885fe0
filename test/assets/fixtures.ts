// Test data for the assets area. Employees are inserted by SQL (the employees API is built
// separately); categories and assets go through the API so every response is contract-checked.
import { expect } from "vitest";
import type { TenantSession, TestContext } from "./app.ts";
import { type EmployeeOverrides, insertEmployee as insertAnyEmployee } from "./employees.ts";

let seq = 0;

/** Inserts an employee (joined 2024-04-01 unless said otherwise) into `tenantId` and returns its id. */
export const insertEmployee = (ctx: TestContext, tenantId: string, overrides: EmployeeOverrides = {}): Promise<string> =>
  insertAnyEmployee(ctx, tenantId, { joining_date: "2024-04-01", ...overrides });

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

export async function assign(
  actor: TenantSession,
  assetId: string,
  employeeId: string,
  fields: Record<string, unknown> = {},
): Promise<any> {
  const res = await actor.agent.post("/api/assets/assignments").send({ asset_id: assetId, employee_id: employeeId, ...fields });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.data;
}

/** A tiny valid PNG, for damage photos. */
export const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082",
  "hex",
);
