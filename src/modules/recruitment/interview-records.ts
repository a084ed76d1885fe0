// Reading interviews: the answer's shape, who sees which interview, the list and one interview.
import type { Candidate, Interview, JobPosting, Prisma } from "../../../generated/prisma/client.ts";
import { db } from "../../db/tenancy.ts";
import { pageOf, type PageQuery } from "../../platform/use-case.ts";
import { notFound } from "../../platform/errors.ts";
import type { AuthContext } from "../../platform/use-case.ts";
import { fullName, userNames } from "./common.ts";
import { readPanel } from "./panel.ts";
import type { InterviewStatus, InterviewMode, InterviewRecommendation } from "./states.ts";
import { isHr } from "../shared/access.ts";

export type InterviewRow = Interview & {
  candidate: Pick<Candidate, "first_name" | "last_name" | "posting_id"> & { posting: Pick<JobPosting, "title"> };
};
export const include = {
  candidate: { select: { first_name: true, last_name: true, posting_id: true, posting: { select: { title: true } } } },
} as const;

/** The interviews as the API answers them, with interviewer names and the feedback deadline of the panel. */
export async function interviewsJson(rows: InterviewRow[]) {
  const panel = await readPanel();
  const names = await userNames(rows.flatMap((r) => r.interviewer_user_ids));
  return rows.map((i) => ({
    id: i.id,
    candidate_id: i.candidate_id,
    candidate_name: fullName(i.candidate),
    posting_id: i.candidate.posting_id,
    posting_title: i.candidate.posting.title,
    round_name: i.round_name,
    round_sequence: i.round_sequence,
    scheduled_at: i.scheduled_at.toISOString(),
    duration_minutes: i.duration_minutes,
    mode: i.mode as InterviewMode,
    location: i.location,
    meeting_url: i.meeting_url,
    interviewers: i.interviewer_user_ids.map((u) => ({ user_id: u, name: names.get(u)?.name ?? "Former member" })),
    status: i.status as InterviewStatus,
    rating: i.rating,
    rating_scale: i.rating_scale as 5 | 10 | null,
    recommendation: i.recommendation as InterviewRecommendation | null,
    feedback: i.feedback,
    feedback_by_user_id: i.feedback_by,
    feedback_due_at: new Date(
      i.scheduled_at.getTime() + (i.duration_minutes * 60 + panel.feedback_deadline_hours * 3600) * 1000,
    ).toISOString(),
    completed_at: i.completed_at?.toISOString() ?? null,
    cancel_reason: i.cancel_reason,
    created_by_user_id: i.created_by,
    created_at: i.created_at.toISOString(),
    updated_at: i.updated_at.toISOString(),
  }));
}
export const oneJson = async (i: InterviewRow) => (await interviewsJson([i]))[0];

/** hr/admin/owner see every live interview; anyone else those they are on. */
function scope(auth: AuthContext): Prisma.InterviewWhereInput {
  const live: Prisma.InterviewWhereInput = { deleted_at: null, candidate: { deleted_at: null } };
  return isHr(auth) ? live : { ...live, interviewer_user_ids: { has: auth.userId } };
}

export async function visibleInterview(auth: AuthContext, id: string): Promise<InterviewRow> {
  const i = await db.interview.findFirst({ where: { id, ...scope(auth) }, include });
  if (!i) throw notFound("Interview");
  return i;
}

export async function interviewPage(
  auth: AuthContext,
  query: PageQuery & { candidate_id?: string; status?: InterviewStatus; interviewer_user_id?: string; from?: string; to?: string },
) {
  const page = pageOf(query);
  const where: Prisma.InterviewWhereInput = { AND: [scope(auth)] };
  if (query.candidate_id) where.candidate_id = query.candidate_id;
  if (query.status) where.status = query.status;
  if (query.interviewer_user_id)
    (where.AND as Prisma.InterviewWhereInput[]).push({ interviewer_user_ids: { has: query.interviewer_user_id } });
  if (query.from || query.to)
    where.scheduled_at = { ...(query.from ? { gte: new Date(query.from) } : {}), ...(query.to ? { lt: new Date(query.to) } : {}) };
  const [rows, total] = await Promise.all([
    db.interview.findMany({ where, include, orderBy: [{ scheduled_at: "asc" }, { id: "asc" }], skip: page.skip, take: page.limit }),
    db.interview.count({ where }),
  ]);
  return { rows: await interviewsJson(rows), page, total };
}

export async function interviewById(auth: AuthContext, id: string) {
  return oneJson(await visibleInterview(auth, id));
}
