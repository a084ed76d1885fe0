// Invitations: a single-use token by e-mail (valid 7 days), replacing any open one of the address, mailed
// through the outbox in the same transaction. Mail to any address a member types, hence the limits and the
// plain, bounded wording (docs/security.md, "Invitations"); an invitation is only as good as its inviter's
// current right to send it.
import { audit } from "../../platform/audit.ts";
import { newToken } from "../../platform/identity/tokens.ts";
import { appUrl, config } from "../../config.ts";
import { activeTenant, userByEmail } from "../../db/central.ts";
import { db, tenantTx } from "../../db/tenancy.ts";
import { conflict } from "../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { DAY_S, HOUR_S, useOrRefuse, type WindowLimit } from "../../platform/limits.ts";
import { queueEmail } from "../../platform/mail/outbox.ts";
import { invitationJson } from "./json.ts";
import { assertEmployeeExists, assertOwnerRules } from "./members.ts";
import * as clock from "../../lib/clock.ts";

const INVITE_TTL_MS = 7 * 24 * 3600 * 1000;
/** A company this young, without an active or trialing subscription, is new: it gets the lower daily limit. */
const NEW_COMPANY_MS = 7 * DAY_S * 1000;
const PAYING = ["active", "trialing"];

/** Text a member wrote, as a mail shows it: on one line, at most `max` characters, quoted. */
function quoted(text: string, max = 80): string {
  const line = text
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]+/gu, " ")
    .replace(/\s+/g, " ")
    .trim();
  return `"${line.length > max ? `${line.slice(0, max - 1)}…` : line}"`;
}

/** The invitation limits of a send by `auth` to `email` (budgets of the window store; see config). */
async function invitationLimits(auth: AuthContext, email: string): Promise<WindowLimit[]> {
  const cfg = config();
  const company = await activeTenant({ created_at: true, subscription_status: true });
  const isNew = clock.nowMs() - company.created_at.getTime() < NEW_COMPANY_MS && !PAYING.includes(company.subscription_status ?? "");
  const what = "Invitation";
  return [
    {
      key: `invite:tenant:${auth.tenantId}`,
      policy: "invite-tenant",
      max: isNew ? cfg.invitesPerNewTenantPerDay : cfg.invitesPerTenantPerDay,
      windowSeconds: DAY_S,
      what,
      per: isNew ? "per new company per day" : "per company per day",
    },
    {
      key: `invite:user:${auth.userId}`,
      policy: "invite-user",
      max: cfg.invitesPerUserPerHour,
      windowSeconds: HOUR_S,
      what,
      per: "per member per hour",
    },
    {
      key: `invite:address:${auth.tenantId}:${email}`,
      policy: "invite-address",
      max: cfg.invitesPerAddressPerDay,
      windowSeconds: DAY_S,
      what,
      per: "to one address per company per day",
    },
    {
      key: `invite:recipient:${email}`,
      policy: "invite-recipient",
      max: cfg.invitesPerRecipientPerDay,
      windowSeconds: DAY_S,
      what,
      per: "to one address per day",
    },
  ];
}

export async function sendInvitation(auth: AuthContext, input: RequestBody<"inviteMember">) {
  assertOwnerRules(auth, null, input.role);
  const email = input.email.toLowerCase();
  if (input.employee_id) await assertEmployeeExists(input.employee_id);
  const existingUser = await userByEmail(email);
  if (existingUser && (await db.membership.findFirst({ where: { user_id: existingUser.id } })))
    throw conflict("This person is already a member");
  await useOrRefuse(await invitationLimits(auth, email));
  const { token, hash } = newToken();
  const company = await activeTenant({ name: true });
  const invitation = await tenantTx(async (tx) => {
    await tx.invitation.updateMany({ where: { email, accepted_at: null, revoked_at: null }, data: { revoked_at: clock.now() } });
    const inv = await tx.invitation.create({
      data: {
        email,
        role: input.role,
        employee_id: input.employee_id ?? null,
        token_hash: hash,
        invited_by: auth.userId,
        expires_at: new Date(clock.nowMs() + INVITE_TTL_MS),
      },
    });
    const link = `${appUrl()}/accept-invite?token=${encodeURIComponent(token)}`;
    // nothing a member wrote goes into the subject; in the body it is bounded and marked as theirs
    await queueEmail(tx, {
      to: email,
      subject: "You are invited to join a company on HRMS",
      text:
        `Hello,\n\nYou are invited to join a company on HRMS as ${input.role}.\n\n` +
        `Company, as its administrators named it: ${quoted(company.name)}\n` +
        `Invited by, as they gave their name: ${quoted(auth.name)}\n\n` +
        `Accept within 7 days:\n\n${link}\n\nInvitation token: ${token}\n\n` +
        `If you do not know this company, ignore this email: nothing happens unless you accept.\n`,
      secrets: [token],
    });
    await audit(
      {
        action: "member.invited",
        entity_type: "invitation",
        entity_id: inv.id,
        changes: { email, role: input.role, employee_id: input.employee_id ?? null },
      },
      tx,
    );
    return inv;
  });
  return invitationJson(invitation);
}
