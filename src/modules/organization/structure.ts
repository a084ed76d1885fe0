// Branches and work locations. Branches are soft-deleted (their name and code become free, audit
// entries keep pointing at them); every change is audited in the same transaction.
import type { Branch, WorkLocation } from "../../../generated/prisma/client.ts";
import { audit, diff } from "../../audit.ts";
import { currentTenantId, db, tenantTx, type ScopedTx } from "../../db/tenancy.ts";
import type { Page } from "../../http/envelope.ts";
import { badRequest, conflict, invalidField, notFound } from "../../http/errors.ts";
import type { RequestBody } from "../../http/types.ts";

export type BranchCreateInput = RequestBody<"createBranch">;
export type BranchUpdateInput = RequestBody<"updateBranch">;
export type WorkLocationCreateInput = RequestBody<"createWorkLocation">;

const BRANCH_FIELDS = ["name", "code", "address", "city", "state", "country", "phone"] as const;

export function branchJson(b: Branch, employeeCount: number) {
  return {
    id: b.id,
    name: b.name,
    code: b.code,
    address: b.address,
    city: b.city,
    state: b.state,
    country: b.country,
    phone: b.phone,
    employee_count: employeeCount,
    created_at: b.created_at.toISOString(),
    updated_at: b.updated_at.toISOString(),
  };
}

export function workLocationJson(w: WorkLocation) {
  return {
    id: w.id,
    name: w.name,
    branch_id: w.branch_id,
    address: w.address,
    city: w.city,
    state: w.state,
    country: w.country,
    latitude: w.latitude === null ? null : Number(w.latitude),
    longitude: w.longitude === null ? null : Number(w.longitude),
    geofence_radius_m: w.geofence_radius_m,
    created_at: w.created_at.toISOString(),
    updated_at: w.updated_at.toISOString(),
  };
}

/** Live employees per branch, for the given branches. */
export async function branchEmployeeCounts(ids: string[]): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const groups = await db.employee.groupBy({ by: ["branch_id"], where: { branch_id: { in: ids }, deleted_at: null }, _count: { _all: true } });
  return new Map(groups.map((g) => [g.branch_id as string, g._count._all]));
}

function trimmed<T extends Record<string, unknown>>(input: T): T {
  const out: Record<string, unknown> = { ...input };
  for (const [k, v] of Object.entries(out)) if (typeof v === "string") out[k] = v.trim();
  return out as T;
}

/** Names and codes are citext: equality is case-insensitive. */
async function checkBranchUnique(tx: ScopedTx, v: { name?: string; code?: string | null }, exceptId?: string) {
  const not = exceptId ? { NOT: { id: exceptId } } : {};
  if (v.name && (await tx.branch.findFirst({ where: { name: v.name, deleted_at: null, ...not }, select: { id: true } })))
    throw conflict(`A branch named "${v.name}" already exists`);
  if (v.code && (await tx.branch.findFirst({ where: { code: v.code, deleted_at: null, ...not }, select: { id: true } })))
    throw conflict(`A branch with code "${v.code}" already exists`);
}

export async function loadBranch(id: string): Promise<Branch> {
  const b = await db.branch.findFirst({ where: { id, deleted_at: null } });
  if (!b) throw notFound("Branch");
  return b;
}

export async function listBranches(page: Page) {
  const where = { deleted_at: null };
  const [rows, total] = await Promise.all([db.branch.findMany({ where, orderBy: [{ name: "asc" }, { id: "asc" }], skip: page.skip, take: page.limit }), db.branch.count({ where })]);
  return { rows, total, counts: await branchEmployeeCounts(rows.map((r) => r.id)) };
}

export async function createBranch(raw: BranchCreateInput): Promise<Branch> {
  const input = trimmed(raw);
  return tenantTx(async (tx) => {
    await checkBranchUnique(tx, input);
    const b = await tx.branch.create({ data: input as any });
    const changes = diff(Object.fromEntries(BRANCH_FIELDS.map((f) => [f, null])), b, [...BRANCH_FIELDS]);
    await audit({ action: "branch.created", entity_type: "branch", entity_id: b.id, changes }, tx);
    return b;
  });
}

async function lockBranch(tx: ScopedTx, id: string): Promise<Branch> {
  const rows = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM branches WHERE tenant_id = ${currentTenantId()}::uuid AND id = ${id}::uuid AND deleted_at IS NULL FOR UPDATE`;
  if (!rows.length) throw notFound("Branch");
  return tx.branch.findFirstOrThrow({ where: { id } });
}

export async function updateBranch(id: string, raw: BranchUpdateInput): Promise<Branch> {
  const input = trimmed(raw);
  return tenantTx(async (tx) => {
    const before = await lockBranch(tx, id);
    await checkBranchUnique(tx, input, id);
    const after = await tx.branch.update({ where: { id }, data: input as any });
    const changes = diff(before, after, Object.keys(input));
    if (Object.keys(changes).length) await audit({ action: "branch.updated", entity_type: "branch", entity_id: id, changes }, tx);
    return after;
  });
}

/** Soft delete; refused while live employees are assigned; work locations of the branch are detached. */
export async function deleteBranch(id: string): Promise<void> {
  await tenantTx(async (tx) => {
    await lockBranch(tx, id);
    const assigned = await tx.employee.count({ where: { branch_id: id, deleted_at: null } });
    if (assigned) throw conflict(`${assigned} employee(s) are assigned to this branch; move them to another branch first`);
    const detached = await tx.workLocation.updateMany({ where: { branch_id: id }, data: { branch_id: null } });
    const deletedAt = new Date();
    await tx.branch.update({ where: { id }, data: { deleted_at: deletedAt } });
    await audit(
      {
        action: "branch.deleted",
        entity_type: "branch",
        entity_id: id,
        changes: { deleted_at: { from: null, to: deletedAt.toISOString() }, ...(detached.count ? { work_locations: { from: detached.count, to: 0 } } : {}) },
      },
      tx,
    );
  });
}

export async function listWorkLocations(page: Page, branchId?: string) {
  const where = branchId ? { branch_id: branchId } : {};
  const [rows, total] = await Promise.all([
    db.workLocation.findMany({ where, orderBy: [{ name: "asc" }, { id: "asc" }], skip: page.skip, take: page.limit }),
    db.workLocation.count({ where }),
  ]);
  return { rows, total };
}

export async function createWorkLocation(raw: WorkLocationCreateInput): Promise<WorkLocation> {
  const input = trimmed(raw);
  const hasLat = input.latitude !== undefined && input.latitude !== null;
  const hasLng = input.longitude !== undefined && input.longitude !== null;
  if (hasLat !== hasLng) throw invalidField(hasLat ? "body.longitude" : "body.latitude", "is required together with the other coordinate");
  if (input.geofence_radius_m != null && !hasLat) throw badRequest("A geofence needs latitude and longitude", [{ path: "body.geofence_radius_m", message: "requires latitude and longitude" }]);
  return tenantTx(async (tx) => {
    if (input.branch_id && !(await tx.branch.findFirst({ where: { id: input.branch_id, deleted_at: null }, select: { id: true } })))
      throw invalidField("body.branch_id", "is not a branch of this company");
    if (await tx.workLocation.findFirst({ where: { name: input.name }, select: { id: true } })) throw conflict(`A work location named "${input.name}" already exists`);
    const w = await tx.workLocation.create({ data: input as any });
    const fields = ["name", "branch_id", "address", "city", "state", "country", "latitude", "longitude", "geofence_radius_m"];
    await audit({ action: "work_location.created", entity_type: "work_location", entity_id: w.id, changes: diff(Object.fromEntries(fields.map((f) => [f, null])), w, fields) }, tx);
    return w;
  });
}
