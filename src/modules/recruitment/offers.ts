// Offers: drafted for a candidate after interviews, mailed with a personal link (draft → sent),
// accepted or declined by the candidate through that link, expired once `expires_on` has passed,
// or withdrawn. An accepted offer gets an appointment letter with a link for joining documents.
import type { AppointmentDocument, Candidate, JobOffer, Prisma, StoredFile } from "../../../generated/prisma/client.ts";
import { audit, diff } from "../../platform/audit.ts";
import { newToken } from "../../platform/identity/tokens.ts";
import { config } from "../../config.ts";
import { activeTenant, tenantsWith } from "../../db/central.ts";
import { db, tenantTx, withTenant, type ScopedTx, byId } from "../../db/tenancy.ts";
import { pageOf, type PageQuery } from "../../http/envelope.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../http/types.ts";
import { addDays, parseDate, toDateString, todayIn } from "../../lib/dates.ts";
import { nextNumber } from "../../platform/sequences.ts";
import { logger } from "../../log.ts";
import { queueEmail } from "../../platform/mail/outbox.ts";
import { type NotificationKind, notify } from "../../platform/notify.ts";
import { moveCandidateStage, referencedCandidate } from "./candidates.ts";
import {
  checkAmount,
  companyOf,
  companyToday,
  EMPLOYMENT_LABELS,
  formatMoney,
  fullName,
  moneyOut,
  startOfDayIn,
  trimOrNull,
  userNames,
  type Company,
} from "./common.ts";
import { offerLetterPdf } from "./letters.ts";
import { lockCandidate, lockOffer } from "./queries.ts";
import { checkMove, OFFER_MOVES, type OfferStatus, type DocumentType, type EmploymentType } from "./states.ts";
import { hrMemberIds } from "../shared/access.ts";
import * as clock from "../../lib/clock.ts";

type CreateInput = RequestBody<"createJobOffer">;
type UpdateInput = RequestBody<"updateJobOffer">;
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

/**
 * Sent offers whose last day (`expires_on`, in the company's time zone) has passed become
 * `expired` - audited, the people who made them told. Run before offers are read or answered,
 * and hourly by the job `recruitment.expire-offers`.
 */
export async function expireDueOffers(today: string): Promise<number> {
  const due = await db.jobOffer.findMany({
    where: { status: "sent", deleted_at: null, expires_on: { lt: parseDate(today) } },
    select: { id: true },
  });
  let n = 0;
  for (const { id } of due) {
    const done = await tenantTx(async (tx) => {
      const claimed = await tx.jobOffer.updateMany({ where: { id, status: "sent" }, data: { status: "expired" } });
      if (claimed.count !== 1) return false;
      const o = await tx.jobOffer.findFirstOrThrow({
        where: { id },
        include: { candidate: { select: { first_name: true, last_name: true } } },
      });
      await audit(
        {
          action: "recruitment.offer_status_changed",
          entity_type: "job_offer",
          entity_id: id,
          changes: { status: { from: "sent", to: "expired" }, reason: `not answered by ${toDateString(o.expires_on)}` },
        },
        tx,
      );
      await notify(tx, {
        userId: o.created_by,
        kind: "recruitment.offer_expired",
        title: `Offer ${o.offer_number} to ${fullName(o.candidate)} expired unanswered`,
        link: `/api/recruitment/offers/${id}`,
      });
      return true;
    });
    if (done) n++;
  }
  return n;
}

async function findOffer(id: string): Promise<OfferRow> {
  const o = await db.jobOffer.findFirst({ where: { id, deleted_at: null, candidate: { deleted_at: null } }, include: offerInclude });
  if (!o) throw notFound("Offer");
  return o;
}

export async function listOffers(query: PageQuery & { status?: OfferStatus; candidate_id?: string; search?: string }) {
  await expireDueOffers(await companyToday());
  const page = pageOf(query);
  const where: Prisma.JobOfferWhereInput = { deleted_at: null, candidate: { deleted_at: null } };
  if (query.status) where.status = query.status;
  if (query.candidate_id) where.candidate_id = query.candidate_id;
  if (query.search) {
    const s = query.search.trim();
    where.OR = [
      { offer_number: { equals: s.toUpperCase() } },
      { job_title: { contains: s, mode: "insensitive" } },
      {
        candidate: {
          OR: [
            { first_name: { contains: s, mode: "insensitive" } },
            { last_name: { contains: s, mode: "insensitive" } },
            { email: { contains: s, mode: "insensitive" } },
          ],
        },
      },
    ];
  }
  const [rows, total] = await Promise.all([
    db.jobOffer.findMany({
      where,
      include: offerInclude,
      orderBy: [{ created_at: "desc" }, { id: "desc" }],
      skip: page.skip,
      take: page.limit,
    }),
    db.jobOffer.count({ where }),
  ]);
  return { rows: rows.map(offerJson), page, total };
}

export async function getOffer(id: string) {
  await expireDueOffers(await companyToday());
  return offerJson(await findOffer(id));
}

/**
 * Any offer's letter as a PDF, for HR (downloadJobOfferPdf): the letter the candidate's link
 * serves, dated today, whatever the offer's status and without the link's rules.
 */
export async function offerLetterOf(id: string): Promise<{ pdf: Buffer; filename: string }> {
  const today = await companyToday();
  await expireDueOffers(today);
  const o = await findOffer(id);
  const pdf = await offerLetterPdf("offer", o, o.candidate, await companyOf(), today, o.terms);
  return { pdf, filename: `offer-letter-${o.offer_number}.pdf` };
}

function checkDates(expires_on: string, joining_date: string, today: string, touched: { expires: boolean; joining: boolean }) {
  if (touched.expires && expires_on < today) throw invalidField("body.expires_on", `must not be in the past (today is ${today})`);
  if (joining_date < expires_on) throw invalidField("body.joining_date", `must not be before the offer expires (${expires_on})`);
}

export async function createOffer(auth: AuthContext, body: CreateInput) {
  const company = await companyOf();
  const today = await companyToday();
  checkAmount("body.salary", body.salary, { positive: true });
  checkDates(body.expires_on, body.joining_date, today, { expires: true, joining: true });
  const o = await tenantTx(async (tx) => {
    const candidate = await referencedCandidate(tx, body.candidate_id);
    const stage = await lockCandidate(tx, candidate.id);
    if (stage !== "interview" && stage !== "offer")
      throw conflict(`The candidate is ${stage}; offers are made to candidates in interview or offer`);
    const live = await tx.jobOffer.findFirst({
      where: { candidate_id: candidate.id, deleted_at: null, status: { in: ["draft", "sent", "accepted"] } },
      select: { offer_number: true, status: true },
    });
    if (live) throw conflict(`The candidate already has offer ${live.offer_number} (${live.status}); withdraw it first`);
    const posting = await tx.jobPosting.findFirstOrThrow({ where: { id: candidate.posting_id } });
    const offer_number = await nextNumber(tx, "job_offer", "OFR-");
    const created = await tx.jobOffer.create({
      data: {
        offer_number,
        candidate_id: candidate.id,
        job_title: body.job_title?.trim() ?? posting.title,
        department: body.department?.trim() ?? posting.department,
        employment_type: body.employment_type ?? posting.employment_type,
        salary: body.salary,
        currency: company.currency,
        joining_date: parseDate(body.joining_date),
        expires_on: parseDate(body.expires_on),
        terms: trimOrNull(body.terms) ?? null,
        status: "draft",
        created_by: auth.userId,
      },
      include: offerInclude,
    });
    await audit(
      {
        action: "recruitment.offer_created",
        entity_type: "job_offer",
        entity_id: created.id,
        changes: {
          offer_number,
          candidate_id: candidate.id,
          job_title: created.job_title,
          salary: body.salary,
          currency: company.currency,
          joining_date: body.joining_date,
          expires_on: body.expires_on,
        },
      },
      tx,
    );
    if (stage === "interview") await moveCandidateStage(tx, { id: candidate.id, stage }, "offer", `offer ${offer_number} drafted`);
    return created;
  });
  return offerJson(o);
}

const FIELDS = ["job_title", "department", "employment_type", "salary", "joining_date", "expires_on", "terms"] as const;

export async function updateOffer(id: string, body: UpdateInput) {
  await findOffer(id);
  const company = await companyOf();
  const today = await companyToday();
  await expireDueOffers(today);
  checkAmount("body.salary", body.salary, { positive: true });
  const fields = FIELDS.filter((f) => body[f] !== undefined);
  const updated = await tenantTx(async (tx) => {
    const from = await lockOffer(tx, id);
    if (!from) throw notFound("Offer");
    const before = await tx.jobOffer.findFirstOrThrow({ where: { id }, include: offerInclude });
    if (fields.length && from !== "draft") throw conflict(`The offer is ${from}; only a draft offer can be changed`);
    const data: Prisma.JobOfferUncheckedUpdateInput = {};
    if (body.job_title !== undefined) data.job_title = body.job_title.trim();
    if (body.department !== undefined) data.department = body.department.trim();
    if (body.employment_type !== undefined) data.employment_type = body.employment_type;
    if (body.salary !== undefined) data.salary = body.salary.trim();
    if (body.joining_date !== undefined) data.joining_date = parseDate(body.joining_date);
    if (body.expires_on !== undefined) data.expires_on = parseDate(body.expires_on);
    if (body.terms !== undefined) data.terms = trimOrNull(body.terms);
    if (body.joining_date !== undefined || body.expires_on !== undefined)
      checkDates(body.expires_on ?? toDateString(before.expires_on), body.joining_date ?? toDateString(before.joining_date), today, {
        expires: body.expires_on !== undefined,
        joining: body.joining_date !== undefined,
      });
    const to = body.status;
    const moving = to !== undefined && checkMove("offer", OFFER_MOVES, from, to);
    if (moving && to !== "withdrawn" && to !== "expired")
      throw conflict(
        to === "sent"
          ? "Send an offer with POST /api/recruitment/offers/{id}/send"
          : "An offer is accepted or declined by the candidate through the offer link",
      );
    if (moving) data.status = to;
    if (!Object.keys(data).length) return before;
    const after = await tx.jobOffer.update({ where: byId(id), data, include: offerInclude });
    const changes = diff(offerJson(before), offerJson(after), [...fields, ...(moving ? ["status"] : [])]);
    if (Object.keys(changes).length)
      await audit(
        {
          action: moving ? "recruitment.offer_status_changed" : "recruitment.offer_updated",
          entity_type: "job_offer",
          entity_id: id,
          changes,
        },
        tx,
      );
    if (moving && to === "withdrawn" && from === "sent")
      await queueEmail(tx, {
        to: after.candidate.email,
        subject: `Offer withdrawn: ${after.job_title} - ${company.name}`,
        text:
          `Dear ${after.candidate.first_name},\n\nWe regret to inform you that our offer ${after.offer_number} for the ` +
          `position of ${after.job_title} has been withdrawn. The offer link no longer works.\n\n${company.name} recruitment ` +
          `team`,
      });
    return after;
  });
  return offerJson(updated);
}

export async function deleteOffer(id: string) {
  const o = await findOffer(id);
  await tenantTx(async (tx) => {
    const status = await lockOffer(tx, id);
    if (!status) throw notFound("Offer");
    if (status === "sent" || status === "accepted") throw conflict(`The offer is ${status}; withdraw it first`);
    await tx.jobOffer.update({ where: byId(id), data: { deleted_at: clock.now() } });
    await audit(
      { action: "recruitment.offer_deleted", entity_type: "job_offer", entity_id: id, changes: { offer_number: o.offer_number, status } },
      tx,
    );
  });
}

function linkUrl(kind: "offers" | "appointment", token: string) {
  return `${config().publicUrl}/api/public/${kind}/${token}`;
}

function offerMail(o: OfferRow, company: Company, token: string, linkExpires: Date) {
  const url = linkUrl("offers", token);
  const text = [
    `Dear ${o.candidate.first_name},`,
    "",
    `We are delighted to offer you the position ` +
      `of ${o.job_title} (${EMPLOYMENT_LABELS[o.employment_type] ?? o.employment_type}) ` +
      `in our ${o.department} team at ${company.name}.`,
    "",
    `Annual compensation: ${o.currency} ${formatMoney(o.salary.toString(), o.currency)}`,
    `Joining date: ${toDateString(o.joining_date)}`,
    `Please respond by: ${toDateString(o.expires_on)}`,
    "",
    "Read your offer, download the offer letter (PDF) and accept or decline it here:",
    `Offer link: ${url}/page`,
    `Offer letter (PDF): ${url}/pdf`,
    "",
    `This personal link is valid until ${linkExpires.toISOString().replace("T", " ").slice(0, 16)} UTC. Please do not forward it.`,
    "",
    `${company.name} recruitment team`,
  ];
  return { to: o.candidate.email, subject: `Your offer from ${company.name}: ${o.job_title}`, text: text.join("\n"), secrets: [token] };
}

function appointmentMail(o: OfferRow, company: Company, token: string, linkExpires: Date) {
  const url = linkUrl("appointment", token);
  const text = [
    `Dear ${o.candidate.first_name},`,
    "",
    `Thank you for accepting our offer. Your appointment letter as ${o.job_title} at ${company.name}, ` +
      `joining on ${toDateString(o.joining_date)}, is ready.`,
    "",
    "Read and download your appointment letter, and upload your joining documents (identity proof, " +
      "address proof, education and experience certificates) here:",
    `Appointment link: ${url}/page`,
    `Appointment letter (PDF): ${url}/pdf`,
    "",
    `This personal link is valid until ${linkExpires.toISOString().replace("T", " ").slice(0, 16)} UTC. Please do not forward it.`,
    "",
    `${company.name} recruitment team`,
  ];
  return { to: o.candidate.email, subject: `Your appointment letter from ${company.name}`, text: text.join("\n"), secrets: [token] };
}

export async function sendOffer(id: string) {
  await findOffer(id);
  const company = await companyOf();
  const today = await companyToday();
  await expireDueOffers(today);
  const sent = await tenantTx(async (tx) => {
    const from = await lockOffer(tx, id);
    if (!from) throw notFound("Offer");
    if (from !== "draft" && from !== "sent") checkMove("offer", OFFER_MOVES, from, "sent");
    const before = await tx.jobOffer.findFirstOrThrow({ where: { id }, include: offerInclude });
    if (toDateString(before.expires_on) < today)
      throw conflict(`The offer's last day (${toDateString(before.expires_on)}) has passed; change expires_on first`);
    const { token, hash } = newToken();
    const linkExpires = startOfDayIn(addDays(toDateString(before.expires_on), 1), company.timezone);
    const after = await tx.jobOffer.update({
      where: byId(id),
      data: { status: "sent", sent_at: clock.now(), offer_token_hash: hash, offer_token_expires_at: linkExpires },
      include: offerInclude,
    });
    await queueEmail(tx, offerMail(after, company, token, linkExpires));
    await audit(
      {
        action: from === "draft" ? "recruitment.offer_sent" : "recruitment.offer_resent",
        entity_type: "job_offer",
        entity_id: id,
        changes: { status: { from, to: "sent" }, to: after.candidate.email, link_expires_at: linkExpires.toISOString() },
      },
      tx,
    );
    return after;
  });
  return offerJson(sent);
}

export async function sendAppointment(id: string) {
  await findOffer(id);
  const company = await companyOf();
  const sent = await tenantTx(async (tx) => {
    const status = await lockOffer(tx, id);
    if (!status) throw notFound("Offer");
    if (status !== "accepted") throw conflict(`The offer is ${status}; appointment letters are sent for accepted offers only`);
    const { token, hash } = newToken();
    const linkExpires = new Date(clock.nowMs() + APPOINTMENT_LINK_DAYS * 86_400_000);
    const before = await tx.jobOffer.findFirstOrThrow({ where: { id }, select: { appointment_sent_at: true } });
    const after = await tx.jobOffer.update({
      where: byId(id),
      data: { appointment_sent_at: clock.now(), appointment_token_hash: hash, appointment_token_expires_at: linkExpires },
      include: offerInclude,
    });
    await queueEmail(tx, appointmentMail(after, company, token, linkExpires));
    await audit(
      {
        action: before.appointment_sent_at ? "recruitment.appointment_resent" : "recruitment.appointment_sent",
        entity_type: "job_offer",
        entity_id: id,
        changes: { to: after.candidate.email, link_expires_at: linkExpires.toISOString() },
      },
      tx,
    );
    return after;
  });
  return offerJson(sent);
}

/** Tells the offer's author (in-app and email) and the other recruiters (in-app) about the candidate's answer. */
export async function tellOfferTeam(tx: ScopedTx, o: OfferRow, kind: NotificationKind, title: string, body: string) {
  const author = (await userNames([o.created_by])).get(o.created_by);
  await notify(tx, { userId: o.created_by, email: author?.email, kind, title, body, link: `/api/recruitment/offers/${o.id}` });
  for (const userId of await hrMemberIds(tx, o.created_by))
    await notify(tx, { userId, kind, title, body, link: `/api/recruitment/offers/${o.id}` });
}

export const EXPIRE_OFFERS_JOB = "recruitment.expire-offers";

/**
 * The scheduled job: in every company with sent offers, expires those whose last day has passed in
 * the company's time zone. Idempotent and safe from several processes (each offer is claimed).
 */
export async function expireOffersEverywhere(now = clock.now()): Promise<number> {
  // Companies with a sent offer whose last day is over somewhere on Earth (UTC+14 is the earliest).
  const horizon = parseDate(addDays(now.toISOString().slice(0, 10), 1));
  const due = await tenantsWith("jobOffer", { status: "sent", deleted_at: null, expires_on: { lt: horizon } });
  let total = 0;
  let failed = 0;
  for (const { tenant_id } of due) {
    try {
      total += await withTenant(tenant_id, async () => expireDueOffers(todayIn((await activeTenant({ timezone: true })).timezone, now)));
    } catch (err) {
      failed++;
      logger.error({ err: (err as Error).message, tenant_id }, "expiring offers failed");
    }
  }
  if (total) logger.info({ expired: total }, "offers expired");
  if (failed) throw new Error(`expiring offers failed for ${failed} tenant(s)`);
  return total;
}
