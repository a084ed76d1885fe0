// Offers: drafted for a candidate after interviews, mailed with a personal link (draft → sent),
// accepted or declined by the candidate through that link, expired once `expires_on` has passed,
// or withdrawn. An accepted offer gets an appointment letter with a link for joining documents.
import type { Prisma } from "../../../generated/prisma/client.ts";
import { audit, diff } from "../../platform/audit.ts";
import { db, tenantTx, type ScopedTx, byId } from "../../db/tenancy.ts";
import { pageOf, type PageQuery } from "../../platform/use-case.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { parseDate, toDateString } from "../../lib/dates.ts";
import { nextNumber } from "../../platform/sequences.ts";
import { queueEmail } from "../../platform/mail/outbox.ts";
import { type NotificationKind, notify } from "../../platform/notify.ts";
import { moveCandidateStage, referencedCandidate } from "./candidates.ts";
import { checkAmount, companyOf, companyToday, trimOrNull, userNames } from "./common.ts";
import { offerLetterPdf } from "./letters.ts";
import { lockCandidate, lockOffer } from "./queries.ts";
import { checkMove, OFFER_MOVES, type OfferStatus } from "./states.ts";
import { hrMemberIds } from "../shared/access.ts";
import * as clock from "../../lib/clock.ts";
import { type OfferRow, offerInclude, offerJson } from "./offer-json.ts";
import { expireDueOffers } from "./offer-expiry.ts";

type CreateInput = RequestBody<"createJobOffer">;
type UpdateInput = RequestBody<"updateJobOffer">;
export async function findOffer(id: string): Promise<OfferRow> {
  const o = await db.jobOffer.findFirst({ where: { id, deleted_at: null, candidate: { deleted_at: null } }, include: offerInclude });
  if (!o) throw notFound("Offer");
  return o;
}

export async function offerPage(query: PageQuery & { status?: OfferStatus; candidate_id?: string; search?: string }) {
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

export async function offerById(id: string) {
  await expireDueOffers(await companyToday());
  return offerJson(await findOffer(id));
}

/** Any offer's letter as a PDF for HR: what the candidate's link serves, dated today, without the link's rules. */
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

export async function draftOffer(auth: AuthContext, body: CreateInput) {
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
    if (live)
      throw conflict(
        `The candidate already has offer ${live.offer_number} (${live.status}); withdraw it first with PUT ` +
          "/api/recruitment/offers/{id} and status withdrawn (updateJobOffer)",
      );
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

export async function changeOffer(id: string, body: UpdateInput) {
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
    const event = moving ? "recruitment.offer_status_changed" : undefined;
    const action = event ?? "recruitment.offer_updated";
    if (Object.keys(changes).length) await audit({ action, event, entity_type: "job_offer", entity_id: id, changes }, tx);
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

export async function removeOffer(id: string) {
  const o = await findOffer(id);
  await tenantTx(async (tx) => {
    const status = await lockOffer(tx, id);
    if (!status) throw notFound("Offer");
    if (status === "sent" || status === "accepted")
      throw conflict(
        `The offer is ${status}; withdraw it first with PUT /api/recruitment/offers/{id} and status withdrawn (updateJobOffer)`,
      );
    await tx.jobOffer.update({ where: byId(id), data: { deleted_at: clock.now() } });
    await audit(
      { action: "recruitment.offer_deleted", entity_type: "job_offer", entity_id: id, changes: { offer_number: o.offer_number, status } },
      tx,
    );
  });
}

export async function tellOfferTeam(tx: ScopedTx, o: OfferRow, kind: NotificationKind, title: string, body: string) {
  const author = (await userNames([o.created_by])).get(o.created_by);
  await notify(tx, { userId: o.created_by, email: author?.email, kind, title, body, link: `/api/recruitment/offers/${o.id}` });
  for (const userId of await hrMemberIds(tx, o.created_by))
    await notify(tx, { userId, kind, title, body, link: `/api/recruitment/offers/${o.id}` });
}
