// Identity: sign-in/out, signup, sessions, tenant switching, password reset, invitations.
import { auditTenants } from "../../audit.ts";
import { accountLimiter, ipLimiter, resetRequestLimiter } from "../../auth/limiter.ts";
import { DUMMY_HASH, hashPassword, verifyPassword } from "../../auth/passwords.ts";
import { buildSessionInfo, destroySession, endUserSessions, membershipsOf, saveSession, SESSION_COOKIE, startSession } from "../../auth/session.ts";
import { hashToken, newToken } from "../../auth/tokens.ts";
import { config } from "../../config.ts";
import { systemDb } from "../../db/client.ts";
import { ack, created, ok } from "../../http/envelope.ts";
import { badRequest, conflict, invalidToken, notFound, rateLimited, unauthenticated } from "../../http/errors.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { queueEmail } from "../../mail/outbox.ts";

const RESET_TTL_MS = 3600 * 1000;

function sessionUser(req: { session: { userId?: string } }): string {
  const id = req.session.userId;
  if (!id) throw unauthenticated();
  return id;
}

export const handlers = {
  async signIn({ body, req, ip }) {
    const email = body.email.toLowerCase();
    const wait = Math.max(await ipLimiter.retryAfter(ip), await accountLimiter.retryAfter(email));
    if (wait > 0) throw rateLimited(wait);
    const user = await systemDb.user.findUnique({ where: { email } });
    const valid = await verifyPassword(body.password, user?.password_hash ?? DUMMY_HASH);
    if (!user || !valid) {
      await Promise.all([ipLimiter.fail(ip), accountLimiter.fail(email)]);
      if (user) {
        const ms = await membershipsOf(user.id);
        await auditTenants(
          ms.map((m) => m.tenant_id),
          { action: "auth.sign_in_failed", entity_type: "user", entity_id: user.id, actor_user_id: user.id, actor_email: user.email, changes: { reason: "wrong_password" } },
        );
      }
      throw unauthenticated("Invalid email or password");
    }
    await accountLimiter.clear(email);
    const memberships = await membershipsOf(user.id);
    const previous = req.session?.userId === user.id ? req.session.tenantId : null;
    const active = memberships.find((m) => m.tenant_id === previous) ?? memberships[0] ?? null;
    await startSession(req, user.id, active?.tenant_id ?? null);
    if (active) await auditTenants([active.tenant_id], { action: "auth.sign_in", entity_type: "user", entity_id: user.id, actor_user_id: user.id, actor_email: user.email });
    return ok(await buildSessionInfo(user.id, active?.tenant_id ?? null), "Signed in");
  },

  async signOut({ req, res }) {
    await destroySession(req);
    res.clearCookie(SESSION_COOKIE, { path: "/" });
    return ack("Signed out");
  },

  async getSession({ req }) {
    return ok(await buildSessionInfo(sessionUser(req), req.session.tenantId ?? null));
  },

  async refreshSession({ req }) {
    const userId = sessionUser(req);
    const memberships = await membershipsOf(userId);
    const stillMember = memberships.some((m) => m.tenant_id === req.session.tenantId);
    if (!stillMember) {
      req.session.tenantId = memberships[0]?.tenant_id ?? null;
      await saveSession(req);
    }
    return ok(await buildSessionInfo(userId, req.session.tenantId ?? null), "Session refreshed");
  },

  async switchTenant({ body, req }) {
    const userId = sessionUser(req);
    const m = await systemDb.membership.findUnique({ where: { tenant_id_user_id: { tenant_id: body.tenantId, user_id: userId } } });
    if (!m) throw notFound("Tenant");
    req.session.tenantId = m.tenant_id;
    await saveSession(req);
    await auditTenants([m.tenant_id], { action: "auth.switch_tenant", entity_type: "user", entity_id: userId, actor_user_id: userId });
    return ok(await buildSessionInfo(userId, m.tenant_id), "Switched tenant");
  },

  async signup({ body, req }) {
    const email = body.email.toLowerCase();
    if (await systemDb.user.findUnique({ where: { email } })) throw conflict("An account with this email already exists; sign in instead");
    const passwordHash = await hashPassword(body.password);
    const { user, tenant } = await systemDb.$transaction(async (tx) => {
      const user = await tx.user.create({ data: { email, name: body.name.trim(), password_hash: passwordHash } });
      const tenant = await tx.tenant.create({ data: { name: (body.company_name ?? `${body.name.trim()}'s company`).trim() } });
      await tx.membership.create({ data: { tenant_id: tenant.id, user_id: user.id, role: "owner" } });
      await tx.auditLog.create({ data: { tenant_id: tenant.id, actor_user_id: user.id, actor_email: email, action: "tenant.created", entity_type: "tenant", entity_id: tenant.id } });
      return { user, tenant };
    });
    await startSession(req, user.id, tenant.id);
    return created(await buildSessionInfo(user.id, tenant.id), "Account created");
  },

  async forgotPassword({ body, ip }) {
    const wait = await resetRequestLimiter.retryAfter(ip);
    if (wait > 0) throw rateLimited(wait);
    await resetRequestLimiter.fail(ip);
    const user = await systemDb.user.findUnique({ where: { email: body.email.toLowerCase() } });
    if (user) {
      const { token, hash } = newToken();
      await systemDb.$transaction(async (tx) => {
        await tx.passwordResetToken.create({ data: { user_id: user.id, token_hash: hash, expires_at: new Date(Date.now() + RESET_TTL_MS) } });
        const link = `${config().publicUrl}/reset-password?token=${encodeURIComponent(token)}`;
        await queueEmail(tx, {
          to: user.email,
          subject: "Reset your HRMS password",
          text: `Hello ${user.name},\n\nSomeone (hopefully you) asked to reset your password. Open this link within one hour to choose a new one:\n\n${link}\n\nReset token: ${token}\n\nIf you did not ask for this, ignore this email; your password stays unchanged.\n`,
        });
      });
    }
    return ack("If an account exists for this email, a reset link has been sent");
  },

  async resetPassword({ body }) {
    const hash = hashToken(body.token);
    const passwordHash = await hashPassword(body.password);
    const userId = await systemDb.$transaction(async (tx) => {
      // Consume the token atomically: only one request can ever use it.
      const used = await tx.passwordResetToken.updateMany({ where: { token_hash: hash, used_at: null, expires_at: { gt: new Date() } }, data: { used_at: new Date() } });
      if (used.count !== 1) throw invalidToken("The reset link is invalid, already used or expired; request a new one");
      const row = await tx.passwordResetToken.findUniqueOrThrow({ where: { token_hash: hash } });
      await tx.user.update({ where: { id: row.user_id }, data: { password_hash: passwordHash } });
      await tx.passwordResetToken.updateMany({ where: { user_id: row.user_id, used_at: null }, data: { used_at: new Date() } });
      await endUserSessions(row.user_id, undefined, tx);
      return row.user_id;
    });
    const ms = await membershipsOf(userId);
    await auditTenants(ms.map((m) => m.tenant_id), { action: "auth.password_reset", entity_type: "user", entity_id: userId, actor_user_id: userId });
    return ack("Password changed; sign in with the new password");
  },

  async acceptInvite({ body, req, ip }) {
    const invitation = await systemDb.invitation.findUnique({ where: { token_hash: hashToken(body.token) } });
    if (!invitation || invitation.accepted_at || invitation.revoked_at || invitation.expires_at <= new Date()) throw invalidToken("The invitation is invalid, already used or expired; ask for a new one");
    const email = invitation.email.toLowerCase();
    let user = await systemDb.user.findUnique({ where: { email } });
    if (user) {
      const sameSession = req.session?.userId === user.id;
      if (!sameSession) {
        const wait = Math.max(await ipLimiter.retryAfter(ip), await accountLimiter.retryAfter(email));
        if (wait > 0) throw rateLimited(wait);
        if (!body.password || !(await verifyPassword(body.password, user.password_hash))) {
          await Promise.all([ipLimiter.fail(ip), accountLimiter.fail(email)]);
          throw unauthenticated("This email already has an account: give its current password to accept");
        }
      }
    } else {
      const details = [];
      if (!body.name) details.push({ path: "body.name", message: "is required for a new account" });
      if (!body.password) details.push({ path: "body.password", message: "is required for a new account" });
      if (details.length) throw badRequest("Name and password are required to create the account", details);
    }
    const passwordHash = user ? null : await hashPassword(body.password!);
    const userId = await systemDb.$transaction(async (tx) => {
      const claimed = await tx.invitation.updateMany({ where: { tenant_id: invitation.tenant_id, id: invitation.id, accepted_at: null, revoked_at: null }, data: { accepted_at: new Date() } });
      if (claimed.count !== 1) throw invalidToken("The invitation has already been used");
      const u = user ?? (await tx.user.create({ data: { email, name: body.name!.trim(), password_hash: passwordHash! } }));
      const existing = await tx.membership.findUnique({ where: { tenant_id_user_id: { tenant_id: invitation.tenant_id, user_id: u.id } } });
      if (existing) throw conflict("You are already a member of this company");
      let employeeId = invitation.employee_id;
      if (employeeId) {
        const taken = await tx.membership.findFirst({ where: { tenant_id: invitation.tenant_id, employee_id: employeeId } });
        if (taken) employeeId = null;
      }
      await tx.membership.create({ data: { tenant_id: invitation.tenant_id, user_id: u.id, role: invitation.role, employee_id: employeeId } });
      await tx.auditLog.create({
        data: { tenant_id: invitation.tenant_id, actor_user_id: u.id, actor_email: email, action: "member.joined", entity_type: "user", entity_id: u.id, changes: { role: invitation.role, employee_id: employeeId } },
      });
      return u.id;
    });
    user ??= await systemDb.user.findUniqueOrThrow({ where: { id: userId } });
    await startSession(req, userId, invitation.tenant_id);
    return ok(await buildSessionInfo(userId, invitation.tenant_id), "Invitation accepted");
  },
} satisfies AreaHandlers<"auth">;
