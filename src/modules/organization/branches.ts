// Branches. They are soft-deleted (their name and code become free, audit entries keep pointing
// at them); names and codes are unique among live branches; every change is audited in the same
// transaction.
import type { Branch } from "../../../generated/prisma/client.ts";
import { audit, diff } from "../../platform/audit.ts";
import { lockRow } from "../../db/sql.ts";
import { db, type ScopedTx, tenantTx, byId } from "../../db/tenancy.ts";
import type { Page } from "../../platform/use-case.ts";
import { conflict, notFound } from "../../platform/errors.ts";
import type { RequestBody } from "../../platform/use-case.ts";
import { branchJson, trimmed } from "./json.ts";
import * as clock from "../../lib/clock.ts";

export type BranchCreateInput = RequestBody<"createBranch">;
export type BranchUpdateInput = RequestBody<"updateBranch">;
type BranchJson = ReturnType<typeof branchJson>;

const BRANCH_FIELDS = ["name", "code", "address", "city", "state", "country", "phone"] as const;

/** Live employees per branch, for the given branches. */
async function branchEmployeeCounts(ids: string[]): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const groups = await db.employee.groupBy({
    by: ["branch_id"],
    where: { branch_id: { in: ids }, deleted_at: null },
    _count: { _all: true },
  });
  return new Map(groups.map((g) => [g.branch_id as string, g._count._all]));
}

async function withCount(b: Branch): Promise<BranchJson> {
  return branchJson(b, (await branchEmployeeCounts([b.id])).get(b.id) ?? 0);
}

/** Names and codes are citext: equality is case-insensitive. */
async function checkBranchUnique(tx: ScopedTx, v: { name?: string; code?: string | null }, exceptId?: string) {
  const not = exceptId ? { NOT: { id: exceptId } } : {};
  if (v.name && (await tx.branch.findFirst({ where: { name: v.name, deleted_at: null, ...not }, select: { id: true } })))
    throw conflict(`A branch named "${v.name}" already exists`);
  if (v.code && (await tx.branch.findFirst({ where: { code: v.code, deleted_at: null, ...not }, select: { id: true } })))
    throw conflict(`A branch with code "${v.code}" already exists`);
}

/** Locks a live branch for the rest of the transaction and returns it; 404 otherwise. */
async function lockBranch(tx: ScopedTx, id: string): Promise<Branch> {
  if (!(await lockRow(tx, "branches", id, { live: true }))) throw notFound("Branch");
  return tx.branch.findFirstOrThrow({ where: { id } });
}

/** A page of live branches by name, with their live employee counts. */
export async function branchPage(page: Page): Promise<{ rows: BranchJson[]; total: number }> {
  const where = { deleted_at: null };
  const [rows, total] = await Promise.all([
    db.branch.findMany({ where, orderBy: [{ name: "asc" }, { id: "asc" }], skip: page.skip, take: page.limit }),
    db.branch.count({ where }),
  ]);
  const counts = await branchEmployeeCounts(rows.map((r) => r.id));
  return { rows: rows.map((b) => branchJson(b, counts.get(b.id) ?? 0)), total };
}

/** A live branch with its employee count. */
export async function branchById(id: string): Promise<BranchJson> {
  const b = await db.branch.findFirst({ where: { id, deleted_at: null } });
  if (!b) throw notFound("Branch");
  return withCount(b);
}

export async function addBranch(raw: BranchCreateInput): Promise<BranchJson> {
  const input = trimmed(raw);
  const b = await tenantTx(async (tx) => {
    await checkBranchUnique(tx, input);
    const b = await tx.branch.create({ data: input });
    const changes = diff(Object.fromEntries(BRANCH_FIELDS.map((f) => [f, null])), b, [...BRANCH_FIELDS]);
    await audit({ action: "branch.created", entity_type: "branch", entity_id: b.id, changes }, tx);
    return b;
  });
  return branchJson(b, 0);
}

export async function changeBranch(id: string, raw: BranchUpdateInput): Promise<BranchJson> {
  const input = trimmed(raw);
  const after = await tenantTx(async (tx) => {
    const before = await lockBranch(tx, id);
    await checkBranchUnique(tx, input, id);
    const after = await tx.branch.update({ where: byId(id), data: input });
    const changes = diff(before, after, Object.keys(input));
    if (Object.keys(changes).length) await audit({ action: "branch.updated", entity_type: "branch", entity_id: id, changes }, tx);
    return after;
  });
  return withCount(after);
}

/** Soft delete; refused while live employees are assigned; work locations of the branch are detached. */
export async function removeBranch(id: string): Promise<void> {
  await tenantTx(async (tx) => {
    await lockBranch(tx, id);
    const assigned = await tx.employee.count({ where: { branch_id: id, deleted_at: null } });
    if (assigned) throw conflict(`${assigned} employee(s) are assigned to this branch; move them to another branch first`);
    const detached = await tx.workLocation.updateMany({ where: { branch_id: id }, data: { branch_id: null } });
    const deletedAt = clock.now();
    await tx.branch.update({ where: byId(id), data: { deleted_at: deletedAt } });
    await audit(
      {
        action: "branch.deleted",
        entity_type: "branch",
        entity_id: id,
        changes: {
          deleted_at: { from: null, to: deletedAt.toISOString() },
          ...(detached.count ? { work_locations: { from: detached.count, to: 0 } } : {}),
        },
      },
      tx,
    );
  });
}
