// Members of the company: the list (with open invitations), role and employee-record changes,
// removal. Only an owner touches the owner role, and the company always keeps an owner. A role
// change or removal revokes the member's pending invitations their role can no longer send.
import { audit } from "../../platform/audit.ts";
import { db, tenantTx, byId, type ScopedTx } from "../../db/tenancy.ts";
import { mayInvite } from "../shared/access.ts";
import { conflict, forbidden, notFound } from "../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { invitationJson, memberJson } from "./json.ts";
import { lockOwners } from "./queries.ts";
import * as clock from "../../lib/clock.ts";

/** Only an owner may touch the owner role (grant it, take it away, or remove an owner). */
export function assertOwnerRules(auth: AuthContext, currentRole: string | null, newRole: string | null): void {
  if ((currentRole === "owner" || newRole === "owner") && auth.role !== "owner")
    throw forbidden("Only an owner can grant, change or remove the owner role");
}

export async function assertEmployeeExists(employeeId: string): Promise<void> {
  const e = await db.employee.findFirst({ where: { id: employeeId, deleted_at: null }, select: { id: true } });
  if (!e) throw notFound("Employee");
}

/** The members by name, and the invitations still open (newest first). */
export async function membersAndInvitations() {
  const [members, invitations] = await Promise.all([
    db.membership.findMany({ include: { user: { select: { email: true, name: true } } } }),
    db.invitation.findMany({
      where: { accepted_at: null, revoked_at: null, expires_at: { gt: clock.now() } },
      orderBy: { created_at: "desc" },
    }),
  ]);
  members.sort((a, b) => a.user.name.localeCompare(b.user.name));
  return { members: members.map(memberJson), invitations: invitations.map(invitationJson) };
}

/** Changes a member's role and/or linked employee record (one member per record); the last owner cannot be demoted. */
export async function changeMember(auth: AuthContext, userId: string, change: RequestBody<"updateMember">) {
  const m = await db.membership.findFirst({ where: { user_id: userId } });
  if (!m) throw notFound("Member");
  const newRole = change.role ?? m.role;
  assertOwnerRules(auth, m.role, change.role && change.role !== m.role ? change.role : null);
  if (change.employee_id) {
    await assertEmployeeExists(change.employee_id);
    const taken = await db.membership.findFirst({ where: { employee_id: change.employee_id, NOT: { user_id: userId } } });
    if (taken) throw conflict("That employee record is already linked to another member");
  }
  const updated = await tenantTx(async (tx) => {
    if (m.role === "owner" && newRole !== "owner" && (await lockOwners(tx)).length <= 1)
      throw conflict(
        "The last owner cannot be demoted; make someone else owner first with PUT " +
          "/api/configuration/members/{userId} and role owner (updateMember)",
      );
    const u = await tx.membership.update({
      where: byId(m.id),
      data: { role: newRole, ...(change.employee_id !== undefined ? { employee_id: change.employee_id } : {}) },
      include: { user: { select: { email: true, name: true } } },
    });
    // an invitation is only as good as its inviter's right to send it (docs/security.md)
    if (u.role !== m.role) await revokeInvitationsBeyond(tx, userId, u.role);
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    if (u.role !== m.role) changes.role = { from: m.role, to: u.role };
    if (u.employee_id !== m.employee_id) changes.employee_id = { from: m.employee_id, to: u.employee_id };
    if (Object.keys(changes).length)
      await audit({ action: changes.role ? "member.role_changed" : "member.updated", entity_type: "user", entity_id: userId, changes }, tx);
    // A link change is also in the activity log of each employee record it touches: who linked or
    // unlinked which member. The record stays the member's own for the own-record rule either way
    // (employee_user_links, written by a trigger on memberships).
    if (u.employee_id !== m.employee_id) {
      const member = { user_id: userId, email: u.user.email, name: u.user.name };
      if (m.employee_id)
        await audit({ action: "employee.member_unlinked", entity_type: "employee", entity_id: m.employee_id, changes: { member } }, tx);
      if (u.employee_id)
        await audit({ action: "employee.member_linked", entity_type: "employee", entity_id: u.employee_id, changes: { member } }, tx);
    }
    return u;
  });
  return memberJson(updated);
}

/** Removes a member from the company; the last owner cannot be removed. */
export async function revokeMembership(auth: AuthContext, userId: string): Promise<void> {
  const m = await db.membership.findFirst({ where: { user_id: userId } });
  if (!m) throw notFound("Member");
  assertOwnerRules(auth, m.role, null);
  await tenantTx(async (tx) => {
    if (m.role === "owner" && (await lockOwners(tx)).length <= 1) throw conflict("The last owner cannot be removed");
    await tx.membership.delete({ where: byId(m.id) });
    await revokeInvitationsBeyond(tx, userId, null);
    await audit(
      { action: "member.removed", event: "member.removed", entity_type: "user", entity_id: userId, changes: { role: m.role } },
      tx,
    );
  });
}

/**
 * Revokes the pending invitations `userId` sent that a `role` could not send (all, when removed: null),
 * audited: an invitation does not outlive its inviter's right to send it (docs/security.md).
 */
export async function revokeInvitationsBeyond(tx: ScopedTx, userId: string, role: string | null): Promise<number> {
  const pending = await tx.invitation.findMany({
    where: { invited_by: userId, accepted_at: null, revoked_at: null },
    select: { id: true, role: true },
  });
  const ids = pending.filter((i) => role === null || !mayInvite(role, i.role)).map((i) => i.id);
  if (!ids.length) return 0;
  await tx.invitation.updateMany({ where: { id: { in: ids } }, data: { revoked_at: clock.now() } });
  await audit(
    {
      action: "member.invitations_revoked",
      entity_type: "user",
      entity_id: userId,
      changes: { invitation_ids: ids, reason: role === null ? "inviter removed" : `inviter is now ${role}` },
    },
    tx,
  );
  return ids.length;
}
