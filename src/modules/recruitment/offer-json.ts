// An offer as the API shows it (JobOffer, with its candidate and joining documents) and the rows it is read from.
import type { AppointmentDocument, Candidate, JobOffer, Prisma, StoredFile } from "../../../generated/prisma/client.ts";
import { toDateString } from "../../lib/dates.ts";
import { fullName, moneyOut } from "./common.ts";
import type { OfferStatus, DocumentType, EmploymentType } from "./states.ts";

export type OfferRow = JobOffer & {
  candidate: Pick<Candidate, "first_name" | "last_name" | "email" | "posting_id">;
  documents: (AppointmentDocument & { file: Pick<StoredFile, "original_name" | "mime_type" | "size_bytes"> })[];
};
export const offerInclude = {
  candidate: { select: { first_name: true, last_name: true, email: true, posting_id: true } },
  documents: {
    include: { file: { select: { original_name: true, mime_type: true, size_bytes: true } } },
    orderBy: [{ created_at: "asc" }, { id: "asc" }],
  },
} satisfies Prisma.JobOfferInclude;

/** How long an appointment link stays valid. */
export const APPOINTMENT_LINK_DAYS = 30;

export function documentJson(d: OfferRow["documents"][number]) {
  return {
    id: d.id,
    document_type: d.document_type as DocumentType,
    title: d.title,
    file_id: d.file_id,
    original_name: d.file.original_name,
    mime_type: d.file.mime_type,
    size_bytes: d.file.size_bytes,
    created_at: d.created_at.toISOString(),
  };
}

export function offerJson(o: OfferRow) {
  return {
    id: o.id,
    offer_number: o.offer_number,
    candidate_id: o.candidate_id,
    candidate_name: fullName(o.candidate),
    candidate_email: o.candidate.email,
    posting_id: o.candidate.posting_id,
    job_title: o.job_title,
    department: o.department,
    employment_type: o.employment_type as EmploymentType,
    salary: moneyOut(o.salary)!,
    currency: o.currency,
    joining_date: toDateString(o.joining_date),
    expires_on: toDateString(o.expires_on),
    terms: o.terms,
    status: o.status as OfferStatus,
    sent_at: o.sent_at?.toISOString() ?? null,
    responded_at: o.responded_at?.toISOString() ?? null,
    decline_reason: o.decline_reason,
    link_expires_at: o.offer_token_expires_at?.toISOString() ?? null,
    appointment_sent_at: o.appointment_sent_at?.toISOString() ?? null,
    appointment_link_expires_at: o.appointment_token_expires_at?.toISOString() ?? null,
    documents: o.documents.map(documentJson),
    created_by_user_id: o.created_by,
    created_at: o.created_at.toISOString(),
    updated_at: o.updated_at.toISOString(),
  };
}
