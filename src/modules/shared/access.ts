// Policy every area shares: who manages people data (owner, admin, hr), those members of the
// active tenant, and users' names and e-mail addresses by id. One definition each, instead of one
// per area under a name of its own.
import { usersByIds } from "../../db/central.ts";
import { db, type ScopedTx } from "../../db/tenancy.ts";
import type { AuthContext, Role } from "../../http/types.ts";

/** The roles that manage every employee's records: owner, admin and hr. */
export const HR_ROLES: readonly Role[] = ["owner", "admin", "hr"];
const HR = new Set<Role>(HR_ROLES);

/** Whether the caller is an owner, admin or hr member. */
export const isHr = (auth: Pick<AuthContext, "role">): boolean => HR.has(auth.role);

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
