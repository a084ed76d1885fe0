// The asset register: tags, serial numbers, validation, filters, updates, manual status changes,
// soft delete, roles, module gate and tenancy.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { addMember, expectError, signupTenant, useTestApp, type TenantSession } from "../support/app.ts";
import { assetsWorld, assign, createAsset, createCategory, insertEmployee } from "./fixtures.ts";
import { today as todayIn } from "../support/clock.ts";
import { addDays } from "../../src/lib/dates.ts";

/** The companies here keep their dates in UTC (their settings, below): today there by the server's clock. */
const today = () => todayIn("UTC");

const t = useTestApp();
let owner: TenantSession;
let hr: TenantSession;
let laptops: string;
let phones: string;

beforeAll(async () => {
  const w = await assetsWorld(t, ["Laptops", "Phones"]);
  ({ owner, hr } = w);
  ({ Laptops: laptops, Phones: phones } = w.categories);
});

describe("listAssets, createAsset, getAsset, updateAsset, deleteAsset: asset register", () => {
  it("adds an asset with a generated tag and every field, and audits it", async () => {
    const res = await api(hr.agent)
      .op("createAsset", {
        body: {
          name: "MacBook Pro 14",
          category_id: laptops,
          serial_number: "C02XK1ZZ",
          purchase_date: "2026-01-15",
          purchase_cost: "189900.50",
          warranty_expires_on: "2029-01-14",
          condition: "good",
          notes: "16 GB",
        },
      })
      .expect(201);
    expect(res.body.data).toMatchObject({
      asset_tag: "AST-00001",
      name: "MacBook Pro 14",
      category_id: laptops,
      category_name: "Laptops",
      serial_number: "C02XK1ZZ",
      purchase_date: "2026-01-15",
      purchase_cost: "189900.50",
      warranty_expires_on: "2029-01-14",
      condition: "good",
      status: "available",
      notes: "16 GB",
      current_holder: null,
      open_damage_reports: 0,
    });
    const [row] = await t.query("SELECT asset_tag::text, purchase_cost::text, status, condition, created_by FROM assets WHERE id = $1", [
      res.body.data.id,
    ]);
    expect(row).toEqual({
      asset_tag: "AST-00001",
      purchase_cost: "189900.50",
      status: "available",
      condition: "good",
      created_by: hr.userId,
    });
    const log = await api(owner.agent)
      .op("listActivityLog", { query: { entity_id: res.body.data.id } })
      .expect(200);
    expect(log.body.data[0]).toMatchObject({ action: "asset.created", actor_user_id: hr.userId });

    const minimal = await createAsset(hr, phones, { name: "Pixel 9" });
    expect(minimal).toMatchObject({
      asset_tag: "AST-00002",
      condition: "new",
      status: "available",
      serial_number: null,
      purchase_cost: null,
      purchase_date: null,
    });
    expect(
      (
        await api(hr.agent)
          .op("getAsset", { params: { assetId: minimal.id } })
          .expect(200)
      ).body.data,
    ).toEqual({ ...minimal, version: expect.any(String) });
  });

  it("takes a given tag, refuses a taken one (any case), and skips taken numbers when generating", async () => {
    const given = await createAsset(hr, laptops, { asset_tag: "LAP-BLR-7" });
    expect(given.asset_tag).toBe("LAP-BLR-7");
    expectError(
      await api(hr.agent).op("createAsset", { body: { name: "Dup", category_id: laptops, asset_tag: "lap-blr-7" } }),
      409,
      "conflict",
    );
    const [{ last_value }] = await t.query<{ last_value: number }>(
      "SELECT last_value FROM number_sequences WHERE tenant_id = $1 AND name = 'asset_tag'",
      [owner.tenantId],
    );
    const next = `AST-${String(last_value + 1).padStart(5, "0")}`;
    await createAsset(hr, laptops, { asset_tag: next });
    const generated = await createAsset(hr, laptops);
    expect(generated.asset_tag).toBe(`AST-${String(last_value + 2).padStart(5, "0")}`);
  });

  it("numbers concurrent creates without duplicates", async () => {
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => api(hr.agent).op("createAsset", { body: { name: `Concurrent ${i}`, category_id: phones } })),
    );
    for (const r of results) expect(r.status).toBe(201);
    expect(new Set(results.map((r) => r.body.data.asset_tag)).size).toBe(5);
  });

  it("keeps serial numbers unique among live assets (any case); a deleted asset frees its serial but never its tag", async () => {
    const a = await createAsset(hr, laptops, { serial_number: "SN-UNIQUE-1" });
    expectError(
      await api(hr.agent).op("createAsset", { body: { name: "Dup", category_id: laptops, serial_number: "sn-unique-1" } }),
      409,
      "conflict",
    );
    const b = await createAsset(hr, laptops, { serial_number: "SN-UNIQUE-2" });
    expectError(
      await api(hr.agent).op("updateAsset", { params: { assetId: b.id }, body: { serial_number: "SN-UNIQUE-1" } }),
      409,
      "conflict",
    );
    expectError(await api(hr.agent).op("updateAsset", { params: { assetId: b.id }, body: { asset_tag: a.asset_tag } }), 409, "conflict");
    await api(hr.agent)
      .op("deleteAsset", { params: { assetId: a.id } })
      .expect(200);
    await createAsset(hr, laptops, { serial_number: "SN-UNIQUE-1" });
    expectError(
      await api(hr.agent).op("createAsset", { body: { name: "Reuse", category_id: laptops, asset_tag: a.asset_tag } }),
      409,
      "conflict",
    );
  });

  it("validates input (400 with details)", async () => {
    const future = addDays(today(), 3);
    const bad: Record<string, unknown>[] = [
      { category_id: laptops },
      { name: "X" },
      { name: "X", category_id: "nope" },
      { name: "X", category_id: laptops, purchase_cost: "12.5" },
      { name: "X", category_id: laptops, purchase_cost: 12.5 },
      { name: "X", category_id: laptops, purchase_cost: "-1.00" },
      { name: "X", category_id: laptops, purchase_date: "2026-02-30" },
      { name: "X", category_id: laptops, purchase_date: future },
      { name: "X", category_id: laptops, purchase_date: "2026-01-10", warranty_expires_on: "2025-12-31" },
      { name: "X", category_id: laptops, condition: "damaged" },
      { name: "X", category_id: laptops, asset_tag: "has space" },
      { name: "X", category_id: laptops, status: "assigned" },
      { name: "X", category_id: laptops, colour: "red" },
      { name: "X", category_id: "00000000-0000-4000-8000-000000000000" },
    ];
    for (const body of bad) {
      const res = await hr.agent.post("/api/assets").send(body);
      const err = expectError(res, 400, "validation_failed");
      expect(err.details?.length, JSON.stringify(body)).toBeGreaterThan(0);
    }
    const a = await createAsset(hr, laptops, { purchase_date: "2026-01-10" });
    expectError(
      await api(hr.agent).op("updateAsset", { params: { assetId: a.id }, body: { warranty_expires_on: "2026-01-01" } }),
      400,
      "validation_failed",
    );
    expectError(await hr.agent.put(`/api/assets/${a.id}`).send({ status: "available" }), 400, "validation_failed");
    expectError(await api(hr.agent).op("updateAsset", { params: { assetId: a.id }, body: {} }), 400, "validation_failed");
    expect((await t.query("SELECT count(*)::int AS n FROM assets WHERE name = 'X'"))[0].n).toBe(0);
  });

  it("lists with filters, search and pagination, showing the current holder", async () => {
    const cat = await createCategory(hr, "Monitors");
    const emp = await insertEmployee(t, owner.tenantId, { first_name: "Asha", last_name: "Rao", employee_code: "EMP-77001" });
    const m1 = await createAsset(hr, cat, { name: "Dell U2723", serial_number: "MON-AAA-1" });
    const m2 = await createAsset(hr, cat, { name: "LG 27UL", serial_number: "MON-BBB-2" });
    const m3 = await createAsset(hr, cat, { name: "Dell P2422" });
    await assign(hr, m2.id, emp, { expected_return_on: "2099-12-31" });
    await api(hr.agent)
      .op("updateAsset", { params: { assetId: m3.id }, body: { status: "retired" } })
      .expect(200);

    const all = await api(hr.agent)
      .op("listAssets", { query: { category_id: cat } })
      .expect(200);
    expect(all.body.data.map((a) => a.id)).toEqual([m1.id, m2.id, m3.id]);
    expect(all.body.data[1].current_holder).toMatchObject({
      employee_id: emp,
      employee_code: "EMP-77001",
      employee_name: "Asha Rao",
      assigned_on: today(),
      expected_return_on: "2099-12-31",
    });
    expect(all.body.data[1].status).toBe("assigned");

    const ids = async (qs: string) => (await hr.agent.get(`/api/assets?${qs}`).expect(200)).body.data.map((a: { id: string }) => a.id);
    expect(await ids(`category_id=${cat}&status=available`)).toEqual([m1.id]);
    expect(await ids(`category_id=${cat}&status=retired`)).toEqual([m3.id]);
    expect(await ids(`employee_id=${emp}`)).toEqual([m2.id]);
    expect(await ids(`category_id=${cat}&search=dell`)).toEqual([m1.id, m3.id]);
    expect(await ids(`search=mon-bbb`)).toEqual([m2.id]);
    expect(await ids(`search=${m3.asset_tag.toLowerCase()}`)).toEqual([m3.id]);
    expect(await ids(`category_id=${cat}&condition=new`)).toEqual([m1.id, m2.id, m3.id]);
    const page = await api(hr.agent)
      .op("listAssets", { query: { category_id: cat, limit: 2, page: 2 } })
      .expect(200);
    expect(page.body.data.map((a) => a.id)).toEqual([m3.id]);
    expect(page.body.pagination).toEqual({ page: 2, limit: 2, total: 3, total_pages: 2 });
    expectError(await hr.agent.get("/api/assets?status=broken"), 400, "validation_failed");
    expectError(await api(hr.agent).op("listAssets", { query: { page: 0 } }), 400, "validation_failed");
  });

  it("updates register data and audits from → to", async () => {
    const a = await createAsset(hr, laptops, { name: "ThinkPad", purchase_cost: "1000.00" });
    const res = await api(hr.agent)
      .op("updateAsset", {
        params: { assetId: a.id },
        body: {
          name: "ThinkPad X1",
          category_id: phones,
          purchase_cost: "1250.75",
          condition: "fair",
          notes: "Keyboard shiny",
          serial_number: "TP-1",
        },
      })
      .expect(200);
    expect(res.body.data).toMatchObject({
      name: "ThinkPad X1",
      category_id: phones,
      category_name: "Phones",
      purchase_cost: "1250.75",
      condition: "fair",
      notes: "Keyboard shiny",
      serial_number: "TP-1",
      status: "available",
    });
    const [row] = await t.query("SELECT name, purchase_cost::text, condition, category_id FROM assets WHERE id = $1", [a.id]);
    expect(row).toEqual({ name: "ThinkPad X1", purchase_cost: "1250.75", condition: "fair", category_id: phones });
    const log = await api(owner.agent)
      .op("listActivityLog", { query: { entity_id: a.id, action: "asset.updated" } })
      .expect(200);
    expect(log.body.data[0].changes).toMatchObject({
      name: { from: "ThinkPad", to: "ThinkPad X1" },
      purchase_cost: { from: "1000.00", to: "1250.75" },
      condition: { from: "new", to: "fair" },
    });
    await api(hr.agent)
      .op("updateAsset", { params: { assetId: a.id }, body: { purchase_date: "2026-01-10", warranty_expires_on: "2027-01-09" } })
      .expect(200);
    const dates = await api(owner.agent)
      .op("listActivityLog", { query: { entity_id: a.id, action: "asset.updated" } })
      .expect(200);
    expect(dates.body.data[0].changes).toEqual({
      purchase_date: { from: null, to: "2026-01-10" },
      warranty_expires_on: { from: null, to: "2027-01-09" },
    });
    expectError(
      await api(hr.agent).op("updateAsset", { params: { assetId: a.id }, body: { category_id: "00000000-0000-4000-8000-000000000000" } }),
      400,
      "validation_failed",
    );
    await api(hr.agent)
      .op("updateAsset", { params: { assetId: a.id }, body: { serial_number: null, purchase_cost: null } })
      .expect(200);
    const [cleared] = await t.query("SELECT serial_number, purchase_cost FROM assets WHERE id = $1", [a.id]);
    expect(cleared).toEqual({ serial_number: null, purchase_cost: null });
  });

  it("lets hr retire or mark lost only assets nobody holds; condition is locked by open damage reports", async () => {
    const emp = await insertEmployee(t, owner.tenantId);
    const a = await createAsset(hr, laptops);
    await assign(hr, a.id, emp);
    expectError(await api(hr.agent).op("updateAsset", { params: { assetId: a.id }, body: { status: "lost" } }), 409, "conflict");
    expectError(await api(hr.agent).op("updateAsset", { params: { assetId: a.id }, body: { status: "retired" } }), 409, "conflict");
    expectError(await api(hr.agent).op("deleteAsset", { params: { assetId: a.id } }), 409, "conflict");
    expect((await t.query("SELECT status, deleted_at FROM assets WHERE id = $1", [a.id]))[0]).toEqual({
      status: "assigned",
      deleted_at: null,
    });

    const b = await createAsset(hr, laptops);
    const lost = await api(hr.agent)
      .op("updateAsset", { params: { assetId: b.id }, body: { status: "lost", notes: "Left in a cab" } })
      .expect(200);
    expect(lost.body.data.status).toBe("lost");
    const log = await api(owner.agent)
      .op("listActivityLog", { query: { entity_id: b.id, action: "asset.status_changed" } })
      .expect(200);
    expect(log.body.data[0].changes!.status).toEqual({ from: "available", to: "lost" });
    const emp2 = await insertEmployee(t, owner.tenantId);
    expectError(await api(hr.agent).op("createAssetAssignment", { body: { asset_id: b.id, employee_id: emp2 } }), 409, "conflict");

    const c = await createAsset(hr, laptops);
    await api(hr.agent)
      .op("createAssetDamageReport", { body: { asset_id: c.id, severity: "minor", description: "Scratched lid" } })
      .expect(201);
    expectError(await api(hr.agent).op("updateAsset", { params: { assetId: c.id }, body: { condition: "good" } }), 409, "conflict");
    await api(hr.agent)
      .op("updateAsset", { params: { assetId: c.id }, body: { name: "Renamed while damaged" } })
      .expect(200);
  });

  it("soft-deletes: gone from every read, row and audit kept", async () => {
    const a = await createAsset(hr, laptops);
    await api(hr.agent)
      .op("deleteAsset", { params: { assetId: a.id } })
      .expect(200);
    expectError(await api(hr.agent).op("getAsset", { params: { assetId: a.id } }), 404, "not_found");
    expectError(await api(hr.agent).op("updateAsset", { params: { assetId: a.id }, body: { name: "Zombie" } }), 404, "not_found");
    expectError(await api(hr.agent).op("deleteAsset", { params: { assetId: a.id } }), 404, "not_found");
    expect(
      (
        await api(hr.agent)
          .op("listAssets", { query: { search: a.asset_tag } })
          .expect(200)
      ).body.data,
    ).toEqual([]);
    const [row] = await t.query("SELECT deleted_at FROM assets WHERE id = $1", [a.id]);
    expect(row.deleted_at).not.toBeNull();
    const log = await api(owner.agent)
      .op("listActivityLog", { query: { entity_id: a.id, action: "asset.deleted" } })
      .expect(200);
    expect(log.body.data).toHaveLength(1);
    const emp = await insertEmployee(t, owner.tenantId);
    expectError(await api(hr.agent).op("createAssetAssignment", { body: { asset_id: a.id, employee_id: emp } }), 404, "not_found");
  });

  it("keeps the register to owner, admin and hr", async () => {
    const a = await createAsset(hr, laptops);
    const admin = await addMember(t, owner, "admin");
    await api(admin.agent)
      .op("getAsset", { params: { assetId: a.id } })
      .expect(200);
    await api(owner.agent).op("listAssets").expect(200);
    for (const role of ["manager", "employee"] as const) {
      const who = await addMember(t, owner, role, { employeeId: await insertEmployee(t, owner.tenantId) });
      expectError(await api(who.agent).op("listAssets"), 403, "forbidden");
      expectError(await api(who.agent).op("getAsset", { params: { assetId: a.id } }), 403, "forbidden");
      expectError(await api(who.agent).op("createAsset", { body: { name: "Mine", category_id: laptops } }), 403, "forbidden");
      expectError(await api(who.agent).op("updateAsset", { params: { assetId: a.id }, body: { name: "Mine" } }), 403, "forbidden");
      expectError(await api(who.agent).op("deleteAsset", { params: { assetId: a.id } }), 403, "forbidden");
    }
  });

  it("needs the assets module and isolates tenants", async () => {
    const a = await createAsset(hr, laptops);
    const other = await signupTenant(t);
    expectError(await api(other.agent).op("listAssets"), 403, "module_disabled");
    expectError(await api(other.agent).op("createAsset", { body: { name: "X", category_id: laptops } }), 403, "module_disabled");
    expectError(await api(other.agent).op("getAsset", { params: { assetId: a.id } }), 403, "module_disabled");
    expectError(await api(other.agent).op("updateAsset", { params: { assetId: a.id }, body: { name: "X" } }), 403, "module_disabled");
    expectError(await api(other.agent).op("deleteAsset", { params: { assetId: a.id } }), 403, "module_disabled");
    await api(other.agent)
      .op("updateCompanySettings", { body: { modules: ["assets"] } })
      .expect(200);
    expectError(await api(other.agent).op("getAsset", { params: { assetId: a.id } }), 404, "not_found");
    expectError(await api(other.agent).op("updateAsset", { params: { assetId: a.id }, body: { name: "Stolen" } }), 404, "not_found");
    expectError(await api(other.agent).op("deleteAsset", { params: { assetId: a.id } }), 404, "not_found");
    expect((await api(other.agent).op("listAssets").expect(200)).body.data).toEqual([]);
    const cat = await createCategory(other, "Laptops");
    const mine = await createAsset(other, cat, { serial_number: "SAME-SERIAL" });
    expect(mine.asset_tag).toBe("AST-00001");
    await createAsset(hr, laptops, { serial_number: "SAME-SERIAL" });
    const [row] = await t.query("SELECT name, deleted_at FROM assets WHERE id = $1", [a.id]);
    expect(row.deleted_at).toBeNull();
    expect(row.name).not.toBe("Stolen");
  });
});
