// Return requests: the holder (or hr) asks, hr approves or rejects; approval closes the assignment
// and puts the asset back in service (or under repair).
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { addMember, expectError, signupTenant, useTestApp, type TenantSession } from "../support/app.ts";
import { assetsWorld, assign, createAsset, insertEmployee } from "./fixtures.ts";
import { today as todayIn } from "../support/clock.ts";
import { addDays } from "../../src/lib/dates.ts";

/** The companies here keep their dates in UTC (their settings, below): today there by the server's clock. */
const today = () => todayIn("UTC");

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

async function held(employeeId = ravi, fields: Record<string, unknown> = {}) {
  const a = await createAsset(hr, laptops, { condition: "good" });
  const x = await assign(hr, a.id, employeeId, { assigned_on: "2026-01-05", ...fields });
  return { asset: a, assignment: x };
}

describe("listAssetReturnRequests, createAssetReturnRequest, decideAssetReturnRequest: asset return requests", () => {
  it("lets the holder ask to return, notifies hr, and allows one pending request per assignment", async () => {
    const { asset, assignment } = await held();
    const res = await api(emp.agent)
      .op("createAssetReturnRequest", { body: { assignment_id: assignment.id, reason: "Got a new laptop" } })
      .expect(201);
    expect(res.body.data).toMatchObject({
      assignment_id: assignment.id,
      asset_id: asset.id,
      asset_tag: asset.asset_tag,
      employee_id: ravi,
      employee_name: "Ravi Kumar",
      requested_by_user_id: emp.userId,
      requested_by_name: "Ravi Kumar",
      reason: "Got a new laptop",
      status: "pending",
      decided_at: null,
      returned_on: null,
      return_condition: null,
    });
    const [row] = await t.query("SELECT status, requested_by FROM asset_return_requests WHERE id = $1", [res.body.data.id]);
    expect(row).toEqual({ status: "pending", requested_by: emp.userId });
    expectError(
      await api(emp.agent).op("createAssetReturnRequest", { body: { assignment_id: assignment.id, reason: "Again" } }),
      409,
      "conflict",
    );
    expectError(
      await api(hr.agent).op("createAssetReturnRequest", { body: { assignment_id: assignment.id, reason: "Again" } }),
      409,
      "conflict",
    );
    const n = await api(hr.agent).op("listNotifications").expect(200);
    expect(n.body.data.some((x) => x.kind === "asset.return_requested" && x.title.includes(asset.asset_tag))).toBe(true);
    const log = await api(owner.agent)
      .op("listActivityLog", { query: { entity_id: res.body.data.id } })
      .expect(200);
    expect(log.body.data[0]).toMatchObject({ action: "asset.return_requested", actor_user_id: emp.userId });
  });

  it("creates only one of two concurrent requests for the same assignment", async () => {
    const { assignment } = await held();
    const results = await Promise.all(
      [emp.agent, emp.agent, hr.agent].map((a, i) =>
        api(a).op("createAssetReturnRequest", { body: { assignment_id: assignment.id, reason: `Race ${i}` } }),
      ),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect((await t.query("SELECT count(*)::int AS n FROM asset_return_requests WHERE assignment_id = $1", [assignment.id]))[0].n).toBe(1);
  });

  it("hides other people's assignments (404) and refuses returned ones (409)", async () => {
    const { assignment } = await held(meera);
    expectError(
      await api(emp.agent).op("createAssetReturnRequest", { body: { assignment_id: assignment.id, reason: "Not mine" } }),
      404,
      "not_found",
    );
    const manager = await addMember(t, owner, "manager", { employeeId: await insertEmployee(t, owner.tenantId) });
    expectError(
      await api(manager.agent).op("createAssetReturnRequest", { body: { assignment_id: assignment.id, reason: "Not mine" } }),
      404,
      "not_found",
    );
    const unlinked = await addMember(t, owner, "employee");
    expectError(
      await api(unlinked.agent).op("createAssetReturnRequest", { body: { assignment_id: assignment.id, reason: "Not mine" } }),
      404,
      "not_found",
    );
    expectError(
      await api(hr.agent).op("createAssetReturnRequest", {
        body: { assignment_id: "00000000-0000-4000-8000-000000000000", reason: "Nope" },
      }),
      404,
      "not_found",
    );
    // hr may file on the employee's behalf (e.g. at exit) and approve it.
    const r = await api(hr.agent)
      .op("createAssetReturnRequest", { body: { assignment_id: assignment.id, reason: "Last working day" } })
      .expect(201);
    await api(hr.agent)
      .op("decideAssetReturnRequest", { params: { id: r.body.data.id }, body: { status: "approved" } })
      .expect(200);
    expectError(
      await api(colleague.agent).op("createAssetReturnRequest", { body: { assignment_id: assignment.id, reason: "Again" } }),
      409,
      "conflict",
    );
    // The holder was told, in the app and by email.
    expect((await api(colleague.agent).op("listNotifications").expect(200)).body.data.some((n) => n.kind === "asset.return_approved")).toBe(
      true,
    );
    expect(
      (
        await t.query("SELECT count(*)::int AS n FROM email_outbox WHERE to_address = $1 AND subject LIKE '%approved%'", [colleague.email])
      )[0].n,
    ).toBe(1);
    for (const body of [
      { assignment_id: assignment.id },
      { assignment_id: assignment.id, reason: "  " },
      { assignment_id: assignment.id, reason: "ok", extra: true },
      { reason: "x".repeat(10) },
    ])
      expectError(await hr.agent.post("/api/assets/return-requests").send(body), 400, "validation_failed");
  });

  it("approves: closes the assignment with date and condition, frees the asset, audits and notifies", async () => {
    const { asset, assignment } = await held();
    const req = await api(emp.agent)
      .op("createAssetReturnRequest", { body: { assignment_id: assignment.id, reason: "Project over" } })
      .expect(201);
    expectError(
      await api(emp.agent).op("decideAssetReturnRequest", { params: { id: req.body.data.id }, body: { status: "approved" } }),
      403,
      "forbidden",
    );
    const res = await api(hr.agent)
      .op("decideAssetReturnRequest", {
        params: { id: req.body.data.id },
        body: { status: "approved", returned_on: "2026-02-01", return_condition: "fair", decision_notes: "Charger missing" },
      })
      .expect(200);
    expect(res.body.data).toMatchObject({
      status: "approved",
      decided_by_user_id: hr.userId,
      decided_by_name: "Hema HR",
      decision_notes: "Charger missing",
      returned_on: "2026-02-01",
      return_condition: "fair",
    });
    expect(res.body.data.decided_at).not.toBeNull();
    const a = (
      await api(hr.agent)
        .op("getAsset", { params: { assetId: asset.id } })
        .expect(200)
    ).body.data;
    expect(a).toMatchObject({ status: "available", condition: "fair", current_holder: null });
    const [x] = await t.query(
      "SELECT returned_on::text, return_condition, return_notes, returned_by FROM asset_assignments WHERE id = $1",
      [assignment.id],
    );
    expect(x).toEqual({ returned_on: "2026-02-01", return_condition: "fair", return_notes: "Charger missing", returned_by: hr.userId });
    const list = await api(emp.agent)
      .op("listAssetAssignments", { query: { asset_id: asset.id } })
      .expect(200);
    expect(list.body.data[0]).toMatchObject({ active: false, returned_on: "2026-02-01", return_condition: "fair" });
    expect(
      (await api(emp.agent).op("listNotifications").expect(200)).body.data.some(
        (n) => n.kind === "asset.return_approved" && n.title.includes(asset.asset_tag),
      ),
    ).toBe(true);
    const actions = async (id: string) =>
      (
        await api(owner.agent)
          .op("listActivityLog", { query: { entity_id: id } })
          .expect(200)
      ).body.data.map((e) => e.action);
    expect(await actions(req.body.data.id)).toContain("asset.return_approved");
    expect(await actions(assignment.id)).toContain("asset.returned");
    expect(await actions(asset.id)).toContain("asset.status_changed");
    // A decided request is final; the asset can go to someone else.
    expectError(
      await api(hr.agent).op("decideAssetReturnRequest", { params: { id: req.body.data.id }, body: { status: "rejected" } }),
      409,
      "conflict",
    );
    await assign(hr, asset.id, meera);
  });

  it("approves with today's date and the asset's condition by default", async () => {
    const { asset, assignment } = await held();
    const req = await api(emp.agent)
      .op("createAssetReturnRequest", { body: { assignment_id: assignment.id, reason: "Leaving the team" } })
      .expect(201);
    const res = await api(hr.agent)
      .op("decideAssetReturnRequest", { params: { id: req.body.data.id }, body: { status: "approved" } })
      .expect(200);
    expect(res.body.data).toMatchObject({ returned_on: today(), return_condition: "good" });
    expect((await t.query("SELECT status, condition FROM assets WHERE id = $1", [asset.id]))[0]).toEqual({
      status: "available",
      condition: "good",
    });
  });

  it("checks the return date (not in the future, not before the hand-over, a real day)", async () => {
    const { assignment } = await held();
    const req = await api(emp.agent)
      .op("createAssetReturnRequest", { body: { assignment_id: assignment.id, reason: "Done" } })
      .expect(201);
    const future = addDays(today(), 3);
    for (const body of [
      { status: "approved", returned_on: future },
      { status: "approved", returned_on: "2026-01-04" },
      { status: "approved", returned_on: "2026-04-31" },
      { status: "approved", return_condition: "sparkling" },
      { status: "pending" },
      { status: "rejected", returned_on: "2026-01-10" },
      { status: "rejected", return_condition: "good" },
    ])
      expectError(await hr.agent.put(`/api/assets/return-requests/${req.body.data.id}`).send(body), 400, "validation_failed");
    expect((await t.query("SELECT status FROM asset_return_requests WHERE id = $1", [req.body.data.id]))[0].status).toBe("pending");
    expect((await t.query("SELECT returned_on FROM asset_assignments WHERE id = $1", [assignment.id]))[0].returned_on).toBeNull();
  });

  it("rejects: the employee keeps the asset and may ask again", async () => {
    const { asset, assignment } = await held();
    const req = await api(emp.agent)
      .op("createAssetReturnRequest", { body: { assignment_id: assignment.id, reason: "Too heavy" } })
      .expect(201);
    const res = await api(hr.agent)
      .op("decideAssetReturnRequest", {
        params: { id: req.body.data.id },
        body: { status: "rejected", decision_notes: "Needed for the release" },
      })
      .expect(200);
    expect(res.body.data).toMatchObject({
      status: "rejected",
      decision_notes: "Needed for the release",
      returned_on: null,
      return_condition: null,
    });
    expect((await t.query("SELECT status FROM assets WHERE id = $1", [asset.id]))[0].status).toBe("assigned");
    expect((await t.query("SELECT returned_on FROM asset_assignments WHERE id = $1", [assignment.id]))[0].returned_on).toBeNull();
    const n = await api(emp.agent).op("listNotifications").expect(200);
    expect(n.body.data.find((x) => x.kind === "asset.return_rejected")!.body).toContain("Needed for the release");
    await api(emp.agent)
      .op("createAssetReturnRequest", { body: { assignment_id: assignment.id, reason: "Still too heavy" } })
      .expect(201);
  });

  it("sends an asset returned damaged to repair, opening a damage report when none was filed", async () => {
    const { asset, assignment } = await held();
    const req = await api(emp.agent)
      .op("createAssetReturnRequest", { body: { assignment_id: assignment.id, reason: "Screen issue" } })
      .expect(201);
    await api(hr.agent)
      .op("decideAssetReturnRequest", {
        params: { id: req.body.data.id },
        body: { status: "approved", return_condition: "damaged", decision_notes: "Hinge broken" },
      })
      .expect(200);
    expect((await t.query("SELECT status, condition FROM assets WHERE id = $1", [asset.id]))[0]).toEqual({
      status: "under_repair",
      condition: "damaged",
    });
    const reports = await api(hr.agent)
      .op("listAssetDamageReports", { query: { asset_id: asset.id } })
      .expect(200);
    expect(reports.body.data).toHaveLength(1);
    expect(reports.body.data[0]).toMatchObject({
      severity: "major",
      status: "open",
      assignment_id: assignment.id,
      employee_id: ravi,
      reported_by_user_id: hr.userId,
    });
    expect(reports.body.data[0].description).toContain("Hinge broken");
    // The employee sees the report about the asset they returned.
    expect(
      (
        await api(emp.agent)
          .op("listAssetDamageReports", { query: { asset_id: asset.id } })
          .expect(200)
      ).body.data,
    ).toHaveLength(1);
  });

  it("lists with filters; employees see only requests for their own assets", async () => {
    const mine = await held();
    const theirs = await held(meera);
    const r1 = await api(emp.agent)
      .op("createAssetReturnRequest", { body: { assignment_id: mine.assignment.id, reason: "Mine" } })
      .expect(201);
    const r2 = await api(colleague.agent)
      .op("createAssetReturnRequest", { body: { assignment_id: theirs.assignment.id, reason: "Theirs" } })
      .expect(201);
    const ids = async (who: TenantSession, qs = "") =>
      (await who.agent.get(`/api/assets/return-requests?limit=100&${qs}`).expect(200)).body.data.map((x: { id: string }) => x.id);
    const forEmp = await ids(emp);
    expect(forEmp).toContain(r1.body.data.id);
    expect(forEmp).not.toContain(r2.body.data.id);
    expect(await ids(emp, `employee_id=${meera}`)).toEqual([]);
    expect(await ids(hr, `assignment_id=${theirs.assignment.id}`)).toEqual([r2.body.data.id]);
    expect(await ids(hr, `asset_id=${mine.asset.id}&status=pending`)).toEqual([r1.body.data.id]);
    expect(await ids(hr, `asset_id=${mine.asset.id}&status=approved`)).toEqual([]);
    expect(await ids(hr, `employee_id=${meera}`)).toContain(r2.body.data.id);
    expect(await ids(await addMember(t, owner, "employee"))).toEqual([]);
    expectError(await hr.agent.get("/api/assets/return-requests?status=done"), 400, "validation_failed");
  });

  it("needs the assets module and isolates tenants", async () => {
    const { assignment } = await held();
    const req = await api(emp.agent)
      .op("createAssetReturnRequest", { body: { assignment_id: assignment.id, reason: "Done" } })
      .expect(201);
    const other = await signupTenant(t);
    expectError(await api(other.agent).op("listAssetReturnRequests"), 403, "module_disabled");
    expectError(
      await api(other.agent).op("createAssetReturnRequest", { body: { assignment_id: assignment.id, reason: "Mine now" } }),
      403,
      "module_disabled",
    );
    expectError(
      await api(other.agent).op("decideAssetReturnRequest", { params: { id: req.body.data.id }, body: { status: "approved" } }),
      403,
      "module_disabled",
    );
    await api(other.agent)
      .op("updateCompanySettings", { body: { modules: ["assets"] } })
      .expect(200);
    expectError(
      await api(other.agent).op("createAssetReturnRequest", { body: { assignment_id: assignment.id, reason: "Mine now" } }),
      404,
      "not_found",
    );
    expectError(
      await api(other.agent).op("decideAssetReturnRequest", { params: { id: req.body.data.id }, body: { status: "approved" } }),
      404,
      "not_found",
    );
    expect((await api(other.agent).op("listAssetReturnRequests").expect(200)).body.data).toEqual([]);
    expect((await t.query("SELECT status FROM asset_return_requests WHERE id = $1", [req.body.data.id]))[0].status).toBe("pending");
  });
});
