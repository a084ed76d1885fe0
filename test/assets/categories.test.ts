// Asset categories: CRUD, unique names, deleting a category in use, roles, module gate, tenancy.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { addMember, expectError, signupTenant, useTestApp, type TenantSession } from "../support/app.ts";
import { createAsset, createCategory } from "../support/asset-factories.ts";

const t = useTestApp();
let owner: TenantSession;
let hr: TenantSession;
let emp: TenantSession;

beforeAll(async () => {
  owner = await signupTenant(t);
  await owner.agent
    .post("/api/configuration/company-settings")
    .send({ modules: ["assets"] })
    .expect(200);
  hr = await addMember(t, owner, "hr", { name: "Hema HR" });
  emp = await addMember(t, owner, "employee");
});

describe("listAssetCategories, createAssetCategory, getAssetCategory, updateAssetCategory, deleteAssetCategory: asset categories", () => {
  it("creates, reads, lists, renames and audits a category", async () => {
    const res = await hr.agent
      .post("/api/configuration/asset-categories")
      .send({ name: "  Laptops ", description: "Company laptops" })
      .expect(201);
    expect(res.body.data).toMatchObject({ name: "Laptops", description: "Company laptops", asset_count: 0 });
    const id = res.body.data.id;
    expect((await api(emp.agent).op("getAssetCategory", { params: { id } }).expect(200)).body.data.name).toBe("Laptops");
    await hr.agent.post("/api/configuration/asset-categories").send({ name: "Monitors" }).expect(201);
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

    const upd = await hr.agent
      .put(`/api/configuration/asset-categories/${id}`)
      .send({ name: "Laptops & notebooks", description: null })
      .expect(200);
    expect(upd.body.data).toMatchObject({ name: "Laptops & notebooks", description: null });
    const [row] = await t.query("SELECT name, description FROM asset_categories WHERE id = $1", [id]);
    expect(row).toEqual({ name: "Laptops & notebooks", description: null });
    const log = await owner.agent.get(`/api/configuration/activity-log?entity_id=${id}`).expect(200);
    expect(log.body.data.map((e: any) => e.action)).toEqual(["asset.category_updated", "asset.category_created"]);
    expect(log.body.data[0].changes.name).toEqual({ from: "Laptops", to: "Laptops & notebooks" });
  });

  it("keeps names unique per company, ignoring case (409)", async () => {
    await hr.agent.post("/api/configuration/asset-categories").send({ name: "Phones" }).expect(201);
    expectError(await hr.agent.post("/api/configuration/asset-categories").send({ name: "PHONES" }), 409, "conflict");
    const other = await hr.agent.post("/api/configuration/asset-categories").send({ name: "Tablets" }).expect(201);
    expectError(await hr.agent.put(`/api/configuration/asset-categories/${other.body.data.id}`).send({ name: "phones" }), 409, "conflict");
    // Renaming to itself in another case is fine.
    await hr.agent.put(`/api/configuration/asset-categories/${other.body.data.id}`).send({ name: "TABLETS" }).expect(200);
    // Another company may use the same name.
    const o2 = await signupTenant(t);
    await o2.agent
      .post("/api/configuration/company-settings")
      .send({ modules: ["assets"] })
      .expect(200);
    await o2.agent.post("/api/configuration/asset-categories").send({ name: "Phones" }).expect(201);
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
    expectError(await hr.agent.put(`/api/configuration/asset-categories/${id}`).send({}), 400, "validation_failed");
    expectError(await hr.agent.get("/api/configuration/asset-categories/not-a-uuid"), 400, "validation_failed");
    expectError(await hr.agent.get("/api/configuration/asset-categories?limit=101"), 400, "validation_failed");
  });

  it("refuses to delete a category still used by assets, and frees the name once deleted", async () => {
    const id = await createCategory(hr, "Headsets");
    const asset = await createAsset(hr, id);
    expect((await api(hr.agent).op("getAssetCategory", { params: { id } }).expect(200)).body.data.asset_count).toBe(1);
    expectError(await hr.agent.delete(`/api/configuration/asset-categories/${id}`), 409, "conflict");
    await hr.agent.delete(`/api/assets/${asset.id}`).expect(200);
    // Only deleted assets use it now: deletable.
    await hr.agent.delete(`/api/configuration/asset-categories/${id}`).expect(200);
    expectError(await hr.agent.get(`/api/configuration/asset-categories/${id}`), 404, "not_found");
    expectError(await hr.agent.put(`/api/configuration/asset-categories/${id}`).send({ name: "X" }), 404, "not_found");
    expectError(await hr.agent.delete(`/api/configuration/asset-categories/${id}`), 404, "not_found");
    const [row] = await t.query("SELECT deleted_at FROM asset_categories WHERE id = $1", [id]);
    expect(row.deleted_at).not.toBeNull();
    // A deleted category takes no new assets, and its name can be used again.
    expectError(await hr.agent.post("/api/assets").send({ name: "Jabra", category_id: id }), 400, "validation_failed");
    await hr.agent.post("/api/configuration/asset-categories").send({ name: "headsets" }).expect(201);
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
      expectError(await who.agent.post("/api/configuration/asset-categories").send({ name: "Mine" }), 403, "forbidden");
      expectError(await who.agent.put(`/api/configuration/asset-categories/${id}`).send({ name: "Mine" }), 403, "forbidden");
      expectError(await who.agent.delete(`/api/configuration/asset-categories/${id}`), 403, "forbidden");
    }
    const admin = await addMember(t, owner, "admin");
    await admin.agent.put(`/api/configuration/asset-categories/${id}`).send({ description: "By admin" }).expect(200);
    await owner.agent.put(`/api/configuration/asset-categories/${id}`).send({ description: "By owner" }).expect(200);
  });

  it("needs the assets module and isolates tenants", async () => {
    const id = await createCategory(hr);
    const other = await signupTenant(t);
    expectError(await other.agent.get("/api/configuration/asset-categories"), 403, "module_disabled");
    expectError(await other.agent.post("/api/configuration/asset-categories").send({ name: "X" }), 403, "module_disabled");
    expectError(await other.agent.get(`/api/configuration/asset-categories/${id}`), 403, "module_disabled");
    expectError(await other.agent.put(`/api/configuration/asset-categories/${id}`).send({ name: "X" }), 403, "module_disabled");
    expectError(await other.agent.delete(`/api/configuration/asset-categories/${id}`), 403, "module_disabled");
    await other.agent
      .post("/api/configuration/company-settings")
      .send({ modules: ["assets"] })
      .expect(200);
    expectError(await other.agent.get(`/api/configuration/asset-categories/${id}`), 404, "not_found");
    expectError(await other.agent.put(`/api/configuration/asset-categories/${id}`).send({ name: "Stolen" }), 404, "not_found");
    expectError(await other.agent.delete(`/api/configuration/asset-categories/${id}`), 404, "not_found");
    expect((await api(other.agent).op("listAssetCategories").expect(200)).body.data).toEqual([]);
    // Another tenant's category cannot be used for an asset either.
    expectError(await other.agent.post("/api/assets").send({ name: "X", category_id: id }), 400, "validation_failed");
    const [row] = await t.query("SELECT deleted_at FROM asset_categories WHERE id = $1", [id]);
    expect(row.deleted_at).toBeNull();
  });
});
