import { lock, rawTx, tryLock } from "../../db/primitives.ts";

// ─── sequencing ───

/** Numbers committed events and queues their deliveries; with `onlyIfFree`, nothing while another sequencer runs. */
export function sequenceEvents(limit = 5000, onlyIfFree = false): Promise<number> {
  return rawTx(async (client) => {
    if (onlyIfFree) {
      if (!(await tryLock(client, { kind: "event-sequencer" }))) return 0;
    } else await lock(client, { kind: "event-sequencer" });
    // cross-tenant: the sequencer numbers every company's events in one order
    const { rowCount } = await client.query(
      `WITH next AS (
         SELECT tenant_id, id, row_number() OVER (ORDER BY created_at, id) AS n
           FROM (SELECT tenant_id, id, created_at FROM events WHERE seq IS NULL ORDER BY created_at, id LIMIT $1) e
       ), top AS (SELECT coalesce(max(seq), 0) AS s FROM events),
       numbered AS (
         UPDATE events e SET seq = top.s + next.n FROM next, top
          WHERE e.tenant_id = next.tenant_id AND e.id = next.id
         RETURNING e.tenant_id, e.id, e.type, e.endpoint_id
       ), queued AS (
         INSERT INTO webhook_deliveries (tenant_id, endpoint_id, event_id)
         SELECT n.tenant_id, w.id, n.id FROM numbered n
           JOIN webhook_endpoints w ON w.tenant_id = n.tenant_id
          WHERE (n.endpoint_id IS NULL AND w.enabled AND (cardinality(w.event_types) = 0 OR n.type = ANY (w.event_types)))
             OR n.endpoint_id = w.id
         RETURNING 1
       )
       SELECT (SELECT count(*) FROM queued) AS queued FROM numbered`,
      [limit],
    );
    return rowCount ?? 0;
  });
}

/** Numbers what has committed before a read of the feed (unless a sequencer is at it already). */
export async function sequencePending(): Promise<void> {
  await sequenceEvents(5000, true);
}
