// Work locations: named places (optionally of a branch, optionally with coordinates and a
// geofence); names are unique; every creation is audited in the same transaction.
import { audit, diff } from "../../platform/audit.ts";
import { db, tenantTx } from "../../db/tenancy.ts";
import type { Page } from "../../platform/use-case.ts";
import { badRequest, conflict, invalidField } from "../../platform/errors.ts";
import type { RequestBody } from "../../platform/use-case.ts";
import { trimmed, workLocationJson } from "./json.ts";

export type WorkLocationCreateInput = RequestBody<"createWorkLocation">;
type WorkLocationJson = ReturnType<typeof workLocationJson>;

/** A page of work locations by name, of one branch when given. */
export async function workLocationPage(page: Page, branchId?: string): Promise<{ rows: WorkLocationJson[]; total: number }> {
  const where = branchId ? { branch_id: branchId } : {};
  const [rows, total] = await Promise.all([
    db.workLocation.findMany({ where, orderBy: [{ name: "asc" }, { id: "asc" }], skip: page.skip, take: page.limit }),
    db.workLocation.count({ where }),
  ]);
  return { rows: rows.map(workLocationJson), total };
}

/** Coordinates come in pairs, a geofence needs them; the branch must be a live one of the company. */
export async function addWorkLocation(raw: WorkLocationCreateInput): Promise<WorkLocationJson> {
  const input = trimmed(raw);
  const hasLat = input.latitude !== undefined && input.latitude !== null;
  const hasLng = input.longitude !== undefined && input.longitude !== null;
  if (hasLat !== hasLng) throw invalidField(hasLat ? "body.longitude" : "body.latitude", "is required together with the other coordinate");
  if (input.geofence_radius_m != null && !hasLat)
    throw badRequest("A geofence needs latitude and longitude", [
      { path: "body.geofence_radius_m", message: "requires latitude and longitude" },
    ]);
  const w = await tenantTx(async (tx) => {
    if (input.branch_id && !(await tx.branch.findFirst({ where: { id: input.branch_id, deleted_at: null }, select: { id: true } })))
      throw invalidField("body.branch_id", "is not a branch of this company");
    if (await tx.workLocation.findFirst({ where: { name: input.name }, select: { id: true } }))
      throw conflict(`A work location named "${input.name}" already exists`);
    const w = await tx.workLocation.create({ data: input });
    const fields = ["name", "branch_id", "address", "city", "state", "country", "latitude", "longitude", "geofence_radius_m"];
    await audit(
      {
        action: "work_location.created",
        entity_type: "work_location",
        entity_id: w.id,
        changes: diff(Object.fromEntries(fields.map((f) => [f, null])), w, fields),
      },
      tx,
    );
    return w;
  });
  return workLocationJson(w);
}
