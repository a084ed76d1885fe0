// The privacy notice at a company's doors: the built-in notice (version 0) at signup, the company's current
// one at an invitation (`privacy_notice_version`), checked before the account is created and recorded once
// the member has joined.
import { tenantsWith } from "../../db/central.ts";
import { withTenant } from "../../db/tenancy.ts";
import * as clock from "../../lib/clock.ts";
import { hashToken } from "../../platform/identity/tokens.ts";
import { invalidField, notFound } from "../../platform/errors.ts";
import { tenantOfOfferLink } from "../recruitment/index.ts";
import { acknowledge, builtInNotice, currentNotice } from "./notices.ts";

const FIELD = "body.privacy_notice_version";

/** 400 unless `version` is the current notice of the company (`null`: a company about to be created: 0). */
export async function assertCurrentNotice(tenantId: string | null, version: number): Promise<void> {
  const current = tenantId ? await withTenant(tenantId, async () => (await currentNotice()).json.version) : 0;
  if (version !== current) throw invalidField(FIELD, `must be the version of the privacy notice shown (the current one is ${current})`);
}

export async function acknowledgeOnJoining(tenantId: string, userId: string, version: number, context: "signup" | "invitation") {
  await withTenant(tenantId, () => acknowledge({ user_id: userId }, version, context));
}

/** The notice to show before joining: the invited (or offering) company's current one, or a new company's built-in one. */
export async function noticeBeforeJoining(tokens: { invitation_token?: string; offer_token?: string }) {
  const { invitation_token: invitationToken, offer_token: offerToken } = tokens;
  if (invitationToken && offerToken) throw invalidField("query.offer_token", "give either invitation_token or offer_token, not both");
  if (offerToken) {
    const tenantId = await tenantOfOfferLink(offerToken);
    if (!tenantId) throw notFound("Offer");
    return withTenant(tenantId, async () => (await currentNotice()).json);
  }
  if (!invitationToken) return builtInNotice();
  const [ref] = await tenantsWith("invitation", {
    token_hash: hashToken(invitationToken),
    accepted_at: null,
    revoked_at: null,
    expires_at: { gt: clock.now() },
  });
  if (!ref) throw notFound("Invitation");
  return withTenant(ref.tenant_id, async () => (await currentNotice()).json);
}
