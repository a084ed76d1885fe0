// Assignments: handing an available asset to a current employee, notifications, concurrency,
// validation, visibility of one's own assignments, module gate and tenancy.
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
let ravi: string; // employee record of `emp`
let meera: string; // employee record of `colleague`
let emp: TenantSession;
let colleague: TenantSession;

beforeAll(async () => {
  const w = await assetsWorld(t);
  ({ owner, hr, ravi, meera, emp, colleague } = w);
  laptops = w.categories.Laptops;
});

describe("listAssetAssignments, createAssetAssignment: asset assignments", () => {
  it("assigns an available asset, makes the employee its holder, audits and notifies them (in-app and email)", async () => {
    const a = await createAsset(hr, laptops, { name: "Dell Latitude", serial_number: "DL-1", condition: "good" });
    const res = await api(hr.agent)
      .op("createAssetAssignment", { body: { asset_id: a.id, employee_id: ravi, expected_return_on: "2099-06-30", notes: "With charger" } })
      .expect(201);
    expect(res.body.data).toMatchObject({
      asset_id: a.id,
      asset_tag: a.asset_tag,
      asset_name: "Dell Latitude",
      serial_number: "DL-1",
      category_name: "Laptops",
      employee_id: ravi,
      employee_code: "EMP-00101",
      employee_name: "Ravi Kumar",
      assigned_on: today(),
      expected_return_on: "2099-06-30",
      condition_at_assignment: "good",
      notes: "With charger",
      assigned_by_user_id: hr.userId,
      active: true,
      returned_on: null,
      return_condition: null,
    });
    const asset = await api(hr.agent)
      .op("getAsset", { params: { assetId: a.id } })
      .expect(200);
    expect(asset.body.data).toMatchObject({
      status: "assigned",
      current_holder: { assignment_id: res.body.data.id, employee_id: ravi, employee_name: "Ravi Kumar" },
    });
    const [row] = await t.query("SELECT status FROM assets WHERE id = $1", [a.id]);
    expect(row.status).toBe("assigned");
    const [as] = await t.query("SELECT employee_id, assigned_on::text, returned_on, assigned_by FROM asset_assignments WHERE id = $1", [
      res.body.data.id,
    ]);
    expect(as).toEqual({ employee_id: ravi, assigned_on: today(), returned_on: null, assigned_by: hr.userId });

    const notes = await api(emp.agent).op("listNotifications").expect(200);
    expect(notes.body.data.find((n) => n.kind === "asset.assigned")!.title).toContain(a.asset_tag);
    const mails = await t.query<{ subject: string; text_body: string }>(
      "SELECT subject, text_body FROM email_outbox WHERE to_address = $1",
      [emp.email],
    );
    expect(mails.some((m) => m.subject.includes(a.asset_tag) && m.text_body.includes("2099-06-30"))).toBe(true);
    expect((await api(colleague.agent).op("listNotifications").expect(200)).body.data.some((n) => n.kind === "asset.assigned")).toBe(false);

    const log = await api(owner.agent)
      .op("listActivityLog", { query: { entity_id: res.body.data.id } })
      .expect(200);
    expect(log.body.data[0]).toMatchObject({ action: "asset.assigned", actor_user_id: hr.userId });
    const assetLog = await api(owner.agent)
      .op("listActivityLog", { query: { entity_id: a.id, action: "asset.status_changed" } })
      .expect(200);
    expect(assetLog.body.data[0].changes!.status).toEqual({ from: "available", to: "assigned" });
  });

  it("assigns to an employee without a user account, recording the given date and condition", async () => {
    const nobody = await insertEmployee(t, owner.tenantId);
    const a = await createAsset(hr, laptops);
    const x = await assign(hr, a.id, nobody, { assigned_on: "2026-01-05", condition_at_assignment: "fair" });
    expect(x).toMatchObject({ assigned_on: "2026-01-05", condition_at_assignment: "fair", expected_return_on: null });
  });

  it("refuses an asset that is not available (409) and unknown assets (404)", async () => {
    const a = await createAsset(hr, laptops);
    await assign(hr, a.id, ravi);
    const err = expectError(
      await api(hr.agent).op("createAssetAssignment", { body: { asset_id: a.id, employee_id: meera } }),
      409,
      "conflict",
    );
    expect(err.error).toContain("not available");
    const b = await createAsset(hr, laptops);
    await api(hr.agent)
      .op("updateAsset", { params: { assetId: b.id }, body: { status: "retired" } })
      .expect(200);
    expectError(await api(hr.agent).op("createAssetAssignment", { body: { asset_id: b.id, employee_id: meera } }), 409, "conflict");
    const c = await createAsset(hr, laptops);
    await api(hr.agent)
      .op("createAssetDamageReport", { body: { asset_id: c.id, severity: "major", description: "Will not boot" } })
      .expect(201);
    expectError(await api(hr.agent).op("createAssetAssignment", { body: { asset_id: c.id, employee_id: meera } }), 409, "conflict");
    expectError(
      await api(hr.agent).op("createAssetAssignment", { body: { asset_id: "00000000-0000-4000-8000-000000000000", employee_id: meera } }),
      404,
      "not_found",
    );
  });

  it("only assigns to current employees of the company", async () => {
    const a = await createAsset(hr, laptops);
    const exited = await insertEmployee(t, owner.tenantId, { status: "exited" });
    const inactive = await insertEmployee(t, owner.tenantId, { status: "inactive" });
    const deleted = await insertEmployee(t, owner.tenantId, { deleted_at: new Date().toISOString() });
    const onNotice = await insertEmployee(t, owner.tenantId, { status: "on_notice" });
    expectError(await api(hr.agent).op("createAssetAssignment", { body: { asset_id: a.id, employee_id: exited } }), 409, "conflict");
    expectError(await api(hr.agent).op("createAssetAssignment", { body: { asset_id: a.id, employee_id: inactive } }), 409, "conflict");
    expectError(
      await api(hr.agent).op("createAssetAssignment", { body: { asset_id: a.id, employee_id: deleted } }),
      400,
      "validation_failed",
    );
    expectError(
      await api(hr.agent).op("createAssetAssignment", { body: { asset_id: a.id, employee_id: "00000000-0000-4000-8000-000000000000" } }),
      400,
      "validation_failed",
    );
    expect((await t.query("SELECT status FROM assets WHERE id = $1", [a.id]))[0].status).toBe("available");
    await assign(hr, a.id, onNotice);
  });

  it("validates input", async () => {
    const a = await createAsset(hr, laptops);
    const future = addDays(today(), 3);
    for (const body of [
      { asset_id: a.id },
      { employee_id: ravi },
      { asset_id: "x", employee_id: ravi },
      { asset_id: a.id, employee_id: ravi, assigned_on: future },
      { asset_id: a.id, employee_id: ravi, assigned_on: "2026-01-10", expected_return_on: "2026-01-09" },
      { asset_id: a.id, employee_id: ravi, assigned_on: "2026-02-29" },
      { asset_id: a.id, employee_id: ravi, condition_at_assignment: "shiny" },
      { asset_id: a.id, employee_id: ravi, returned_on: "2026-01-01" },
    ])
      expectError(await hr.agent.post("/api/assets/assignments").send(body), 400, "validation_failed");
    expect((await t.query("SELECT count(*)::int AS n FROM asset_assignments WHERE asset_id = $1", [a.id]))[0].n).toBe(0);
    expectError(await hr.agent.get("/api/assets/assignments?active=maybe"), 400, "validation_failed");
  });

  it("lets exactly one of two concurrent assignments of the same asset succeed", async () => {
    for (let round = 0; round < 4; round++) {
      const a = await createAsset(hr, laptops);
      const [r1, r2] = await Promise.all([
        api(hr.agent).op("createAssetAssignment", { body: { asset_id: a.id, employee_id: ravi } }),
        api(owner.agent).op("createAssetAssignment", { body: { asset_id: a.id, employee_id: meera } }),
      ]);
      expect([r1.status, r2.status].sort()).toEqual([201, 409]);
      const loser = r1.status === 409 ? r1 : r2;
      expect(expectError(loser, 409, "conflict").error).toContain("not available");
      const rows = await t.query("SELECT employee_id FROM asset_assignments WHERE asset_id = $1 AND returned_on IS NULL", [a.id]);
      expect(rows).toHaveLength(1);
      expect(rows[0].employee_id).toBe((r1.status === 201 ? r1 : r2).body.data.employee_id);
    }
  });

  it("lists with filters; managers and employees see only their own", async () => {
    const mine = await createAsset(hr, laptops);
    const theirs = await createAsset(hr, laptops);
    const x1 = await assign(hr, mine.id, ravi);
    const x2 = await assign(hr, theirs.id, meera);

    const ids = async (who: TenantSession, qs = "") => {
      const r = await who.agent.get(`/api/assets/assignments?limit=100&${qs}`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return (r.body.data as { id: string }[]).map((x) => x.id);
    };
    const forEmp = await ids(emp);
    expect(forEmp).toContain(x1.id);
    expect(forEmp).not.toContain(x2.id);
    expect(await ids(emp, `employee_id=${meera}`)).toEqual([]);
    expect(await ids(emp, `asset_id=${theirs.id}`)).toEqual([]);
    expect(await ids(colleague, `asset_id=${theirs.id}`)).toEqual([x2.id]);
    expect(await ids(hr, `asset_id=${mine.id}`)).toEqual([x1.id]);
    expect(await ids(hr, `employee_id=${meera}&active=true`)).toContain(x2.id);
    expect(await ids(hr, `employee_id=${meera}&active=false`)).not.toContain(x2.id);

    // A manager sees their own assignments only, not their colleagues'.
    const mgrEmp = await insertEmployee(t, owner.tenantId);
    const manager = await addMember(t, owner, "manager", { employeeId: mgrEmp });
    const m = await assign(hr, (await createAsset(hr, laptops)).id, mgrEmp);
    expect(await ids(manager)).toEqual([m.id]);
    // Without a linked employee record there is nothing to see.
    const unlinked = await addMember(t, owner, "employee");
    expect(await ids(unlinked)).toEqual([]);
    expect((await api(unlinked.agent).op("listAssetAssignments").expect(200)).body.pagination.total).toBe(0);
    // Only owner, admin and hr assign.
    const free = await createAsset(hr, laptops);
    for (const who of [emp, manager])
      expectError(await api(who.agent).op("createAssetAssignment", { body: { asset_id: free.id, employee_id: ravi } }), 403, "forbidden");
  });

  it("needs the assets module and isolates tenants", async () => {
    const a = await createAsset(hr, laptops);
    const other = await signupTenant(t);
    expectError(await api(other.agent).op("listAssetAssignments"), 403, "module_disabled");
    expectError(
      await api(other.agent).op("createAssetAssignment", { body: { asset_id: a.id, employee_id: ravi } }),
      403,
      "module_disabled",
    );
    await api(other.agent)
      .op("updateCompanySettings", { body: { modules: ["assets"] } })
      .expect(200);
    const otherEmp = await insertEmployee(t, other.tenantId);
    // Our asset to their employee: the asset is unknown to them.
    expectError(await api(other.agent).op("createAssetAssignment", { body: { asset_id: a.id, employee_id: otherEmp } }), 404, "not_found");
    // Their asset to our employee: the employee is unknown to them.
    const cat = await createCategory(other, "Laptops");
    const theirs = await createAsset(other, cat);
    expectError(
      await api(other.agent).op("createAssetAssignment", { body: { asset_id: theirs.id, employee_id: ravi } }),
      400,
      "validation_failed",
    );
    expect(
      (
        await api(other.agent)
          .op("listAssetAssignments", { query: { employee_id: ravi } })
          .expect(200)
      ).body.data,
    ).toEqual([]);
    expect((await t.query("SELECT status FROM assets WHERE id = $1", [a.id]))[0].status).toBe("available");
  });
});
