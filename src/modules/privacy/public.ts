// A candidate's privacy page, reached through a mailed link whose token's hash finds the company (as offer
// links do); the notice, consents and requests.
import { config } from "../../config.ts";
import { activeTenant, tenantsWith } from "../../db/central.ts";
import { db, tenantTx, withTenant } from "../../db/tenancy.ts";
import type { RequestBody } from "../../platform/use-case.ts";
import { toDateString } from "../../lib/dates.ts";
import { audit } from "../../platform/audit.ts";
import { AppError, invalidField, notFound } from "../../platform/errors.ts";
import { hashToken, newToken } from "../../platform/identity/tokens.ts";
import { queueEmail } from "../../platform/mail/outbox.ts";
import * as clock from "../../lib/clock.ts";
import { candidateForPrivacy, type ConsentPurpose, consentsOf, setCandidateConsent } from "../recruitment/index.ts";
import { acknowledge, acknowledgementOf, currentNotice } from "./notices.ts";
import { openRequest } from "./requests.ts";

const LINK_DAYS = 30;
const gone = (message: string) => new AppError("invalid_token", message, undefined, undefined, { gone: true });

/** Mails the candidate a new privacy link (valid LINK_DAYS days). */
export async function sendCandidateLink(candidateId: string): Promise<void> {
  const c = await candidateForPrivacy(candidateId);
  if (!c || c.deleted_at) throw notFound("Candidate");
  if (c.erased) throw invalidField("candidateId", "the candidate's data was erased");
  const company = await activeTenant({ name: true, legal_name: true });
  const { token, hash } = newToken();
  const expires = new Date(clock.nowMs() + LINK_DAYS * 86_400_000);
  const url = `${config().publicUrl}/api/public/privacy/${token}`;
  await tenantTx(async (tx) => {
    await tx.privacyLink.create({ data: { candidate_id: candidateId, token_hash: hash, expires_at: expires } });
    await queueEmail(tx, {
      to: c.email,
      subject: `Your personal data at ${company.legal_name || company.name}`,
      text: [
        `Dear ${c.first_name},`,
        "",
        "Through this link you can read how we handle your personal data, give or withdraw your consent to the AI screening",
        "of your CV, and ask for access to, correction or erasure of your data:",
        url,
        `The link works until ${toDateString(expires)}.`,
      ].join("\n"),
      secrets: [token],
    });
    await audit(
      {
        action: "candidate.privacy_link_sent",
        entity_type: "candidate",
        entity_id: candidateId,
        changes: { expires_at: expires.toISOString() },
      },
      tx,
    );
  });
}

async function inTenantOf<T>(token: string, fn: (candidateId: string, expires: Date) => Promise<T>): Promise<T> {
  const [ref] = await tenantsWith("privacyLink", { token_hash: hashToken(token) });
  if (!ref) throw notFound("Privacy link");
  return withTenant(ref.tenant_id, async () => {
    const link = (await db.privacyLink.findFirst({ where: { id: ref.id } }))!;
    if (link.expires_at.getTime() <= clock.nowMs()) throw gone("This privacy link has expired; ask the company for a new one");
    const c = await candidateForPrivacy(link.candidate_id);
    if (!c || c.erased) throw gone("The data this link was for has been erased");
    return fn(link.candidate_id, link.expires_at);
  });
}

async function page(candidateId: string, expires: Date) {
  const [c, { json }, company, consents, requests] = await Promise.all([
    candidateForPrivacy(candidateId),
    currentNotice(),
    activeTenant({ name: true, legal_name: true }),
    consentsOf(candidateId),
    db.privacyRequest.findMany({ where: { candidate_id: candidateId }, orderBy: { created_at: "desc" } }),
  ]);
  const acked = await acknowledgementOf({ candidate_id: candidateId }, json.version);
  return {
    company_name: company.legal_name || company.name,
    candidate_name: c!.name,
    notice: json,
    acknowledged: acked !== null,
    consents,
    requests: requests.map((r) => ({
      request_number: r.request_number,
      type: r.type as "access",
      status: r.status as "received",
      received_on: toDateString(r.received_on),
      due_at: toDateString(r.due_at),
      resolution: r.resolution,
    })),
    link_expires_at: expires.toISOString(),
  };
}

export const publicPrivacyPage = (token: string) => inTenantOf(token, page);

export function candidateRequest(token: string, input: RequestBody<"createPublicPrivacyRequest">) {
  return inTenantOf(token, async (candidateId, expires) => {
    if (input.type === "nomination" && !input.nominee) throw invalidField("body.nominee", "is required for a nomination");
    if (input.type !== "nomination" && input.nominee) throw invalidField("body.nominee", "is only for a nomination");
    await openRequest({ candidate_id: candidateId }, "candidate_link", null, input);
    return page(candidateId, expires);
  });
}

export function candidateAcknowledges(token: string, version: number) {
  return inTenantOf(token, async (candidateId, expires) => {
    await acknowledge({ candidate_id: candidateId }, version, "candidate_page");
    return page(candidateId, expires);
  });
}

export function candidateConsent(token: string, purpose: ConsentPurpose, granted: boolean) {
  return inTenantOf(token, async (candidateId, expires) => {
    const { json } = await currentNotice();
    await setCandidateConsent(candidateId, purpose, granted, json.version);
    return page(candidateId, expires);
  });
}
