// Idempotency keys' storage (`idempotency_keys`, one row per tenant, caller and key); the HTTP side is
// src/http/idempotency.ts (docs/decisions/0007-integrations-internals.md, "Idempotency-Key"). A key is
// claimed by one INSERT - the primary key decides between concurrent duplicates, never check-then-insert -
// and taken over only once expired, or `running` past its lease for the same request (a dead process).
// Times are the database's `now()`: machine time, not business time.
import { systemDb } from "../db/client.ts";
import { execute, query, sql, tenant } from "../db/sql.ts";

/** How long a request holds its key while it runs; past it (its process died) a retry may take the key over. */
export const LEASE_SECONDS = 300;

export interface StoredAnswer {
  status: number;
  /** The answer's body as JSON text. */
  body: string;
  /** Headers to repeat with the replay (e.g. `Retry-After` of a stored error). */
  headers: Record<string, string>;
}

export type Claim =
  | { kind: "claimed" }
  /** the key was used with another request (another fingerprint) */
  | { kind: "reused" }
  /** the first request with the key is still running */
  | { kind: "in_progress" }
  | { kind: "replay"; answer: StoredAnswer };

export interface KeyRef {
  /** `user:<id>`, or `credential:<id>` for an API credential */
  caller: string;
  key: string;
}

/** Claims `ref` for a request with `fingerprint` (in the active tenant), or says why not. */
export async function claimKey(ref: KeyRef, fingerprint: string, operationId: string, ttlHours: number): Promise<Claim> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const claimed = await query<{ claimed: boolean }>(sql`
      INSERT INTO idempotency_keys AS k
        (tenant_id, caller, key, fingerprint, operation_id, state, locked_until, expires_at)
      VALUES (${tenant}::uuid, ${ref.caller}, ${ref.key}, ${fingerprint}, ${operationId}, 'running',
        now() + make_interval(secs => ${LEASE_SECONDS}), now() + make_interval(hours => ${ttlHours}))
      ON CONFLICT (tenant_id, caller, key) DO UPDATE SET
        fingerprint = EXCLUDED.fingerprint, operation_id = EXCLUDED.operation_id, state = 'running',
        status = NULL, body = NULL, headers = NULL, locked_until = EXCLUDED.locked_until,
        created_at = now(), expires_at = EXCLUDED.expires_at
      WHERE k.expires_at <= now()
         OR (k.state = 'running' AND k.locked_until <= now() AND k.fingerprint = EXCLUDED.fingerprint)
      RETURNING true AS claimed`);
    if (claimed.length) return { kind: "claimed" };
    const [row] = await query<{ fingerprint: string; state: string; status: number | null; body: string | null; headers: unknown }>(sql`
      SELECT k.fingerprint, k.state, k.status, k.body, k.headers FROM idempotency_keys k
       WHERE k.tenant_id = ${tenant}::uuid AND k.caller = ${ref.caller} AND k.key = ${ref.key} AND k.expires_at > now()`);
    // gone or expired since the INSERT looked (pruned, released): claim again
    if (!row) continue;
    if (row.fingerprint !== fingerprint) return { kind: "reused" };
    if (row.state !== "done" || row.status === null || row.body === null) return { kind: "in_progress" };
    return { kind: "replay", answer: { status: row.status, body: row.body, headers: (row.headers ?? {}) as Record<string, string> } };
  }
  return { kind: "in_progress" };
}

/** Stores the answer of the request that claimed `ref`: replayed to every retry until the key expires. */
export async function storeAnswer(ref: KeyRef, answer: StoredAnswer): Promise<void> {
  await execute(sql`
    UPDATE idempotency_keys k SET state = 'done', status = ${answer.status}, body = ${answer.body},
           headers = ${JSON.stringify(answer.headers)}::jsonb
     WHERE k.tenant_id = ${tenant}::uuid AND k.caller = ${ref.caller} AND k.key = ${ref.key} AND k.state = 'running'`);
}

/** Releases `ref` without an answer (one that is not kept): a retry runs the request again. */
export async function releaseKey(ref: KeyRef): Promise<void> {
  await execute(sql`
    DELETE FROM idempotency_keys k
     WHERE k.tenant_id = ${tenant}::uuid AND k.caller = ${ref.caller} AND k.key = ${ref.key} AND k.state = 'running'`);
}

/** Removes expired keys of every company (the hourly job `idempotency.prune-keys`). */
export async function pruneIdempotencyKeys(): Promise<number> {
  // cross-tenant: the prune job removes every company's expired keys
  return systemDb.$executeRaw`DELETE FROM idempotency_keys WHERE expires_at <= now()`;
}
