// Leave types: hr's catalogue of kinds of leave and their rules (paid, half days, notice, limits,
// negative balance, carry-forward, encashment, compensatory leave, sandwich rule, who they apply
// to). Codes are unique per company (upper case); a type in use is retired, not deleted.
import type { Prisma } from "../../../generated/prisma/client.ts";
import { audit, diff } from "../../platform/audit.ts";
import { db, tenantTx, byId } from "../../db/tenancy.ts";
import { pageOf } from "../../platform/use-case.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import type { QueryParams, RequestBody } from "../../platform/use-case.ts";
import { days } from "./days.ts";
import { leaveTypeJson, type Listing } from "./json.ts";

type LeaveTypeJson = ReturnType<typeof leaveTypeJson>;

const isUniqueViolation = (err: unknown) => (err as { code?: string })?.code === "P2002";

type TypeFields = {
  allow_negative_balance?: boolean;
  negative_balance_limit?: string | { toString(): string } | null;
  carry_forward?: boolean;
  carry_forward_max_days?: unknown;
  carry_forward_expiry_days?: unknown;
  encash_carry_forward_excess?: boolean;
  encashable?: boolean;
  encashment_max_days?: unknown;
  encashment_min_balance?: unknown;
  is_compensatory?: boolean;
  comp_off_validity_days?: unknown;
};

/** Options that only make sense with their switch on (checked on the merged result of an update). */
function checkTypeRules(t: TypeFields) {
  const set = (v: unknown) => v !== null && v !== undefined;
  if (!t.allow_negative_balance && days(t.negative_balance_limit ?? 0).gt(0))
    throw invalidField("body.negative_balance_limit", "needs allow_negative_balance");
  if (!t.carry_forward && (set(t.carry_forward_max_days) || set(t.carry_forward_expiry_days)))
    throw invalidField("body.carry_forward_max_days", "and carry_forward_expiry_days need carry_forward");
  // OSH Code s.32: the excess over the carry-forward cap is encashed - the type carries forward and is encashable
  if (t.encash_carry_forward_excess && (!t.carry_forward || !t.encashable))
    throw invalidField("body.encash_carry_forward_excess", "needs carry_forward and encashable");
  if (!t.encashable && (set(t.encashment_max_days) || set(t.encashment_min_balance)))
    throw invalidField("body.encashment_max_days", "and encashment_min_balance need encashable");
  if (!t.is_compensatory && set(t.comp_off_validity_days)) throw invalidField("body.comp_off_validity_days", "needs is_compensatory");
}

async function typeInUse(id: string): Promise<boolean> {
  const counts = await Promise.all([
    db.leavePolicyItem.count({ where: { leave_type_id: id } }),
    db.leaveAllocation.count({ where: { leave_type_id: id } }),
    db.leaveLedgerEntry.count({ where: { leave_type_id: id } }),
    db.leaveRequest.count({ where: { leave_type_id: id } }),
    db.leaveEncashment.count({ where: { leave_type_id: id } }),
    db.holidayWorkRequest.count({ where: { leave_type_id: id } }),
  ]);
  return counts.some((c) => c > 0);
}

export async function leaveTypePage(query: QueryParams<"listLeaveTypes">): Promise<Listing<LeaveTypeJson>> {
  const page = pageOf(query);
  const where: Prisma.LeaveTypeWhereInput = query.active === undefined ? {} : { active: query.active };
  const [rows, total] = await Promise.all([
    db.leaveType.findMany({ where, orderBy: [{ name: "asc" }, { id: "asc" }], skip: page.skip, take: page.limit }),
    db.leaveType.count({ where }),
  ]);
  return { rows: rows.map(leaveTypeJson), page, total };
}

export async function addLeaveType(body: RequestBody<"createLeaveType">): Promise<LeaveTypeJson> {
  checkTypeRules(body);
  try {
    const t = await tenantTx(async (tx) => {
      const row = await tx.leaveType.create({ data: { ...body, code: body.code.toUpperCase() } });
      await audit(
        { action: "leave_type.created", entity_type: "leave_type", entity_id: row.id, changes: { code: row.code, name: row.name } },
        tx,
      );
      return row;
    });
    return leaveTypeJson(t);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`A leave type with code ${body.code.toUpperCase()} already exists`);
    throw err;
  }
}

export async function leaveTypeById(id: string): Promise<LeaveTypeJson> {
  const t = await db.leaveType.findFirst({ where: { id } });
  if (!t) throw notFound("Leave type");
  return leaveTypeJson(t);
}

export async function changeLeaveType(id: string, body: RequestBody<"updateLeaveType">): Promise<LeaveTypeJson> {
  const before = await db.leaveType.findFirst({ where: { id } });
  if (!before) throw notFound("Leave type");
  checkTypeRules({ ...before, ...body });
  try {
    const t = await tenantTx(async (tx) => {
      const data = { ...body, ...(typeof body.code === "string" ? { code: body.code.toUpperCase() } : {}) };
      const after = await tx.leaveType.update({ where: byId(id), data });
      const changes = diff(before, after, Object.keys(data));
      if (Object.keys(changes).length)
        await audit({ action: "leave_type.updated", entity_type: "leave_type", entity_id: after.id, changes }, tx);
      return after;
    });
    return leaveTypeJson(t);
  } catch (err) {
    if (isUniqueViolation(err)) throw conflict(`A leave type with code ${String(body.code).toUpperCase()} already exists`);
    throw err;
  }
}

/** Deletes a type nothing refers to; one in use must be retired (active: false). */
export async function removeLeaveType(id: string): Promise<void> {
  const t = await db.leaveType.findFirst({ where: { id } });
  if (!t) throw notFound("Leave type");
  if (await typeInUse(t.id))
    throw conflict("The leave type is in use (policies, allocations, ledger or requests); retire it with active: false instead");
  await tenantTx(async (tx) => {
    await tx.leaveType.delete({ where: byId(t.id) });
    await audit({ action: "leave_type.deleted", entity_type: "leave_type", entity_id: t.id, changes: { code: t.code, name: t.name } }, tx);
  });
}
