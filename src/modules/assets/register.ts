// The asset register: tags (generated per company unless given), serial numbers, purchase data,
// condition, and the few status changes hr may make by hand (retire, mark lost).
import { assertNotAssigned } from "./states.ts";
import { audit, diff } from "../../platform/audit.ts";
import { db, tenantTx, type ScopedTx, byId } from "../../db/tenancy.ts";
import { type Listing, pageOf, type PageQuery } from "../../platform/use-case.ts";
import { type Walk, walkPage, withDeletedAt } from "../../db/keyset.ts";
import { assetKeys } from "./queries.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext } from "../../platform/use-case.ts";
import { parseDate, type DateString } from "../../lib/dates.ts";
import { moneyStringOrNull } from "../../lib/money.ts";
import { nextNumber } from "../../platform/sequences.ts";
import type { Prisma } from "../../../generated/prisma/client.ts";
import { lockCategoryForUse } from "./categories.ts";
import { amount, checkCalendarDates, companyToday, lockAsset, type AssetCondition, type AssetStatus } from "./common.ts";
import { assetInclude, assetJson } from "./views.ts";
import * as clock from "../../lib/clock.ts";

export interface AssetInput {
  asset_tag?: string;
  name?: string;
  category_id?: string;
  serial_number?: string | null;
  purchase_date?: string | null;
  purchase_cost?: string | null;
  warranty_expires_on?: string | null;
  condition?: "new" | "good" | "fair" | "poor";
  status?: "retired" | "lost";
  notes?: string | null;
}

type AssetQuery = PageQuery & {
  status?: AssetStatus;
  condition?: AssetCondition;
  category_id?: string;
  employee_id?: string;
  search?: string;
};

/** The register: a page by number, or a page of a walk in the order of change with tombstones (docs/integrations-sync.md). */
export async function assetList(query: AssetQuery, walk: Walk | null): Promise<Listing<ReturnType<typeof assetJson>>> {
  if (!walk) return findAssets(query);
  const where = assetFilter(query);
  if (walk.includeDeleted) delete where.deleted_at;
  const { rows, last } = await walkPage(
    walk,
    (after, n) => assetKeys(walk, after, n),
    (ids) => db.asset.findMany({ where: { ...where, id: { in: ids } }, include: assetInclude }),
  );
  return { rows: rows.map((a) => withDeletedAt(assetJson(a), a.deleted_at)), walk, last };
}

function assetFilter(query: AssetQuery): Prisma.AssetWhereInput {
  const where: Prisma.AssetWhereInput = { deleted_at: null };
  if (query.status) where.status = query.status;
  if (query.condition) where.condition = query.condition;
  if (query.category_id) where.category_id = query.category_id;
  if (query.employee_id) where.assignments = { some: { employee_id: query.employee_id, returned_on: null } };
  if (query.search)
    where.OR = [
      { asset_tag: { contains: query.search, mode: "insensitive" } },
      { name: { contains: query.search, mode: "insensitive" } },
      { serial_number: { contains: query.search, mode: "insensitive" } },
    ];
  return where;
}

export async function findAssets(query: AssetQuery) {
  const page = pageOf(query);
  const where = assetFilter(query);
  const [rows, total] = await Promise.all([
    db.asset.findMany({ where, include: assetInclude, orderBy: [{ asset_tag: "asc" }, { id: "asc" }], skip: page.skip, take: page.limit }),
    db.asset.count({ where }),
  ]);
  return { rows: rows.map(assetJson), page, total };
}

export async function assetById(id: string) {
  const a = await db.asset.findFirst({ where: { id, deleted_at: null }, include: assetInclude });
  if (!a) throw notFound("Asset");
  return assetJson(a);
}

const trimOrNull = (s: string | null | undefined) => (s === undefined ? undefined : s === null ? null : s.trim() || null);

/** Field checks shared by create and update (`merged` = the asset as it would be after the change). */
function checkDates(
  body: AssetInput,
  merged: { purchase_date: DateString | null; warranty_expires_on: DateString | null },
  today: DateString,
) {
  checkCalendarDates({ "body.purchase_date": body.purchase_date, "body.warranty_expires_on": body.warranty_expires_on });
  if (body.purchase_date && body.purchase_date > today) throw invalidField("body.purchase_date", "must not be in the future");
  if (merged.purchase_date && merged.warranty_expires_on && merged.warranty_expires_on < merged.purchase_date)
    throw invalidField(
      body.warranty_expires_on !== undefined ? "body.warranty_expires_on" : "body.purchase_date",
      "warranty_expires_on must not be before purchase_date",
    );
}

async function ensureTagFree(tx: ScopedTx, tag: string, exceptId?: string) {
  // Deleted assets keep their tags: labels on the devices and the audit trail must stay unambiguous.
  const clash = await tx.asset.findFirst({
    where: { asset_tag: { equals: tag, mode: "insensitive" }, ...(exceptId ? { NOT: { id: exceptId } } : {}) },
    select: { id: true },
  });
  if (clash) throw conflict(`Asset tag ${tag} is already used by another asset`);
}

async function ensureSerialFree(tx: ScopedTx, serial: string, exceptId?: string) {
  const clash = await tx.asset.findFirst({
    where: { serial_number: { equals: serial, mode: "insensitive" }, deleted_at: null, ...(exceptId ? { NOT: { id: exceptId } } : {}) },
    select: { asset_tag: true },
  });
  if (clash) throw conflict(`Serial number ${serial} is already registered (asset ${clash.asset_tag})`);
}

/** The next free `AST-00042` (a tag typed by hand may already have taken a number). */
async function generateTag(tx: ScopedTx): Promise<string> {
  for (let i = 0; i < 1000; i++) {
    const tag = await nextNumber(tx, "asset_tag", "AST-");
    if (!(await tx.asset.findFirst({ where: { asset_tag: tag }, select: { id: true } }))) return tag;
  }
  throw conflict("Could not find a free asset tag; give one explicitly");
}

export async function registerAsset(auth: AuthContext, body: AssetInput & { name: string; category_id: string }) {
  const today = await companyToday();
  checkDates(body, { purchase_date: body.purchase_date ?? null, warranty_expires_on: body.warranty_expires_on ?? null }, today);
  const purchase_cost = amount("body.purchase_cost", body.purchase_cost);
  const name = body.name.trim();
  const serial_number = trimOrNull(body.serial_number) ?? null;
  const created = await tenantTx(async (tx) => {
    await lockCategoryForUse(tx, body.category_id);
    const asset_tag = body.asset_tag ? body.asset_tag.trim() : await generateTag(tx);
    if (body.asset_tag) await ensureTagFree(tx, asset_tag);
    if (serial_number) await ensureSerialFree(tx, serial_number);
    const a = await tx.asset.create({
      data: {
        asset_tag,
        name,
        category_id: body.category_id,
        serial_number,
        purchase_date: body.purchase_date ? parseDate(body.purchase_date) : null,
        purchase_cost: purchase_cost ?? null,
        warranty_expires_on: body.warranty_expires_on ? parseDate(body.warranty_expires_on) : null,
        condition: body.condition ?? "new",
        status: "available",
        notes: body.notes ?? null,
        created_by: auth.userId,
      },
      include: assetInclude,
    });
    await audit(
      {
        action: "asset.created",
        entity_type: "asset",
        entity_id: a.id,
        changes: { asset_tag, name, category_id: a.category_id, serial_number, status: "available", condition: a.condition },
      },
      tx,
    );
    return a;
  });
  return assetJson(created);
}

const EDITABLE = [
  "asset_tag",
  "name",
  "category_id",
  "serial_number",
  "purchase_date",
  "purchase_cost",
  "warranty_expires_on",
  "condition",
  "status",
  "notes",
] as const;

// size: one transaction read top to bottom: the checks under its row locks, the write, the audit and the notices, in order
export async function editAsset(id: string, body: AssetInput) {
  const today = await companyToday();
  const purchase_cost = amount("body.purchase_cost", body.purchase_cost);
  const updated = await tenantTx(async (tx) => {
    const locked = await lockAsset(tx, id);
    if (!locked) throw notFound("Asset");
    const before = await tx.asset.findFirstOrThrow({ where: { id } });
    const dateOf = (v: string | null | undefined, current: Date | null) =>
      v === undefined ? (current ? current.toISOString().slice(0, 10) : null) : v;
    checkDates(
      body,
      {
        purchase_date: dateOf(body.purchase_date, before.purchase_date),
        warranty_expires_on: dateOf(body.warranty_expires_on, before.warranty_expires_on),
      },
      today,
    );

    const data: Prisma.AssetUncheckedUpdateInput = {};
    if (body.status !== undefined && body.status !== before.status) {
      assertNotAssigned(before, `is assigned; approve its return before marking it ${body.status}`);
      data.status = body.status;
    }
    if (body.condition !== undefined && body.condition !== before.condition) {
      const open = await tx.assetDamageReport.count({ where: { asset_id: id, status: "open" } });
      if (open)
        throw conflict(
          `Asset ${before.asset_tag} has ${open} open damage report${open === 1 ? "" : "s"}; resolve them to change its condition`,
        );
      data.condition = body.condition;
    }
    if (body.asset_tag !== undefined) {
      const tag = body.asset_tag.trim();
      if (tag.toLowerCase() !== before.asset_tag.toLowerCase()) await ensureTagFree(tx, tag, id);
      data.asset_tag = tag;
    }
    if (body.name !== undefined) data.name = body.name.trim();
    if (body.category_id !== undefined && body.category_id !== before.category_id) {
      await lockCategoryForUse(tx, body.category_id);
      data.category_id = body.category_id;
    }
    if (body.serial_number !== undefined) {
      const serial = trimOrNull(body.serial_number) ?? null;
      if (serial && serial.toLowerCase() !== (before.serial_number ?? "").toLowerCase()) await ensureSerialFree(tx, serial, id);
      data.serial_number = serial;
    }
    if (body.purchase_date !== undefined) data.purchase_date = body.purchase_date ? parseDate(body.purchase_date) : null;
    if (body.warranty_expires_on !== undefined)
      data.warranty_expires_on = body.warranty_expires_on ? parseDate(body.warranty_expires_on) : null;
    if (purchase_cost !== undefined) data.purchase_cost = purchase_cost;
    if (body.notes !== undefined) data.notes = body.notes;

    const after = await tx.asset.update({ where: byId(id), data, include: assetInclude });
    const changes = diff(before, after, [...EDITABLE]);
    // Readable trail: calendar days as YYYY-MM-DD, money with two places.
    for (const f of ["purchase_date", "warranty_expires_on"] as const)
      if (changes[f])
        changes[f] = {
          from: (changes[f].from as string | null)?.slice(0, 10) ?? null,
          to: (changes[f].to as string | null)?.slice(0, 10) ?? null,
        };
    if (changes.purchase_cost)
      changes.purchase_cost = {
        from: moneyStringOrNull(changes.purchase_cost.from as string | null),
        to: moneyStringOrNull(changes.purchase_cost.to as string | null),
      };
    if (Object.keys(changes).length)
      await audit({ action: changes.status ? "asset.status_changed" : "asset.updated", entity_type: "asset", entity_id: id, changes }, tx);
    return after;
  });
  return assetJson(updated);
}

export async function removeAsset(id: string) {
  await tenantTx(async (tx) => {
    const a = await lockAsset(tx, id);
    if (!a) throw notFound("Asset");
    assertNotAssigned(a, "is assigned; approve its return before deleting it");
    await tx.asset.update({ where: byId(id), data: { deleted_at: clock.now() } });
    await audit(
      { action: "asset.deleted", entity_type: "asset", entity_id: id, changes: { asset_tag: a.asset_tag, name: a.name, status: a.status } },
      tx,
    );
  });
}
