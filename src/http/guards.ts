// Access control read from the operation's flags: x-public, x-roles (401, 403 `forbidden`), x-module
// (403 `module_disabled`) and, for API credentials, x-scope (403 naming the scope; none: session only).
import type { Request } from "express";
import type { OperationMeta } from "../../generated/registry.ts";
import { type CredentialIdentity, credentialFor } from "../platform/identity/credentials.ts";
import { authorizeCredential, loadAuth, roleRefused, toAuth } from "../platform/identity/authorize.ts";
import { prefetchedAuthOf } from "../platform/identity/session.ts";
import { requestContext } from "../request-context.ts";
import { moduleDisabled, unauthenticated } from "../platform/errors.ts";
import type { AuthContext } from "./types.ts";

export { loadAuth, reauthorize, roleRefused, scopeRefused } from "../platform/identity/authorize.ts";

const CREDENTIAL = Symbol("the request's API credential");
type CredentialRequest = Request & { [CREDENTIAL]?: CredentialIdentity };
/** The API credential the request authenticated with (authenticateBearer), if any. */
export const credentialOf = (req: Request): CredentialIdentity | undefined => (req as CredentialRequest)[CREDENTIAL];

/** Before the body: 401 unless `secret` (null: malformed) names a live credential; a bearer request ignores the cookie. */
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
