// Members of the tenant: invitations (single-use token by email), role changes, removal.
import { audit } from "../../audit.ts";
import { newToken } from "../../auth/tokens.ts";
import { config } from "../../config.ts";
import { systemDb } from "../../db/client.ts";
import { db, tenantTx } from "../../db/tenancy.ts";
import { ack, created, ok } from "../../http/envelope.ts";
import { conflict, forbidden, notFound } from "../../http/errors.ts";
import type { AreaHandlers, AuthContext, Role } from "../../http/types.ts";
import { queueEmail } from "../../mail/outbox.ts";

const INVITE_TTL_MS = 7 * 24 * 3600 * 1000;

type MembershipWithUser = { user_id: string; role: string; employee_id: string | null; created_at: Date; user: { email: string; name: string } };
const memberJson = (m: MembershipWithUser) => ({ user_id: m.user_id, email: m.user.email, name: m.user.name, role: m.role as Role, employee_id: m.employee_id, joined_at: m.created_at.toISOString() });

function invitationJson(i: { id: string; email: string; role: string; employee_id: string | null; expires_at: Date; accepted_at: Date | null; revoked_at: Date | null; created_at: Date }) {
  const status = i.accepted_at ? "accepted" : i.revoked_at ? "revoked" : i.expires_at <= new Date() ? "expired" : "pending";
  return { id: i.id, email: i.email, role: i.role as Role, employee_id: i.employee_id, expires_at: i.expires_at.toISOString(), status: status as "pending", created_at: i.created_at.toISOString() };
}

/** Only an owner may touch the owner role (grant it, take it away, or remove an owner). */
function assertOwnerRules(auth: AuthContext, currentRole: string | null, newRole: string | null) {
  if ((currentRole === "owner" || newRole === "owner") && auth.role !== "owner") throw forbidden("Only an owner can grant, change or remove the owner role");
}

async function assertEmployeeExists(employeeId: string) {
  const e = await db.employee.findFirst({ where: { id: employeeId, deleted_at: null }, select: { id: true } });
  if (!e) throw notFound("Employee");
}

export const handlers = {
  async listMembers() {
    const [members, invitations] = await Promise.all([
      db.membership.findMany({ include: { user: { select: { email: true, name: true } } } }),
      db.invitation.findMany({ where: { accepted_at: null, revoked_at: null, expires_at: { gt: new Date() } }, orderBy: { created_at: "desc" } }),
    ]);
    members.sort((a, b) => a.user.name.localeCompare(b.user.name));
    return ok({ members: members.map(memberJson), invitations: invitations.map(invitationJson) });
  },

  async inviteMember({ body, auth }) {
    assertOwnerRules(auth, null, body.role);
    const email = body.email.toLowerCase();
    if (body.employee_id) await assertEmployeeExists(body.employee_id);
    const existingUser = await systemDb.user.findUnique({ where: { email }, select: { id: true } });
    if (existingUser && (await db.membership.findFirst({ where: { user_id: existingUser.id } }))) throw conflict("This person is already a member");
    const { token, hash } = newToken();
    const tenant = await systemDb.tenant.findUniqueOrThrow({ where: { id: auth.tenantId }, select: { name: true } });
    const invitation = await tenantTx(async (tx) => {
      await tx.invitation.updateMany({ where: { email, accepted_at: null, revoked_at: null }, data: { revoked_at: new Date() } });
      const inv = await tx.invitation.create({
        data: { email, role: body.role, employee_id: body.employee_id ?? null, token_hash: hash, invited_by: auth.userId, expires_at: new Date(Date.now() + INVITE_TTL_MS) } as any,
      });
      const link = `${config().publicUrl}/accept-invite?token=${encodeURIComponent(token)}`;
      await queueEmail(tx, {
        to: email,
        subject: `${auth.name} invited you to ${tenant.name} on HRMS`,
        text: `Hello,\n\n${auth.name} invited you to join ${tenant.name} as ${body.role}.\nAccept within 7 days:\n\n${link}\n\nInvitation token: ${token}\n`,
      });
      await audit({ action: "member.invited", entity_type: "invitation", entity_id: inv.id, changes: { email, role: body.role, employee_id: body.employee_id ?? null } }, tx);
      return inv;
    });
    return created(invitationJson(invitation), "Invitation sent");
  },

  async updateMember({ params, body, auth }) {
    const m = await db.membership.findFirst({ where: { user_id: params.userId } });
    if (!m) throw notFound("Member");
    const newRole = body.role ?? m.role;
    assertOwnerRules(auth, m.role, body.role && body.role !== m.role ? body.role : null);
    if (body.employee_id) {
      await assertEmployeeExists(body.employee_id);
      const taken = await db.membership.findFirst({ where: { employee_id: body.employee_id, NOT: { user_id: params.userId } } });
      if (taken) throw conflict("That employee record is already linked to another member");
    }
    const updated = await tenantTx(async (tx) => {
      if (m.role === "owner" && newRole !== "owner") {
        // Lock the owners of the tenant so two concurrent demotions cannot remove the last one.
        const owners = await tx.$queryRaw<{ user_id: string }[]>`SELECT user_id FROM memberships WHERE tenant_id = ${auth.tenantId}::uuid AND role = 'owner' FOR UPDATE`;
        if (owners.length <= 1) throw conflict("The last owner cannot be demoted; make someone else owner first");
      }
      const u = await tx.membership.update({
        where: { id: m.id },
        data: { role: newRole, ...(body.employee_id !== undefined ? { employee_id: body.employee_id } : {}) },
        include: { user: { select: { email: true, name: true } } },
      });
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      if (u.role !== m.role) changes.role = { from: m.role, to: u.role };
      if (u.employee_id !== m.employee_id) changes.employee_id = { from: m.employee_id, to: u.employee_id };
      if (Object.keys(changes).length) await audit({ action: changes.role ? "member.role_changed" : "member.updated", entity_type: "user", entity_id: params.userId, changes }, tx);
      return u;
    });
    return ok(memberJson(updated), "Member updated");
  },

  async removeMember({ params, auth }) {
    const m = await db.membership.findFirst({ where: { user_id: params.userId } });
    if (!m) throw notFound("Member");
    assertOwnerRules(auth, m.role, null);
    await tenantTx(async (tx) => {
      if (m.role === "owner") {
        const owners = await tx.$queryRaw<{ user_id: string }[]>`SELECT user_id FROM memberships WHERE tenant_id = ${auth.tenantId}::uuid AND role = 'owner' FOR UPDATE`;
        if (owners.length <= 1) throw conflict("The last owner cannot be removed");
      }
      await tx.membership.delete({ where: { id: m.id } });
      await audit({ action: "member.removed", entity_type: "user", entity_id: params.userId, changes: { role: m.role } }, tx);
    });
    return ack("Member removed");
  },
} satisfies AreaHandlers<"members">;
