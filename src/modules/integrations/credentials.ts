// API credentials of the company (issue 31): created, listed, rotated and revoked by owners and
// admins with a session. The secret is returned once; only its hash is stored
// (src/platform/identity/credentials.ts verifies it on each request).
import type { ApiCredential } from "../../../generated/prisma/client.ts";
import { scopes as documentScopes } from "../../../generated/registry.ts";
import { lockRow } from "../../db/sql.ts";
import { byId, db, tenantTx } from "../../db/tenancy.ts";
import type { Page } from "../../platform/use-case.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import * as clock from "../../lib/clock.ts";
import { audit } from "../../platform/audit.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import { newCredentialSecret } from "../../platform/identity/credentials.ts";

type CreateInput = RequestBody<"createApiCredential">;
type RotateInput = RequestBody<"rotateApiCredential">;

const KNOWN_SCOPES: ReadonlySet<string> = new Set(documentScopes);
const DEFAULT_GRACE_SECONDS = 86_400;

export function credentialJson(c: ApiCredential) {
  const previousLive = c.previous_prefix && c.previous_expires_at && c.previous_expires_at > clock.now();
  return {
    id: c.id,
    name: c.name,
    role: c.role as "admin" | "hr",
    scopes: c.scopes,
    prefix: c.prefix,
    previous_prefix: previousLive ? c.previous_prefix : null,
    previous_expires_at: previousLive ? (c.previous_expires_at?.toISOString() ?? null) : null,
    expires_at: c.expires_at?.toISOString() ?? null,
    revoked_at: c.revoked_at?.toISOString() ?? null,
    created_by: c.created_by,
    created_at: c.created_at.toISOString(),
  };
}

export async function credentialPage(page: Page) {
  const [rows, total] = await Promise.all([
    db.apiCredential.findMany({ orderBy: [{ created_at: "desc" }, { id: "asc" }], skip: page.skip, take: page.limit }),
    db.apiCredential.count(),
  ]);
  return { rows: rows.map(credentialJson), total };
}

/** A new credential; its secret is in the answer only. */
export async function issueApiCredential(auth: AuthContext, input: CreateInput) {
  input.scopes.forEach((s, i) => {
    if (!KNOWN_SCOPES.has(s)) throw invalidField(`body.scopes.${i}`, `is not a scope of any operation (${s})`);
  });
  const expiresAt = input.expires_at ? new Date(input.expires_at) : null;
  if (expiresAt && expiresAt <= clock.now()) throw invalidField("body.expires_at", "must be in the future");
  const name = input.name.trim();
  if (!name) throw invalidField("body.name", "must not be blank");
  const issued = newCredentialSecret();
  const c = await tenantTx(async (tx) => {
    const c = await tx.apiCredential.create({
      data: {
        name,
        role: input.role ?? "hr",
        scopes: [...input.scopes].sort(),
        prefix: issued.prefix,
        secret_hash: issued.hash,
        expires_at: expiresAt,
        created_by: auth.userId,
      },
    });
    await audit(
      {
        action: "api_credential.created",
        entity_type: "api_credential",
        entity_id: c.id,
        changes: { name, role: c.role, scopes: c.scopes, prefix: c.prefix, expires_at: c.expires_at?.toISOString() ?? null },
      },
      tx,
    );
    return c;
  });
  return { credential: credentialJson(c), secret: issued.secret };
}

async function lockLive(tx: Parameters<Parameters<typeof tenantTx>[0]>[0], id: string): Promise<ApiCredential> {
  if (!(await lockRow(tx, "api_credentials", id))) throw notFound("API credential");
  const c = await tx.apiCredential.findUniqueOrThrow({ where: byId(id) });
  if (c.revoked_at) throw conflict("The API credential is revoked");
  return c;
}

/** Revoked at once: the next request with its secret is a 401 in every process. */
export async function revokeCredential(id: string) {
  return credentialJson(
    await tenantTx(async (tx) => {
      const c = await lockLive(tx, id);
      const revoked = await tx.apiCredential.update({ where: byId(id), data: { revoked_at: clock.now() } });
      await audit({ action: "api_credential.revoked", entity_type: "api_credential", entity_id: id, changes: { prefix: c.prefix } }, tx);
      return revoked;
    }),
  );
}

/** A new secret; the current one stays valid for the grace period (two at most). */
export async function replaceCredentialSecret(id: string, input: RotateInput | undefined) {
  const grace = input?.grace_seconds ?? DEFAULT_GRACE_SECONDS;
  const issued = newCredentialSecret();
  const c = await tenantTx(async (tx) => {
    const c = await lockLive(tx, id);
    const previousUntil = grace > 0 ? new Date(clock.nowMs() + grace * 1000) : null;
    const rotated = await tx.apiCredential.update({
      where: byId(id),
      data: {
        prefix: issued.prefix,
        secret_hash: issued.hash,
        previous_prefix: previousUntil ? c.prefix : null,
        previous_secret_hash: previousUntil ? c.secret_hash : null,
        previous_expires_at: previousUntil,
      },
    });
    await audit(
      {
        action: "api_credential.rotated",
        entity_type: "api_credential",
        entity_id: id,
        changes: {
          prefix: { from: c.prefix, to: issued.prefix },
          previous_valid_until: previousUntil?.toISOString() ?? null,
        },
      },
      tx,
    );
    return rotated;
  });
  return { credential: credentialJson(c), secret: issued.secret };
}
