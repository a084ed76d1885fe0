// Accounts: the password reset by mailed single-use token (handled after the response by the job
// auth.password-reset-requests, so every address takes the same time), and joining by invitation
// (docs/security.md, "Password reset", "Invitations"). Signup: signup.ts.
import { acknowledgeOnJoining, assertCurrentNotice } from "../privacy/index.ts";
import { recordEvent } from "../../platform/events/events.ts";
import type { Request } from "express";
import { auditTenants } from "../../platform/audit.ts";
import { clearAccountPauses, resetMailLimiter, resetRequestLimiter } from "../../platform/identity/limiter.ts";
import { assertStrongPassword, hashPassword } from "../../platform/identity/passwords.ts";
import { checkPasswordAttempt, forgetClients, rememberClient } from "../../platform/identity/signin-guard.ts";
import { buildSessionInfo, endUserSessions, membershipsOf, type SessionInfoData, startSession } from "../../platform/identity/session.ts";
import { hashToken, newToken } from "../../platform/identity/tokens.ts";
import { appUrl } from "../../config.ts";
import { systemDb } from "../../db/client.ts";
import { badRequest, conflict, invalidToken, unauthenticated } from "../../platform/errors.ts";
import { jobs } from "../../platform/jobs/queue.ts";
import type { RequestBody } from "../../platform/use-case.ts";
import { queueEmail } from "../../platform/mail/outbox.ts";
import * as clock from "../../lib/clock.ts";
import { mayInvite } from "../shared/access.ts";

export const PASSWORD_RESET_REQUESTS_JOB = "auth.password-reset-requests";
const RESET_TTL_MS = 3600 * 1000;
const INVALID_RESET = "The reset link is invalid, already used or expired; request a new one";

/** Records a reset request: the same work whether the address has an account or not (always 200); the job mails it. */
export async function requestPasswordReset(email: string, ip: string): Promise<void> {
  await resetRequestLimiter.attemptOrRefuse(ip);
  await systemDb.passwordResetRequest.create({ data: { email: email.toLowerCase() } });
  jobs.kick(PASSWORD_RESET_REQUESTS_JOB);
}

/** The job: handles every recorded reset request (at most `limit` per run; the sweep does the rest). */
export async function mailPasswordResets(limit = 200): Promise<number> {
  let mailed = 0;
  for (let i = 0; i < limit; i++) {
    const next = await systemDb.passwordResetRequest.findFirst({ orderBy: { created_at: "asc" }, select: { id: true } });
    if (!next) break;
    if (await mailPasswordReset(next.id)) mailed++;
  }
  return mailed;
}

/** One request, claimed by deleting it: a reset link (valid one hour) when an account has the address. */
async function mailPasswordReset(id: string): Promise<boolean> {
  return systemDb.$transaction(async (tx) => {
    const request = await tx.passwordResetRequest.findUnique({ where: { id } });
    const claimed = await tx.passwordResetRequest.deleteMany({ where: { id } });
    if (!request || claimed.count !== 1) return false;
    const user = await tx.user.findUnique({ where: { email: request.email } });
    if (!user) return false;
    // at most RESET_MAILS_PER_ADDRESS links per address within the window, whoever asks and from
    // wherever: a refused request mails nothing, and the links mailed within the window stay valid
    // (one hour, longer than the window), so the owner still holds one that works
    if (await resetMailLimiter.attempt(request.email)) return false;
    const { token, hash } = newToken();
    await tx.passwordResetToken.create({
      data: { user_id: user.id, token_hash: hash, expires_at: new Date(clock.nowMs() + RESET_TTL_MS) },
    });
    const link = `${appUrl()}/reset-password?token=${encodeURIComponent(token)}`;
    await queueEmail(tx, {
      to: user.email,
      subject: "Reset your HRMS password",
      text:
        `Hello ${user.name},\n\nSomeone (hopefully you) asked to reset your password. ` +
        `Open this link within one hour to choose a new one:\n\n${link}\n\nReset token: ${token}\n\nIf ` +
        `you did not ask for this, ignore this email; your password stays unchanged.\n`,
      secrets: [token],
    });
    return true;
  });
}

/**
 * Sets a new password with a valid reset token (used once; every other open token of the user too);
 * ends the user's sessions, lifts every sign-in pause of the account and forgets its known
 * clients but this browser, which the mailed link has just proven (docs/security.md).
 */
export async function resetPasswordWithToken(req: Request, token: string, password: string): Promise<void> {
  const hash = hashToken(token);
  const found = await systemDb.passwordResetToken.findUnique({ where: { token_hash: hash }, include: { user: true } });
  if (!found || found.used_at || found.expires_at <= clock.now()) throw invalidToken(INVALID_RESET);
  await assertStrongPassword(password, found.user);
  const passwordHash = await hashPassword(password);
  const userId = await systemDb.$transaction(async (tx) => {
    // Consume the token atomically: only one request can ever use it.
    const used = await tx.passwordResetToken.updateMany({
      where: { token_hash: hash, used_at: null, expires_at: { gt: clock.now() } },
      data: { used_at: clock.now() },
    });
    if (used.count !== 1) throw invalidToken(INVALID_RESET);
    const row = await tx.passwordResetToken.findUniqueOrThrow({ where: { token_hash: hash } });
    await tx.user.update({ where: { id: row.user_id }, data: { password_hash: passwordHash } });
    await tx.passwordResetToken.updateMany({ where: { user_id: row.user_id, used_at: null }, data: { used_at: clock.now() } });
    await endUserSessions(row.user_id, undefined, tx);
    return row.user_id;
  });
  await clearAccountPauses(found.user.email);
  await forgetClients(userId);
  await rememberClient(req, userId);
  const ms = await membershipsOf(userId);
  await auditTenants(
    ms.map((m) => m.tenant_id),
    { action: "auth.password_reset", entity_type: "user", entity_id: userId, actor_user_id: userId },
  );
}

/** Accepts an invitation (once, before it expires or is revoked): joins with the invited role and signs in. */
// size: one transaction read top to bottom: the checks under its row locks, the write, the audit and the notices, in order
export async function joinByInvitation(req: Request, input: RequestBody<"acceptInvite">, ip: string): Promise<SessionInfoData> {
  // unique per tenant; the hash alone finds the tenant (a random 256-bit token: docs/scaling.md)
  const invitation = await systemDb.invitation.findFirst({ where: { token_hash: hashToken(input.token) } });
  if (!invitation || invitation.accepted_at || invitation.revoked_at || invitation.expires_at <= clock.now())
    throw invalidToken("The invitation is invalid, already used or expired; ask for a new one");
  // only as good as its inviter's right to send it (docs/security.md): still a member, with a role that may
  // invite to this one (a role change or removal also revokes it; this catches any other way out)
  if (invitation.invited_by) {
    const inviter = await systemDb.membership.findUnique({
      where: { tenant_id_user_id: { tenant_id: invitation.tenant_id, user_id: invitation.invited_by } },
      select: { role: true },
    });
    if (!inviter || !mayInvite(inviter.role, invitation.role))
      throw invalidToken("The invitation is no longer valid: whoever sent it can no longer invite; ask the company for a new one");
  }
  const email = invitation.email.toLowerCase();
  const user = await systemDb.user.findUnique({ where: { email } });
  if (user) {
    const sameSession = req.session?.userId === user.id;
    if (!sameSession)
      await checkPasswordAttempt({
        req,
        ip,
        email,
        user,
        password: input.password,
        wrong: () => unauthenticated("This email already has an account: give its current password to accept"),
      });
  } else {
    const details = [];
    if (!input.name) details.push({ path: "body.name", message: "is required for a new account" });
    if (!input.password) details.push({ path: "body.password", message: "is required for a new account" });
    if (details.length) throw badRequest("Name and password are required to create the account", details);
    await assertStrongPassword(input.password!, { email, name: input.name });
  }
  if (input.privacy_notice_version !== undefined) await assertCurrentNotice(invitation.tenant_id, input.privacy_notice_version);
  const passwordHash = user ? null : await hashPassword(input.password!);
  const userId = await systemDb.$transaction(async (tx) => {
    const claimed = await tx.invitation.updateMany({
      where: { tenant_id: invitation.tenant_id, id: invitation.id, accepted_at: null, revoked_at: null },
      data: { accepted_at: clock.now() },
    });
    if (claimed.count !== 1) throw invalidToken("The invitation has already been used");
    const u = user ?? (await tx.user.create({ data: { email, name: input.name!.trim(), password_hash: passwordHash! } }));
    const existing = await tx.membership.findUnique({ where: { tenant_id_user_id: { tenant_id: invitation.tenant_id, user_id: u.id } } });
    if (existing) throw conflict("You are already a member of this company");
    let employeeId = invitation.employee_id;
    if (employeeId) {
      const taken = await tx.membership.findFirst({ where: { tenant_id: invitation.tenant_id, employee_id: employeeId } });
      if (taken) employeeId = null;
    }
    await tx.membership.create({
      data: { tenant_id: invitation.tenant_id, user_id: u.id, role: invitation.role, employee_id: employeeId },
    });
    await tx.auditLog.create({
      data: {
        tenant_id: invitation.tenant_id,
        actor_user_id: u.id,
        actor_email: email,
        action: "member.joined",
        entity_type: "user",
        entity_id: u.id,
        changes: { role: invitation.role, employee_id: employeeId },
      },
    });
    // the employee record's activity log shows who became its member, as a link change by HR does
    // (members.ts: employee.member_linked)
    if (employeeId)
      await tx.auditLog.create({
        data: {
          tenant_id: invitation.tenant_id,
          actor_user_id: u.id,
          actor_email: email,
          action: "employee.member_linked",
          entity_type: "employee",
          entity_id: employeeId,
          changes: { member: { user_id: u.id, email, name: u.name }, invitation_id: invitation.id },
        },
      });
    // an event too (docs/integrations.md), in this transaction, as audit() writes one
    await recordEvent(tx, {
      tenant_id: invitation.tenant_id,
      type: "member.joined",
      entity_type: "user",
      entity_id: u.id,
      changes: { role: invitation.role, employee_id: employeeId },
    });
    return u.id;
  });
  if (input.privacy_notice_version !== undefined)
    await acknowledgeOnJoining(invitation.tenant_id, userId, input.privacy_notice_version, "invitation");
  await startSession(req, userId, invitation.tenant_id);
  await rememberClient(req, userId);
  return buildSessionInfo(userId, invitation.tenant_id);
}

/** What the invitation page shows before the form: the company, the role and whether the address has an account; null when unusable. */
export async function invitationForPage(token: string) {
  const invitation = await systemDb.invitation.findFirst({ where: { token_hash: hashToken(token) } });
  if (!invitation || invitation.accepted_at || invitation.revoked_at || invitation.expires_at <= clock.now()) return null;
  const tenant = await systemDb.tenant.findUnique({ where: { id: invitation.tenant_id }, select: { name: true } });
  const user = await systemDb.user.findUnique({ where: { email: invitation.email.toLowerCase() }, select: { id: true } });
  return { company: tenant?.name ?? "the company", role: invitation.role, email: invitation.email, hasAccount: Boolean(user) };
}
