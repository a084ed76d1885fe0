// The integrations area's raw SQL (docs/integrations.md): replaying events to an endpoint.
import { execute, sql, tenant } from "../../db/sql.ts";
import type { ScopedTx } from "../../db/tenancy.ts";

/** At most this many events per replay. */
export const REPLAY_MAX = 10_000;

/**
 * New deliveries to `endpointId` of the company's feed events from `from` to `to` (inclusive) of
 * the endpoint's types (all when it has none), oldest first, at most REPLAY_MAX; how many.
 */
export async function queueReplayRange(tx: ScopedTx, endpointId: string, from: Date, to: Date): Promise<number> {
  return execute(
    sql`INSERT INTO webhook_deliveries (tenant_id, endpoint_id, event_id)
        SELECT e.tenant_id, w.id, e.id
          FROM events e JOIN webhook_endpoints w ON w.tenant_id = e.tenant_id AND w.id = ${endpointId}::uuid
         WHERE e.tenant_id = ${tenant} AND e.endpoint_id IS NULL AND e.created_at >= ${from} AND e.created_at <= ${to}
           AND (cardinality(w.event_types) = 0 OR e.type = ANY (w.event_types))
         ORDER BY e.created_at, e.id
         LIMIT ${REPLAY_MAX}`,
    tx,
  );
}
