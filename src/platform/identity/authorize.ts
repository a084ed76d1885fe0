// Who may call an operation, read from the registry (x-roles, x-module, x-scope), for the request
// guards of src/http/guards.ts and for queued work that acts for its maker later (reauthorize).
import { type OperationId, type OperationMeta, operationTable } from "../../../generated/registry.ts";
import { getPool } from "../../db/client.ts";
import { type AppError, forbidden, moduleDisabled } from "../errors.ts";
import type { AuthContext, ModuleName, Role } from "../use-case.ts";
import type { IdentityRow } from "./identity-cache.ts";
import { type CredentialIdentity, credentialById } from "./credentials.ts";
import { OWN_EMPLOYEE_IDS } from "./session.ts";

export function toAuth(userId: string, tenantId: string, r: IdentityRow): AuthContext {
  return {
    userId,
    tenantId,
    role: r.role as Role,
    employeeId: r.employee_id,
    ownEmployeeIds: r.own_employee_ids,
    modules: r.modules as ModuleName[],
    email: r.email,
    name: r.name,
  };
}

export async function loadAuth(userId: string, tenantId: string): Promise<AuthContext | null> {
  const { rows } = await getPool().query(
    `SELECT m.role, m.employee_id, t.modules, u.email, u.name, ${OWN_EMPLOYEE_IDS} AS own_employee_ids
       FROM memberships m JOIN tenants t ON t.id = m.tenant_id JOIN users u ON u.id = m.user_id
      WHERE m.tenant_id = $1 AND m.user_id = $2`,
    [tenantId, userId],
  );
  return rows.length ? toAuth(userId, tenantId, rows[0]) : null;
}

/** The 403 of a role the operation does not admit: the roles it does, in words and in `allowed_roles`. */
export function roleRefused(meta: Pick<OperationMeta, "roles">, role: Role, who = "your role"): AppError {
  return forbidden(`This operation is for the roles ${meta.roles.join(", ")}; ${who} is ${role}`, { allowed_roles: [...meta.roles] });
}

/**
 * The 403 of a credential (or its access token) without the operation's scope: the scope in words,
 * in `required_scope`, and in `WWW-Authenticate` as RFC 6750 §3.1 has it for OAuth clients.
 */
export function scopeRefused(scope: string): AppError {
  return forbidden(
    `The API credential or access token lacks the scope ${scope}, which this operation needs`,
    { required_scope: scope },
    { "WWW-Authenticate": `Bearer error="insufficient_scope", scope="${scope}"` },
  );
}

export function authorizeCredential(cred: CredentialIdentity, meta: OperationMeta): AuthContext {
  if (!meta.scope)
    throw forbidden("This operation takes a signed-in member's session (sign in with signIn), not an API credential or access token");
  const auth = { ...toAuth(cred.userId, cred.tenantId, cred.row), credential: { id: cred.id, name: cred.name, scopes: cred.scopes } };
  if (meta.module && !auth.modules.includes(meta.module)) throw moduleDisabled(meta.module);
  if (!meta.roles.includes(auth.role)) throw roleRefused(meta, auth.role, "the API credential's role");
  if (!cred.scopes.includes(meta.scope)) throw scopeRefused(meta.scope);
  return auth;
}

/**
 * The maker of queued work as they are now, authorized for `operationId` again: a job that acts
 * for a member (or their API credential) later re-reads them when it starts - their role, own-record
 * links, the credential's scopes - and is refused (403) when the member left, the credential was
 * revoked or expired, or the role, scope or module no longer allows the operation.
 */
export async function reauthorize(
  tenantId: string,
  userId: string,
  credentialId: string | null,
  operationId: OperationId,
): Promise<AuthContext> {
  const meta: OperationMeta = operationTable[operationId];
  if (credentialId) {
    const cred = await credentialById(tenantId, credentialId);
    if (!cred) throw forbidden("Not run: the API credential it was made with was revoked or has expired, or its creator left the company");
    return authorizeCredential(cred, meta);
  }
  const auth = await loadAuth(userId, tenantId);
  if (!auth) throw forbidden("Not run: the member who made it is no longer a member of the company");
  if (meta.module && !auth.modules.includes(meta.module)) throw moduleDisabled(meta.module);
  if (!meta.roles.includes(auth.role)) throw forbidden("Not run: the member who made it no longer has a role that may do it");
  return auth;
}
