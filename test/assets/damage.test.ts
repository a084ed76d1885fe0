// Damage reports and the whole workflow: assign → damage → return request → approve →
// under repair → repaired → available; write-offs; visibility; module gate; tenancy.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { addMember, expectError, signupTenant, useTestApp, type TenantSession } from "../support/app.ts";
import { assetsWorld, assign, createAsset, createCategory, insertEmployee, PNG } from "./fixtures.ts";

const t = useTestApp();
let owner: TenantSession;
let hr: TenantSession;
let emp: TenantSession;
let colleague: TenantSession;
let laptops: string;
let ravi: string;
let meera: string;

beforeAll(async () => {
  const w = await assetsWorld(t);
  ({ owner, hr, ravi, meera, emp, colleague } = w);
  laptops = w.categories.Laptops;
});

const assetRow = async (id: string) => (await t.query("SELECT status, condition FROM assets WHERE id = $1", [id]))[0];

async function upload(who: TenantSession): Promise<string> {
  const res = await who.agent
    .post("/api/upload")
    .attach("file", PNG, { filename: "damage.png", contentType: "image/png" })
    .field("purpose", "asset_damage")
    .expect(201);
  return res.body.data.id;
}

describe("listAssetDamageReports, createAssetDamageReport, resolveAssetDamageReport: asset damage reports", () => {
  it("runs the whole workflow: assign → major damage → return → under repair → repaired → available", async () => {
    const asset = await createAsset(hr, laptops, { name: "HP EliteBook", condition: "good" });
    const x = await assign(hr, asset.id, ravi, { assigned_on: "2026-01-05" });
    const photo = await upload(emp);

    const dmg = await api(emp.agent)
      .op("createAssetDamageReport", {
        body: { asset_id: asset.id, severity: "major", description: "Dropped it; screen cracked", file_id: photo },
      })
      .expect(201);
    expect(dmg.body.data).toMatchObject({
      asset_id: asset.id,
      asset_tag: asset.asset_tag,
      assignment_id: x.id,
      employee_id: ravi,
      employee_name: "Ravi Kumar",
      severity: "major",
      status: "open",
      file_id: photo,
      reported_by_user_id: emp.userId,
      reported_by_name: "Ravi Kumar",
    });
    // Still with the employee until returned, but recorded as damaged.
    expect(await assetRow(asset.id)).toEqual({ status: "assigned", condition: "damaged" });
    expect(
      (
        await api(hr.agent)
          .op("getAsset", { params: { assetId: asset.id } })
          .expect(200)
      ).body.data.open_damage_reports,
    ).toBe(1);
    expect(
      (await api(hr.agent).op("listNotifications").expect(200)).body.data.some(
        (n) => n.kind === "asset.damage_reported" && n.title.includes(asset.asset_tag),
      ),
    ).toBe(true);
    // hr can open the photo.
    await api(hr.agent)
      .op("downloadFile", { params: { fileId: photo } })
      .expect(200);

    const req = await api(emp.agent)
      .op("createAssetReturnRequest", { body: { assignment_id: x.id, reason: "Needs repair" } })
      .expect(201);
    const approved = await api(hr.agent)
      .op("decideAssetReturnRequest", { params: { id: req.body.data.id }, body: { status: "approved", returned_on: "2026-02-10" } })
      .expect(200);
    expect(approved.body.data).toMatchObject({ status: "approved", return_condition: "damaged", returned_on: "2026-02-10" });
    expect(await assetRow(asset.id)).toEqual({ status: "under_repair", condition: "damaged" });
    // No second report was opened: one is already on file.
    expect((await t.query("SELECT count(*)::int AS n FROM asset_damage_reports WHERE asset_id = $1", [asset.id]))[0].n).toBe(1);
    expectError(await api(hr.agent).op("createAssetAssignment", { body: { asset_id: asset.id, employee_id: meera } }), 409, "conflict");

    const fixed = await api(hr.agent)
      .op("resolveAssetDamageReport", {
        params: { id: dmg.body.data.id },
        body: { status: "repaired", resolution_notes: "Screen replaced", repair_cost: "8500.00" },
      })
      .expect(200);
    expect(fixed.body.data).toMatchObject({
      status: "repaired",
      resolution_notes: "Screen replaced",
      repair_cost: "8500.00",
      resolved_by_user_id: hr.userId,
    });
    expect(fixed.body.data.resolved_at).not.toBeNull();
    expect(await assetRow(asset.id)).toEqual({ status: "available", condition: "good" });
    const [r] = await t.query("SELECT status, repair_cost::text, resolved_by FROM asset_damage_reports WHERE id = $1", [dmg.body.data.id]);
    expect(r).toEqual({ status: "repaired", repair_cost: "8500.00", resolved_by: hr.userId });
    expect((await api(emp.agent).op("listNotifications").expect(200)).body.data.some((n) => n.kind === "asset.damage_repaired")).toBe(true);

    const statusTrail = (
      await api(owner.agent)
        .op("listActivityLog", { query: { entity_id: asset.id, action: "asset.status_changed" } })
        .expect(200)
    ).body.data.map((e) => e.changes?.status);
    expect(statusTrail.reverse()).toEqual([
      { from: "available", to: "assigned" },
      { from: "assigned", to: "under_repair" },
      { from: "under_repair", to: "available" },
    ]);
    // Back in service: it can be assigned again.
    await assign(hr, asset.id, meera);
    expectError(
      await api(hr.agent).op("resolveAssetDamageReport", { params: { id: dmg.body.data.id }, body: { status: "written_off" } }),
      409,
      "conflict",
    );
  });

  it("keeps an asset with minor damage in service", async () => {
    const asset = await createAsset(hr, laptops, { condition: "good" });
    const x = await assign(hr, asset.id, ravi);
    await api(emp.agent)
      .op("createAssetDamageReport", { body: { asset_id: asset.id, severity: "minor", description: "Scratch on the lid" } })
      .expect(201);
    expect(await assetRow(asset.id)).toEqual({ status: "assigned", condition: "damaged" });
    // Returned with the report still open and inspected as fine: back in service, still marked damaged.
    const req = await api(emp.agent)
      .op("createAssetReturnRequest", { body: { assignment_id: x.id, reason: "Swap" } })
      .expect(201);
    await api(hr.agent)
      .op("decideAssetReturnRequest", { params: { id: req.body.data.id }, body: { status: "approved", return_condition: "good" } })
      .expect(200);
    expect(await assetRow(asset.id)).toEqual({ status: "available", condition: "damaged" });
    // hr reports a minor damage on an unassigned asset: it stays available.
    const spare = await createAsset(hr, laptops);
    const r = await api(hr.agent)
      .op("createAssetDamageReport", { body: { asset_id: spare.id, severity: "minor", description: "Sticky key" } })
      .expect(201);
    expect(r.body.data).toMatchObject({ assignment_id: null, employee_id: null, employee_name: null });
    expect(await assetRow(spare.id)).toEqual({ status: "available", condition: "damaged" });
  });

  it("takes an unassigned asset with major damage out of service at once; restores it when the last report is repaired", async () => {
    const asset = await createAsset(hr, laptops, { condition: "fair" });
    const a = await api(hr.agent)
      .op("createAssetDamageReport", { body: { asset_id: asset.id, severity: "major", description: "Water damage" } })
      .expect(201);
    expect(await assetRow(asset.id)).toEqual({ status: "under_repair", condition: "damaged" });
    const b = await api(hr.agent)
      .op("createAssetDamageReport", { body: { asset_id: asset.id, severity: "minor", description: "Missing foot" } })
      .expect(201);
    await api(hr.agent)
      .op("resolveAssetDamageReport", { params: { id: a.body.data.id }, body: { status: "repaired" } })
      .expect(200);
    expect(await assetRow(asset.id)).toEqual({ status: "under_repair", condition: "damaged" });
    await api(hr.agent)
      .op("resolveAssetDamageReport", { params: { id: b.body.data.id }, body: { status: "repaired", condition: "fair" } })
      .expect(200);
    expect(await assetRow(asset.id)).toEqual({ status: "available", condition: "fair" });
  });

  it("writes off: refused while someone holds the asset, then retires it and closes its other reports", async () => {
    const asset = await createAsset(hr, laptops);
    const x = await assign(hr, asset.id, ravi);
    const d1 = await api(emp.agent)
      .op("createAssetDamageReport", { body: { asset_id: asset.id, severity: "major", description: "Motherboard dead" } })
      .expect(201);
    const d2 = await api(emp.agent)
      .op("createAssetDamageReport", { body: { asset_id: asset.id, severity: "minor", description: "Dent" } })
      .expect(201);
    expectError(
      await api(hr.agent).op("resolveAssetDamageReport", { params: { id: d1.body.data.id }, body: { status: "written_off" } }),
      409,
      "conflict",
    );
    const req = await api(emp.agent)
      .op("createAssetReturnRequest", { body: { assignment_id: x.id, reason: "Broken" } })
      .expect(201);
    await api(hr.agent)
      .op("decideAssetReturnRequest", { params: { id: req.body.data.id }, body: { status: "approved" } })
      .expect(200);
    expect(await assetRow(asset.id)).toEqual({ status: "under_repair", condition: "damaged" });
    const res = await api(hr.agent)
      .op("resolveAssetDamageReport", {
        params: { id: d1.body.data.id },
        body: { status: "written_off", resolution_notes: "Beyond repair", repair_cost: "0.00" },
      })
      .expect(200);
    expect(res.body.data.status).toBe("written_off");
    expect(await assetRow(asset.id)).toEqual({ status: "retired", condition: "damaged" });
    expect((await t.query("SELECT status FROM asset_damage_reports WHERE id = $1", [d2.body.data.id]))[0].status).toBe("written_off");
    // A retired asset takes no reports and no assignment.
    expectError(
      await api(hr.agent).op("createAssetDamageReport", { body: { asset_id: asset.id, severity: "minor", description: "More" } }),
      409,
      "conflict",
    );
    expectError(await api(hr.agent).op("createAssetAssignment", { body: { asset_id: asset.id, employee_id: meera } }), 409, "conflict");
  });

  it("lets employees report only on what they hold, with their own files", async () => {
    const theirs = await createAsset(hr, laptops);
    await assign(hr, theirs.id, meera);
    const spare = await createAsset(hr, laptops);
    const mine = await createAsset(hr, laptops);
    await assign(hr, mine.id, ravi);
    expectError(
      await api(emp.agent).op("createAssetDamageReport", { body: { asset_id: theirs.id, severity: "minor", description: "Not mine" } }),
      404,
      "not_found",
    );
    expectError(
      await api(emp.agent).op("createAssetDamageReport", { body: { asset_id: spare.id, severity: "minor", description: "Not mine" } }),
      404,
      "not_found",
    );
    expectError(
      await api(emp.agent).op("createAssetDamageReport", {
        body: { asset_id: "00000000-0000-4000-8000-000000000000", severity: "minor", description: "Unknown" },
      }),
      404,
      "not_found",
    );
    const unlinked = await addMember(t, owner, "employee");
    expectError(
      await api(unlinked.agent).op("createAssetDamageReport", { body: { asset_id: mine.id, severity: "minor", description: "Not mine" } }),
      404,
      "not_found",
    );
    const hrFile = await upload(hr);
    expectError(
      await api(emp.agent).op("createAssetDamageReport", {
        body: { asset_id: mine.id, severity: "minor", description: "Photo", file_id: hrFile },
      }),
      400,
      "validation_failed",
    );
    expectError(
      await api(emp.agent).op("createAssetDamageReport", {
        body: { asset_id: mine.id, severity: "minor", description: "Photo", file_id: "00000000-0000-4000-8000-000000000000" },
      }),
      400,
      "validation_failed",
    );
    for (const body of [
      { asset_id: mine.id, severity: "catastrophic", description: "Boom" },
      { asset_id: mine.id, severity: "minor" },
      { asset_id: mine.id, severity: "minor", description: "  " },
      { severity: "minor", description: "Where" },
    ])
      expectError(await emp.agent.post("/api/assets/damage-reports").send(body), 400, "validation_failed");
    expect(await assetRow(spare.id)).toEqual({ status: "available", condition: "new" });
    expect(
      (await t.query("SELECT count(*)::int AS n FROM asset_damage_reports WHERE asset_id = ANY($1)", [[mine.id, theirs.id, spare.id]]))[0]
        .n,
    ).toBe(0);
    // Only owner, admin and hr resolve.
    const d = await api(emp.agent)
      .op("createAssetDamageReport", { body: { asset_id: mine.id, severity: "minor", description: "Dent" } })
      .expect(201);
    expectError(
      await api(emp.agent).op("resolveAssetDamageReport", { params: { id: d.body.data.id }, body: { status: "repaired" } }),
      403,
      "forbidden",
    );
    for (const body of [
      { status: "open" },
      { status: "written_off", condition: "good" },
      { status: "repaired", repair_cost: "-5.00" },
      { status: "repaired", condition: "damaged" },
      {},
    ])
      expectError(await hr.agent.put(`/api/assets/damage-reports/${d.body.data.id}`).send(body), 400, "validation_failed");
    expect((await t.query("SELECT status FROM asset_damage_reports WHERE id = $1", [d.body.data.id]))[0].status).toBe("open");
  });

  it("shows employees only the reports on assets they held", async () => {
    const mine = await createAsset(hr, laptops);
    await assign(hr, mine.id, ravi);
    const theirs = await createAsset(hr, laptops);
    await assign(hr, theirs.id, meera);
    const r1 = await api(emp.agent)
      .op("createAssetDamageReport", { body: { asset_id: mine.id, severity: "minor", description: "Mine" } })
      .expect(201);
    const r2 = await api(hr.agent)
      .op("createAssetDamageReport", { body: { asset_id: theirs.id, severity: "major", description: "Theirs" } })
      .expect(201);
    const ids = async (who: TenantSession, qs = "") =>
      (await who.agent.get(`/api/assets/damage-reports?limit=100&${qs}`).expect(200)).body.data.map((x: { id: string }) => x.id);
    const forEmp = await ids(emp);
    expect(forEmp).toContain(r1.body.data.id);
    expect(forEmp).not.toContain(r2.body.data.id);
    expect(await ids(colleague)).toContain(r2.body.data.id);
    expect(await ids(emp, `employee_id=${meera}`)).toEqual([]);
    expect(await ids(hr, `asset_id=${theirs.id}`)).toEqual([r2.body.data.id]);
    expect(await ids(hr, `asset_id=${theirs.id}&severity=minor`)).toEqual([]);
    expect(await ids(hr, `employee_id=${ravi}&status=open`)).toContain(r1.body.data.id);
    expect(await ids(hr, `employee_id=${ravi}&status=repaired`)).not.toContain(r1.body.data.id);
    const mgr = await addMember(t, owner, "manager", { employeeId: await insertEmployee(t, owner.tenantId) });
    expect(await ids(mgr)).toEqual([]);
  });

  it("needs the assets module and isolates tenants", async () => {
    const asset = await createAsset(hr, laptops);
    const d = await api(hr.agent)
      .op("createAssetDamageReport", { body: { asset_id: asset.id, severity: "minor", description: "Scuff" } })
      .expect(201);
    const other = await signupTenant(t);
    expectError(await api(other.agent).op("listAssetDamageReports"), 403, "module_disabled");
    expectError(
      await api(other.agent).op("createAssetDamageReport", { body: { asset_id: asset.id, severity: "minor", description: "Scuff" } }),
      403,
      "module_disabled",
    );
    expectError(
      await api(other.agent).op("resolveAssetDamageReport", { params: { id: d.body.data.id }, body: { status: "repaired" } }),
      403,
      "module_disabled",
    );
    await api(other.agent)
      .op("updateCompanySettings", { body: { modules: ["assets"] } })
      .expect(200);
    expectError(
      await api(other.agent).op("createAssetDamageReport", { body: { asset_id: asset.id, severity: "major", description: "Sabotage" } }),
      404,
      "not_found",
    );
    expectError(
      await api(other.agent).op("resolveAssetDamageReport", { params: { id: d.body.data.id }, body: { status: "written_off" } }),
      404,
      "not_found",
    );
    expect((await api(other.agent).op("listAssetDamageReports").expect(200)).body.data).toEqual([]);
    // Their own upload cannot be attached across tenants either.
    const cat = await createCategory(other, "Laptops");
    const theirs = await createAsset(other, cat);
    const foreignFile = await upload(hr);
    expectError(
      await api(other.agent).op("createAssetDamageReport", {
        body: { asset_id: theirs.id, severity: "minor", description: "Photo", file_id: foreignFile },
      }),
      400,
      "validation_failed",
    );
    expect((await t.query("SELECT status FROM asset_damage_reports WHERE id = $1", [d.body.data.id]))[0].status).toBe("open");
    expect(await assetRow(asset.id)).toEqual({ status: "available", condition: "damaged" });
  });
});
