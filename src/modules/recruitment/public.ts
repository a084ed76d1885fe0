// The candidate's side of offers and appointments, through mailed links: the token's hash (unique over all
// tenants) finds the tenant, and everything else runs in it (`withTenant`) like any request.
import { audit } from "../../platform/audit.ts";
import { hashToken } from "../../platform/identity/tokens.ts";
import { activeTenant, tenantsWith } from "../../db/central.ts";
import { db, tenantTx, withTenant, type ScopedTx, byId } from "../../db/tenancy.ts";
import { AppError, conflict, moduleDisabled, notFound } from "../../platform/errors.ts";
import type { RequestBody, UploadedFile } from "../../platform/use-case.ts";
import { toDateString } from "../../lib/dates.ts";
import { notify } from "../../platform/notify.ts";
import { storeUpload } from "../../platform/storage/files.ts";
import { companyOf, companyToday, fullName, moneyOut, recruiters, trimOrNull, type Company } from "./common.ts";
import { lockOffer } from "./queries.ts";
import { offerLetterPdf } from "./letters.ts";
import { documentJson, offerInclude, type OfferRow } from "./offer-json.ts";
import { expireDueOffers } from "./offer-expiry.ts";
import { tellOfferTeam } from "./offers.ts";
import type { EmploymentType, OfferStatus } from "./states.ts";
import * as clock from "../../lib/clock.ts";

export const MAX_APPOINTMENT_DOCUMENTS = 20;
const REQUESTED = ["id_proof", "address_proof", "education", "experience"] as const;

const gone = (message: string) => new AppError("invalid_token", message, undefined, undefined, { gone: true });

type Kind = "offer" | "appointment";

/** Finds the tenant of a link token, checks its module, and runs `fn` in that tenant. */
async function inTenantOf<T>(
  kind: Kind,
  token: string,
  fn: (ctx: { offerId: string; company: Company; today: string }) => Promise<T>,
): Promise<T> {
  const hash = hashToken(token);
  const [ref] = await tenantsWith(
    "jobOffer",
    kind === "offer" ? { offer_token_hash: hash, deleted_at: null } : { appointment_token_hash: hash, deleted_at: null },
  );
  if (!ref) throw notFound(kind === "offer" ? "Offer" : "Appointment");
  return withTenant(ref.tenant_id, async () => {
    const tenant = await activeTenant({ modules: true });
    if (!tenant.modules.includes("recruitment")) throw moduleDisabled("recruitment");
    const company = await companyOf();
    const today = await companyToday();
    await expireDueOffers(today);
    return fn({ offerId: ref.id, company, today });
  });
}

/** The company (tenant id) of an offer link, for the privacy notice its page shows; null for an unknown link. */
export async function tenantOfOfferLink(token: string): Promise<string | null> {
  const [ref] = await tenantsWith("jobOffer", { offer_token_hash: hashToken(token), deleted_at: null });
  return ref?.tenant_id ?? null;
}

async function loadOffer(client: Pick<ScopedTx, "jobOffer">, id: string): Promise<OfferRow> {
  const o = await client.jobOffer.findFirst({ where: { id, deleted_at: null }, include: offerInclude });
  if (!o) throw notFound("Offer");
  return o;
}

/** 410 for a withdrawn or expired offer and for an expired link. */
function checkOfferLink(o: OfferRow) {
  if (o.status === "withdrawn") throw gone("This offer was withdrawn");
  if (o.status === "expired") throw gone(`This offer expired on ${toDateString(o.expires_on)}`);
  if (!o.offer_token_expires_at || o.offer_token_expires_at.getTime() <= clock.nowMs()) throw gone("This offer link has expired");
}

function checkAppointmentLink(o: OfferRow) {
  if (o.status !== "accepted") throw gone("This appointment is no longer valid");
  if (!o.appointment_token_expires_at || o.appointment_token_expires_at.getTime() <= clock.nowMs())
    throw gone("This appointment link has expired");
}

function publicOfferJson(o: OfferRow, company: Company, token: string) {
  return {
    offer_number: o.offer_number,
    status: o.status as OfferStatus,
    company_name: company.name,
    candidate_name: fullName(o.candidate),
    job_title: o.job_title,
    department: o.department,
    employment_type: o.employment_type as EmploymentType,
    salary: moneyOut(o.salary)!,
    currency: o.currency,
    joining_date: toDateString(o.joining_date),
    expires_on: toDateString(o.expires_on),
    terms: o.terms,
    sent_at: o.sent_at?.toISOString() ?? null,
    responded_at: o.responded_at?.toISOString() ?? null,
    can_respond: o.status === "sent",
    pdf_url: `/api/public/offers/${token}/pdf`,
  };
}

function publicAppointmentJson(o: OfferRow, company: Company, token: string) {
  const have = new Set(o.documents.map((d) => d.document_type));
  return {
    offer_number: o.offer_number,
    company_name: company.name,
    candidate_name: fullName(o.candidate),
    job_title: o.job_title,
    department: o.department,
    employment_type: o.employment_type as EmploymentType,
    salary: moneyOut(o.salary)!,
    currency: o.currency,
    joining_date: toDateString(o.joining_date),
    terms: o.terms,
    documents: o.documents.map(documentJson),
    requested_documents: REQUESTED.filter((d) => !have.has(d)),
    pdf_url: `/api/public/appointment/${token}/pdf`,
    upload_url: `/api/public/appointment/${token}/upload`,
    link_expires_at: o.appointment_token_expires_at!.toISOString(),
  };
}

export function publicOffer(token: string) {
  return inTenantOf("offer", token, async ({ offerId, company }) => {
    const o = await loadOffer(db, offerId);
    checkOfferLink(o);
    return publicOfferJson(o, company, token);
  });
}

export function publicOfferPdf(token: string): Promise<{ pdf: Buffer; filename: string }> {
  return inTenantOf("offer", token, async ({ offerId, company, today }) => {
    const o = await loadOffer(db, offerId);
    checkOfferLink(o);
    return { pdf: await offerLetterPdf("offer", o, o.candidate, company, today, o.terms), filename: `offer-letter-${o.offer_number}.pdf` };
  });
}

export async function answerPublicOffer(token: string, answer: "accepted" | "declined", reason?: string) {
  const result = await inTenantOf("offer", token, async ({ offerId, company }) => {
    const o = await tenantTx(async (tx) => {
      await lockOffer(tx, offerId);
      const current = await loadOffer(tx, offerId);
      checkOfferLink(current);
      if (current.status !== "sent") throw conflict(`You already ${current.status} this offer`);
      const after = await tx.jobOffer.update({
        where: byId(offerId),
        data: { status: answer, responded_at: clock.now(), decline_reason: answer === "declined" ? (trimOrNull(reason) ?? null) : null },
        include: offerInclude,
      });
      const name = fullName(after.candidate);
      await audit(
        {
          action: "recruitment.offer_status_changed",
          event: "recruitment.offer_status_changed",
          entity_type: "job_offer",
          entity_id: offerId,
          changes: {
            status: { from: "sent", to: answer },
            by: `candidate ${after.candidate.email}`,
            ...(after.decline_reason ? { decline_reason: after.decline_reason } : {}),
          },
        },
        tx,
      );
      await tellOfferTeam(
        tx,
        after,
        `recruitment.offer_${answer}`,
        `${name} ${answer} offer ${after.offer_number} (${after.job_title})`,
        answer === "accepted"
          ? `Joining on ${toDateString(after.joining_date)}. Mark the candidate hired and send the appointment letter.`
          : `Reason: ${after.decline_reason ?? "not given"}.`,
      );
      return after;
    });
    return publicOfferJson(o, company, token);
  });
  return result;
}

export function publicAppointment(token: string) {
  return inTenantOf("appointment", token, async ({ offerId, company }) => {
    const o = await loadOffer(db, offerId);
    checkAppointmentLink(o);
    return publicAppointmentJson(o, company, token);
  });
}

export function publicAppointmentPdf(token: string): Promise<{ pdf: Buffer; filename: string }> {
  return inTenantOf("appointment", token, async ({ offerId, company, today }) => {
    const o = await loadOffer(db, offerId);
    checkAppointmentLink(o);
    return {
      pdf: await offerLetterPdf("appointment", o, o.candidate, company, today, o.terms),
      filename: `appointment-letter-${o.offer_number}.pdf`,
    };
  });
}

/** 410 for a link no longer valid, 409 once the candidate has joined or the appointment holds its most documents. */
async function checkRoomForDocument(client: Pick<ScopedTx, "candidate">, o: OfferRow) {
  checkAppointmentLink(o);
  const candidate = await client.candidate.findFirstOrThrow({ where: { id: o.candidate_id }, select: { employee_id: true } });
  if (candidate.employee_id) throw conflict("You have already joined; hand further documents to HR");
  if (o.documents.length >= MAX_APPOINTMENT_DOCUMENTS) throw conflict(`At most ${MAX_APPOINTMENT_DOCUMENTS} documents can be uploaded`);
}

/**
 * The upload gate's checks before a joining document's body is read (404, 403, 410, 409), so a dead link
 * costs neither the time to receive a file nor the disk; repeated under the offer's lock on upload.
 */
export function checkAppointmentUpload(token: string): Promise<void> {
  return inTenantOf("appointment", token, async ({ offerId }) => {
    await checkRoomForDocument(db, await loadOffer(db, offerId));
  });
}

export function addAppointmentDocument(token: string, file: UploadedFile | undefined, meta: RequestBody<"uploadAppointmentDocument">) {
  return inTenantOf("appointment", token, async ({ offerId }) => {
    return tenantTx(async (tx) => {
      await lockOffer(tx, offerId);
      const o = await loadOffer(tx, offerId);
      await checkRoomForDocument(tx, o);
      const stored = await storeUpload(file, { purpose: "appointment_document", uploadedBy: null }, tx);
      const title = meta.title?.trim() || stored.original_name;
      const doc = await tx.appointmentDocument.create({
        data: { offer_id: offerId, file_id: stored.id, document_type: meta.document_type, title },
        include: { file: { select: { original_name: true, mime_type: true, size_bytes: true } } },
      });
      await audit(
        {
          action: "recruitment.appointment_document_uploaded",
          entity_type: "job_offer",
          entity_id: offerId,
          changes: {
            document_type: meta.document_type,
            title,
            file_name: stored.original_name,
            size_bytes: stored.size_bytes,
            by: `candidate ${o.candidate.email}`,
          },
        },
        tx,
      );
      for (const r of await recruiters(tx))
        await notify(tx, {
          userId: r.userId,
          kind: "recruitment.appointment_document",
          title: `${fullName(o.candidate)} uploaded ${meta.document_type.replace(/_/g, " ")} (${o.offer_number})`,
          link: `/api/recruitment/offers/${offerId}`,
        });
      return documentJson(doc);
    });
  });
}
