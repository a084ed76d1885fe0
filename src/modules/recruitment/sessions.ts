// Interview management sessions: the candidate-facing invitation to an interview - when, where or
// which meeting link, what to prepare - mailed to the candidate with `send`.
import type { Candidate, InterviewSession, Prisma } from "../../../generated/prisma/client.ts";
import { audit, diff } from "../../platform/audit.ts";
import { db, tenantTx, byId } from "../../db/tenancy.ts";
import { pageOf, type PageQuery } from "../../platform/use-case.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { queueEmail } from "../../platform/mail/outbox.ts";
import { referencedCandidate } from "./candidates.ts";
import { companyOf, formatInstant, fullName, trimOrNull, type Company } from "./common.ts";
import { lockCandidate, lockSession } from "./queries.ts";
import { ACTIVE_STAGES, checkMove, SESSION_MOVES, type SessionStatus, type InterviewMode } from "./states.ts";
import * as clock from "../../lib/clock.ts";

type CreateInput = RequestBody<"createInterviewSession">;
type UpdateInput = RequestBody<"updateInterviewSession">;
type SessionRow = InterviewSession & { candidate: Pick<Candidate, "first_name" | "last_name" | "email"> };
const include = { candidate: { select: { first_name: true, last_name: true, email: true } } } as const;
const live: Prisma.InterviewSessionWhereInput = { deleted_at: null, candidate: { deleted_at: null } };

export function sessionJson(s: SessionRow) {
  return {
    id: s.id,
    candidate_id: s.candidate_id,
    candidate_name: fullName(s.candidate),
    candidate_email: s.candidate.email,
    interview_id: s.interview_id,
    title: s.title,
    scheduled_at: s.scheduled_at.toISOString(),
    duration_minutes: s.duration_minutes,
    mode: s.mode as InterviewMode,
    location: s.location,
    meeting_url: s.meeting_url,
    instructions: s.instructions,
    status: s.status as SessionStatus,
    sent_at: s.sent_at?.toISOString() ?? null,
    send_count: s.send_count,
    created_by_user_id: s.created_by,
    created_at: s.created_at.toISOString(),
    updated_at: s.updated_at.toISOString(),
  };
}

async function findSession(id: string): Promise<SessionRow> {
  const s = await db.interviewSession.findFirst({ where: { id, ...live }, include });
  if (!s) throw notFound("Interview session");
  return s;
}

export async function sessionPage(query: PageQuery & { candidate_id?: string; interview_id?: string; status?: SessionStatus }) {
  const page = pageOf(query);
  const where: Prisma.InterviewSessionWhereInput = { ...live };
  if (query.candidate_id) where.candidate_id = query.candidate_id;
  if (query.interview_id) where.interview_id = query.interview_id;
  if (query.status) where.status = query.status;
  const [rows, total] = await Promise.all([
    db.interviewSession.findMany({ where, include, orderBy: [{ scheduled_at: "asc" }, { id: "asc" }], skip: page.skip, take: page.limit }),
    db.interviewSession.count({ where }),
  ]);
  return { rows: rows.map(sessionJson), page, total };
}

export async function sessionById(id: string) {
  return sessionJson(await findSession(id));
}

function checkWhere(mode: string, meeting_url: string | null | undefined, location: string | null | undefined) {
  if (mode === "video" && !meeting_url) throw invalidField("body.meeting_url", "is required for a video session");
  if (mode === "in_person" && !location) throw invalidField("body.location", "is required for an in-person session");
}

export async function scheduleSession(auth: AuthContext, body: CreateInput) {
  const s = await tenantTx(async (tx) => {
    const candidate = await referencedCandidate(tx, body.candidate_id);
    const stage = await lockCandidate(tx, candidate.id);
    if (!stage || !ACTIVE_STAGES.includes(stage))
      throw conflict(`The candidate is ${stage}; sessions are for candidates still in the pipeline`);
    const interview = body.interview_id ? await tx.interview.findFirst({ where: { id: body.interview_id, deleted_at: null } }) : null;
    if (body.interview_id && (!interview || interview.candidate_id !== candidate.id))
      throw invalidField("body.interview_id", "is not an interview of this candidate");
    if (interview && interview.status !== "scheduled") throw conflict(`The interview is ${interview.status}`);
    const scheduledAt = body.scheduled_at ?? interview?.scheduled_at.toISOString();
    if (!scheduledAt) throw invalidField("body.scheduled_at", "is required without interview_id");
    const mode = body.mode ?? (interview?.mode as typeof body.mode) ?? "video";
    const meeting_url = body.meeting_url !== undefined ? trimOrNull(body.meeting_url) : (interview?.meeting_url ?? null);
    const location = body.location !== undefined ? trimOrNull(body.location) : (interview?.location ?? null);
    checkWhere(mode, meeting_url, location);
    const created = await tx.interviewSession.create({
      data: {
        candidate_id: candidate.id,
        interview_id: interview?.id ?? null,
        title:
          body.title?.trim() ??
          (interview ? `${interview.round_name} interview - ${candidate.posting.title}` : `Interview - ${candidate.posting.title}`),
        scheduled_at: new Date(scheduledAt),
        duration_minutes: body.duration_minutes ?? interview?.duration_minutes ?? 60,
        mode,
        location: location ?? null,
        meeting_url: meeting_url ?? null,
        instructions: trimOrNull(body.instructions) ?? null,
        status: "scheduled",
        created_by: auth.userId,
      },
      include,
    });
    await audit(
      {
        action: "recruitment.session_created",
        entity_type: "interview_session",
        entity_id: created.id,
        changes: {
          candidate_id: candidate.id,
          interview_id: created.interview_id,
          title: created.title,
          scheduled_at: created.scheduled_at.toISOString(),
        },
      },
      tx,
    );
    return created;
  });
  return sessionJson(s);
}

function whereLine(s: { mode: string; meeting_url: string | null; location: string | null }): string {
  if (s.mode === "video") return `Join the video call: ${s.meeting_url}`;
  if (s.mode === "phone") return "We will call you on the phone number you gave us.";
  return `Location: ${s.location}`;
}

function invitation(s: SessionRow, company: Company) {
  const when =
    `${formatInstant(s.scheduled_at, company.timezone)} (${company.timezone}) ` +
    `- ${s.scheduled_at.toISOString().replace("T", " ").slice(0, 16)} UTC`;
  const lines = [
    `Dear ${s.candidate.first_name},`,
    "",
    `${company.name} invites you to an interview: ${s.title}.`,
    "",
    `When: ${when}`,
    `Duration: ${s.duration_minutes} minutes`,
    `Mode: ${s.mode === "in_person" ? "in person" : s.mode}`,
    whereLine(s),
    ...(s.instructions ? ["", s.instructions] : []),
    "",
    "If the time does not suit you, please reply to this email.",
    "",
    `${company.name} recruitment team`,
  ];
  return { to: s.candidate.email, subject: `Interview invitation: ${s.title} - ${company.name}`, text: lines.join("\n") };
}

export async function sendSession(id: string) {
  await findSession(id);
  const company = await companyOf();
  const s = await tenantTx(async (tx) => {
    const status = await lockSession(tx, id);
    if (!status) throw notFound("Interview session");
    if (status !== "scheduled") throw conflict(`The session is ${status}; only a scheduled session is sent`);
    const current = await tx.interviewSession.findFirstOrThrow({ where: { id }, include });
    if (current.scheduled_at.getTime() <= clock.nowMs()) throw conflict("The session has already started; change its time first");
    const sentAt = clock.now();
    const after = await tx.interviewSession.update({ where: byId(id), data: { sent_at: sentAt, send_count: { increment: 1 } }, include });
    await queueEmail(tx, invitation(after, company));
    await audit(
      {
        action: "recruitment.session_sent",
        entity_type: "interview_session",
        entity_id: id,
        changes: {
          to: after.candidate.email,
          send_count: { from: current.send_count, to: after.send_count },
          scheduled_at: after.scheduled_at.toISOString(),
        },
      },
      tx,
    );
    return after;
  });
  return sessionJson(s);
}

export async function changeSession(id: string, body: UpdateInput) {
  await findSession(id);
  const company = await companyOf();
  const s = await tenantTx(async (tx) => {
    const from = await lockSession(tx, id);
    if (!from) throw notFound("Interview session");
    if (from !== "scheduled") throw conflict(`The session is ${from}; it can no longer change`);
    const before = await tx.interviewSession.findFirstOrThrow({ where: { id }, include });
    const data: Prisma.InterviewSessionUpdateInput = {};
    if (body.title !== undefined) data.title = body.title.trim();
    if (body.scheduled_at !== undefined) {
      const at = new Date(body.scheduled_at);
      if (at.getTime() <= clock.nowMs()) throw invalidField("body.scheduled_at", "must be in the future");
      data.scheduled_at = at;
    }
    if (body.duration_minutes !== undefined) data.duration_minutes = body.duration_minutes;
    if (body.mode !== undefined) data.mode = body.mode;
    if (body.location !== undefined) data.location = trimOrNull(body.location);
    if (body.meeting_url !== undefined) data.meeting_url = trimOrNull(body.meeting_url);
    if (body.instructions !== undefined) data.instructions = trimOrNull(body.instructions);
    checkWhere(
      (data.mode as string) ?? before.mode,
      data.meeting_url !== undefined ? (data.meeting_url as string | null) : before.meeting_url,
      data.location !== undefined ? (data.location as string | null) : before.location,
    );
    const moving = body.status !== undefined && checkMove("session", SESSION_MOVES, from, body.status);
    if (moving) data.status = body.status;
    if (!Object.keys(data).length) return before;
    const after = await tx.interviewSession.update({ where: byId(id), data, include });
    const changes = diff(sessionJson(before), sessionJson(after), Object.keys(data));
    if (Object.keys(changes).length)
      await audit(
        {
          action: moving ? "recruitment.session_status_changed" : "recruitment.session_updated",
          entity_type: "interview_session",
          entity_id: id,
          changes,
        },
        tx,
      );
    if (moving && body.status === "cancelled" && before.sent_at)
      await queueEmail(tx, {
        to: after.candidate.email,
        subject: `Cancelled: ${after.title} - ${company.name}`,
        text:
          `Dear ${after.candidate.first_name},\n\nThe interview "${after.title}" planned ` +
          `for ${formatInstant(before.scheduled_at, company.timezone)} (${company.timezone}) ` +
          `is cancelled. We will be in touch about next steps.\n\n${company.name} recruitment team`,
      });
    return after;
  });
  return sessionJson(s);
}

export async function removeSession(id: string) {
  const s = await findSession(id);
  await tenantTx(async (tx) => {
    const status = await lockSession(tx, id);
    if (!status) throw notFound("Interview session");
    if (status === "scheduled" && s.sent_at) throw conflict("The candidate was sent this session; cancel it so they are told");
    await tx.interviewSession.update({ where: byId(id), data: { deleted_at: clock.now() } });
    await audit(
      {
        action: "recruitment.session_deleted",
        entity_type: "interview_session",
        entity_id: id,
        changes: { candidate_id: s.candidate_id, title: s.title, status },
      },
      tx,
    );
  });
}
