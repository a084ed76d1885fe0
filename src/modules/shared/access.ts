// Policy every area shares: who manages people data, those members, and users' names and addresses by id.
import { usersByIds } from "../../db/central.ts";
import { db, type ScopedTx } from "../../db/tenancy.ts";
import type { AuthContext, Role } from "../../platform/use-case.ts";
import { forbidden } from "../../platform/errors.ts";

/** The roles that manage every employee's records: owner, admin and hr. */
export const HR_ROLES: readonly Role[] = ["owner", "admin", "hr"];
const HR = new Set<Role>(HR_ROLES);

/** Whether the caller is an owner, admin or hr member. */
export const isHr = (auth: Pick<AuthContext, "role">): boolean => HR.has(auth.role);

/**
 * May a member of role `inviterRole` send an invitation with role `role`? Owners and admins invite;
 * only an owner grants the owner role. Sending checks it, and so do accepting (the inviter must
 * still have it) and a role change (what the new role could not send is revoked).
 */
export const mayInvite = (inviterRole: string, role: string): boolean =>
  inviterRole === "owner" || (inviterRole === "admin" && role !== "owner");

/**
 * The own-record rule (docs/security.md, "Own-record rule"): no decision about money or balances on one's
 * own record but the owner's; others get a 403 with `message`. True for the owner's own decision, which
 * the audit entry then marks (selfDecision).
 */
export function assertNotOwnRecord(
  auth: Pick<AuthContext, "role" | "employeeId" | "ownEmployeeIds">,
  employeeId: string,
  message: string,
): boolean {
  if (!isOwnRecord(auth, employeeId)) return false;
  if (auth.role === "owner") return true;
  throw forbidden(message);
}

/**
 * Whether the record is the caller's own, by the person rather than the current link (any record ever
 * linked: `ownEmployeeIds`), so unlinking does not lift a refusing rule. Self-service follows the
 * current link alone (`isLinkedRecord`).
 */
export const isOwnRecord = (auth: Pick<AuthContext, "employeeId" | "ownEmployeeIds">, employeeId: string): boolean =>
  isLinkedRecord(auth, employeeId) || Boolean(auth.ownEmployeeIds?.includes(employeeId));

/** Whether the record is the one the caller's membership is linked to now (self-service, "me"). */
export const isLinkedRecord = (auth: Pick<AuthContext, "employeeId">, employeeId: string): boolean =>
  Boolean(auth.employeeId) && auth.employeeId === employeeId;

/** The end of the 403 message of assertNotOwnRecord. */
export const OWN_RECORD = "only the company's owner may decide on their own record";

/** The audit entry's marker of an owner's decision on their own record (nothing otherwise). */
export const selfDecision = (self: boolean): { self_decision?: true } => (self ? { self_decision: true } : {});

/** The user ids of the active tenant's owner, admin and hr members, other than `except`. */
export async function hrMemberIds(client: ScopedTx | typeof db = db, except?: string | null): Promise<string[]> {
  const ms = await (client as ScopedTx).membership.findMany({
    where: { role: { in: [...HR_ROLES] }, ...(except ? { NOT: { user_id: except } } : {}) },
    select: { user_id: true },
  });
  return ms.map((m) => m.user_id);
}

/** Users' names and e-mail addresses by id (ids may repeat or be empty). */
export async function userNames(ids: (string | null | undefined)[]): Promise<Map<string, { name: string; email: string }>> {
  const users = await usersByIds(ids.filter((x): x is string => Boolean(x)));
  return new Map(users.map((u) => [u.id, { name: u.name, email: u.email }]));
}
