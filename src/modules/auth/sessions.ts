// Sign-in (under the sign-in limits of src/platform/identity/signin-guard.ts) and the signed-in session:
// sign-out, its view, refresh after a membership change, switching company. `req` carries the session.
import type { Request } from "express";
import { auditTenants } from "../../platform/audit.ts";
import { checkPasswordAttempt, rememberClient } from "../../platform/identity/signin-guard.ts";
import {
  buildSessionInfo,
  destroySession,
  membershipsOf,
  saveSession,
  type SessionInfoData,
  startSession,
} from "../../platform/identity/session.ts";
import { systemDb } from "../../db/client.ts";
import { notFound, unauthenticated } from "../../platform/errors.ts";

/** The signed-in user of the session (401 without one). */
function sessionUser(req: Request): string {
  const id = req.session.userId;
  if (!id) throw unauthenticated();
  return id;
}

/** Signs in; the session's previous company stays active while the user is its member, else their first company. */
export async function signInWithPassword(
  req: Request,
  credentials: { email: string; password: string },
  ip: string,
): Promise<SessionInfoData> {
  const email = credentials.email.toLowerCase();
  const user = await systemDb.user.findUnique({ where: { email } });
  await checkPasswordAttempt({
    req,
    ip,
    email,
    user,
    password: credentials.password,
    wrong: async () => {
      if (user) {
        const ms = await membershipsOf(user.id);
        await auditTenants(
          ms.map((m) => m.tenant_id),
          {
            action: "auth.sign_in_failed",
            entity_type: "user",
            entity_id: user.id,
            actor_user_id: user.id,
            actor_email: user.email,
            changes: { reason: "wrong_password" },
          },
        );
      }
      return unauthenticated("Invalid email or password");
    },
  });
  if (!user) throw unauthenticated("Invalid email or password"); // not reached: an address without an account is a wrong password
  const memberships = await membershipsOf(user.id);
  const previous = req.session?.userId === user.id ? req.session.tenantId : null;
  const active = memberships.find((m) => m.tenant_id === previous) ?? memberships[0] ?? null;
  await startSession(req, user.id, active?.tenant_id ?? null);
  await rememberClient(req, user.id);
  if (active)
    await auditTenants([active.tenant_id], {
      action: "auth.sign_in",
      entity_type: "user",
      entity_id: user.id,
      actor_user_id: user.id,
      actor_email: user.email,
    });
  return buildSessionInfo(user.id, active?.tenant_id ?? null);
}

/** Ends the session. */
export async function endSession(req: Request): Promise<void> {
  await destroySession(req);
}

/** The session's user, companies and active company. */
export async function currentSession(req: Request): Promise<SessionInfoData> {
  return buildSessionInfo(sessionUser(req), req.session.tenantId ?? null);
}

/** The session again, its active company replaced by the first one left when the user is no longer a member of it. */
export async function refreshedSession(req: Request): Promise<SessionInfoData> {
  const userId = sessionUser(req);
  const memberships = await membershipsOf(userId);
  const stillMember = memberships.some((m) => m.tenant_id === req.session.tenantId);
  if (!stillMember) {
    req.session.tenantId = memberships[0]?.tenant_id ?? null;
    await saveSession(req);
  }
  return buildSessionInfo(userId, req.session.tenantId ?? null);
}

/** Makes another company of the user's the active one (audited there). */
export async function switchActiveTenant(req: Request, tenantId: string): Promise<SessionInfoData> {
  const userId = sessionUser(req);
  const m = await systemDb.membership.findUnique({ where: { tenant_id_user_id: { tenant_id: tenantId, user_id: userId } } });
  if (!m) throw notFound("Tenant");
  // a new session id, as at sign-in: a session id seen before the switch does not carry into the
  // other company (session fixation)
  await startSession(req, userId, m.tenant_id);
  await auditTenants([m.tenant_id], { action: "auth.switch_tenant", entity_type: "user", entity_id: userId, actor_user_id: userId });
  return buildSessionInfo(userId, m.tenant_id);
}
