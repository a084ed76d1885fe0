// Asset categories: names unique among the company's live categories (case-insensitive), soft
// delete refused while live assets use the category.
import { audit, diff } from "../../platform/audit.ts";
import { lockRow } from "../../db/sql.ts";
import { db, tenantTx, type ScopedTx, byId } from "../../db/tenancy.ts";
import { pageOf, type PageQuery } from "../../platform/use-case.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import type { Prisma } from "../../../generated/prisma/client.ts";
import { shareLockCategory } from "./queries.ts";
import { categoryInclude, categoryJson } from "./views.ts";
import * as clock from "../../lib/clock.ts";

export async function categoryPage(query: PageQuery & { search?: string }) {
  const page = pageOf(query);
  const where: Prisma.AssetCategoryWhereInput = { deleted_at: null };
  if (query.search) where.name = { contains: query.search, mode: "insensitive" };
  const [rows, total] = await Promise.all([
    db.assetCategory.findMany({
      where,
      include: categoryInclude,
      orderBy: [{ name: "asc" }, { id: "asc" }],
      skip: page.skip,
      take: page.limit,
    }),
    db.assetCategory.count({ where }),
  ]);
  return { rows: rows.map(categoryJson), page, total };
}

export async function categoryById(id: string) {
  const c = await db.assetCategory.findFirst({ where: { id, deleted_at: null }, include: categoryInclude });
  if (!c) throw notFound("Asset category");
  return categoryJson(c);
}

async function ensureNameFree(tx: ScopedTx, name: string, exceptId?: string) {
  const clash = await tx.assetCategory.findFirst({
    where: { name: { equals: name, mode: "insensitive" }, deleted_at: null, ...(exceptId ? { NOT: { id: exceptId } } : {}) },
    select: { id: true },
  });
  if (clash) throw conflict(`An asset category named "${name}" already exists`);
}

function cleanName(name: string): string {
  const n = name.trim().replace(/\s+/g, " ");
  if (!n) throw invalidField("body.name", "must not be blank");
  return n;
}

export async function addCategory(body: { name: string; description?: string | null }) {
  const name = cleanName(body.name);
  const c = await tenantTx(async (tx) => {
    await ensureNameFree(tx, name);
    const c = await tx.assetCategory.create({ data: { name, description: body.description ?? null }, include: categoryInclude });
    await audit(
      { action: "asset.category_created", entity_type: "asset_category", entity_id: c.id, changes: { name, description: c.description } },
      tx,
    );
    return c;
  });
  return categoryJson(c);
}

export async function changeCategory(id: string, body: { name?: string; description?: string | null }) {
  const c = await tenantTx(async (tx) => {
    const before = await tx.assetCategory.findFirst({ where: { id, deleted_at: null } });
    if (!before) throw notFound("Asset category");
    const data: Prisma.AssetCategoryUpdateInput = {};
    if (body.name !== undefined) {
      data.name = cleanName(body.name);
      if (data.name.toLowerCase() !== before.name.toLowerCase()) await ensureNameFree(tx, data.name, id);
    }
    if (body.description !== undefined) data.description = body.description;
    const after = await tx.assetCategory.update({ where: byId(id), data, include: categoryInclude });
    const changes = diff(before, after, ["name", "description"]);
    if (Object.keys(changes).length)
      await audit({ action: "asset.category_updated", entity_type: "asset_category", entity_id: id, changes }, tx);
    return after;
  });
  return categoryJson(c);
}

export async function removeCategory(id: string) {
  await tenantTx(async (tx) => {
    // Lock the category: an asset being added to it at the same moment waits (FOR SHARE there).
    if (!(await lockRow(tx, "asset_categories", id, { live: true }))) throw notFound("Asset category");
    const { name } = await tx.assetCategory.findFirstOrThrow({ where: { id }, select: { name: true } });
    const inUse = await tx.asset.count({ where: { category_id: id, deleted_at: null } });
    if (inUse) throw conflict(`The category is still used by ${inUse} asset${inUse === 1 ? "" : "s"}; move or delete them first`);
    await tx.assetCategory.update({ where: byId(id), data: { deleted_at: clock.now() } });
    await audit({ action: "asset.category_deleted", entity_type: "asset_category", entity_id: id, changes: { name } }, tx);
  });
}

/** The category, share-locked for the transaction (so it cannot be deleted meanwhile), or a 400. */
export async function lockCategoryForUse(tx: ScopedTx, id: string): Promise<void> {
  if (!(await shareLockCategory(tx, id))) throw invalidField("body.category_id", "is not an asset category of the company");
}
