// Assignments: an available asset handed to a current employee, one holder at a time.
import { audit } from "../../platform/audit.ts";
import { db, tenantTx, byId } from "../../db/tenancy.ts";
import { pageOf, type PageQuery } from "../../platform/use-case.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext } from "../../platform/use-case.ts";
import { parseDate } from "../../lib/dates.ts";
import { notify } from "../../platform/notify.ts";
import type { Prisma } from "../../../generated/prisma/client.ts";
import { assertAssignable } from "./states.ts";
import { checkCalendarDates, companyToday, employeeName, lockAsset, usersOfEmployee, type AssetCondition } from "./common.ts";
import { assignmentInclude, assignmentJson } from "./views.ts";
import { isHr } from "../shared/access.ts";

/** Employees of these statuses cannot receive assets. */
const NOT_ASSIGNABLE = new Set(["inactive", "exited"]);

/** Managers and employees see only their own linked record: null when they have none. */
export function ownEmployeeFilter(auth: AuthContext): { employee_id?: string } | null {
  if (isHr(auth)) return {};
  return auth.employeeId ? { employee_id: auth.employeeId } : null;
}

export async function assignmentPage(auth: AuthContext, query: PageQuery & { employee_id?: string; asset_id?: string; active?: boolean }) {
  const page = pageOf(query);
  const own = ownEmployeeFilter(auth);
  if (!own) return { rows: [], page, total: 0 };
  const where: Prisma.AssetAssignmentWhereInput = { AND: [own, query.employee_id ? { employee_id: query.employee_id } : {}] };
  if (query.asset_id) where.asset_id = query.asset_id;
  if (query.active !== undefined) where.returned_on = query.active ? null : { not: null };
  const [rows, total] = await Promise.all([
    db.assetAssignment.findMany({
      where,
      include: assignmentInclude,
      orderBy: [{ assigned_on: "desc" }, { created_at: "desc" }, { id: "desc" }],
      skip: page.skip,
      take: page.limit,
    }),
    db.assetAssignment.count({ where }),
  ]);
  return { rows: rows.map(assignmentJson), page, total };
}

export interface AssignInput {
  asset_id: string;
  employee_id: string;
  assigned_on?: string;
  expected_return_on?: string | null;
  condition_at_assignment?: AssetCondition;
  notes?: string | null;
}

// size: one transaction read top to bottom: the checks under its row locks, the write, the audit and the notices, in order
export async function assignAsset(auth: AuthContext, body: AssignInput) {
  checkCalendarDates({ "body.assigned_on": body.assigned_on, "body.expected_return_on": body.expected_return_on });
  const today = await companyToday();
  const assigned_on = body.assigned_on ?? today;
  if (assigned_on > today) throw invalidField("body.assigned_on", "must not be in the future");
  if (body.expected_return_on && body.expected_return_on < assigned_on)
    throw invalidField("body.expected_return_on", "must not be before assigned_on");

  const row = await tenantTx(async (tx) => {
    const employee = await tx.employee.findFirst({
      where: { id: body.employee_id, deleted_at: null },
      select: { id: true, first_name: true, last_name: true, status: true },
    });
    if (!employee) throw invalidField("body.employee_id", "is not an employee of the company");
    if (NOT_ASSIGNABLE.has(employee.status))
      throw conflict(`${employeeName(employee)} is ${employee.status}; assets go to current employees only`);

    // The asset row stays locked until commit: a second assignment of the same asset waits here
    // and then finds it no longer available.
    const asset = await lockAsset(tx, body.asset_id);
    if (!asset) throw notFound("Asset");
    assertAssignable(asset);

    const a = await tx.assetAssignment.create({
      data: {
        asset_id: asset.id,
        employee_id: employee.id,
        assigned_on: parseDate(assigned_on),
        expected_return_on: body.expected_return_on ? parseDate(body.expected_return_on) : null,
        condition_at_assignment: body.condition_at_assignment ?? asset.condition,
        notes: body.notes ?? null,
        assigned_by: auth.userId,
      },
      include: assignmentInclude,
    });
    await tx.asset.update({ where: byId(asset.id), data: { status: "assigned" } });
    await audit(
      {
        action: "asset.assigned",
        event: "asset.assigned",
        entity_type: "asset_assignment",
        entity_id: a.id,
        changes: {
          asset_id: asset.id,
          asset_tag: asset.asset_tag,
          employee_id: employee.id,
          assigned_on,
          expected_return_on: body.expected_return_on ?? null,
          condition_at_assignment: a.condition_at_assignment,
        },
      },
      tx,
    );
    await audit(
      {
        action: "asset.status_changed",
        entity_type: "asset",
        entity_id: asset.id,
        changes: { status: { from: asset.status, to: "assigned" }, employee_id: employee.id, assignment_id: a.id },
      },
      tx,
    );
    for (const u of await usersOfEmployee(tx, employee.id))
      await notify(tx, {
        userId: u.userId,
        email: u.email,
        kind: "asset.assigned",
        title: `Asset ${asset.asset_tag} (${asset.name}) was assigned to you`,
        body:
          `${asset.name} (${asset.asset_tag}) was handed over to you ` +
          `on ${assigned_on}${body.expected_return_on ? `; expected back by ${body.expected_return_on}` : ""}. ` +
          `Please report any damage and ask for a return through the assets section.`,
        link: `/api/assets/assignments?asset_id=${asset.id}`,
      });
    return a;
  });
  return assignmentJson(row);
}
