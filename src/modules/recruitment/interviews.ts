// Interviews: scheduled by hr along the interview panel's rounds, completed by an interviewer with
// a rating on the panel's scale and written feedback. Managers see the interviews they are on
// (interview-records.ts).
import type { Prisma } from "../../../generated/prisma/client.ts";
import { audit, diff } from "../../platform/audit.ts";
import { tenantTx, type ScopedTx, byId } from "../../db/tenancy.ts";
import { conflict, forbidden, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { notify } from "../../platform/notify.ts";
import { moveCandidateStage, referencedCandidate } from "./candidates.ts";
import { companyOf, fullName, trimOrNull } from "./common.ts";
import { describe, tellInterviewers } from "./interview-notices.ts";
import { include, interviewsJson, oneJson, visibleInterview } from "./interview-records.ts";
import { lockCandidate, lockInterview } from "./queries.ts";
import { readPanel } from "./panel.ts";
import { checkMove, INTERVIEW_MOVES } from "./states.ts";
import { isHr } from "../shared/access.ts";
import * as clock from "../../lib/clock.ts";

type CreateInput = RequestBody<"createInterview">;
type UpdateInput = RequestBody<"updateInterview">;

/** Interviewers must be owner, admin, hr or manager members (400 naming the entry). */
async function checkInterviewers(tx: ScopedTx, ids: string[], path: string): Promise<void> {
  const ok = new Set(
    (
      await tx.membership.findMany({
        where: { user_id: { in: ids }, role: { in: ["owner", "admin", "hr", "manager"] } },
        select: { user_id: true },
      })
    ).map((m) => m.user_id),
  );
  ids.forEach((u, i) => {
    if (!ok.has(u)) throw invalidField(`${path}.${i}`, "is not an owner, admin, hr or manager member of the company");
  });
}

function checkFuture(at: string, path: string): Date {
  const d = new Date(at);
  if (d.getTime() <= clock.nowMs()) throw invalidField(path, "must be in the future");
  return d;
}

// size: one transaction read top to bottom: the checks under its row locks, the write, the audit and the notices, in order
export async function scheduleInterview(auth: AuthContext, body: CreateInput) {
  const panel = await readPanel();
  const round = body.round_sequence !== undefined ? panel.rounds.find((r) => r.sequence === body.round_sequence) : undefined;
  if (body.round_sequence !== undefined && !round)
    throw invalidField(
      "body.round_sequence",
      `is not a round of the interview panel (rounds: ${panel.rounds.map((r) => r.sequence).join(", ") || "none"})`,
    );
  const round_name = body.round_name?.trim() ?? round?.name;
  if (!round_name) throw invalidField("body.round_name", "is required without round_sequence");
  const scheduled_at = checkFuture(body.scheduled_at, "body.scheduled_at");
  const mode = body.mode ?? round?.mode ?? "video";
  const meeting_url = trimOrNull(body.meeting_url) ?? null;
  if (mode === "video" && !meeting_url) throw invalidField("body.meeting_url", "is required for a video interview");
  const company = await companyOf();
  const created = await tenantTx(async (tx) => {
    const candidate = await referencedCandidate(tx, body.candidate_id);
    const stage = await lockCandidate(tx, candidate.id);
    if (stage !== "screening" && stage !== "interview")
      throw conflict(`The candidate is ${stage}; interviews are scheduled for candidates in screening or interview`);
    let interviewers = body.interviewer_user_ids;
    if (interviewers) await checkInterviewers(tx, interviewers, "body.interviewer_user_ids");
    else if (round?.interviewer_user_ids.length) {
      // The panel's defaults, keeping those who may still interview (roles change).
      const eligible = new Set(
        (
          await tx.membership.findMany({
            where: { user_id: { in: round.interviewer_user_ids }, role: { in: ["owner", "admin", "hr", "manager"] } },
            select: { user_id: true },
          })
        ).map((m) => m.user_id),
      );
      interviewers = round.interviewer_user_ids.filter((u) => eligible.has(u));
    }
    if (!interviewers?.length)
      throw invalidField("body.interviewer_user_ids", round ? "is required: the panel round has no interviewers" : "is required");
    const i = await tx.interview.create({
      data: {
        candidate_id: candidate.id,
        round_name,
        round_sequence: round?.sequence ?? null,
        scheduled_at,
        duration_minutes: body.duration_minutes ?? round?.duration_minutes ?? 60,
        mode,
        location: trimOrNull(body.location) ?? null,
        meeting_url,
        interviewer_user_ids: interviewers,
        status: "scheduled",
        created_by: auth.userId,
      },
      include,
    });
    await audit(
      {
        action: "recruitment.interview_scheduled",
        entity_type: "interview",
        entity_id: i.id,
        changes: { candidate_id: candidate.id, round_name, scheduled_at: scheduled_at.toISOString(), interviewer_user_ids: interviewers },
      },
      tx,
    );
    if (stage === "screening") await moveCandidateStage(tx, { id: candidate.id, stage }, "interview", "interview scheduled");
    await tellInterviewers(
      tx,
      auth,
      interviewers,
      "recruitment.interview_scheduled",
      `Interview: ${fullName(candidate)} for ${candidate.posting.title}`,
      describe(i, fullName(candidate), company.timezone),
      `/api/recruitment/interviews/${i.id}`,
    );
    return i;
  });
  return oneJson(created);
}

const OUTCOME_KEYS = new Set(["status", "rating", "recommendation", "feedback"]);

// size: the outcome's checks (who may record what, the panel's scale) then one transaction read top to bottom: the checks under its row
// locks, the write, the audit and the notices, in the order they happen
export async function changeInterview(auth: AuthContext, id: string, body: UpdateInput) {
  await visibleInterview(auth, id);
  if (!isHr(auth) && (body.status !== "completed" || Object.keys(body).some((k) => !OUTCOME_KEYS.has(k))))
    throw forbidden("Interviewers record the outcome only (status completed with rating and feedback); hr schedules and cancels");
  const to = body.status;
  const outcome = body.rating !== undefined || body.feedback !== undefined || body.recommendation !== undefined;
  if (outcome && to !== "completed")
    throw invalidField(
      body.rating !== undefined ? "body.rating" : body.feedback !== undefined ? "body.feedback" : "body.recommendation",
      "goes with status completed",
    );
  if (body.cancel_reason !== undefined && to !== "cancelled") throw invalidField("body.cancel_reason", "goes with status cancelled");
  const panel = await readPanel();
  if (to === "completed") {
    if (body.rating === undefined) throw invalidField("body.rating", "is required to complete the interview");
    if (body.rating > panel.rating_scale)
      throw invalidField("body.rating", `must be between 1 and ${panel.rating_scale} (the interview panel's rating scale)`);
    if (body.feedback === undefined) throw invalidField("body.feedback", "is required to complete the interview");
  }
  const company = await companyOf();
  const updated = await tenantTx(async (tx) => {
    const from = await lockInterview(tx, id);
    if (!from) throw notFound("Interview");
    if (from !== "scheduled") throw conflict(`The interview is ${from.replace("_", " ")}; it can no longer change`);
    const before = await tx.interview.findFirstOrThrow({ where: { id }, include });
    const data: Prisma.InterviewUpdateInput = {};
    if (body.scheduled_at !== undefined) data.scheduled_at = checkFuture(body.scheduled_at, "body.scheduled_at");
    if (body.duration_minutes !== undefined) data.duration_minutes = body.duration_minutes;
    if (body.mode !== undefined) data.mode = body.mode;
    if (body.location !== undefined) data.location = trimOrNull(body.location);
    if (body.meeting_url !== undefined) data.meeting_url = trimOrNull(body.meeting_url);
    if ((data.mode ?? before.mode) === "video" && !(data.meeting_url !== undefined ? data.meeting_url : before.meeting_url))
      throw invalidField("body.meeting_url", "is required for a video interview");
    if (body.interviewer_user_ids !== undefined) {
      await checkInterviewers(tx, body.interviewer_user_ids, "body.interviewer_user_ids");
      data.interviewer_user_ids = body.interviewer_user_ids;
    }
    const moving = to !== undefined && checkMove("interview", INTERVIEW_MOVES, from, to);
    if (moving && (to === "completed" || to === "no_show") && before.scheduled_at.getTime() > clock.nowMs())
      throw conflict(`The interview has not started yet (scheduled for ${before.scheduled_at.toISOString()})`);
    if (moving && to) {
      data.status = to;
      if (to === "completed") {
        data.rating = body.rating;
        data.rating_scale = panel.rating_scale;
        data.recommendation = body.recommendation ?? null;
        data.feedback = body.feedback!.trim();
        data.feedback_by = auth.userId;
        data.completed_at = clock.now();
      }
      if (to === "cancelled") data.cancel_reason = trimOrNull(body.cancel_reason) ?? null;
    }
    if (!Object.keys(data).length) return before;
    const after = await tx.interview.update({ where: byId(id), data, include });
    const [vb, va] = await interviewsJson([before, after]);
    const keys = [
      ...Object.keys(data).filter((k) => k !== "rating_scale" && k !== "feedback_by" && k !== "completed_at"),
      ...(data.interviewer_user_ids ? ["interviewers"] : []),
    ].filter((k) => k !== "interviewer_user_ids");
    const changes = diff(vb, va, keys);
    if (Object.keys(changes).length)
      await audit(
        {
          action: moving ? "recruitment.interview_status_changed" : "recruitment.interview_updated",
          entity_type: "interview",
          entity_id: id,
          changes,
        },
        tx,
      );
    const candidate = fullName(after.candidate);
    const link = `/api/recruitment/interviews/${id}`;
    if (moving && to === "completed" && after.created_by !== auth.userId)
      await notify(tx, {
        userId: after.created_by,
        kind: "recruitment.interview_feedback",
        title: `Feedback on ${candidate} (${after.round_name}): ${body.rating}/${panel.rating_scale}`,
        body: `${auth.name}${body.recommendation ? ` recommends ${body.recommendation.replace(/_/g, " ")}` : " gave feedback"}.`,
        link,
      });
    if (moving && to === "cancelled")
      await tellInterviewers(
        tx,
        auth,
        after.interviewer_user_ids,
        "recruitment.interview_cancelled",
        `Cancelled: ${after.round_name} interview with ${candidate}`,
        describe(before, candidate, company.timezone),
        link,
      );
    if (
      !moving &&
      (data.scheduled_at ||
        data.mode ||
        data.location !== undefined ||
        data.meeting_url !== undefined ||
        data.interviewer_user_ids ||
        data.duration_minutes)
    )
      await tellInterviewers(
        tx,
        auth,
        after.interviewer_user_ids,
        "recruitment.interview_rescheduled",
        `Updated: ${after.round_name} interview with ${candidate}`,
        describe(after, candidate, company.timezone),
        link,
      );
    return after;
  });
  return oneJson(updated);
}

export async function removeInterview(auth: AuthContext, id: string) {
  const i = await visibleInterview(auth, id);
  const company = await companyOf();
  await tenantTx(async (tx) => {
    const status = await lockInterview(tx, id);
    if (!status) throw notFound("Interview");
    if (status === "completed") throw conflict("A completed interview keeps its feedback and cannot be deleted");
    await tx.interview.update({ where: byId(id), data: { deleted_at: clock.now() } });
    const sessions = await tx.interviewSession.findMany({
      where: { interview_id: id, deleted_at: null, status: "scheduled" },
      select: { id: true },
    });
    for (const s of sessions) {
      await tx.interviewSession.update({ where: byId(s.id), data: { status: "cancelled" } });
      await audit(
        {
          action: "recruitment.session_status_changed",
          entity_type: "interview_session",
          entity_id: s.id,
          changes: { status: { from: "scheduled", to: "cancelled" }, reason: "interview deleted" },
        },
        tx,
      );
    }
    await audit(
      {
        action: "recruitment.interview_deleted",
        entity_type: "interview",
        entity_id: id,
        changes: { candidate_id: i.candidate_id, round_name: i.round_name, status },
      },
      tx,
    );
    if (status === "scheduled")
      await tellInterviewers(
        tx,
        auth,
        i.interviewer_user_ids,
        "recruitment.interview_cancelled",
        `Cancelled: ${i.round_name} interview with ${fullName(i.candidate)}`,
        describe(i, fullName(i.candidate), company.timezone),
        `/api/recruitment/interviews/${id}`,
      );
  });
}
