// A completed exit ends access: the employee's memberships of the company end (sessions, credentials),
// their reports move to their manager, and the company's last owner cannot be the one who leaves.
import { audit } from "../../platform/audit.ts";
import { endSessionsInActiveTenant } from "../../db/central.ts";
import { type ScopedTx, byId } from "../../db/tenancy.ts";
import { notify } from "../../platform/notify.ts";
import { releaseTicketsOf } from "../helpdesk/index.ts";
import * as clock from "../../lib/clock.ts";

export const LAST_OWNER_EXIT =
  "The employee is the company's last owner: make another member owner before completing their exit (it ends their access)";

export interface MemberToEnd {
  id: string;
  user_id: string;
  role: string;
  employee_id: string | null;
}

/**
 * The memberships a completed exit ends: the member linked now, and any linked before and to no record
 * since (unlinking first does not keep access). `lastOwner` when they include every owner.
 */
export async function accessToEnd(tx: ScopedTx, employeeId: string): Promise<{ members: MemberToEnd[]; lastOwner: boolean }> {
  const links = await tx.employeeUserLink.findMany({ where: { employee_id: employeeId }, select: { user_id: true } });
  const members = await tx.membership.findMany({
    where: { OR: [{ employee_id: employeeId }, { employee_id: null, user_id: { in: links.map((l) => l.user_id) } }] },
    select: { id: true, user_id: true, role: true, employee_id: true },
  });
  if (!members.some((m) => m.role === "owner")) return { members, lastOwner: false };
  const others = await tx.membership.count({ where: { role: "owner", id: { notIn: members.map((m) => m.id) } } });
  return { members, lastOwner: others === 0 };
}

/**
 * What a completed exit does beyond the status, in its transaction: the person's membership ends (sessions
 * at once, via the memberships trigger's NOTIFY; tickets back to the queue; invitations revoked), and their
 * reports move to the exited employee's manager (or to nobody), audited and told. Re-hiring is a new invitation.
 */
export async function endAccess(tx: ScopedTx, employeeId: string, managerId: string | null, members: MemberToEnd[]): Promise<void> {
  for (const m of members) {
    await tx.membership.delete({ where: byId(m.id) });
    await endSessionsInActiveTenant(m.user_id, tx);
    await releaseTicketsOf(tx, m.user_id);
    await audit(
      {
        action: "member.removed",
        event: "member.removed",
        entity_type: "user",
        entity_id: m.user_id,
        changes: { role: m.role, employee_id: employeeId, reason: "exit_completed" },
      },
      tx,
    );
  }
  const revoked = await tx.invitation.updateMany({
    where: { employee_id: employeeId, accepted_at: null, revoked_at: null },
    data: { revoked_at: clock.now() },
  });
  if (revoked.count)
    await audit(
      { action: "employee.invitations_revoked", entity_type: "employee", entity_id: employeeId, changes: { revoked: revoked.count } },
      tx,
    );
  const reports = await tx.employee.findMany({
    where: { reports_to: employeeId, deleted_at: null },
    select: { id: true, first_name: true, last_name: true },
    orderBy: { id: "asc" },
  });
  if (!reports.length) return;
  const to = managerId && managerId !== employeeId ? managerId : null;
  await tx.employee.updateMany({ where: { id: { in: reports.map((r) => r.id) } }, data: { reports_to: to } });
  for (const r of reports)
    await audit(
      {
        action: "employee.updated",
        event: "employee.updated",
        entity_type: "employee",
        entity_id: r.id,
        changes: { reports_to: { from: employeeId, to }, reason: "manager_exited" },
      },
      tx,
    );
  const manager = to ? await tx.membership.findFirst({ where: { employee_id: to }, select: { user_id: true } }) : null;
  if (manager)
    await notify(tx, {
      userId: manager.user_id,
      kind: "employee.reports_reassigned",
      title: `${reports.length} employee(s) now report to you`,
      body:
        `Their manager has left: ${reports.map((r) => `${r.first_name} ${r.last_name}`.trim()).join(", ")}. ` +
        "Their pending requests are yours to decide.",
      link: "/api/employees",
    });
}
