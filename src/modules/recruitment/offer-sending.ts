// Sending an offer (draft -> sent) and, once accepted, its appointment letter: each mailed to the
// candidate with a personal link (src/modules/recruitment/public.ts answers it).
import { findOffer } from "./offers.ts";
import { audit } from "../../platform/audit.ts";
import { newToken } from "../../platform/identity/tokens.ts";
import { config } from "../../config.ts";
import { tenantTx, byId } from "../../db/tenancy.ts";
import { conflict, notFound } from "../../platform/errors.ts";
import { addDays, startOfDayIn, toDateString } from "../../lib/dates.ts";
import { queueEmail } from "../../platform/mail/outbox.ts";
import { companyOf, companyToday, EMPLOYMENT_LABELS, formatMoney, type Company } from "./common.ts";
import { lockOffer } from "./queries.ts";
import { checkMove, OFFER_MOVES } from "./states.ts";
import * as clock from "../../lib/clock.ts";
import { type OfferRow, offerInclude, APPOINTMENT_LINK_DAYS, offerJson } from "./offer-json.ts";
import { expireDueOffers } from "./offer-expiry.ts";

export function linkUrl(kind: "offers" | "appointment", token: string) {
  return `${config().publicUrl}/api/public/${kind}/${token}`;
}

export function offerMail(o: OfferRow, company: Company, token: string, linkExpires: Date) {
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

export function appointmentMail(o: OfferRow, company: Company, token: string, linkExpires: Date) {
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
      throw conflict(
        `The offer's last day (${toDateString(before.expires_on)}) has passed; change expires_on first with PUT ` +
          "/api/recruitment/offers/{id} (updateJobOffer)",
      );
    const { token, hash } = newToken();
    const linkExpires = startOfDayIn(addDays(toDateString(before.expires_on), 1), company.timezone);
    const after = await tx.jobOffer.update({
      where: byId(id),
      data: { status: "sent", sent_at: clock.now(), offer_token_hash: hash, offer_token_expires_at: linkExpires },
      include: offerInclude,
    });
    await queueEmail(tx, offerMail(after, company, token, linkExpires));
    // draft -> sent is a change of status, as the document's event promises; a resend is not
    const event = from === "draft" ? "recruitment.offer_status_changed" : undefined;
    await audit(
      {
        action: event ?? "recruitment.offer_resent",
        event,
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
    if (status !== "accepted")
      throw conflict(
        `The offer is ${status}; appointment letters are sent for accepted offers only: the candidate ` +
          `accepts through the offer link (acceptPublicOffer)`,
      );
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
