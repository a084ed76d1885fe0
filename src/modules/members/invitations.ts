// Invitations: a single-use token by e-mail (valid 7 days), replacing any open invitation of the
// same address; mailed through the outbox in the same transaction.
import { audit } from "../../platform/audit.ts";
import { newToken } from "../../platform/identity/tokens.ts";
import { config } from "../../config.ts";
import { activeTenant, userByEmail } from "../../db/central.ts";
import { db, tenantTx } from "../../db/tenancy.ts";
import { conflict } from "../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../http/types.ts";
import { queueEmail } from "../../platform/mail/outbox.ts";
import { invitationJson } from "./json.ts";
import { assertEmployeeExists, assertOwnerRules } from "./members.ts";
import * as clock from "../../lib/clock.ts";

const INVITE_TTL_MS = 7 * 24 * 3600 * 1000;

export async function sendInvitation(auth: AuthContext, input: RequestBody<"inviteMember">) {
  assertOwnerRules(auth, null, input.role);
  const email = input.email.toLowerCase();
  if (input.employee_id) await assertEmployeeExists(input.employee_id);
  const existingUser = await userByEmail(email);
  if (existingUser && (await db.membership.findFirst({ where: { user_id: existingUser.id } })))
    throw conflict("This person is already a member");
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
    const link = `${config().publicUrl}/accept-invite?token=${encodeURIComponent(token)}`;
    await queueEmail(tx, {
      to: email,
      subject: `${auth.name} invited you to ${company.name} on HRMS`,
      text:
        `Hello,\n\n${auth.name} invited you to join ${company.name} as ${input.role}.\nAccept ` +
        `within 7 days:\n\n${link}\n\nInvitation token: ${token}\n`,
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
