// The recruitment area's raw SQL: row locks that serialise a record's transitions and return its state
// (null: missing, deleted or another company's).
import { type ScannedKey, type Walk, type WalkKey, walkAnd, walkKey, walkOrder } from "../../db/keyset.ts";
import { query, read, type Sql, sql, tenant } from "../../db/sql.ts";
import type { ScopedTx } from "../../db/tenancy.ts";
import type { CandidateStage, InterviewStatus, OfferStatus, PostingStatus, RequisitionStatus, SessionStatus } from "./states.ts";

async function stateOf<T extends string>(tx: ScopedTx, statement: Sql): Promise<T | null> {
  const [row] = await query<{ state: T }>(statement, tx);
  return row?.state ?? null;
}

export function lockRequisition(tx: ScopedTx, id: string): Promise<RequisitionStatus | null> {
  return stateOf(
    tx,
    sql`SELECT status AS state FROM job_requisitions WHERE tenant_id
      = ${tenant}::uuid AND id = ${id}::uuid AND deleted_at IS NULL FOR UPDATE`,
  );
}

export function lockPosting(tx: ScopedTx, id: string): Promise<PostingStatus | null> {
  return stateOf(
    tx,
    sql`SELECT status AS state FROM job_postings WHERE tenant_id = ${tenant}::uuid AND id = ${id}::uuid AND deleted_at IS NULL FOR UPDATE`,
  );
}

export function lockCandidate(tx: ScopedTx, id: string): Promise<CandidateStage | null> {
  return stateOf(
    tx,
    sql`SELECT stage AS state FROM candidates WHERE tenant_id = ${tenant}::uuid AND id = ${id}::uuid AND deleted_at IS NULL FOR UPDATE`,
  );
}

export function lockInterview(tx: ScopedTx, id: string): Promise<InterviewStatus | null> {
  return stateOf(
    tx,
    sql`SELECT status AS state FROM interviews WHERE tenant_id = ${tenant}::uuid AND id = ${id}::uuid AND deleted_at IS NULL FOR UPDATE`,
  );
}

export function lockSession(tx: ScopedTx, id: string): Promise<SessionStatus | null> {
  return stateOf(
    tx,
    sql`SELECT status AS state FROM interview_sessions WHERE tenant_id
      = ${tenant}::uuid AND id = ${id}::uuid AND deleted_at IS NULL FOR UPDATE`,
  );
}

export function lockOffer(tx: ScopedTx, id: string): Promise<OfferStatus | null> {
  return stateOf(
    tx,
    sql`SELECT status AS state FROM job_offers WHERE tenant_id = ${tenant}::uuid AND id = ${id}::uuid AND deleted_at IS NULL FOR UPDATE`,
  );
}

/** The next `n` keys of a walk of the candidates (src/db/keyset.ts walkPage; the list's filters are applied to them). */
export function candidateKeys(w: Walk, after: WalkKey | null, n: number): Promise<ScannedKey[]> {
  return read<ScannedKey>(sql`SELECT id, ${walkKey()} FROM candidates
      WHERE tenant_id = ${tenant}::uuid AND ${walkAnd({ ...w, after }, { softDeleted: true })} ORDER BY ${walkOrder()} LIMIT ${n}`);
}
