// Branches and work locations.
import { describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { addMember, expectDetails, expectError, signupTenant, useTestApp } from "../support/app.ts";
import { createEmployee } from "../support/employees.ts";

const t = useTestApp();

describe("listBranches, createBranch, getBranch, updateBranch, deleteBranch: branches", () => {
  it("create, read, list with employee counts, update with audit", async () => {
    const o = await signupTenant(t);
    const b = (
      await api(o.agent)
        .op("createBranch", { body: { name: " Mumbai HQ ", code: "MUM", city: "Mumbai", state: "Maharashtra", country: "IN" } })
        .expect(201)
    ).body.data;
    expect(b).toMatchObject({ name: "Mumbai HQ", code: "MUM", city: "Mumbai", country: "IN", employee_count: 0, address: null });
    await api(o.agent)
      .op("createBranch", { body: { name: "Dubai" } })
      .expect(201);
    await createEmployee(o, { branch_id: b.id });
    await createEmployee(o, { branch_id: b.id });
    const got = (
      await api(o.agent)
        .op("getBranch", { params: { branchId: b.id } })
        .expect(200)
    ).body.data;
    expect(got.employee_count).toBe(2);
    const list = (await api(o.agent).op("listBranches").expect(200)).body;
    expect(list.data.map((x) => [x.name, x.employee_count])).toEqual([
      ["Dubai", 0],
      ["Mumbai HQ", 2],
    ]);
    expect(list.pagination.total).toBe(2);

    const up = (
      await api(o.agent)
        .op("updateBranch", { params: { branchId: b.id }, body: { address: "One BKC", city: null } })
        .expect(200)
    ).body.data;
    expect(up).toMatchObject({ address: "One BKC", city: null, name: "Mumbai HQ", employee_count: 2 });
    expect((await t.query(`SELECT address, city FROM branches WHERE id = $1`, [b.id]))[0]).toEqual({ address: "One BKC", city: null });
    const log = (
      await api(o.agent)
        .op("listActivityLog", { query: { entity_id: b.id } })
        .expect(200)
    ).body.data;
    expect(log.map((l) => l.action)).toEqual(["branch.updated", "branch.created"]);
    expect(log[0].changes).toEqual({ address: { from: null, to: "One BKC" }, city: { from: "Mumbai", to: null } });
  });

  it("names and codes are unique (case-insensitive) among live branches", async () => {
    const o = await signupTenant(t);
    const b = (
      await api(o.agent)
        .op("createBranch", { body: { name: "Pune", code: "PNQ" } })
        .expect(201)
    ).body.data;
    expectError(await api(o.agent).op("createBranch", { body: { name: "PUNE" } }), 409, "conflict");
    expectError(await api(o.agent).op("createBranch", { body: { name: "Pune 2", code: "pnq" } }), 409, "conflict");
    const c = (
      await api(o.agent)
        .op("createBranch", { body: { name: "Chennai" } })
        .expect(201)
    ).body.data;
    expectError(await api(o.agent).op("updateBranch", { params: { branchId: c.id }, body: { name: "pune" } }), 409, "conflict");
    await api(o.agent)
      .op("deleteBranch", { params: { branchId: b.id } })
      .expect(200);
    await api(o.agent)
      .op("createBranch", { body: { name: "Pune", code: "PNQ" } })
      .expect(201);
    const other = await signupTenant(t);
    await api(other.agent)
      .op("createBranch", { body: { name: "Pune", code: "PNQ" } })
      .expect(201);
  });

  it("validates input (400)", async () => {
    const o = await signupTenant(t);
    for (const body of [{}, { name: "" }, { name: "X", country: "India" }, { name: "X", extra: 1 }, { name: "X", code: "has space" }])
      expectError(await o.agent.post("/api/configuration/branches").send(body), 400, "validation_failed");
    const b = (
      await api(o.agent)
        .op("createBranch", { body: { name: "Kochi" } })
        .expect(201)
    ).body.data;
    expectError(await api(o.agent).op("updateBranch", { params: { branchId: b.id }, body: {} }), 400, "validation_failed");
    expect((await t.query(`SELECT count(*)::int AS n FROM branches WHERE tenant_id = $1`, [o.tenantId]))[0].n).toBe(1);
  });

  it("soft delete: refused while employees are assigned; detaches work locations; 404 afterwards", async () => {
    const o = await signupTenant(t);
    const b = (
      await api(o.agent)
        .op("createBranch", { body: { name: "Delhi" } })
        .expect(201)
    ).body.data;
    const e = await createEmployee(o, { branch_id: b.id });
    const w = (
      await api(o.agent)
        .op("createWorkLocation", { body: { name: "Delhi floor 2", branch_id: b.id } })
        .expect(201)
    ).body.data;
    expectError(await api(o.agent).op("deleteBranch", { params: { branchId: b.id } }), 409, "conflict");
    await api(o.agent)
      .op("updateEmployee", { params: { employeeId: e.id }, body: { branch_id: null } })
      .expect(200);
    await api(o.agent)
      .op("deleteBranch", { params: { branchId: b.id } })
      .expect(200);
    expect((await t.query(`SELECT deleted_at FROM branches WHERE id = $1`, [b.id]))[0].deleted_at).not.toBeNull();
    expect((await t.query(`SELECT branch_id FROM work_locations WHERE id = $1`, [w.id]))[0].branch_id).toBeNull();
    expectError(await api(o.agent).op("getBranch", { params: { branchId: b.id } }), 404, "not_found");
    expectError(await api(o.agent).op("updateBranch", { params: { branchId: b.id }, body: { name: "x" } }), 404);
    expectError(await api(o.agent).op("deleteBranch", { params: { branchId: b.id } }), 404);
    expect((await api(o.agent).op("listBranches").expect(200)).body.data).toEqual([]);
    // A deleted branch cannot be assigned.
    const bad = expectDetails(await api(o.agent).op("updateEmployee", { params: { employeeId: e.id }, body: { branch_id: b.id } }), 400);
    expect(bad.details[0].path).toBe("body.branch_id");
  });

  it("another company's branch is a 404; roles other than owner/admin/hr only read", async () => {
    const o = await signupTenant(t);
    const other = await signupTenant(t);
    const theirs = (
      await api(other.agent)
        .op("createBranch", { body: { name: "Theirs" } })
        .expect(201)
    ).body.data;
    expectError(await api(o.agent).op("getBranch", { params: { branchId: theirs.id } }), 404, "not_found");
    expectError(await api(o.agent).op("updateBranch", { params: { branchId: theirs.id }, body: { name: "Mine" } }), 404, "not_found");
    expectError(await api(o.agent).op("deleteBranch", { params: { branchId: theirs.id } }), 404, "not_found");
    expect((await t.query(`SELECT name, deleted_at FROM branches WHERE id = $1`, [theirs.id]))[0]).toEqual({
      name: "Theirs",
      deleted_at: null,
    });
    const bad = expectDetails(
      await api(o.agent).op("createEmployee", {
        body: {
          first_name: "A",
          last_name: "B",
          email: "ab@example.com",
          department: "D",
          designation: "E",
          joining_date: "2024-01-01",
          branch_id: theirs.id,
        },
      }),
      400,
    );
    expect(bad.details[0].path).toBe("body.branch_id");

    const mine = (
      await api(o.agent)
        .op("createBranch", { body: { name: "Mine" } })
        .expect(201)
    ).body.data;
    const emp = await addMember(t, o, "employee");
    const mgr = await addMember(t, o, "manager");
    const hr = await addMember(t, o, "hr");
    await api(emp.agent)
      .op("getBranch", { params: { branchId: mine.id } })
      .expect(200);
    await api(mgr.agent).op("listBranches").expect(200);
    expectError(await api(emp.agent).op("createBranch", { body: { name: "Nope" } }), 403, "forbidden");
    expectError(await api(mgr.agent).op("updateBranch", { params: { branchId: mine.id }, body: { name: "Nope" } }), 403, "forbidden");
    expectError(await api(emp.agent).op("deleteBranch", { params: { branchId: mine.id } }), 403, "forbidden");
    expectError(await api(emp.agent).op("createWorkLocation", { body: { name: "Nope" } }), 403, "forbidden");
    await api(hr.agent)
      .op("updateBranch", { params: { branchId: mine.id }, body: { city: "Goa" } })
      .expect(200);
  });
});

describe("listWorkLocations, createWorkLocation: work locations", () => {
  it("create and list, filtered by branch, with geofence", async () => {
    const o = await signupTenant(t);
    const b = (
      await api(o.agent)
        .op("createBranch", { body: { name: "Abu Dhabi" } })
        .expect(201)
    ).body.data;
    const w1 = (
      await api(o.agent)
        .op("createWorkLocation", {
          body: { name: "Site B", branch_id: b.id, latitude: 24.4539, longitude: 54.3773, geofence_radius_m: 200 },
        })
        .expect(201)
    ).body.data;
    expect(w1).toMatchObject({ name: "Site B", branch_id: b.id, latitude: 24.4539, longitude: 54.3773, geofence_radius_m: 200 });
    const w2 = (
      await api(o.agent)
        .op("createWorkLocation", { body: { name: "Remote", country: "AE" } })
        .expect(201)
    ).body.data;
    expect((await api(o.agent).op("listWorkLocations").expect(200)).body.data.map((w) => w.id)).toEqual([w2.id, w1.id]);
    expect(
      (
        await api(o.agent)
          .op("listWorkLocations", { query: { branch_id: b.id } })
          .expect(200)
      ).body.data.map((w) => w.id),
    ).toEqual([w1.id]);
    const [row] = await t.query(`SELECT latitude::text, geofence_radius_m FROM work_locations WHERE id = $1`, [w1.id]);
    expect(row).toEqual({ latitude: "24.453900", geofence_radius_m: 200 });
    const log = (
      await api(o.agent)
        .op("listActivityLog", { query: { entity_id: w1.id } })
        .expect(200)
    ).body.data;
    expect(log[0]).toMatchObject({ action: "work_location.created" });
    // Employees can be placed there.
    const e = await createEmployee(o, { work_location_id: w1.id });
    expect(e.work_location_id).toBe(w1.id);
    const emp = await addMember(t, o, "employee");
    expect((await api(emp.agent).op("listWorkLocations").expect(200)).body.pagination.total).toBe(2);
  });

  it("rejects duplicates (409), half coordinates and unknown branches (400)", async () => {
    const o = await signupTenant(t);
    await api(o.agent)
      .op("createWorkLocation", { body: { name: "Warehouse" } })
      .expect(201);
    expectError(await api(o.agent).op("createWorkLocation", { body: { name: "warehouse" } }), 409, "conflict");
    expect(expectDetails(await api(o.agent).op("createWorkLocation", { body: { name: "A", latitude: 10 } }), 400).details[0].path).toBe(
      "body.longitude",
    );
    expect(
      expectDetails(await api(o.agent).op("createWorkLocation", { body: { name: "A", geofence_radius_m: 100 } }), 400).details[0].path,
    ).toBe("body.geofence_radius_m");
    expectError(await api(o.agent).op("createWorkLocation", { body: { name: "A", latitude: 91, longitude: 0 } }), 400);
    expect(
      expectDetails(
        await api(o.agent).op("createWorkLocation", { body: { name: "A", branch_id: "00000000-0000-4000-8000-000000000000" } }),
        400,
      ).details[0].path,
    ).toBe("body.branch_id");
    const other = await signupTenant(t);
    const theirs = (
      await api(other.agent)
        .op("createWorkLocation", { body: { name: "Theirs" } })
        .expect(201)
    ).body.data;
    expect(
      expectDetails(
        await api(o.agent).op("createEmployee", {
          body: {
            first_name: "A",
            last_name: "B",
            email: "ab@example.com",
            department: "D",
            designation: "E",
            joining_date: "2024-01-01",
            work_location_id: theirs.id,
          },
        }),
        400,
      ).details[0].path,
    ).toBe("body.work_location_id");
    expect((await t.query(`SELECT count(*)::int AS n FROM work_locations WHERE tenant_id = $1`, [o.tenantId]))[0].n).toBe(1);
  });
});
