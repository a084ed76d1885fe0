// The asset state rules called as use cases, without HTTP: assignment (available → assigned),
// return (assigned → available or under repair, with an automatic damage report) and damage
// (condition damaged, major damage out of service, repaired or written off).
import { beforeAll, describe, expect, it } from "vitest";
import { authOf } from "../support/auth-context.ts";
import { withTenant } from "../../src/db/tenancy.ts";
import type { AuthContext } from "../../src/http/types.ts";
import { assignAsset } from "../../src/modules/assets/assignments.ts";
import { reportDamage, resolveDamage } from "../../src/modules/assets/damage.ts";
import { assetById, registerAsset } from "../../src/modules/assets/register.ts";
import { decideReturn, requestReturn } from "../../src/modules/assets/returns.ts";
import { type TenantSession, useTestApp } from "../support/app.ts";
import { assetsWorld, insertEmployee } from "./fixtures.ts";

const t = useTestApp();
let owner: TenantSession;
let hr: AuthContext;
let holder: AuthContext;
let laptops: string;
let ravi: string;

const authAs = (s: TenantSession, role: AuthContext["role"], employeeId: string | null): AuthContext => authOf(s, role, { employeeId });
const inCompany = <T>(fn: () => Promise<T>) => withTenant(owner.tenantId, fn);

async function rejection(p: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await p;
  } catch (err) {
    return err as { status: number; message: string };
  }
  throw new Error("expected the use case to fail");
}

beforeAll(async () => {
  const w = await assetsWorld(t);
  ({ owner, ravi } = w);
  hr = authAs(w.hr, "hr", null);
  holder = authAs(w.emp, "employee", ravi);
  laptops = w.categories.Laptops;
});

const newAsset = () => inCompany(() => registerAsset(hr, { name: "ThinkPad T14", category_id: laptops, condition: "good" }));
const status = (id: string) =>
  inCompany(async () => {
    const a = await assetById(id);
    return { status: a.status, condition: a.condition, holder: a.current_holder?.employee_id ?? null, open: a.open_damage_reports };
  });

describe("createAssetAssignment: available → assigned", () => {
  it("hands an available asset to a current employee, one holder at a time", async () => {
    const a = await newAsset();
    expect(a).toMatchObject({ status: "available", asset_tag: expect.stringMatching(/^AST-\d{5}$/) });
    const x = await inCompany(() => assignAsset(hr, { asset_id: a.id, employee_id: ravi, assigned_on: "2026-01-05" }));
    expect(x).toMatchObject({ asset_id: a.id, employee_id: ravi, active: true, condition_at_assignment: "good" });
    expect(await status(a.id)).toEqual({ status: "assigned", condition: "good", holder: ravi, open: 0 });
    const again = await rejection(inCompany(() => assignAsset(hr, { asset_id: a.id, employee_id: ravi })));
    expect(again.status).toBe(409);
    expect(again.message).toBe(`Asset ${a.asset_tag} is not available (it is assigned)`);
  });

  it("refuses employees who have left or are inactive, and dates in the future", async () => {
    const a = await newAsset();
    const gone = await insertEmployee(t, owner.tenantId, { status: "exited", first_name: "Old", last_name: "Timer" });
    const refused = await rejection(inCompany(() => assignAsset(hr, { asset_id: a.id, employee_id: gone })));
    expect(refused.status).toBe(409);
    expect(refused.message).toBe("Old Timer is exited; assets go to current employees only");
    expect(
      (await rejection(inCompany(() => assignAsset(hr, { asset_id: a.id, employee_id: ravi, assigned_on: "2999-01-01" })))).status,
    ).toBe(400);
    expect((await status(a.id)).status).toBe("available");
  });
});

describe("decideAssetReturnRequest: assigned → available or under repair", () => {
  it("an approved return frees the asset; one pending request per assignment; decided once", async () => {
    const a = await newAsset();
    const x = await inCompany(() => assignAsset(hr, { asset_id: a.id, employee_id: ravi, assigned_on: "2026-01-05" }));
    const r = await inCompany(() => requestReturn(holder, { assignment_id: x.id, reason: "New laptop" }));
    expect(r.status).toBe("pending");
    expect((await rejection(inCompany(() => requestReturn(holder, { assignment_id: x.id, reason: "again" })))).status).toBe(409);
    const done = await inCompany(() => decideReturn(hr, r.id, { status: "approved", returned_on: "2026-02-01", return_condition: "fair" }));
    expect(done).toMatchObject({ status: "approved", returned_on: "2026-02-01", return_condition: "fair" });
    expect(await status(a.id)).toEqual({ status: "available", condition: "fair", holder: null, open: 0 });
    const twice = await rejection(inCompany(() => decideReturn(hr, r.id, { status: "rejected" })));
    expect(twice.status).toBe(409);
    expect(twice.message).toBe("The return request was already approved");
    expect((await rejection(inCompany(() => requestReturn(holder, { assignment_id: x.id, reason: "once more" })))).message).toBe(
      `Asset ${a.asset_tag} was already returned on 2026-02-01`,
    );
  });

  it("a rejected return leaves the asset with its holder; a return found damaged opens a major damage report", async () => {
    const a = await newAsset();
    const x = await inCompany(() => assignAsset(hr, { asset_id: a.id, employee_id: ravi, assigned_on: "2026-01-05" }));
    const first = await inCompany(() => requestReturn(holder, { assignment_id: x.id, reason: "Not needed" }));
    expect((await inCompany(() => decideReturn(hr, first.id, { status: "rejected", decision_notes: "Keep it" }))).status).toBe("rejected");
    expect((await status(a.id)).status).toBe("assigned");
    const second = await inCompany(() => requestReturn(holder, { assignment_id: x.id, reason: "Broken screen" }));
    await inCompany(() => decideReturn(hr, second.id, { status: "approved", return_condition: "damaged", decision_notes: "cracked" }));
    expect(await status(a.id)).toEqual({ status: "under_repair", condition: "damaged", holder: null, open: 1 });
    const [report] = await t.query(`SELECT severity, description, status FROM asset_damage_reports WHERE asset_id = $1`, [a.id]);
    expect(report).toEqual({ severity: "major", description: "Returned damaged: cracked", status: "open" });
  });
});

describe("createAssetDamageReport / resolveAssetDamageReport: damage states", () => {
  it("major damage takes an available asset out of service; repair brings it back once no report is open", async () => {
    const a = await newAsset();
    const major = await inCompany(() => reportDamage(hr, { asset_id: a.id, severity: "major", description: " Battery swollen " }));
    const minor = await inCompany(() => reportDamage(hr, { asset_id: a.id, severity: "minor", description: "Scratch" }));
    expect(major).toMatchObject({ status: "open", severity: "major", description: "Battery swollen" });
    expect(await status(a.id)).toEqual({ status: "under_repair", condition: "damaged", holder: null, open: 2 });
    await inCompany(() => resolveDamage(hr, major.id, { status: "repaired", repair_cost: "120.50" }));
    expect(await status(a.id)).toEqual({ status: "under_repair", condition: "damaged", holder: null, open: 1 });
    await inCompany(() => resolveDamage(hr, minor.id, { status: "repaired", condition: "fair" }));
    expect(await status(a.id)).toEqual({ status: "available", condition: "fair", holder: null, open: 0 });
    const again = await rejection(inCompany(() => resolveDamage(hr, minor.id, { status: "written_off" })));
    expect(again.status).toBe(409);
    expect(again.message).toBe("The damage report was already resolved (repaired)");
  });

  it("the holder reports on what they hold (it stays assigned); a write-off waits for the return and retires the asset", async () => {
    const a = await newAsset();
    const other = await newAsset();
    const x = await inCompany(() => assignAsset(hr, { asset_id: a.id, employee_id: ravi, assigned_on: "2026-01-05" }));
    expect(
      (await rejection(inCompany(() => reportDamage(holder, { asset_id: other.id, severity: "minor", description: "not mine" })))).status,
    ).toBe(404);
    const report = await inCompany(() => reportDamage(holder, { asset_id: a.id, severity: "major", description: "Dropped it" }));
    expect(report).toMatchObject({ employee_id: ravi, assignment_id: x.id });
    expect(await status(a.id)).toEqual({ status: "assigned", condition: "damaged", holder: ravi, open: 1 });
    const early = await rejection(inCompany(() => resolveDamage(hr, report.id, { status: "written_off" })));
    expect(early.status).toBe(409);
    expect(early.message).toBe(`Asset ${a.asset_tag} is still assigned; approve its return before writing it off`);
    const r = await inCompany(() => requestReturn(holder, { assignment_id: x.id, reason: "Broken" }));
    await inCompany(() => decideReturn(hr, r.id, { status: "approved" }));
    expect(await status(a.id)).toEqual({ status: "under_repair", condition: "damaged", holder: null, open: 1 });
    await inCompany(() => resolveDamage(hr, report.id, { status: "written_off", resolution_notes: "Beyond repair" }));
    expect(await status(a.id)).toEqual({ status: "retired", condition: "damaged", holder: null, open: 0 });
    expect((await rejection(inCompany(() => reportDamage(hr, { asset_id: a.id, severity: "minor", description: "more" })))).status).toBe(
      409,
    );
  });
});
