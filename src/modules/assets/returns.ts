// Return requests: the holder (or hr) asks to give an asset back; hr approves - closing the
// assignment with the date and condition found - or rejects.
import { statusAfterReturn } from "./states.ts";
import { audit } from "../../platform/audit.ts";
import { lockRow } from "../../db/sql.ts";
import { db, tenantTx, byId } from "../../db/tenancy.ts";
import { pageOf, type PageQuery } from "../../platform/use-case.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext } from "../../platform/use-case.ts";
import { parseDate, toDateString } from "../../lib/dates.ts";
import { notify } from "../../platform/notify.ts";
import type { Prisma } from "../../../generated/prisma/client.ts";
import {
  assetManagers,
  checkCalendarDates,
  companyToday,
  lockAsset,
  usersOfEmployee,
  type AssetCondition,
  type AssetStatus,
  type ReturnRequestStatus,
} from "./common.ts";
import { ownEmployeeFilter } from "./assignments.ts";
import { returnRequestInclude, returnRequestsJson } from "./views.ts";
import * as clock from "../../lib/clock.ts";

export async function returnRequestPage(
  auth: AuthContext,
  query: PageQuery & { status?: ReturnRequestStatus; employee_id?: string; asset_id?: string; assignment_id?: string },
) {
  const page = pageOf(query);
  const own = ownEmployeeFilter(auth);
  if (!own) return { rows: [], page, total: 0 };
  const where: Prisma.AssetReturnRequestWhereInput = {
    AND: [
      { assignment: own },
      query.employee_id ? { assignment: { employee_id: query.employee_id } } : {},
      query.asset_id ? { assignment: { asset_id: query.asset_id } } : {},
    ],
  };
  if (query.status) where.status = query.status;
  if (query.assignment_id) where.assignment_id = query.assignment_id;
  const [rows, total] = await Promise.all([
    db.assetReturnRequest.findMany({
      where,
      include: returnRequestInclude,
      orderBy: [{ created_at: "desc" }, { id: "desc" }],
      skip: page.skip,
      take: page.limit,
    }),
    db.assetReturnRequest.count({ where }),
  ]);
  return { rows: await returnRequestsJson(rows), page, total };
}

export async function requestReturn(auth: AuthContext, body: { assignment_id: string; reason: string }) {
  const own = ownEmployeeFilter(auth);
  if (!own) throw notFound("Assignment");
  const reason = body.reason.trim();
  const row = await tenantTx(async (tx) => {
    const visible = await tx.assetAssignment.findFirst({
      where: { id: body.assignment_id, ...own },
      include: { asset: { select: { asset_tag: true, name: true } } },
    });
    if (!visible) throw notFound("Assignment");
    // Lock the assignment: two requests for it at once are serialised (one pending at a time).
    await lockRow(tx, "asset_assignments", visible.id);
    const a = await tx.assetAssignment.findFirstOrThrow({ where: { id: visible.id }, select: { returned_on: true } });
    if (a.returned_on) throw conflict(`Asset ${visible.asset.asset_tag} was already returned on ${toDateString(a.returned_on)}`);
    const pending = await tx.assetReturnRequest.findFirst({
      where: { assignment_id: visible.id, status: "pending" },
      select: { id: true },
    });
    if (pending) throw conflict(`A return request for asset ${visible.asset.asset_tag} is already pending`);
    const r = await tx.assetReturnRequest.create({
      data: { assignment_id: visible.id, requested_by: auth.userId, reason, status: "pending" },
      include: returnRequestInclude,
    });
    await audit(
      {
        action: "asset.return_requested",
        entity_type: "asset_return_request",
        entity_id: r.id,
        changes: { assignment_id: visible.id, asset_id: visible.asset_id, employee_id: visible.employee_id, reason },
      },
      tx,
    );
    for (const userId of await assetManagers(tx, auth.userId))
      await notify(tx, {
        userId,
        kind: "asset.return_requested",
        title: `Return requested for asset ${visible.asset.asset_tag} (${visible.asset.name})`,
        body: reason,
        link: `/api/assets/return-requests?assignment_id=${visible.id}`,
      });
    return r;
  });
  return (await returnRequestsJson([row]))[0];
}

export interface DecisionInput {
  status: "approved" | "rejected";
  returned_on?: string;
  return_condition?: AssetCondition;
  decision_notes?: string | null;
}

// size: one transaction read top to bottom: the checks under its row locks, the write, the audit and the notices, in order
export async function decideReturn(auth: AuthContext, id: string, body: DecisionInput) {
  if (body.status === "rejected") {
    if (body.returned_on !== undefined) throw invalidField("body.returned_on", "is only for approvals");
    if (body.return_condition !== undefined) throw invalidField("body.return_condition", "is only for approvals");
  }
  checkCalendarDates({ "body.returned_on": body.returned_on });
  const today = await companyToday();
  const row = await tenantTx(async (tx) => {
    if (!(await lockRow(tx, "asset_return_requests", id))) throw notFound("Return request");
    const request = await tx.assetReturnRequest.findFirstOrThrow({ where: { id }, select: { status: true, assignment_id: true } });
    if (request.status !== "pending") throw conflict(`The return request was already ${request.status}`);
    const assignment = await tx.assetAssignment.findFirstOrThrow({ where: { id: request.assignment_id } });
    const decided = { status: body.status, decided_by: auth.userId, decided_at: clock.now(), decision_notes: body.decision_notes ?? null };
    let outcome = "";

    if (body.status === "approved") {
      const asset = await lockAsset(tx, assignment.asset_id, true);
      if (!asset) throw notFound("Asset");
      const returned_on = body.returned_on ?? today;
      if (returned_on > today) throw invalidField("body.returned_on", "must not be in the future");
      const assignedOn = toDateString(assignment.assigned_on);
      if (returned_on < assignedOn) throw invalidField("body.returned_on", `must not be before the hand-over (${assignedOn})`);

      const open = await tx.assetDamageReport.findMany({ where: { asset_id: asset.id, status: "open" }, select: { severity: true } });
      const return_condition: AssetCondition = body.return_condition ?? asset.condition;
      // Returned damaged with nothing on record: open a report, so the repair is tracked and resolved.
      let autoReport: string | null = null;
      if (return_condition === "damaged" && !open.length) {
        const r = await tx.assetDamageReport.create({
          data: {
            asset_id: asset.id,
            assignment_id: assignment.id,
            severity: "major",
            description: `Returned damaged${body.decision_notes ? `: ${body.decision_notes}` : ""}`,
            reported_by: auth.userId,
            status: "open",
          },
        });
        autoReport = r.id;
        await audit(
          {
            action: "asset.damage_reported",
            entity_type: "asset_damage_report",
            entity_id: r.id,
            changes: { asset_id: asset.id, severity: "major", automatic: true, return_request_id: id },
          },
          tx,
        );
      }
      const stillDamaged = open.length > 0 || autoReport !== null;
      const condition: AssetCondition = stillDamaged ? "damaged" : return_condition;
      const status: AssetStatus = statusAfterReturn(
        return_condition === "damaged" || autoReport !== null,
        open.some((o) => o.severity === "major"),
      );

      await tx.assetAssignment.update({
        where: byId(assignment.id),
        data: {
          returned_on: parseDate(returned_on),
          return_condition,
          return_notes: body.decision_notes ?? null,
          returned_by: auth.userId,
        },
      });
      await tx.asset.update({ where: byId(asset.id), data: { status, condition } });
      await audit(
        {
          action: "asset.returned",
          event: "asset.returned",
          entity_type: "asset_assignment",
          entity_id: assignment.id,
          changes: { asset_id: asset.id, employee_id: assignment.employee_id, returned_on, return_condition, return_request_id: id },
        },
        tx,
      );
      const assetChanges: Record<string, unknown> = { status: { from: asset.status, to: status }, assignment_id: assignment.id };
      if (condition !== asset.condition) assetChanges.condition = { from: asset.condition, to: condition };
      await audit({ action: "asset.status_changed", entity_type: "asset", entity_id: asset.id, changes: assetChanges }, tx);
      outcome = `Asset ${asset.asset_tag} (${asset.name}): your return was approved - returned on ${returned_on}.`;
    } else {
      const asset = await tx.asset.findFirstOrThrow({ where: { id: assignment.asset_id }, select: { asset_tag: true, name: true } });
      outcome =
        `Asset ${asset.asset_tag} (${asset.name}): your return request was ` +
        `rejected${body.decision_notes ? ` - ${body.decision_notes}` : ""}. The asset stays with you.`;
    }

    const r = await tx.assetReturnRequest.update({ where: byId(id), data: decided, include: returnRequestInclude });
    await audit(
      {
        action: `asset.return_${body.status}`,
        entity_type: "asset_return_request",
        entity_id: id,
        changes: { status: { from: "pending", to: body.status }, decision_notes: body.decision_notes ?? null },
      },
      tx,
    );
    const recipients = new Map((await usersOfEmployee(tx, assignment.employee_id)).map((u) => [u.userId, u.email]));
    if (!recipients.has(r.requested_by)) recipients.set(r.requested_by, null);
    recipients.delete(auth.userId);
    for (const [userId, email] of recipients)
      await notify(tx, {
        userId,
        email,
        kind: `asset.return_${body.status}`,
        title: `Return of asset ${r.assignment.asset.asset_tag} ${body.status}`,
        body: outcome,
        link: `/api/assets/return-requests?assignment_id=${assignment.id}`,
      });
    return r;
  });
  return (await returnRequestsJson([row]))[0];
}
