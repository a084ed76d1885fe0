// Leave policies: annual quotas per leave type (with their accrual), assigned to everyone (default),
// to departments, designations or named employees. Which policy applies to whom is decided in
// policy-match.ts; allocations are made from a policy in allocations.ts.
import { audit, diff } from "../../platform/audit.ts";
import { db, tenantTx, byId } from "../../db/tenancy.ts";
import { type PageQuery, pageOf } from "../../platform/use-case.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import type { RequestBody } from "../../platform/use-case.ts";
import { type Listing, policyJson } from "./json.ts";

type PolicyJson = ReturnType<typeof policyJson>;

const policyInclude = {
  items: { include: { leave_type: { select: { code: true } } } },
  employees: { select: { employee_id: true } },
} as const;

interface PolicyShape {
  assignment: string;
  departments: string[];
  designations: string[];
  employee_ids: string[];
}
function checkAssignment(p: PolicyShape) {
  if (p.assignment === "department" && !p.departments.length)
    throw invalidField("body.departments", "must name at least one department for assignment department");
  if (p.assignment === "designation" && !p.designations.length)
    throw invalidField("body.designations", "must name at least one designation for assignment designation");
  if (p.assignment === "individual" && !p.employee_ids.length)
    throw invalidField("body.employee_ids", "must name at least one employee for assignment individual");
}

async function checkPolicyRefs(items: { leave_type_id: string }[] | undefined, employeeIds: string[] | undefined) {
  if (items) {
    const ids = items.map((i) => i.leave_type_id);
    if (new Set(ids).size !== ids.length) throw invalidField("body.items", "names a leave type twice");
    const found = await db.leaveType.count({ where: { id: { in: ids } } });
    if (found !== ids.length) throw notFound("Leave type");
  }
  if (employeeIds?.length) {
    const found = await db.employee.count({ where: { id: { in: employeeIds }, deleted_at: null } });
    if (found !== employeeIds.length) throw notFound("Employee");
  }
}

type PolicyItemInput = { leave_type_id: string; annual_quota: string; accrual?: string; accrual_day?: string };
const itemRows = (policyId: string, items: PolicyItemInput[]) =>
  items.map((i) => ({
    policy_id: policyId,
    leave_type_id: i.leave_type_id,
    annual_quota: i.annual_quota,
    accrual: i.accrual ?? "upfront",
    accrual_day: i.accrual_day ?? "first_day",
  }));

export async function policyPage(query: PageQuery): Promise<Listing<PolicyJson>> {
  const page = pageOf(query);
  const [rows, total] = await Promise.all([
    db.leavePolicy.findMany({ include: policyInclude, orderBy: [{ name: "asc" }, { id: "asc" }], skip: page.skip, take: page.limit }),
    db.leavePolicy.count(),
  ]);
  return { rows: rows.map(policyJson), page, total };
}

export async function addPolicy(body: RequestBody<"createLeavePolicy">): Promise<PolicyJson> {
  const shape = {
    assignment: body.assignment ?? "default",
    departments: body.departments ?? [],
    designations: body.designations ?? [],
    employee_ids: body.employee_ids ?? [],
  };
  checkAssignment(shape);
  await checkPolicyRefs(body.items, shape.employee_ids);
  const p = await tenantTx(async (tx) => {
    const row = await tx.leavePolicy.create({
      data: {
        name: body.name,
        description: body.description ?? null,
        assignment: shape.assignment,
        departments: shape.departments,
        designations: shape.designations,
      },
    });
    await tx.leavePolicyItem.createMany({ data: itemRows(row.id, body.items) });
    if (shape.employee_ids.length)
      await tx.leavePolicyEmployee.createMany({ data: shape.employee_ids.map((employee_id) => ({ policy_id: row.id, employee_id })) });
    await audit(
      {
        action: "leave_policy.created",
        entity_type: "leave_policy",
        entity_id: row.id,
        changes: { name: row.name, assignment: shape.assignment, items: body.items },
      },
      tx,
    );
    return tx.leavePolicy.findFirstOrThrow({ where: { id: row.id }, include: policyInclude });
  });
  return policyJson(p);
}

export async function policyById(id: string): Promise<PolicyJson> {
  const p = await db.leavePolicy.findFirst({ where: { id }, include: policyInclude });
  if (!p) throw notFound("Leave policy");
  return policyJson(p);
}

/** Changes a policy; items and employee_ids, when given, replace the lists. */
export async function changePolicy(id: string, body: RequestBody<"updateLeavePolicy">): Promise<PolicyJson> {
  const before = await db.leavePolicy.findFirst({ where: { id }, include: policyInclude });
  if (!before) throw notFound("Leave policy");
  const shape = {
    assignment: body.assignment ?? before.assignment,
    departments: body.departments ?? before.departments,
    designations: body.designations ?? before.designations,
    employee_ids: body.employee_ids ?? before.employees.map((e) => e.employee_id),
  };
  checkAssignment(shape);
  await checkPolicyRefs(body.items, body.employee_ids);
  const p = await tenantTx(async (tx) => {
    const data: Record<string, unknown> = {};
    for (const k of ["name", "description", "assignment", "departments", "designations", "active"] as const)
      if (body[k] !== undefined) data[k] = body[k];
    if (Object.keys(data).length) await tx.leavePolicy.update({ where: byId(before.id), data });
    if (body.items) {
      await tx.leavePolicyItem.deleteMany({ where: { policy_id: before.id } });
      await tx.leavePolicyItem.createMany({ data: itemRows(before.id, body.items) });
    }
    if (body.employee_ids) {
      await tx.leavePolicyEmployee.deleteMany({ where: { policy_id: before.id } });
      if (body.employee_ids.length)
        await tx.leavePolicyEmployee.createMany({ data: body.employee_ids.map((employee_id) => ({ policy_id: before.id, employee_id })) });
    }
    const after = await tx.leavePolicy.findFirstOrThrow({ where: { id: before.id }, include: policyInclude });
    const changes: Record<string, unknown> = diff(before, after, Object.keys(data));
    if (body.items) changes.items = { from: policyJson(before).items, to: policyJson(after).items };
    if (body.employee_ids) changes.employee_ids = { from: policyJson(before).employee_ids, to: policyJson(after).employee_ids };
    await audit({ action: "leave_policy.updated", entity_type: "leave_policy", entity_id: before.id, changes }, tx);
    return after;
  });
  return policyJson(p);
}

/** Deletes a policy no allocation was made from; otherwise it must be deactivated. */
export async function removePolicy(id: string): Promise<void> {
  const p = await db.leavePolicy.findFirst({ where: { id } });
  if (!p) throw notFound("Leave policy");
  if (await db.leaveAllocation.count({ where: { policy_id: p.id } }))
    throw conflict("Allocations were made from this policy; deactivate it with active: false instead");
  await tenantTx(async (tx) => {
    await tx.leavePolicyItem.deleteMany({ where: { policy_id: p.id } });
    await tx.leavePolicyEmployee.deleteMany({ where: { policy_id: p.id } });
    await tx.leavePolicy.delete({ where: byId(p.id) });
    await audit({ action: "leave_policy.deleted", entity_type: "leave_policy", entity_id: p.id, changes: { name: p.name } }, tx);
  });
}
