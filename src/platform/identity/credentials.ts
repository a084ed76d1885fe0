// API credentials of machine clients (docs/decisions/0007-integrations-internals.md, "API credentials and
// scopes"): only the secret's SHA-256 is stored (a high-entropy secret needs no slow hash). A request's
// secret is looked up by hash in one query over every company, so a refusal's time reveals nothing of
// other credentials. Never cached: a revocation or the creator's removal is effective with the next
// request. A credential acts with its role, never above its creator's current one.
import { createHash, randomBytes } from "node:crypto";
import { getPool } from "../../db/client.ts";
import * as clock from "../../lib/clock.ts";
import type { IdentityRow } from "./identity-cache.ts";

const PREFIX_ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789";
/** `hrms_` + 10 characters of the prefix alphabet + `_` + 43 base64url characters (32 bytes). */
export const SECRET_SHAPE = /^hrms_[a-km-np-z2-9]{10}_[A-Za-z0-9_-]{43}$/;
/** An access token of the OAuth 2.0 client-credentials grant (src/platform/identity/oauth.ts): `hrmsat_` + 43 base64url characters. */
export const ACCESS_TOKEN_SHAPE = /^hrmsat_[A-Za-z0-9_-]{43}$/;
/** The longest Authorization header looked at (a longer one is malformed). */
const MAX_HEADER = 200;

export interface IssuedSecret {
  secret: string;
  prefix: string;
  hash: string;
}

export const secretHash = (secret: string): string => createHash("sha256").update(secret).digest("hex");

/** A new secret, its public prefix and the hash to store. */
export function newCredentialSecret(): IssuedSecret {
  const bytes = randomBytes(10);
  const id = [...bytes].map((b) => PREFIX_ALPHABET[b % PREFIX_ALPHABET.length]).join("");
  const prefix = `hrms_${id}`;
  const secret = `${prefix}_${randomBytes(32).toString("base64url")}`;
  return { secret, prefix, hash: secretHash(secret) };
}

/** The bearer secret: `undefined` without Authorization, `null` for a header with no well-formed credential (401). */
export function bearerSecret(header: string | undefined): string | null | undefined {
  if (header === undefined) return undefined;
  if (header.length > MAX_HEADER) return null;
  const space = header.indexOf(" ");
  if (space < 0 || header.slice(0, space).toLowerCase() !== "bearer") return null;
  const value = header.slice(space + 1).trim();
  return SECRET_SHAPE.test(value) || ACCESS_TOKEN_SHAPE.test(value) ? value : null;
}

export interface CredentialIdentity {
  id: string;
  name: string;
  tenantId: string;
  /** the member who created it: the actor of its changes (with the credential's name) */
  userId: string;
  scopes: readonly string[];
  /** the primary's WAL position after its last write (read-your-writes), or null */
  lastWriteLsn: string | null;
  /** the membership as the guard needs it: the credential's role (capped by its creator's), the company's modules */
  row: IdentityRow;
  /** until when the secret (or access token) presented keeps working, if it expires (OAuth tokens live no longer) */
  validUntil: Date | null;
}

const RANK: Record<string, number> = { owner: 0, admin: 1, hr: 2, manager: 3, employee: 4 };

// cross-tenant: the credential's company is what this lookup finds
const LOOKUP = `
  SELECT c.tenant_id, c.id, c.name, c.role, c.scopes, c.created_by, c.last_write_lsn,
         CASE WHEN c.secret_hash = $1 THEN c.expires_at
              ELSE least(c.expires_at, c.previous_expires_at) END AS valid_until,
         m.role AS creator_role, t.modules, u.email,
         ARRAY(SELECT l.employee_id FROM employee_user_links l
                WHERE l.tenant_id = c.tenant_id AND l.user_id = c.created_by ORDER BY l.employee_id)::text[] AS own_employee_ids
    FROM api_credentials c
    JOIN memberships m ON m.tenant_id = c.tenant_id AND m.user_id = c.created_by
    JOIN tenants t ON t.id = c.tenant_id
    JOIN users u ON u.id = c.created_by
   WHERE (c.secret_hash = $1 OR (c.previous_secret_hash = $1 AND c.previous_expires_at > $2))
     AND c.revoked_at IS NULL AND (c.expires_at IS NULL OR c.expires_at > $2)
   LIMIT 1`;

// cross-tenant: an OAuth access token's company is what this lookup finds. It works while it has
// not expired, its credential is live, and the secret it was issued with is still one of the
// credential's (a rotation's grace included); its scopes are those it was narrowed to that the
// credential still has.
const TOKEN_LOOKUP = `
  SELECT c.tenant_id, c.id, c.name, c.role,
         ARRAY(SELECT s FROM unnest(a.scopes) s WHERE s = ANY (c.scopes) ORDER BY s) AS scopes,
         c.created_by, c.last_write_lsn, a.expires_at AS valid_until,
         m.role AS creator_role, t.modules, u.email,
         ARRAY(SELECT l.employee_id FROM employee_user_links l
                WHERE l.tenant_id = c.tenant_id AND l.user_id = c.created_by ORDER BY l.employee_id)::text[] AS own_employee_ids
    FROM oauth_access_tokens a
    JOIN api_credentials c ON c.tenant_id = a.tenant_id AND c.id = a.credential_id
    JOIN memberships m ON m.tenant_id = c.tenant_id AND m.user_id = c.created_by
    JOIN tenants t ON t.id = c.tenant_id
    JOIN users u ON u.id = c.created_by
   WHERE a.token_hash = $1 AND a.expires_at > $2
     AND (c.secret_hash = a.secret_hash OR (c.previous_secret_hash = a.secret_hash AND c.previous_expires_at > $2))
     AND c.revoked_at IS NULL AND (c.expires_at IS NULL OR c.expires_at > $2)
   LIMIT 1`;

/** The live credential a secret or OAuth access token names, else null; looked up by hash alone (no timing by prefix). */
export async function credentialFor(secret: string): Promise<CredentialIdentity | null> {
  const query = ACCESS_TOKEN_SHAPE.test(secret) ? TOKEN_LOOKUP : LOOKUP;
  const { rows } = await getPool().query(query, [secretHash(secret), clock.now()]);
  return rows.length ? identityOf(rows[0]) : null;
}

function identityOf(r: any): CredentialIdentity {
  const role = RANK[r.creator_role] > RANK[r.role] ? r.creator_role : r.role;
  return {
    id: r.id,
    name: r.name,
    tenantId: r.tenant_id,
    userId: r.created_by,
    scopes: r.scopes ?? [],
    lastWriteLsn: r.last_write_lsn,
    validUntil: r.valid_until ?? null,
    row: { role, employee_id: null, modules: r.modules, email: r.email, name: r.name, own_employee_ids: r.own_employee_ids ?? [] },
  };
}

// the same live credential as LOOKUP, by its id in its company (a queued job acting as it re-reads it)
const BY_ID = `
  SELECT c.tenant_id, c.id, c.name, c.role, c.scopes, c.created_by, c.last_write_lsn, c.expires_at AS valid_until,
         m.role AS creator_role, t.modules, u.email,
         ARRAY(SELECT l.employee_id FROM employee_user_links l
                WHERE l.tenant_id = c.tenant_id AND l.user_id = c.created_by ORDER BY l.employee_id)::text[] AS own_employee_ids
    FROM api_credentials c
    JOIN memberships m ON m.tenant_id = c.tenant_id AND m.user_id = c.created_by
    JOIN tenants t ON t.id = c.tenant_id
    JOIN users u ON u.id = c.created_by
   WHERE c.tenant_id = $1 AND c.id = $2 AND c.revoked_at IS NULL AND (c.expires_at IS NULL OR c.expires_at > $3)`;

/** The credential `id` of the company as it is now, if it is live (not revoked or expired, its creator still a member). */
export async function credentialById(tenantId: string, id: string): Promise<CredentialIdentity | null> {
  const { rows } = await getPool().query(BY_ID, [tenantId, id, clock.now()]);
  return rows.length ? identityOf(rows[0]) : null;
}

/** Keeps the primary's position after a credential's write (its next reads wait for the replica to have it). */
export async function rememberCredentialWrite(tenantId: string, id: string, lsn: string): Promise<void> {
  // cross-tenant: by the credential's own key (its company is the request's)
  await getPool().query(`UPDATE api_credentials SET last_write_lsn = $3 WHERE tenant_id = $1 AND id = $2`, [tenantId, id, lsn]);
}

/** Access tokens of the OAuth grant that expired a day ago or more (they no longer work; hourly with the events' pruning). */
export async function pruneAccessTokens(): Promise<void> {
  // cross-tenant: expired tokens of every company
  await getPool().query(`DELETE FROM oauth_access_tokens WHERE expires_at < $1`, [new Date(clock.nowMs() - 86_400_000)]);
}
