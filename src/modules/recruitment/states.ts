// The state machines of recruitment. Each table lists the states reachable from a state; a move
// that is not listed is a 409 (`conflict`). Staying in the same state is not a move.
import { conflict } from "../../platform/errors.ts";
import type { components } from "../../../generated/api-types.ts";

type S = components["schemas"];
export type RequisitionStatus = S["JobRequisitionStatus"];
export type PostingStatus = S["JobPostingStatus"];
export type CandidateStage = S["CandidateStage"];
export type InterviewStatus = S["InterviewStatus"];
export type SessionStatus = S["InterviewSessionStatus"];
export type OfferStatus = S["JobOfferStatus"];
export type CandidateSource = S["CandidateSource"];
export type EmploymentType = S["EmploymentType"];
export type InterviewMode = S["InterviewMode"];
export type InterviewRecommendation = S["InterviewRecommendation"];
export type DocumentType = S["DocumentType"];

export const REQUISITION_MOVES: Record<RequisitionStatus, RequisitionStatus[]> = {
  draft: ["pending_approval", "closed"],
  pending_approval: ["approved", "rejected", "draft"],
  approved: ["closed"],
  rejected: ["closed"],
  closed: [],
};

export const POSTING_MOVES: Record<PostingStatus, PostingStatus[]> = {
  draft: ["open", "closed"],
  open: ["closed"],
  closed: [],
};

export const CANDIDATE_MOVES: Record<CandidateStage, CandidateStage[]> = {
  applied: ["screening", "rejected", "withdrawn"],
  screening: ["interview", "rejected", "withdrawn"],
  interview: ["offer", "rejected", "withdrawn"],
  offer: ["hired", "rejected", "withdrawn"],
  hired: [],
  rejected: [],
  withdrawn: [],
};
/** Stages in which a candidate is still in the pipeline. */
export const ACTIVE_STAGES: CandidateStage[] = ["applied", "screening", "interview", "offer"];

export const INTERVIEW_MOVES: Record<InterviewStatus, InterviewStatus[]> = {
  scheduled: ["completed", "cancelled", "no_show"],
  completed: [],
  cancelled: [],
  no_show: [],
};

export const SESSION_MOVES: Record<SessionStatus, SessionStatus[]> = {
  scheduled: ["completed", "cancelled"],
  completed: [],
  cancelled: [],
};

export const OFFER_MOVES: Record<OfferStatus, OfferStatus[]> = {
  draft: ["sent", "withdrawn"],
  sent: ["accepted", "declined", "expired", "withdrawn"],
  accepted: [],
  declined: [],
  expired: [],
  withdrawn: [],
};

const label = (s: string) => s.replace(/_/g, " ");

/** Throws 409 unless `from → to` is a move of `table`; returns whether anything changes. */
export function checkMove<T extends string>(what: string, table: Record<T, T[]>, from: T, to: T): boolean {
  if (from === to) return false;
  if (!table[from]?.includes(to)) {
    const allowed = table[from]?.length
      ? ` (from ${label(from)} it can go to ${table[from].map(label).join(", ")})`
      : ` (${label(from)} is final)`;
    throw conflict(`A ${what} cannot go from ${label(from)} to ${label(to)}${allowed}`);
  }
  return true;
}
