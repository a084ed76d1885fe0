// The company's event feed (docs/integrations.md), in `seq` order, test pings left out; an API credential
// without the area's read scope gets an event's id and type with `changes: null`.
import { db } from "../../db/tenancy.ts";
import { eventReadScopes } from "../../../generated/registry.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { sequencePending } from "../../platform/events/sequencer.ts";

type FeedType = NonNullable<RequestBody<"createWebhookEndpoint">["event_types"]>[number];
type Data = { id: string | null; entity_type: string | null; changes: Record<string, unknown> | null };

/** The read scope an event type's changes need (`x-read-scope` of its webhook): they are the record's fields. */
export function readScopeOf(type: string): string | null {
  return (eventReadScopes as Record<string, string | null>)[type] ?? null;
}

/** Whether `auth` may read the changes of events of `type`: a member's session may; a credential with the type's read scope. */
export function readsChangesOf(auth: Pick<AuthContext, "credential">, type: string): boolean {
  const scope = readScopeOf(type);
  return !auth.credential || scope === null || Boolean(auth.credential.scopes?.includes(scope));
}

/** The feed after `after`; an event whose changes `auth` may not read comes with `changes: null`. */
export async function eventsAfter(after: string | undefined, limit: number, auth: Pick<AuthContext, "credential">) {
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
    data: readsChangesOf(auth, e.type) ? (e.data as Data) : { ...(e.data as Data), changes: null },
  }));
  return { events, next: events.length ? events[events.length - 1].cursor : (after ?? null) };
}
