// Asset categories: CRUD, unique names, deleting a category in use, roles, module gate, tenancy.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { addMember, expectError, signupTenant, useTestApp, type TenantSession } from "../support/app.ts";
import { assetsWorld, createAsset, createCategory } from "./fixtures.ts";

const t = useTestApp();
let owner: TenantSession;
let hr: TenantSession;
let emp: TenantSession;

beforeAll(async () => {
  ({ owner, hr, emp } = await assetsWorld(t, []));
});

describe("listAssetCategories, createAssetCategory, getAssetCategory, updateAssetCategory, deleteAssetCategory: asset categories", () => {
  it("creates, reads, lists, renames and audits a category", async () => {
    const res = await api(hr.agent)
      .op("createAssetCategory", { body: { name: "  Laptops ", description: "Company laptops" } })
      .expect(201);
    expect(res.body.data).toMatchObject({ name: "Laptops", description: "Company laptops", asset_count: 0 });
    const id = res.body.data.id;
    expect((await api(emp.agent).op("getAssetCategory", { params: { id } }).expect(200)).body.data.name).toBe("Laptops");
    await api(hr.agent)
      .op("createAssetCategory", { body: { name: "Monitors" } })
      .expect(201);
    const list = await api(emp.agent)
      .op("listAssetCategories", { query: { search: "lap" } })
      .expect(200);
    expect(list.body.data.map((c) => c.name)).toEqual(["Laptops"]);
    expect(list.body.pagination).toEqual({ page: 1, limit: 20, total: 1, total_pages: 1 });
    const page = await api(hr.agent)
      .op("listAssetCategories", { query: { limit: 1, page: 2 } })
      .expect(200);
    expect(page.body.data.map((c) => c.name)).toEqual(["Monitors"]);
    expect(page.body.pagination).toEqual({ page: 2, limit: 1, total: 2, total_pages: 2 });

    const upd = await api(hr.agent)
      .op("updateAssetCategory", { params: { id }, body: { name: "Laptops & notebooks", description: null } })
      .expect(200);
    expect(upd.body.data).toMatchObject({ name: "Laptops & notebooks", description: null });
    const [row] = await t.query("SELECT name, description FROM asset_categories WHERE id = $1", [id]);
    expect(row).toEqual({ name: "Laptops & notebooks", description: null });
    const log = await api(owner.agent)
      .op("listActivityLog", { query: { entity_id: id } })
      .expect(200);
    expect(log.body.data.map((e) => e.action)).toEqual(["asset.category_updated", "asset.category_created"]);
    expect(log.body.data[0].changes?.name).toEqual({ from: "Laptops", to: "Laptops & notebooks" });
  });

  it("keeps names unique per company, ignoring case (409)", async () => {
    await api(hr.agent)
      .op("createAssetCategory", { body: { name: "Phones" } })
      .expect(201);
    expectError(await api(hr.agent).op("createAssetCategory", { body: { name: "PHONES" } }), 409, "conflict");
    const other = await api(hr.agent)
      .op("createAssetCategory", { body: { name: "Tablets" } })
      .expect(201);
    expectError(
      await api(hr.agent).op("updateAssetCategory", { params: { id: other.body.data.id }, body: { name: "phones" } }),
      409,
      "conflict",
    );
    // Renaming to itself in another case is fine.
    await api(hr.agent)
      .op("updateAssetCategory", { params: { id: other.body.data.id }, body: { name: "TABLETS" } })
      .expect(200);
    // Another company may use the same name.
    const o2 = await signupTenant(t);
    await api(o2.agent)
      .op("updateCompanySettings", { body: { modules: ["assets"] } })
      .expect(200);
    await api(o2.agent)
      .op("createAssetCategory", { body: { name: "Phones" } })
      .expect(201);
  });

  it("validates input", async () => {
    for (const body of [
      {},
      { name: "" },
      { name: "   " },
      { name: "x".repeat(101) },
      { name: "Ok", extra: 1 },
      { name: "Ok", description: "d".repeat(1001) },
    ])
      expectError(await hr.agent.post("/api/configuration/asset-categories").send(body), 400, "validation_failed");
    const id = await createCategory(hr);
    expectError(await api(hr.agent).op("updateAssetCategory", { params: { id }, body: {} }), 400, "validation_failed");
    expectError(await api(hr.agent).op("getAssetCategory", { params: { id: "not-a-uuid" } }), 400, "validation_failed");
    expectError(await api(hr.agent).op("listAssetCategories", { query: { limit: 101 } }), 400, "validation_failed");
  });

  it("refuses to delete a category still used by assets, and frees the name once deleted", async () => {
    const id = await createCategory(hr, "Headsets");
    const asset = await createAsset(hr, id);
    expect((await api(hr.agent).op("getAssetCategory", { params: { id } }).expect(200)).body.data.asset_count).toBe(1);
    expectError(await api(hr.agent).op("deleteAssetCategory", { params: { id } }), 409, "conflict");
    await api(hr.agent)
      .op("deleteAsset", { params: { assetId: asset.id } })
      .expect(200);
    // Only deleted assets use it now: deletable.
    await api(hr.agent).op("deleteAssetCategory", { params: { id } }).expect(200);
    expectError(await api(hr.agent).op("getAssetCategory", { params: { id } }), 404, "not_found");
    expectError(await api(hr.agent).op("updateAssetCategory", { params: { id }, body: { name: "X" } }), 404, "not_found");
    expectError(await api(hr.agent).op("deleteAssetCategory", { params: { id } }), 404, "not_found");
    const [row] = await t.query("SELECT deleted_at FROM asset_categories WHERE id = $1", [id]);
    expect(row.deleted_at).not.toBeNull();
    // A deleted category takes no new assets, and its name can be used again.
    expectError(await api(hr.agent).op("createAsset", { body: { name: "Jabra", category_id: id } }), 400, "validation_failed");
    await api(hr.agent)
      .op("createAssetCategory", { body: { name: "headsets" } })
      .expect(201);
    const log = await api(owner.agent)
      .op("listActivityLog", { query: { entity_id: id, action: "asset.category_deleted" } })
      .expect(200);
    expect(log.body.data).toHaveLength(1);
  });

  it("lets every member read but only owner, admin and hr change categories", async () => {
    const id = await createCategory(hr);
    const manager = await addMember(t, owner, "manager");
    await api(manager.agent).op("listAssetCategories").expect(200);
    for (const who of [emp, manager]) {
      expectError(await api(who.agent).op("createAssetCategory", { body: { name: "Mine" } }), 403, "forbidden");
      expectError(await api(who.agent).op("updateAssetCategory", { params: { id }, body: { name: "Mine" } }), 403, "forbidden");
      expectError(await api(who.agent).op("deleteAssetCategory", { params: { id } }), 403, "forbidden");
    }
    const admin = await addMember(t, owner, "admin");
    await api(admin.agent)
      .op("updateAssetCategory", { params: { id }, body: { description: "By admin" } })
      .expect(200);
    await api(owner.agent)
      .op("updateAssetCategory", { params: { id }, body: { description: "By owner" } })
      .expect(200);
  });

  it("needs the assets module and isolates tenants", async () => {
    const id = await createCategory(hr);
    const other = await signupTenant(t);
    expectError(await api(other.agent).op("listAssetCategories"), 403, "module_disabled");
    expectError(await api(other.agent).op("createAssetCategory", { body: { name: "X" } }), 403, "module_disabled");
    expectError(await api(other.agent).op("getAssetCategory", { params: { id } }), 403, "module_disabled");
    expectError(await api(other.agent).op("updateAssetCategory", { params: { id }, body: { name: "X" } }), 403, "module_disabled");
    expectError(await api(other.agent).op("deleteAssetCategory", { params: { id } }), 403, "module_disabled");
    await api(other.agent)
      .op("updateCompanySettings", { body: { modules: ["assets"] } })
      .expect(200);
    expectError(await api(other.agent).op("getAssetCategory", { params: { id } }), 404, "not_found");
    expectError(await api(other.agent).op("updateAssetCategory", { params: { id }, body: { name: "Stolen" } }), 404, "not_found");
    expectError(await api(other.agent).op("deleteAssetCategory", { params: { id } }), 404, "not_found");
    expect((await api(other.agent).op("listAssetCategories").expect(200)).body.data).toEqual([]);
    // Another tenant's category cannot be used for an asset either.
    expectError(await api(other.agent).op("createAsset", { body: { name: "X", category_id: id } }), 400, "validation_failed");
    const [row] = await t.query("SELECT deleted_at FROM asset_categories WHERE id = $1", [id]);
    expect(row.deleted_at).toBeNull();
  });
});
