// Job postings: published from approved requisitions; candidates apply to open postings.
// Managers see the postings of their own department.
import type { JobPosting, JobRequisition, Prisma } from "../../../generated/prisma/client.ts";
import { audit, diff } from "../../platform/audit.ts";
import { db, tenantTx, type ScopedTx, byId } from "../../db/tenancy.ts";
import { pageOf, type PageQuery } from "../../platform/use-case.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { parseDate, toDateStringOrNull } from "../../lib/dates.ts";
import { nextNumber } from "../../platform/sequences.ts";
import { checkAmount, checkSalaryRange, givenFields, managerDepartment, moneyOut, normalizeTerms, trimOrNull } from "./common.ts";
import { lockPosting, lockRequisition } from "./queries.ts";
import { checkMove, POSTING_MOVES, type PostingStatus, type EmploymentType } from "./states.ts";
import { isHr } from "../shared/access.ts";
import * as clock from "../../lib/clock.ts";

type CreateInput = RequestBody<"createJobPosting">;
type UpdateInput = RequestBody<"updateJobPosting">;
type PostingRow = JobPosting & { requisition: Pick<JobRequisition, "requisition_number"> };
const include = { requisition: { select: { requisition_number: true } } } as const;

export async function postingsJson(rows: PostingRow[]) {
  const counts = rows.length
    ? await db.candidate.groupBy({
        by: ["posting_id"],
        where: { posting_id: { in: rows.map((r) => r.id) }, deleted_at: null },
        _count: { _all: true },
      })
    : [];
  const countOf = new Map(counts.map((c) => [c.posting_id, c._count._all]));
  return rows.map((p) => ({
    id: p.id,
    posting_number: p.posting_number,
    requisition_id: p.requisition_id,
    requisition_number: p.requisition.requisition_number,
    title: p.title,
    department: p.department,
    description: p.description,
    requirements: p.requirements,
    skills: p.skills,
    location: p.location,
    employment_type: p.employment_type as EmploymentType,
    openings: p.openings,
    min_salary: moneyOut(p.min_salary),
    max_salary: moneyOut(p.max_salary),
    closes_on: toDateStringOrNull(p.closes_on),
    status: p.status as PostingStatus,
    published_at: p.published_at?.toISOString() ?? null,
    closed_at: p.closed_at?.toISOString() ?? null,
    candidate_count: countOf.get(p.id) ?? 0,
    created_by_user_id: p.created_by,
    created_at: p.created_at.toISOString(),
    updated_at: p.updated_at.toISOString(),
  }));
}
const oneJson = async (p: PostingRow) => (await postingsJson([p]))[0];

/** Recruiters see every posting; managers those of their department (none without a linked employee). */
export async function postingScope(auth: AuthContext): Promise<Prisma.JobPostingWhereInput> {
  if (isHr(auth)) return { deleted_at: null };
  const dept = await managerDepartment(auth);
  return dept ? { deleted_at: null, department: { equals: dept, mode: "insensitive" } } : { deleted_at: null, id: { in: [] } };
}

async function visiblePosting(auth: AuthContext, id: string): Promise<PostingRow> {
  const p = await db.jobPosting.findFirst({ where: { id, ...(await postingScope(auth)) }, include });
  if (!p) throw notFound("Job posting");
  return p;
}

export async function postingPage(
  auth: AuthContext,
  query: PageQuery & { status?: PostingStatus; department?: string; requisition_id?: string; skill?: string; search?: string },
) {
  const page = pageOf(query);
  const where: Prisma.JobPostingWhereInput = { AND: [await postingScope(auth)] };
  if (query.status) where.status = query.status;
  if (query.requisition_id) where.requisition_id = query.requisition_id;
  if (query.department)
    (where.AND as Prisma.JobPostingWhereInput[]).push({ department: { equals: query.department.trim(), mode: "insensitive" } });
  if (query.skill) where.skills = { has: query.skill.trim().toLowerCase() };
  if (query.search)
    where.OR = [
      { title: { contains: query.search, mode: "insensitive" } },
      { posting_number: { equals: query.search.trim().toUpperCase() } },
    ];
  const [rows, total] = await Promise.all([
    db.jobPosting.findMany({ where, include, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: page.skip, take: page.limit }),
    db.jobPosting.count({ where }),
  ]);
  return { rows: await postingsJson(rows), page, total };
}

export async function postingById(auth: AuthContext, id: string) {
  return oneJson(await visiblePosting(auth, id));
}

const FIELDS = [
  "title",
  "department",
  "description",
  "requirements",
  "skills",
  "location",
  "employment_type",
  "openings",
  "min_salary",
  "max_salary",
  "closes_on",
] as const;

type Fields = Partial<Pick<UpdateInput, (typeof FIELDS)[number]>>;
type Columns = Omit<Fields, "closes_on"> & { closes_on?: Date | null };
const TRIMMED = ["title", "department", "description", "requirements"] as const;

/** The given fields as columns: text trimmed, blank location null, skills normalized, closes_on a date. */
function fieldData(body: Fields): Columns {
  const { closes_on, ...rest } = givenFields(body, FIELDS);
  const data: Columns = rest;
  for (const f of TRIMMED) if (data[f] !== undefined) data[f] = data[f].trim();
  if (data.skills) data.skills = normalizeTerms(data.skills);
  if (data.location !== undefined) data.location = trimOrNull(data.location);
  if (closes_on !== undefined) data.closes_on = closes_on === null ? null : parseDate(closes_on);
  return data;
}

export async function addPosting(auth: AuthContext, body: CreateInput) {
  checkAmount("body.min_salary", body.min_salary);
  checkAmount("body.max_salary", body.max_salary);
  const status = body.status ?? "draft";
  const p = await tenantTx(async (tx) => {
    // Lock the requisition: it cannot be closed while a posting is being raised from it.
    const reqStatus = await lockRequisition(tx, body.requisition_id);
    if (!reqStatus) throw invalidField("body.requisition_id", "is not a job requisition of this company");
    if (reqStatus !== "approved")
      throw conflict(`The requisition is ${reqStatus.replace("_", " ")}; postings are raised from approved requisitions only`);
    const req = await tx.jobRequisition.findFirstOrThrow({ where: { id: body.requisition_id } });
    const fields = fieldData(body);
    const data = {
      title: req.title,
      department: req.department,
      employment_type: req.employment_type,
      openings: req.positions,
      min_salary: req.min_salary,
      max_salary: req.max_salary,
      location: req.location,
      ...fields,
      description: body.description.trim(),
    };
    checkSalaryRange(data.min_salary, data.max_salary);
    const posting_number = await nextNumber(tx, "job_posting", "JOB-");
    const created = await tx.jobPosting.create({
      data: {
        ...data,
        requisition_id: req.id,
        posting_number,
        status,
        published_at: status === "open" ? clock.now() : null,
        created_by: auth.userId,
      },
      include,
    });
    await audit(
      {
        action: "recruitment.posting_created",
        entity_type: "job_posting",
        entity_id: created.id,
        changes: { posting_number, requisition_id: req.id, title: created.title, status },
      },
      tx,
    );
    return created;
  });
  return oneJson(p);
}

export async function changePosting(auth: AuthContext, id: string, body: UpdateInput) {
  await visiblePosting(auth, id);
  checkAmount("body.min_salary", body.min_salary);
  checkAmount("body.max_salary", body.max_salary);
  const fields = fieldData(body);
  const updated = await tenantTx(async (tx) => {
    const from = await lockPosting(tx, id);
    if (!from) throw notFound("Job posting");
    const before = await tx.jobPosting.findFirstOrThrow({ where: { id }, include });
    if (Object.keys(fields).length && from === "closed") throw conflict("The posting is closed; its details can no longer change");
    checkSalaryRange(
      fields.min_salary !== undefined ? fields.min_salary : before.min_salary,
      fields.max_salary !== undefined ? fields.max_salary : before.max_salary,
    );
    const data: Prisma.JobPostingUncheckedUpdateInput = { ...fields };
    const moving = body.status !== undefined && checkMove("posting", POSTING_MOVES, from, body.status);
    if (moving && body.status === "open") {
      const reqStatus = await lockRequisition(tx, before.requisition_id);
      if (reqStatus !== "approved")
        throw conflict(`The requisition is ${String(reqStatus).replace("_", " ")}; only postings of approved requisitions can be opened`);
      data.status = "open";
      data.published_at = clock.now();
    }
    if (moving && body.status === "closed") {
      data.status = "closed";
      data.closed_at = clock.now();
    }
    if (!Object.keys(data).length) return before;
    const after = await tx.jobPosting.update({ where: byId(id), data, include });
    const [vb, va] = await postingsJson([before, after]);
    const changes = diff(vb, va, [...Object.keys(fields), ...(moving ? ["status"] : [])]);
    if (Object.keys(changes).length)
      await audit(
        {
          action: moving ? "recruitment.posting_status_changed" : "recruitment.posting_updated",
          entity_type: "job_posting",
          entity_id: id,
          changes,
        },
        tx,
      );
    return after;
  });
  return oneJson(updated);
}

/** Closes the draft and open postings of a requisition (inside the caller's transaction). */
export async function closePostingsOf(tx: ScopedTx, requisitionId: string, reason: string): Promise<void> {
  const open = await tx.jobPosting.findMany({
    where: { requisition_id: requisitionId, deleted_at: null, status: { in: ["draft", "open"] } },
    select: { id: true, status: true },
  });
  for (const p of open) {
    await tx.jobPosting.update({ where: byId(p.id), data: { status: "closed", closed_at: clock.now() } });
    await audit(
      {
        action: "recruitment.posting_status_changed",
        entity_type: "job_posting",
        entity_id: p.id,
        changes: { status: { from: p.status, to: "closed" }, reason },
      },
      tx,
    );
  }
}

export async function removePosting(auth: AuthContext, id: string) {
  const p = await visiblePosting(auth, id);
  await tenantTx(async (tx) => {
    if (!(await lockPosting(tx, id))) throw notFound("Job posting");
    const candidates = await tx.candidate.count({ where: { posting_id: id, deleted_at: null } });
    if (candidates) throw conflict(`${candidates} candidate(s) applied to this posting; close it instead`);
    await tx.jobPosting.update({ where: byId(id), data: { deleted_at: clock.now() } });
    await audit(
      {
        action: "recruitment.posting_deleted",
        entity_type: "job_posting",
        entity_id: id,
        changes: { posting_number: p.posting_number, status: p.status },
      },
      tx,
    );
  });
}
