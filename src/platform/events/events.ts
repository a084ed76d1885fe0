// Events (docs/integrations.md): an audited change naming an `event` is also one, written by `audit()` in
// the change's transaction (an outbox): it exists if and only if the change committed. After commit the
// sequencer numbers it and queues its deliveries (deliver.ts). `data` is the record's id, type and the
// audit's `changes`, not the whole resource.
import type { EventType } from "../../../generated/registry.ts";
import * as clock from "../../lib/clock.ts";
import { kickAfterWork } from "../mail/outbox.ts";
import { execute, sql, tenant } from "../../db/sql.ts";

export const DELIVER_JOB = "integrations.deliver-webhooks";

export interface EventInput {
  type: EventType;
  entity_type?: string | null;
  entity_id?: string | null;
  changes?: Record<string, unknown> | null;
  /** for a client that is not tenant-scoped (the system client): the company */
  tenant_id?: string;
  /** a test ping: for this endpoint only, not in the feed */
  endpoint_id?: string;
}

export type EventClient = { event: { create: (args: { data: any }) => Promise<unknown> } };

/** Writes the event with `client` (the change's transaction) and kicks delivery after the work. */
export async function recordEvent(client: EventClient, e: EventInput): Promise<void> {
  await client.event.create({
    data: {
      ...(e.tenant_id ? { tenant_id: e.tenant_id } : {}),
      type: e.type,
      data: { id: e.entity_id ?? null, entity_type: e.entity_type ?? null, changes: e.changes ?? null },
      endpoint_id: e.endpoint_id ?? null,
      created_at: clock.now(),
    },
  });
  kickAfterWork(DELIVER_JOB);
}

/** Many events in one statement (audited bulk imports), then one kick of delivery. */
export async function recordEvents(client: Parameters<typeof execute>[1], es: EventInput[]): Promise<void> {
  if (!es.length) return;
  const data = es.map((e) => ({
    type: e.type,
    data: { id: e.entity_id ?? null, entity_type: e.entity_type ?? null, changes: e.changes ?? null },
  }));
  await execute(
    sql`INSERT INTO events (tenant_id, type, data, endpoint_id, created_at)
      SELECT ${tenant}::uuid, x.type, x.data, NULL, ${clock.now()}::timestamptz
      FROM jsonb_to_recordset(${JSON.stringify(data)}::jsonb) AS x(type text, data jsonb)`,
    client,
  );
  kickAfterWork(DELIVER_JOB);
}
