// Generic access control read from the operation's vendor extensions (via the registry):
// x-public (no session), x-roles (401 without a session, 403 `forbidden` for other roles),
// x-module (403 `module_disabled` while the tenant has not enabled it), and for API credentials
// (issue 31) x-scope (the registry's `scope`: 403 naming a scope the credential lacks; none: the
// operation takes a session only).
import type { Request } from "express";
import { type OperationId, type OperationMeta, operationTable } from "../../generated/registry.ts";
import { getPool } from "../db/client.ts";
import type { IdentityRow } from "../platform/identity/identity-cache.ts";
import { type CredentialIdentity, credentialFor } from "../platform/identity/credentials.ts";
import { OWN_EMPLOYEE_IDS, prefetchedAuthOf } from "../platform/identity/session.ts";
import { requestContext } from "../request-context.ts";
import { type AppError, forbidden, moduleDisabled, unauthenticated } from "../platform/errors.ts";
import type { AuthContext, ModuleName, Role } from "./types.ts";

function toAuth(userId: string, tenantId: string, r: IdentityRow): AuthContext {
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

const CREDENTIAL = Symbol("the request's API credential");
type CredentialRequest = Request & { [CREDENTIAL]?: CredentialIdentity };
/** The API credential the request authenticated with (authenticateBearer), if any. */
export const credentialOf = (req: Request): CredentialIdentity | undefined => (req as CredentialRequest)[CREDENTIAL];

/**
 * The credential of a request that sent `Authorization` (`secret` from bearerSecret: null when
 * malformed), before its body is read: 401 unless it names a live credential. The session cookie,
 * if any, is then not used: a bearer request is the credential's alone.
 */
export async function authenticateBearer(req: Request, secret: string | null): Promise<void> {
  const cred = secret ? await credentialFor(secret) : null;
  if (!cred) throw unauthenticated("Invalid, expired or revoked API credential");
  (req as CredentialRequest)[CREDENTIAL] = cred;
  const info = requestContext.getStore();
  if (info) {
    info.userId = cred.userId;
    info.tenantId = cred.tenantId;
    info.email = cred.row.email;
    info.credential = { id: cred.id, name: cred.name, lastWriteLsn: cred.lastWriteLsn, tenantId: cred.tenantId };
  }
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

function authorizeCredential(cred: CredentialIdentity, meta: OperationMeta): AuthContext {
  if (!meta.scope)
    throw forbidden("This operation takes a signed-in member's session (sign in with signIn), not an API credential or access token");
  const auth = { ...toAuth(cred.userId, cred.tenantId, cred.row), credential: { id: cred.id, name: cred.name } };
  if (meta.module && !auth.modules.includes(meta.module)) throw moduleDisabled(meta.module);
  if (!meta.roles.includes(auth.role)) throw roleRefused(meta, auth.role, "the API credential's role");
  if (!cred.scopes.includes(meta.scope)) throw scopeRefused(meta.scope);
  return auth;
}

/** Resolves the caller of a non-public operation or throws 401/403. */
export async function authorize(req: Request, meta: OperationMeta): Promise<AuthContext | null> {
  const cred = credentialOf(req);
  if (cred) return authorizeCredential(cred, meta);
  const userId = req.session?.userId;
  if (!userId) throw unauthenticated();
  const tenantId = req.session.tenantId;
  const info = requestContext.getStore();
  // read with the session row when it was loaded for this request (one round trip instead of two)
  const pre = prefetchedAuthOf(info);
  const auth = !tenantId
    ? null
    : pre && pre.sid === req.sessionID && pre.userId === userId && pre.tenantId === tenantId
      ? pre.row
        ? toAuth(userId, tenantId, pre.row)
        : null
      : await loadAuth(userId, tenantId);
  if (info) info.userId = userId;
  if (!auth) {
    if (meta.tenantOptional) return null;
    throw unauthenticated("Your session has no access to a company; sign in again or switch tenant");
  }
  if (info) {
    info.email = auth.email;
    info.tenantId = auth.tenantId;
  }
  if (meta.module && !auth.modules.includes(meta.module)) throw moduleDisabled(meta.module);
  if (!meta.roles.includes(auth.role)) throw roleRefused(meta, auth.role, "your role in this company");
  return auth;
}

/**
 * Whether the caller could call `operationId` (its x-roles and x-module), for a use case that shows
 * data read through another operation - the same rule, never a copy of its role list.
 */
export function mayCall(auth: Pick<AuthContext, "role" | "modules">, operationId: OperationId): boolean {
  const meta: OperationMeta = operationTable[operationId];
  return meta.roles.includes(auth.role) && (!meta.module || auth.modules.includes(meta.module));
}
