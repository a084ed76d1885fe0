// Branches and work locations.
import { describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { addMember, expectError, signupTenant, useTestApp } from "../support/app.ts";
import { createEmployee } from "../support/employees.ts";

const t = useTestApp();

describe("listBranches, createBranch, getBranch, updateBranch, deleteBranch: branches", () => {
  it("create, read, list with employee counts, update with audit", async () => {
    const o = await signupTenant(t);
    const b = (
      await o.agent
        .post("/api/configuration/branches")
        .send({ name: " Mumbai HQ ", code: "MUM", city: "Mumbai", state: "Maharashtra", country: "IN" })
        .expect(201)
    ).body.data;
    expect(b).toMatchObject({ name: "Mumbai HQ", code: "MUM", city: "Mumbai", country: "IN", employee_count: 0, address: null });
    await o.agent.post("/api/configuration/branches").send({ name: "Dubai" }).expect(201);
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

    const up = (await o.agent.put(`/api/configuration/branches/${b.id}`).send({ address: "One BKC", city: null }).expect(200)).body.data;
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
    const b = (await o.agent.post("/api/configuration/branches").send({ name: "Pune", code: "PNQ" }).expect(201)).body.data;
    expectError(await o.agent.post("/api/configuration/branches").send({ name: "PUNE" }), 409, "conflict");
    expectError(await o.agent.post("/api/configuration/branches").send({ name: "Pune 2", code: "pnq" }), 409, "conflict");
    const c = (await o.agent.post("/api/configuration/branches").send({ name: "Chennai" }).expect(201)).body.data;
    expectError(await o.agent.put(`/api/configuration/branches/${c.id}`).send({ name: "pune" }), 409, "conflict");
    await o.agent.delete(`/api/configuration/branches/${b.id}`).expect(200);
    await o.agent.post("/api/configuration/branches").send({ name: "Pune", code: "PNQ" }).expect(201);
    const other = await signupTenant(t);
    await other.agent.post("/api/configuration/branches").send({ name: "Pune", code: "PNQ" }).expect(201);
  });

  it("validates input (400)", async () => {
    const o = await signupTenant(t);
    for (const body of [{}, { name: "" }, { name: "X", country: "India" }, { name: "X", extra: 1 }, { name: "X", code: "has space" }])
      expectError(await o.agent.post("/api/configuration/branches").send(body), 400, "validation_failed");
    const b = (await o.agent.post("/api/configuration/branches").send({ name: "Kochi" }).expect(201)).body.data;
    expectError(await o.agent.put(`/api/configuration/branches/${b.id}`).send({}), 400, "validation_failed");
    expect((await t.query(`SELECT count(*)::int AS n FROM branches WHERE tenant_id = $1`, [o.tenantId]))[0].n).toBe(1);
  });

  it("soft delete: refused while employees are assigned; detaches work locations; 404 afterwards", async () => {
    const o = await signupTenant(t);
    const b = (await o.agent.post("/api/configuration/branches").send({ name: "Delhi" }).expect(201)).body.data;
    const e = await createEmployee(o, { branch_id: b.id });
    const w = (await o.agent.post("/api/configuration/work-locations").send({ name: "Delhi floor 2", branch_id: b.id }).expect(201)).body
      .data;
    expectError(await o.agent.delete(`/api/configuration/branches/${b.id}`), 409, "conflict");
    await o.agent.put(`/api/employees/${e.id}`).send({ branch_id: null }).expect(200);
    await o.agent.delete(`/api/configuration/branches/${b.id}`).expect(200);
    expect((await t.query(`SELECT deleted_at FROM branches WHERE id = $1`, [b.id]))[0].deleted_at).not.toBeNull();
    expect((await t.query(`SELECT branch_id FROM work_locations WHERE id = $1`, [w.id]))[0].branch_id).toBeNull();
    expectError(await o.agent.get(`/api/configuration/branches/${b.id}`), 404, "not_found");
    expectError(await o.agent.put(`/api/configuration/branches/${b.id}`).send({ name: "x" }), 404);
    expectError(await o.agent.delete(`/api/configuration/branches/${b.id}`), 404);
    expect((await api(o.agent).op("listBranches").expect(200)).body.data).toEqual([]);
    // A deleted branch cannot be assigned.
    const bad = expectError(await o.agent.put(`/api/employees/${e.id}`).send({ branch_id: b.id }), 400);
    expect(bad.details[0].path).toBe("body.branch_id");
  });

  it("another company's branch is a 404; roles other than owner/admin/hr only read", async () => {
    const o = await signupTenant(t);
    const other = await signupTenant(t);
    const theirs = (await other.agent.post("/api/configuration/branches").send({ name: "Theirs" }).expect(201)).body.data;
    expectError(await o.agent.get(`/api/configuration/branches/${theirs.id}`), 404, "not_found");
    expectError(await o.agent.put(`/api/configuration/branches/${theirs.id}`).send({ name: "Mine" }), 404, "not_found");
    expectError(await o.agent.delete(`/api/configuration/branches/${theirs.id}`), 404, "not_found");
    expect((await t.query(`SELECT name, deleted_at FROM branches WHERE id = $1`, [theirs.id]))[0]).toEqual({
      name: "Theirs",
      deleted_at: null,
    });
    const bad = expectError(
      await o.agent.post("/api/employees").send({
        first_name: "A",
        last_name: "B",
        email: "ab@example.com",
        department: "D",
        designation: "E",
        joining_date: "2024-01-01",
        branch_id: theirs.id,
      }),
      400,
    );
    expect(bad.details[0].path).toBe("body.branch_id");

    const mine = (await o.agent.post("/api/configuration/branches").send({ name: "Mine" }).expect(201)).body.data;
    const emp = await addMember(t, o, "employee");
    const mgr = await addMember(t, o, "manager");
    const hr = await addMember(t, o, "hr");
    await api(emp.agent)
      .op("getBranch", { params: { branchId: mine.id } })
      .expect(200);
    await api(mgr.agent).op("listBranches").expect(200);
    expectError(await emp.agent.post("/api/configuration/branches").send({ name: "Nope" }), 403, "forbidden");
    expectError(await mgr.agent.put(`/api/configuration/branches/${mine.id}`).send({ name: "Nope" }), 403, "forbidden");
    expectError(await emp.agent.delete(`/api/configuration/branches/${mine.id}`), 403, "forbidden");
    expectError(await emp.agent.post("/api/configuration/work-locations").send({ name: "Nope" }), 403, "forbidden");
    await hr.agent.put(`/api/configuration/branches/${mine.id}`).send({ city: "Goa" }).expect(200);
  });
});

describe("listWorkLocations, createWorkLocation: work locations", () => {
  it("create and list, filtered by branch, with geofence", async () => {
    const o = await signupTenant(t);
    const b = (await o.agent.post("/api/configuration/branches").send({ name: "Abu Dhabi" }).expect(201)).body.data;
    const w1 = (
      await o.agent
        .post("/api/configuration/work-locations")
        .send({ name: "Site B", branch_id: b.id, latitude: 24.4539, longitude: 54.3773, geofence_radius_m: 200 })
        .expect(201)
    ).body.data;
    expect(w1).toMatchObject({ name: "Site B", branch_id: b.id, latitude: 24.4539, longitude: 54.3773, geofence_radius_m: 200 });
    const w2 = (await o.agent.post("/api/configuration/work-locations").send({ name: "Remote", country: "AE" }).expect(201)).body.data;
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
    await o.agent.post("/api/configuration/work-locations").send({ name: "Warehouse" }).expect(201);
    expectError(await o.agent.post("/api/configuration/work-locations").send({ name: "warehouse" }), 409, "conflict");
    expect(
      expectError(await o.agent.post("/api/configuration/work-locations").send({ name: "A", latitude: 10 }), 400).details[0].path,
    ).toBe("body.longitude");
    expect(
      expectError(await o.agent.post("/api/configuration/work-locations").send({ name: "A", geofence_radius_m: 100 }), 400).details[0].path,
    ).toBe("body.geofence_radius_m");
    expectError(await o.agent.post("/api/configuration/work-locations").send({ name: "A", latitude: 91, longitude: 0 }), 400);
    expect(
      expectError(
        await o.agent.post("/api/configuration/work-locations").send({ name: "A", branch_id: "00000000-0000-4000-8000-000000000000" }),
        400,
      ).details[0].path,
    ).toBe("body.branch_id");
    const other = await signupTenant(t);
    const theirs = (await other.agent.post("/api/configuration/work-locations").send({ name: "Theirs" }).expect(201)).body.data;
    expect(
      expectError(
        await o.agent.post("/api/employees").send({
          first_name: "A",
          last_name: "B",
          email: "ab@example.com",
          department: "D",
          designation: "E",
          joining_date: "2024-01-01",
          work_location_id: theirs.id,
        }),
        400,
      ).details[0].path,
    ).toBe("body.work_location_id");
    expect((await t.query(`SELECT count(*)::int AS n FROM work_locations WHERE tenant_id = $1`, [o.tenantId]))[0].n).toBe(1);
  });
});
