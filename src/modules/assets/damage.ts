// Damage reports: the asset's status moves by states.ts (a major damage takes it out of service); hr
// resolves a report as repaired or written off.
import { assertNotAssigned, assertTakesDamageReports, statusAfterDamage, statusAfterRepair, WRITTEN_OFF } from "./states.ts";
import { audit } from "../../platform/audit.ts";
import { uploadOf } from "../../platform/storage/files.ts";
import { lockRow } from "../../db/sql.ts";
import { db, tenantTx, byId } from "../../db/tenancy.ts";
import { pageOf, type PageQuery } from "../../platform/use-case.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext } from "../../platform/use-case.ts";
import { notify } from "../../platform/notify.ts";
import type { Prisma } from "../../../generated/prisma/client.ts";
import {
  amount,
  assetManagers,
  lockAsset,
  userNames,
  type AssetCondition,
  type AssetStatus,
  type DamageSeverity,
  type DamageStatus,
} from "./common.ts";
import { ownEmployeeFilter } from "./assignments.ts";
import { damageReportInclude, damageReportsJson } from "./views.ts";
import { isHr } from "../shared/access.ts";
import * as clock from "../../lib/clock.ts";

export async function damageReportPage(
  auth: AuthContext,
  query: PageQuery & { status?: DamageStatus; severity?: DamageSeverity; asset_id?: string; employee_id?: string },
) {
  const page = pageOf(query);
  const own = ownEmployeeFilter(auth);
  if (!own) return { rows: [], page, total: 0 };
  const where: Prisma.AssetDamageReportWhereInput = {
    AND: [
      own.employee_id ? { assignment: { employee_id: own.employee_id } } : {},
      query.employee_id ? { assignment: { employee_id: query.employee_id } } : {},
    ],
  };
  if (query.status) where.status = query.status;
  if (query.severity) where.severity = query.severity;
  if (query.asset_id) where.asset_id = query.asset_id;
  const [rows, total] = await Promise.all([
    db.assetDamageReport.findMany({
      where,
      include: damageReportInclude,
      orderBy: [{ created_at: "desc" }, { id: "desc" }],
      skip: page.skip,
      take: page.limit,
    }),
    db.assetDamageReport.count({ where }),
  ]);
  return { rows: await damageReportsJson(rows), page, total };
}

// size: one transaction read top to bottom: the checks under its row locks, the write, the audit and the notices, in order
export async function reportDamage(
  auth: AuthContext,
  body: { asset_id: string; severity: DamageSeverity; description: string; file_id?: string | null },
) {
  const manager = isHr(auth);
  if (!manager && !auth.employeeId) throw notFound("Asset");
  if (body.file_id) {
    const f = await uploadOf(body.file_id, manager ? undefined : [auth.userId]);
    if (!f) throw invalidField("body.file_id", manager ? "is not a file of the company" : "is not a file you uploaded");
  }
  const description = body.description.trim();
  const row = await tenantTx(async (tx) => {
    const asset = await lockAsset(tx, body.asset_id);
    if (!asset) throw notFound("Asset");
    const holding = await tx.assetAssignment.findFirst({
      where: { asset_id: asset.id, returned_on: null },
      select: { id: true, employee_id: true },
    });
    // Managers and employees report only on what they hold now; anything else looks unknown.
    if (!manager && holding?.employee_id !== auth.employeeId) throw notFound("Asset");
    assertTakesDamageReports(asset);

    const r = await tx.assetDamageReport.create({
      data: {
        asset_id: asset.id,
        assignment_id: holding?.id ?? null,
        severity: body.severity,
        description,
        file_id: body.file_id ?? null,
        reported_by: auth.userId,
        status: "open",
      },
      include: damageReportInclude,
    });
    const status: AssetStatus = statusAfterDamage(asset.status, body.severity);
    const changes: Record<string, unknown> = {};
    if (asset.condition !== "damaged") changes.condition = { from: asset.condition, to: "damaged" };
    if (status !== asset.status) changes.status = { from: asset.status, to: status };
    await audit(
      {
        action: "asset.damage_reported",
        entity_type: "asset_damage_report",
        entity_id: r.id,
        changes: { asset_id: asset.id, severity: body.severity, assignment_id: holding?.id ?? null, file_id: body.file_id ?? null },
      },
      tx,
    );
    if (Object.keys(changes).length) {
      await tx.asset.update({ where: byId(asset.id), data: { condition: "damaged", status } });
      await audit(
        {
          action: changes.status ? "asset.status_changed" : "asset.updated",
          entity_type: "asset",
          entity_id: asset.id,
          changes: { ...changes, damage_report_id: r.id },
        },
        tx,
      );
    }
    for (const userId of await assetManagers(tx, auth.userId))
      await notify(tx, {
        userId,
        kind: "asset.damage_reported",
        title: `${body.severity === "major" ? "Major" : "Minor"} damage reported on asset ${asset.asset_tag} (${asset.name})`,
        body: description.slice(0, 500),
        link: `/api/assets/damage-reports?asset_id=${asset.id}`,
      });
    return r;
  });
  return (await damageReportsJson([row]))[0];
}

export interface ResolveInput {
  status: "repaired" | "written_off";
  resolution_notes?: string | null;
  repair_cost?: string | null;
  condition?: "new" | "good" | "fair" | "poor";
}

// size: one transaction read top to bottom: the checks under its row locks, the write, the audit and the notices, in order
export async function resolveDamage(auth: AuthContext, id: string, body: ResolveInput) {
  if (body.status === "written_off" && body.condition !== undefined) throw invalidField("body.condition", "is only for repairs");
  const repair_cost = amount("body.repair_cost", body.repair_cost);
  const row = await tenantTx(async (tx) => {
    if (!(await lockRow(tx, "asset_damage_reports", id))) throw notFound("Damage report");
    const report = await tx.assetDamageReport.findFirstOrThrow({
      where: { id },
      select: { status: true, asset_id: true, reported_by: true },
    });
    if (report.status !== "open") throw conflict(`The damage report was already resolved (${report.status.replace("_", " ")})`);
    // Deleted assets still get their reports closed; their status no longer matters to anyone.
    const asset = (await lockAsset(tx, report.asset_id, true))!;
    const resolved = {
      status: body.status,
      resolution_notes: body.resolution_notes ?? null,
      resolved_by: auth.userId,
      resolved_at: clock.now(),
    };
    let next: { status: AssetStatus; condition: AssetCondition } = { status: asset.status, condition: asset.condition };

    if (body.status === "written_off") {
      assertNotAssigned(asset, "is still assigned; approve its return before writing it off");
      await tx.assetDamageReport.update({ where: byId(id), data: { ...resolved, repair_cost: repair_cost ?? null } });
      const others = await tx.assetDamageReport.findMany({ where: { asset_id: asset.id, status: "open" }, select: { id: true } });
      if (others.length) {
        await tx.assetDamageReport.updateMany({
          where: { id: { in: others.map((o) => o.id) } },
          data: { ...resolved, resolution_notes: `Written off with damage report ${id}` },
        });
        for (const o of others)
          await audit(
            {
              action: "asset.damage_written_off",
              entity_type: "asset_damage_report",
              entity_id: o.id,
              changes: { status: { from: "open", to: "written_off" }, with_report_id: id },
            },
            tx,
          );
      }
      next = { status: WRITTEN_OFF, condition: "damaged" };
    } else {
      await tx.assetDamageReport.update({ where: byId(id), data: { ...resolved, repair_cost: repair_cost ?? null } });
      const stillOpen = await tx.assetDamageReport.count({ where: { asset_id: asset.id, status: "open" } });
      if (!stillOpen) next = { condition: body.condition ?? "good", status: statusAfterRepair(asset.status) };
    }
    await audit(
      {
        action: body.status === "repaired" ? "asset.damage_repaired" : "asset.damage_written_off",
        entity_type: "asset_damage_report",
        entity_id: id,
        changes: {
          status: { from: "open", to: body.status },
          repair_cost: repair_cost ?? null,
          resolution_notes: body.resolution_notes ?? null,
        },
      },
      tx,
    );
    if (next.status !== asset.status || next.condition !== asset.condition) {
      await tx.asset.update({ where: byId(asset.id), data: next });
      const changes: Record<string, unknown> = { damage_report_id: id };
      if (next.status !== asset.status) changes.status = { from: asset.status, to: next.status };
      if (next.condition !== asset.condition) changes.condition = { from: asset.condition, to: next.condition };
      await audit(
        { action: changes.status ? "asset.status_changed" : "asset.updated", entity_type: "asset", entity_id: asset.id, changes },
        tx,
      );
    }
    if (report.reported_by !== auth.userId) {
      const reporter = (await userNames([report.reported_by])).get(report.reported_by);
      await notify(tx, {
        userId: report.reported_by,
        email: reporter?.email,
        kind: `asset.damage_${body.status}`,
        title: `Damage report on asset ${asset.asset_tag} ${body.status === "repaired" ? "resolved: repaired" : "resolved: written off"}`,
        body: body.resolution_notes ?? undefined,
        link: `/api/assets/damage-reports?asset_id=${asset.id}`,
      });
    }
    return tx.assetDamageReport.findFirstOrThrow({ where: { id }, include: damageReportInclude });
  });
  return (await damageReportsJson([row]))[0];
}
