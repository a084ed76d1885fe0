// Job requisitions: raised by managers or hr, approved by owner/admin/hr, closed when hiring is
// done (closing a requisition closes its postings). Managers see and change only their own.
import type { JobRequisition, Prisma } from "../../../generated/prisma/client.ts";
import { audit, diff } from "../../platform/audit.ts";
import { db, tenantTx, type ScopedTx, byId } from "../../db/tenancy.ts";
import { pageOf, type PageQuery } from "../../platform/use-case.ts";
import { conflict, forbidden, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { parseDate, toDateStringOrNull } from "../../lib/dates.ts";
import { nextNumber } from "../../platform/sequences.ts";
import { notify } from "../../platform/notify.ts";
import { checkAmount, checkSalaryRange, givenFields, moneyOut, recruiters, trimOrNull, userNames } from "./common.ts";
import { lockRequisition } from "./queries.ts";
import { closePostingsOf } from "./postings.ts";
import { checkMove, REQUISITION_MOVES, type RequisitionStatus, type EmploymentType } from "./states.ts";
import { isHr } from "../shared/access.ts";
import * as clock from "../../lib/clock.ts";

type CreateInput = RequestBody<"createJobRequisition">;
type UpdateInput = RequestBody<"updateJobRequisition">;

export async function requisitionsJson(rows: JobRequisition[]) {
  const names = await userNames(rows.flatMap((r) => [r.requested_by, r.decided_by]));
  const counts = rows.length
    ? await db.jobPosting.groupBy({
        by: ["requisition_id"],
        where: { requisition_id: { in: rows.map((r) => r.id) }, deleted_at: null },
        _count: { _all: true },
      })
    : [];
  const countOf = new Map(counts.map((c) => [c.requisition_id, c._count._all]));
  return rows.map((r) => ({
    id: r.id,
    requisition_number: r.requisition_number,
    title: r.title,
    department: r.department,
    designation: r.designation,
    positions: r.positions,
    employment_type: r.employment_type as EmploymentType,
    location: r.location,
    justification: r.justification,
    description: r.description,
    min_salary: moneyOut(r.min_salary),
    max_salary: moneyOut(r.max_salary),
    target_start_date: toDateStringOrNull(r.target_start_date),
    status: r.status as RequisitionStatus,
    requested_by_user_id: r.requested_by,
    requested_by_name: names.get(r.requested_by)?.name ?? "Former member",
    submitted_at: r.submitted_at?.toISOString() ?? null,
    decided_by_user_id: r.decided_by,
    decided_by_name: r.decided_by ? (names.get(r.decided_by)?.name ?? "Former member") : null,
    decided_at: r.decided_at?.toISOString() ?? null,
    decision_notes: r.decision_notes,
    closed_at: r.closed_at?.toISOString() ?? null,
    posting_count: countOf.get(r.id) ?? 0,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  }));
}

const oneJson = async (r: JobRequisition) => (await requisitionsJson([r]))[0];

/** Managers see the requisitions they raised; recruiters all. */
function scope(auth: AuthContext): Prisma.JobRequisitionWhereInput {
  return isHr(auth) ? { deleted_at: null } : { deleted_at: null, requested_by: auth.userId };
}

async function visibleRequisition(auth: AuthContext, id: string): Promise<JobRequisition> {
  const r = await db.jobRequisition.findFirst({ where: { id, ...scope(auth) } });
  if (!r) throw notFound("Job requisition");
  return r;
}

export async function requisitionPage(
  auth: AuthContext,
  query: PageQuery & { status?: RequisitionStatus; department?: string; search?: string },
) {
  const page = pageOf(query);
  const where: Prisma.JobRequisitionWhereInput = { ...scope(auth) };
  if (query.status) where.status = query.status;
  if (query.department) where.department = { equals: query.department.trim(), mode: "insensitive" };
  if (query.search)
    where.OR = [
      { title: { contains: query.search, mode: "insensitive" } },
      { requisition_number: { equals: query.search.trim().toUpperCase() } },
    ];
  const [rows, total] = await Promise.all([
    db.jobRequisition.findMany({ where, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: page.skip, take: page.limit }),
    db.jobRequisition.count({ where }),
  ]);
  return { rows: await requisitionsJson(rows), page, total };
}

export async function requisitionById(auth: AuthContext, id: string) {
  return oneJson(await visibleRequisition(auth, id));
}

const FIELDS = [
  "title",
  "department",
  "designation",
  "positions",
  "employment_type",
  "location",
  "justification",
  "description",
  "min_salary",
  "max_salary",
  "target_start_date",
] as const;

type Fields = Partial<Pick<UpdateInput, (typeof FIELDS)[number]>>;
type Columns = Omit<Fields, "target_start_date"> & { target_start_date?: Date | null };
const TEXT = ["designation", "location", "justification", "description"] as const;

/** The given fields as columns: title and department trimmed, blank text null, target_start_date a date. */
function fieldData(body: Fields): Columns {
  const { target_start_date, ...rest } = givenFields(body, FIELDS);
  const data: Columns = rest;
  if (data.title !== undefined) data.title = data.title.trim();
  if (data.department !== undefined) data.department = data.department.trim();
  for (const f of TEXT) if (data[f] !== undefined) data[f] = trimOrNull(data[f]);
  if (target_start_date !== undefined) data.target_start_date = target_start_date === null ? null : parseDate(target_start_date);
  return data;
}

async function tellRecruitersOfSubmission(tx: ScopedTx, auth: AuthContext, r: JobRequisition) {
  for (const p of await recruiters(tx, auth.userId))
    await notify(tx, {
      userId: p.userId,
      kind: "recruitment.requisition_submitted",
      title: `Requisition ${r.requisition_number} (${r.title}, ${r.department}) awaits approval`,
      body: `Raised by ${auth.name} for ${r.positions} position(s).`,
      link: `/api/recruitment/job-requisitions/${r.id}`,
    });
}

export async function raiseRequisition(auth: AuthContext, body: CreateInput) {
  checkAmount("body.min_salary", body.min_salary);
  checkAmount("body.max_salary", body.max_salary);
  checkSalaryRange(body.min_salary, body.max_salary);
  const status = body.status ?? "draft";
  const r = await tenantTx(async (tx) => {
    const requisition_number = await nextNumber(tx, "job_requisition", "REQ-");
    const created = await tx.jobRequisition.create({
      data: {
        ...fieldData(body),
        title: body.title.trim(),
        department: body.department.trim(),
        requisition_number,
        status,
        requested_by: auth.userId,
        requested_by_employee_id: auth.employeeId,
        submitted_at: status === "pending_approval" ? clock.now() : null,
      },
    });
    const view = await oneJson(created);
    await audit(
      {
        action: "recruitment.requisition_created",
        entity_type: "job_requisition",
        entity_id: created.id,
        changes: diff({}, view, ["requisition_number", "title", "department", "positions", "status", "min_salary", "max_salary"]),
      },
      tx,
    );
    if (status === "pending_approval") await tellRecruitersOfSubmission(tx, auth, created);
    return created;
  });
  return oneJson(r);
}

// size: one transaction read top to bottom: the checks under its row locks, the write, the audit and the notices, in order
export async function changeRequisition(auth: AuthContext, id: string, body: UpdateInput) {
  const current = await visibleRequisition(auth, id);
  checkAmount("body.min_salary", body.min_salary);
  checkAmount("body.max_salary", body.max_salary);
  const fields = fieldData(body);
  const to = body.status;
  if (body.decision_notes !== undefined && to !== "approved" && to !== "rejected")
    throw invalidField("body.decision_notes", "goes with status approved or rejected");
  if ((to === "approved" || to === "rejected") && !isHr(auth) && to !== current.status)
    throw forbidden("Only owner, admin or hr approve or reject requisitions");
  const updated = await tenantTx(async (tx) => {
    const from = await lockRequisition(tx, id);
    if (!from) throw notFound("Job requisition");
    const before = await tx.jobRequisition.findFirstOrThrow({ where: { id } });
    if (Object.keys(fields).length) {
      if (from !== "draft" && from !== "pending_approval")
        throw conflict(`The requisition is ${from.replace("_", " ")}; its details can no longer change`);
      if (!isHr(auth) && from !== "draft") throw conflict("The requisition is awaiting approval; withdraw it to draft to change it");
    }
    checkSalaryRange(
      fields.min_salary !== undefined ? fields.min_salary : before.min_salary,
      fields.max_salary !== undefined ? fields.max_salary : before.max_salary,
    );
    const data: Prisma.JobRequisitionUncheckedUpdateInput = { ...fields };
    const moving = to !== undefined && checkMove("requisition", REQUISITION_MOVES, from, to);
    if (moving && to) {
      data.status = to;
      if (to === "pending_approval") data.submitted_at = clock.now();
      if (to === "draft") data.submitted_at = null;
      if (to === "approved" || to === "rejected") {
        data.decided_by = auth.userId;
        data.decided_at = clock.now();
        data.decision_notes = trimOrNull(body.decision_notes) ?? null;
      }
      if (to === "closed") data.closed_at = clock.now();
    }
    if (!Object.keys(data).length) return before;
    const after = await tx.jobRequisition.update({ where: byId(id), data });
    const [vb, va] = await requisitionsJson([before, after]);
    const changes = diff(vb, va, [...Object.keys(fields), ...(moving ? ["status", "decision_notes"] : [])]);
    if (Object.keys(changes).length)
      await audit(
        {
          action: moving ? "recruitment.requisition_status_changed" : "recruitment.requisition_updated",
          entity_type: "job_requisition",
          entity_id: id,
          changes,
        },
        tx,
      );
    if (moving && to === "pending_approval") await tellRecruitersOfSubmission(tx, auth, after);
    if (moving && (to === "approved" || to === "rejected") && after.requested_by !== auth.userId) {
      const requester = (await userNames([after.requested_by])).get(after.requested_by);
      await notify(tx, {
        userId: after.requested_by,
        email: requester?.email,
        kind: `recruitment.requisition_${to}`,
        title: `Requisition ${after.requisition_number} (${after.title}) was ${to}`,
        body:
          `${auth.name} ${to} your requisition ` +
          `for ${after.positions} ${after.title} position(s)${after.decision_notes ? `: ${after.decision_notes}` : "."}`,
        link: `/api/recruitment/job-requisitions/${id}`,
      });
    }
    if (moving && to === "closed") await closePostingsOf(tx, id, `requisition ${after.requisition_number} closed`);
    return after;
  });
  return oneJson(updated);
}

export async function removeRequisition(auth: AuthContext, id: string) {
  const current = await visibleRequisition(auth, id);
  await tenantTx(async (tx) => {
    const status = await lockRequisition(tx, id);
    if (!status) throw notFound("Job requisition");
    if (!isHr(auth) && status !== "draft") throw conflict("Only a draft requisition can be deleted by its requester; close it instead");
    const postings = await tx.jobPosting.count({ where: { requisition_id: id, deleted_at: null } });
    if (postings) throw conflict(`${postings} job posting(s) were raised from this requisition; close it instead`);
    await tx.jobRequisition.update({ where: byId(id), data: { deleted_at: clock.now() } });
    await audit(
      {
        action: "recruitment.requisition_deleted",
        entity_type: "job_requisition",
        entity_id: id,
        changes: { requisition_number: current.requisition_number, status },
      },
      tx,
    );
  });
}
