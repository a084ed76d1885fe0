// The company's event feed (issue 31): the events in their one order (`seq`, given after commit by
// the sequencer of src/platform/events/deliver.ts), test pings left out.
import { db } from "../../db/tenancy.ts";
import type { RequestBody } from "../../platform/use-case.ts";
import { sequencePending } from "../../platform/events/sequencer.ts";

type FeedType = NonNullable<RequestBody<"createWebhookEndpoint">["event_types"]>[number];
type Data = { id: string | null; entity_type: string | null; changes: Record<string, unknown> | null };

export async function eventsAfter(after: string | undefined, limit: number) {
  await sequencePending();
  const rows = await db.event.findMany({
    where: { endpoint_id: null, seq: after === undefined ? { not: null } : { gt: BigInt(after) } },
    orderBy: { seq: "asc" },
    take: limit,
  });
  const events = rows.map((e) => ({
    id: e.id,
    cursor: String(e.seq),
    type: e.type as FeedType,
    timestamp: e.created_at.toISOString(),
    data: e.data as Data,
  }));
  return { events, next: events.length ? events[events.length - 1].cursor : (after ?? null) };
}
