// The OAuth 2.0 client-credentials grant (RFC 6749 §4.4): an API credential traded for a short-lived access
// token, stored as its SHA-256 (docs/decisions/0007-integrations-internals.md, "OAuth 2.0 client credentials").
import { randomBytes, timingSafeEqual } from "node:crypto";
import { config } from "../../config.ts";
import { tenantTx, withTenant } from "../../db/tenancy.ts";
import { OAuthError } from "../../platform/oauth-error.ts";
import * as clock from "../../lib/clock.ts";
import { requestContext } from "../../request-context.ts";
import { audit } from "../../platform/audit.ts";
import { type CredentialIdentity, credentialFor, SECRET_SHAPE, secretHash } from "../../platform/identity/credentials.ts";

export interface TokenRequest {
  grant_type?: string;
  scope?: string;
  client_id?: string;
  client_secret?: string;
}

export interface TokenResponse {
  access_token: string;
  token_type: "Bearer";
  expires_in: number;
  scope: string;
}

/** `hrms_` + 10 characters: the public part of a secret, its client id. */
const PREFIX_LENGTH = 15;
/** RFC 6749 §3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ), delimited by single spaces. */
const SCOPE_TOKEN = /^[\x21\x23-\x5b\x5d-\x7e]+$/;

/** application/x-www-form-urlencoded decoding of one part of the Basic credentials (RFC 6749 §2.3.1). */
function formDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, " "));
  } catch {
    throw new OAuthError("invalid_request", "The Basic credentials are not form-urlencoded correctly");
  }
}

/** The client's id and secret from HTTP Basic or the body - one of them (RFC 6749 §2.3.1). */
function clientCredentials(authorization: string | undefined, body: TokenRequest): { id: string; secret: string; basic: boolean } {
  if (authorization !== undefined) {
    const space = authorization.indexOf(" ");
    if (space < 0 || authorization.slice(0, space).toLowerCase() !== "basic" || authorization.length > 1000)
      throw new OAuthError("invalid_client", "Authenticate the client with HTTP Basic (client_id:client_secret)");
    if (body.client_secret !== undefined)
      throw new OAuthError(
        "invalid_request",
        "Authenticate the client one way: HTTP Basic or client_id/client_secret in the body, not both",
      );
    const decoded = Buffer.from(authorization.slice(space + 1).trim(), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) throw new OAuthError("invalid_client", "The Basic credentials are not client_id:client_secret");
    const id = formDecode(decoded.slice(0, colon));
    if (body.client_id !== undefined && body.client_id !== id)
      throw new OAuthError("invalid_request", "client_id in the body differs from the one of the Basic credentials");
    return { id, secret: formDecode(decoded.slice(colon + 1)), basic: true };
  }
  if (body.client_id === undefined || body.client_secret === undefined)
    throw new OAuthError("invalid_client", "Client authentication is required: HTTP Basic, or client_id and client_secret in the body");
  return { id: body.client_id, secret: body.client_secret, basic: false };
}

/** Whether `clientId` is the prefix of `secret`, in time independent of where they differ. */
function idMatches(clientId: string, secret: string): boolean {
  const a = Buffer.from(secret.slice(0, PREFIX_LENGTH).padEnd(PREFIX_LENGTH));
  const b = Buffer.from(clientId.slice(0, 64).padEnd(PREFIX_LENGTH));
  return a.length === b.length && timingSafeEqual(a, b) && clientId.length === PREFIX_LENGTH;
}

/** The token's scopes: the requested ones, each the credential's (else `invalid_scope` naming it), or all of the credential's. */
function grantedScopes(requested: string | undefined, cred: CredentialIdentity): string[] {
  if (requested === undefined) return [...cred.scopes].sort();
  const asked = requested.split(" ");
  if (!requested.length || asked.some((s) => !SCOPE_TOKEN.test(s)))
    throw new OAuthError("invalid_scope", "scope must be scopes separated by single spaces");
  const missing = asked.find((s) => !cred.scopes.includes(s));
  if (missing) throw new OAuthError("invalid_scope", `The client has no scope ${missing.slice(0, 100)}`);
  return [...new Set(asked)].sort();
}

/** An access token for the client that authenticated; audited `api_credential.token_issued`. */
export async function issueAccessToken(authorization: string | undefined, body: TokenRequest): Promise<TokenResponse> {
  if (body.grant_type === undefined) throw new OAuthError("invalid_request", "grant_type is required (client_credentials)");
  const client = clientCredentials(authorization, body);
  // one lookup by the secret's hash whatever the client id (a malformed secret is refused before
  // any lookup: that reveals only that it is malformed); the client id is compared after it
  const cred = SECRET_SHAPE.test(client.secret) ? await credentialFor(client.secret) : null;
  if (!cred || !idMatches(client.id, client.secret))
    throw new OAuthError(
      "invalid_client",
      "Client authentication failed: unknown client, wrong secret, or a revoked or expired credential",
    );
  if (body.grant_type !== "client_credentials")
    throw new OAuthError("unsupported_grant_type", "Only the client_credentials grant is supported");
  const scopes = grantedScopes(body.scope, cred);
  const now = clock.nowMs();
  const ttlMs = Math.min(
    config().oauthTokenTtlSeconds * 1000,
    cred.validUntil ? cred.validUntil.getTime() - now : Number.POSITIVE_INFINITY,
  );
  const expiresIn = Math.max(1, Math.floor(ttlMs / 1000));
  const token = `hrmsat_${randomBytes(32).toString("base64url")}`;
  const info = requestContext.getStore();
  if (info) {
    info.userId = cred.userId;
    info.email = cred.row.email;
    info.credential = { id: cred.id, name: cred.name, lastWriteLsn: cred.lastWriteLsn, tenantId: cred.tenantId };
  }
  await withTenant(cred.tenantId, () =>
    tenantTx(async (tx) => {
      const t = await tx.oAuthAccessToken.create({
        data: {
          credential_id: cred.id,
          token_hash: secretHash(token),
          secret_hash: secretHash(client.secret),
          scopes,
          expires_at: new Date(now + expiresIn * 1000),
        },
      });
      await audit(
        {
          action: "api_credential.token_issued",
          entity_type: "api_credential",
          entity_id: cred.id,
          changes: {
            token_id: t.id,
            scopes,
            expires_at: t.expires_at.toISOString(),
            client_authentication: client.basic ? "basic" : "body",
          },
        },
        tx,
      );
    }),
  );
  return { access_token: token, token_type: "Bearer", expires_in: expiresIn, scope: scopes.join(" ") };
}
