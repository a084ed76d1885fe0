// Candidates: applications to open postings, moved along the pipeline applied → screening →
// interview → offer → hired (or rejected / withdrawn). Managers see the candidates of their
// department's postings and those they interview.
import type { Candidate, JobPosting, Prisma } from "../../../generated/prisma/client.ts";
import { audit, diff } from "../../platform/audit.ts";
import { db, tenantTx, type ScopedTx, byId } from "../../db/tenancy.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { notify } from "../../platform/notify.ts";
import {
  checkAmount,
  checkFile,
  fullName,
  givenFields,
  managerDepartment,
  moneyOut,
  normalizeTerms,
  numberOut,
  requireNames,
  trimOrNull,
  userNames,
} from "./common.ts";
import { lockCandidate, lockPosting } from "./queries.ts";
import { ACTIVE_STAGES, CANDIDATE_MOVES, checkMove, type CandidateStage, type CandidateSource } from "./states.ts";
import { isHr } from "../shared/access.ts";
import * as clock from "../../lib/clock.ts";

type CreateInput = RequestBody<"createCandidate">;
type UpdateInput = RequestBody<"updateCandidate">;
export type CandidateRow = Candidate & { posting: Pick<JobPosting, "title" | "department"> };
export const candidateInclude = { posting: { select: { title: true, department: true } } } as const;

export function candidateJson(c: CandidateRow) {
  return {
    id: c.id,
    posting_id: c.posting_id,
    posting_title: c.posting.title,
    department: c.posting.department,
    first_name: c.first_name,
    last_name: c.last_name,
    full_name: fullName(c),
    email: c.email,
    phone: c.phone,
    source: c.source as CandidateSource,
    current_company: c.current_company,
    current_title: c.current_title,
    experience_years: numberOut(c.experience_years),
    expected_salary: moneyOut(c.expected_salary),
    notice_period_days: c.notice_period_days,
    skills: c.skills,
    resume_file_id: c.resume_file_id,
    resume_text: c.resume_text,
    notes: c.notes,
    stage: c.stage as CandidateStage,
    stage_changed_at: c.stage_changed_at.toISOString(),
    rejection_reason: c.rejection_reason,
    screening_score: c.screening_score,
    screened_at: c.screened_at?.toISOString() ?? null,
    employee_id: c.employee_id,
    converted_at: c.converted_at?.toISOString() ?? null,
    created_at: c.created_at.toISOString(),
    updated_at: c.updated_at.toISOString(),
  };
}

/** Recruiters see every candidate; managers those of their department's postings and those they interview. */
export async function candidateScope(auth: AuthContext): Promise<Prisma.CandidateWhereInput> {
  if (isHr(auth)) return { deleted_at: null };
  const dept = await managerDepartment(auth);
  const interviewing: Prisma.CandidateWhereInput = {
    interviews: { some: { deleted_at: null, interviewer_user_ids: { has: auth.userId } } },
  };
  return {
    deleted_at: null,
    OR: dept ? [{ posting: { department: { equals: dept, mode: "insensitive" } } }, interviewing] : [interviewing],
  };
}

export async function visibleCandidate(auth: AuthContext, id: string): Promise<CandidateRow> {
  const c = await db.candidate.findFirst({ where: { id, ...(await candidateScope(auth)) }, include: candidateInclude });
  if (!c) throw notFound("Candidate");
  return c;
}

/** A live candidate of the company referenced from a body (400 otherwise). */
export async function referencedCandidate(tx: ScopedTx | typeof db, id: string, path = "body.candidate_id"): Promise<CandidateRow> {
  const c = await tx.candidate.findFirst({ where: { id, deleted_at: null }, include: candidateInclude });
  if (!c) throw invalidField(path, "is not a candidate of this company");
  return c;
}

export async function candidateById(auth: AuthContext, id: string) {
  return candidateJson(await visibleCandidate(auth, id));
}

const FIELDS = [
  "first_name",
  "last_name",
  "email",
  "phone",
  "source",
  "current_company",
  "current_title",
  "experience_years",
  "expected_salary",
  "notice_period_days",
  "skills",
  "resume_file_id",
  "resume_text",
  "notes",
] as const;

type Fields = Partial<Pick<UpdateInput, (typeof FIELDS)[number]>>;
const TEXT = ["phone", "current_company", "current_title", "resume_file_id", "resume_text", "notes"] as const;

/** The given fields, cleaned: names and email trimmed (email lower-cased), skills normalized, blank text null. */
function fieldData(body: Fields): Fields {
  const data = givenFields(body, FIELDS);
  if (data.skills) data.skills = normalizeTerms(data.skills);
  if (data.email !== undefined) data.email = data.email.trim().toLowerCase();
  if (data.first_name !== undefined) data.first_name = data.first_name.trim();
  if (data.last_name !== undefined) data.last_name = data.last_name.trim();
  for (const f of TEXT) if (data[f] !== undefined) data[f] = trimOrNull(data[f]);
  return data;
}

async function checkEmailFree(tx: ScopedTx, postingId: string, email: string, exceptId?: string) {
  const other = await tx.candidate.findFirst({
    where: { posting_id: postingId, email, deleted_at: null, ...(exceptId ? { NOT: { id: exceptId } } : {}) },
    select: { id: true },
  });
  if (other) throw conflict(`${email} has already applied to this posting`);
}

export async function addCandidate(auth: AuthContext, body: CreateInput) {
  checkAmount("body.expected_salary", body.expected_salary);
  const c = await tenantTx(async (tx) => {
    const postingStatus = await lockPosting(tx, body.posting_id);
    if (!postingStatus) throw invalidField("body.posting_id", "is not a job posting of this company");
    if (postingStatus !== "open")
      throw conflict(
        `The posting is ${postingStatus}; candidates are added to open postings only: open it with PUT ` +
          "/api/recruitment/job-postings/{id} and status open (updateJobPosting)",
      );
    let data: Partial<Pick<Prisma.CandidateUncheckedCreateInput, (typeof FIELDS)[number]>> = fieldData(body);
    if (body.talent_pool_candidate_id) {
      const t = await tx.talentPoolCandidate.findFirst({ where: { id: body.talent_pool_candidate_id, deleted_at: null } });
      if (!t) throw invalidField("body.talent_pool_candidate_id", "is not in the talent pool of this company");
      data = {
        first_name: t.first_name,
        last_name: t.last_name,
        email: t.email.toLowerCase(),
        phone: t.phone,
        current_title: t.current_title,
        experience_years: t.experience_years,
        skills: t.skills,
        resume_file_id: t.resume_file_id,
        notes: t.notes,
        source: "talent_pool",
        ...data,
      };
    }
    const named = requireNames(data, "talent_pool_candidate_id");
    await checkFile(tx, named.resume_file_id, "body.resume_file_id");
    await checkEmailFree(tx, body.posting_id, named.email);
    const created = await tx.candidate.create({
      data: { ...named, posting_id: body.posting_id, stage: "applied", created_by: auth.userId },
      include: candidateInclude,
    });
    await audit(
      {
        action: "recruitment.candidate_created",
        entity_type: "candidate",
        entity_id: created.id,
        changes: {
          posting_id: body.posting_id,
          name: fullName(created),
          email: created.email,
          source: created.source,
          stage: "applied",
          ...(body.talent_pool_candidate_id ? { talent_pool_candidate_id: body.talent_pool_candidate_id } : {}),
        },
      },
      tx,
    );
    return created;
  });
  return candidateJson(c);
}

/** Moves a candidate (already locked by the caller) to `to`, audited; used by interviews and offers. */
export async function moveCandidateStage(
  tx: ScopedTx,
  c: { id: string; stage: string },
  to: CandidateStage,
  reason: string,
): Promise<void> {
  if (c.stage === to) return;
  checkMove("candidate", CANDIDATE_MOVES, c.stage as CandidateStage, to);
  await tx.candidate.update({ where: byId(c.id), data: { stage: to, stage_changed_at: clock.now() } });
  await audit(
    {
      action: "recruitment.candidate_stage_changed",
      entity_type: "candidate",
      entity_id: c.id,
      changes: { stage: { from: c.stage, to }, reason },
    },
    tx,
  );
}

/** Cancels the scheduled interviews and sessions and withdraws the unsent or unanswered offers of a candidate leaving the pipeline. */
async function wrapUp(tx: ScopedTx, candidateId: string, reason: string) {
  const interviews = await tx.interview.findMany({
    where: { candidate_id: candidateId, deleted_at: null, status: "scheduled" },
    select: { id: true },
  });
  for (const i of interviews) {
    await tx.interview.update({ where: byId(i.id), data: { status: "cancelled", cancel_reason: reason } });
    await audit(
      {
        action: "recruitment.interview_status_changed",
        entity_type: "interview",
        entity_id: i.id,
        changes: { status: { from: "scheduled", to: "cancelled" }, reason },
      },
      tx,
    );
  }
  const sessions = await tx.interviewSession.findMany({
    where: { candidate_id: candidateId, deleted_at: null, status: "scheduled" },
    select: { id: true },
  });
  for (const s of sessions) {
    await tx.interviewSession.update({ where: byId(s.id), data: { status: "cancelled" } });
    await audit(
      {
        action: "recruitment.session_status_changed",
        entity_type: "interview_session",
        entity_id: s.id,
        changes: { status: { from: "scheduled", to: "cancelled" }, reason },
      },
      tx,
    );
  }
  const offers = await tx.jobOffer.findMany({
    where: { candidate_id: candidateId, deleted_at: null, status: { in: ["draft", "sent"] } },
    select: { id: true, status: true },
  });
  for (const o of offers) {
    await tx.jobOffer.update({ where: byId(o.id), data: { status: "withdrawn" } });
    await audit(
      {
        action: "recruitment.offer_status_changed",
        event: "recruitment.offer_status_changed",
        entity_type: "job_offer",
        entity_id: o.id,
        changes: { status: { from: o.status, to: "withdrawn" }, reason },
      },
      tx,
    );
  }
}

// size: one transaction read top to bottom: the checks under its row locks, the write, the audit and the notices, in order
export async function changeCandidate(auth: AuthContext, id: string, body: UpdateInput) {
  await visibleCandidate(auth, id);
  checkAmount("body.expected_salary", body.expected_salary);
  const fields = fieldData(body);
  const to = body.stage;
  if (body.rejection_reason !== undefined && to !== "rejected") throw invalidField("body.rejection_reason", "goes with stage rejected");
  const updated = await tenantTx(async (tx) => {
    const from = await lockCandidate(tx, id);
    if (!from) throw notFound("Candidate");
    const before = await tx.candidate.findFirstOrThrow({ where: { id }, include: candidateInclude });
    if (before.employee_id) throw conflict("The candidate was converted into an employee; change the employee record instead");
    if (fields.email && fields.email !== before.email.toLowerCase()) await checkEmailFree(tx, before.posting_id, fields.email, id);
    await checkFile(tx, fields.resume_file_id, "body.resume_file_id");
    const data: Prisma.CandidateUncheckedUpdateInput = { ...fields };
    const moving = to !== undefined && checkMove("candidate", CANDIDATE_MOVES, from, to);
    if (moving && to) {
      if (
        to === "hired" &&
        !(await tx.jobOffer.findFirst({ where: { candidate_id: id, deleted_at: null, status: "accepted" }, select: { id: true } }))
      )
        throw conflict(
          "A candidate is hired only with an accepted offer: send one with POST " +
            "/api/recruitment/offers/{id}/send (sendJobOffer); the candidate accepts it through the offer " +
            "link (acceptPublicOffer)",
        );
      data.stage = to;
      data.stage_changed_at = clock.now();
      if (to === "rejected") data.rejection_reason = trimOrNull(body.rejection_reason) ?? null;
    }
    if (!Object.keys(data).length) return before;
    const after = await tx.candidate.update({ where: byId(id), data, include: candidateInclude });
    const changes = diff(candidateJson(before), candidateJson(after), [
      ...Object.keys(fields),
      ...(moving ? ["stage", "rejection_reason"] : []),
    ]);
    if (Object.keys(changes).length)
      await audit(
        {
          action: moving ? "recruitment.candidate_stage_changed" : "recruitment.candidate_updated",
          entity_type: "candidate",
          entity_id: id,
          changes,
        },
        tx,
      );
    if (moving && (to === "rejected" || to === "withdrawn")) await wrapUp(tx, id, `candidate ${to}`);
    if (moving && to === "hired") {
      const posting = await tx.jobPosting.findFirstOrThrow({
        where: { id: after.posting_id },
        include: { requisition: { select: { requested_by: true, requisition_number: true } } },
      });
      const requester = posting.requisition.requested_by;
      if (requester !== auth.userId) {
        const who = (await userNames([requester])).get(requester);
        await notify(tx, {
          userId: requester,
          email: who?.email,
          kind: "recruitment.candidate_hired",
          title: `${fullName(after)} was hired for ${posting.title}`,
          body:
            `${fullName(after)} accepted the offer for ${posting.title} (${posting.posting_number}, ` +
            `requisition ${posting.requisition.requisition_number}).`,
          link: `/api/recruitment/candidates/${id}`,
        });
      }
    }
    return after;
  });
  return candidateJson(updated);
}

export async function removeCandidate(auth: AuthContext, id: string) {
  const c = await visibleCandidate(auth, id);
  await tenantTx(async (tx) => {
    const stage = await lockCandidate(tx, id);
    if (!stage) throw notFound("Candidate");
    if (stage === "hired") throw conflict("A hired candidate cannot be deleted");
    const live = await tx.jobOffer.findFirst({
      where: { candidate_id: id, deleted_at: null, status: { in: ["sent", "accepted"] } },
      select: { offer_number: true, status: true },
    });
    if (live)
      throw conflict(
        `Offer ${live.offer_number} is ${live.status}; ` +
          "withdraw it first with PUT /api/recruitment/offers/{id} and status withdrawn (updateJobOffer)",
      );
    await wrapUp(tx, id, "candidate deleted");
    await tx.candidate.update({ where: byId(id), data: { deleted_at: clock.now() } });
    await audit(
      {
        action: "recruitment.candidate_deleted",
        entity_type: "candidate",
        entity_id: id,
        changes: { name: fullName(c), email: c.email, stage },
      },
      tx,
    );
  });
}

export { ACTIVE_STAGES };
