// The integrations area's raw SQL (docs/integrations.md): replaying events to an endpoint.
import { execute, read, sql, tenant } from "../../db/sql.ts";
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

export interface SharedWithEndpoint {
  endpoint_id: string;
  url: string;
  event_types: string[];
  deliveries: number;
  last_delivered_at: Date | null;
}

/**
 * The webhook endpoints that were sent events about any of `ids` (delivered: a 2xx), from the
 * delivery log - who a person's data was shared with (an access request's bundle).
 */
export function endpointsThatReceived(ids: string[]): Promise<SharedWithEndpoint[]> {
  return read<SharedWithEndpoint>(
    sql`SELECT w.id AS endpoint_id, w.url, w.event_types, count(*)::int AS deliveries, max(a.created_at) AS last_delivered_at
          FROM events e
          JOIN webhook_deliveries d ON d.tenant_id = e.tenant_id AND d.event_id = e.id AND d.status = 'succeeded'
          JOIN webhook_endpoints w ON w.tenant_id = d.tenant_id AND w.id = d.endpoint_id
          LEFT JOIN webhook_attempts a ON a.tenant_id = d.tenant_id AND a.delivery_id = d.id AND a.status_code BETWEEN 200 AND 299
         WHERE e.tenant_id = ${tenant}::uuid AND e.endpoint_id IS NULL AND (e.data->>'id') = ANY (${ids}::text[])
         GROUP BY w.id, w.url, w.event_types ORDER BY w.url`,
  );
}

export interface SharedWithCredential {
  credential_id: string;
  name: string;
  actions: number;
  last_at: Date | null;
}

/** The API credentials whose calls changed any of `ids` (the activity log names them). */
export function credentialsThatTouched(ids: string[]): Promise<SharedWithCredential[]> {
  return read<SharedWithCredential>(
    sql`SELECT l.actor_credential_id AS credential_id, max(l.actor_credential_name) AS name, count(*)::int AS actions,
               max(l.created_at) AS last_at
          FROM audit_logs l
         WHERE l.tenant_id = ${tenant}::uuid AND l.actor_credential_id IS NOT NULL AND l.entity_id = ANY (${ids}::uuid[])
         GROUP BY l.actor_credential_id ORDER BY 2`,
  );
}
