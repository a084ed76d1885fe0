// The assets area's test data: its company (the shared world of the assets tests) and builders for
// categories, assets and assignments through the typed client, so every response is contract-checked.
import { api, type RequestBodyOf } from "../support/api.ts";
import { addMember, signupTenant, type TenantSession, type TestContext } from "../support/app.ts";
import { type EmployeeOverrides, insertEmployee as insertAnyEmployee } from "../support/employees.ts";

let seq = 0;

/** Inserts an employee (joined 2024-04-01 unless said otherwise) into `tenantId` and returns its id. */
export const insertEmployee = (ctx: TestContext, tenantId: string, overrides: EmployeeOverrides = {}): Promise<string> =>
  insertAnyEmployee(ctx, tenantId, { joining_date: "2024-04-01", ...overrides });

export async function createCategory(actor: TenantSession, name = `Category ${++seq}`): Promise<string> {
  return (await api(actor.agent).op("createAssetCategory", { body: { name } }).expect(201)).body.data.id;
}

export async function createAsset(actor: TenantSession, categoryId: string, fields: Partial<RequestBodyOf<"createAsset">> = {}) {
  const body = { name: `Laptop ${++seq}`, category_id: categoryId, ...fields };
  return (await api(actor.agent).op("createAsset", { body }).expect(201)).body.data;
}

export async function assign(
  actor: TenantSession,
  assetId: string,
  employeeId: string,
  fields: Partial<RequestBodyOf<"createAssetAssignment">> = {},
) {
  const body = { asset_id: assetId, employee_id: employeeId, ...fields };
  return (await api(actor.agent).op("createAssetAssignment", { body }).expect(201)).body.data;
}

export interface AssetsWorld {
  owner: TenantSession;
  hr: TenantSession;
  /** Ravi Kumar (EMP-00101), signed in as `emp`, and Meera Nair (EMP-00102), signed in as `colleague`. */
  ravi: string;
  meera: string;
  emp: TenantSession;
  colleague: TenantSession;
  /** The ids of the categories asked for, by name. */
  categories: Record<string, string>;
}

/**
 * A company with the assets module on, its dates in UTC, an hr member, two employees each signed in
 * as an employee member, and the given asset categories (Laptops unless said otherwise).
 */
export async function assetsWorld(ctx: TestContext, categories: string[] = ["Laptops"]): Promise<AssetsWorld> {
  const owner = await signupTenant(ctx);
  await api(owner.agent)
    .op("updateCompanySettings", { body: { modules: ["assets"], timezone: "UTC" } })
    .expect(200);
  const hr = await addMember(ctx, owner, "hr", { name: "Hema HR" });
  const byName: Record<string, string> = {};
  for (const name of categories) byName[name] = await createCategory(hr, name);
  const ravi = await insertEmployee(ctx, owner.tenantId, { first_name: "Ravi", last_name: "Kumar", employee_code: "EMP-00101" });
  const meera = await insertEmployee(ctx, owner.tenantId, { first_name: "Meera", last_name: "Nair", employee_code: "EMP-00102" });
  const emp = await addMember(ctx, owner, "employee", { employeeId: ravi, name: "Ravi Kumar" });
  const colleague = await addMember(ctx, owner, "employee", { employeeId: meera, name: "Meera Nair" });
  return { owner, hr, ravi, meera, emp, colleague, categories: byName };
}

/** A tiny valid PNG, for damage photos. */
export const PNG = Buffer.from(
  "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082",
  "hex",
);
