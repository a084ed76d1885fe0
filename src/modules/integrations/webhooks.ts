// Webhook endpoints of the company (issue 31): managed by owners/admins or a credential with
// `webhooks:manage`; deliveries, signing and the address rules are src/platform/events/deliver.ts.
import { randomBytes } from "node:crypto";
import type { WebhookEndpoint } from "../../../generated/prisma/client.ts";
import { lockRow } from "../../db/sql.ts";
import { byId, db, type ScopedTx, tenantTx } from "../../db/tenancy.ts";
import type { Page } from "../../platform/use-case.ts";
import type { RequestBody } from "../../platform/use-case.ts";
import * as clock from "../../lib/clock.ts";
import { audit, diff } from "../../platform/audit.ts";
import { invalidField, notFound } from "../../platform/errors.ts";
import { refusedUrl } from "../../platform/events/outbound.ts";
import { DELIVER_JOB, recordEvent } from "../../platform/events/events.ts";
import { kickAfterWork } from "../../platform/mail/outbox.ts";
import { queueReplayRange } from "./queries.ts";
import { sealSecret } from "../../platform/events/secret-box.ts";

type CreateInput = RequestBody<"createWebhookEndpoint">;
type UpdateInput = RequestBody<"updateWebhookEndpoint">;
type ReplayInput = RequestBody<"replayWebhookEvents">;
type EventTypeName = NonNullable<CreateInput["event_types"]>[number];

/** How long a rotated-out secret still signs (a second signature). */
const PREVIOUS_SECRET_GRACE_MS = 24 * 3600 * 1000;

const newSecret = () => `whsec_${randomBytes(24).toString("base64")}`;

export function endpointJson(w: WebhookEndpoint) {
  const previousLive = w.previous_secret && w.previous_secret_expires_at && w.previous_secret_expires_at > clock.now();
  return {
    id: w.id,
    url: w.url,
    description: w.description,
    event_types: w.event_types as EventTypeName[],
    enabled: w.enabled,
    disabled_reason: w.disabled_reason,
    failing_since: w.failing_since?.toISOString() ?? null,
    previous_secret_expires_at: previousLive ? (w.previous_secret_expires_at?.toISOString() ?? null) : null,
    created_at: w.created_at.toISOString(),
    updated_at: w.updated_at.toISOString(),
  };
}

function checkUrl(url: string): void {
  const refused = refusedUrl(url);
  if (refused) throw invalidField("body.url", refused);
}

async function lockEndpoint(tx: ScopedTx, id: string): Promise<WebhookEndpoint> {
  if (!(await lockRow(tx, "webhook_endpoints", id))) throw notFound("Webhook endpoint");
  return tx.webhookEndpoint.findUniqueOrThrow({ where: byId(id) });
}

export async function endpointPage(page: Page) {
  const [rows, total] = await Promise.all([
    db.webhookEndpoint.findMany({ orderBy: [{ created_at: "desc" }, { id: "asc" }], skip: page.skip, take: page.limit }),
    db.webhookEndpoint.count(),
  ]);
  return { rows: rows.map(endpointJson), total };
}

export async function endpointById(id: string) {
  const w = await db.webhookEndpoint.findFirst({ where: { id } });
  if (!w) throw notFound("Webhook endpoint");
  return endpointJson(w);
}

export async function addWebhookEndpoint(input: CreateInput) {
  checkUrl(input.url);
  const secret = newSecret();
  const w = await tenantTx(async (tx) => {
    const w = await tx.webhookEndpoint.create({
      data: { url: input.url, description: input.description ?? null, event_types: input.event_types ?? [], secret: sealSecret(secret) },
    });
    await audit(
      {
        action: "webhook_endpoint.created",
        entity_type: "webhook_endpoint",
        entity_id: w.id,
        changes: { url: w.url, event_types: w.event_types, description: w.description },
      },
      tx,
    );
    return w;
  });
  return { endpoint: endpointJson(w), secret };
}

export async function changeWebhookEndpoint(id: string, input: UpdateInput) {
  if (input.url !== undefined) checkUrl(input.url);
  return endpointJson(
    await tenantTx(async (tx) => {
      const before = await lockEndpoint(tx, id);
      const reenabled = input.enabled === true && !before.enabled;
      const after = await tx.webhookEndpoint.update({
        where: byId(id),
        data: {
          ...input,
          ...(input.enabled === false ? { disabled_reason: "manual" } : {}),
          ...(reenabled ? { disabled_reason: null, failing_since: null } : {}),
        },
      });
      const changes = diff(before, after, ["url", "description", "event_types", "enabled"]);
      await audit({ action: "webhook_endpoint.updated", entity_type: "webhook_endpoint", entity_id: id, changes }, tx);
      return after;
    }),
  );
}

export async function removeWebhookEndpoint(id: string): Promise<void> {
  await tenantTx(async (tx) => {
    const w = await lockEndpoint(tx, id);
    await tx.webhookAttempt.deleteMany({ where: { endpoint_id: id } });
    await tx.webhookEndpoint.delete({ where: byId(id) });
    await audit({ action: "webhook_endpoint.deleted", entity_type: "webhook_endpoint", entity_id: id, changes: { url: w.url } }, tx);
  });
}

/** A new signing secret; the previous one signs too (a second signature) for a day. */
export async function replaceWebhookSecret(id: string) {
  const secret = newSecret();
  const w = await tenantTx(async (tx) => {
    const w = await lockEndpoint(tx, id);
    const until = new Date(clock.nowMs() + PREVIOUS_SECRET_GRACE_MS);
    const after = await tx.webhookEndpoint.update({
      where: byId(id),
      // the previous secret as stored (written before WEBHOOK_SECRET_KEY was set: as written, until it expires)
      data: { secret: sealSecret(secret), previous_secret: w.secret, previous_secret_expires_at: until },
    });
    await audit(
      {
        action: "webhook_endpoint.secret_rotated",
        entity_type: "webhook_endpoint",
        entity_id: id,
        changes: { previous_secret_valid_until: until.toISOString() },
      },
      tx,
    );
    return after;
  });
  return { endpoint: endpointJson(w), secret };
}

/** A `webhook.ping` event for this endpoint only. */
export async function pingWebhookEndpoint(id: string) {
  await tenantTx(async (tx) => {
    await lockEndpoint(tx, id);
    await recordEvent(tx, { type: "webhook.ping", entity_type: "webhook_endpoint", entity_id: id, changes: null, endpoint_id: id });
  });
  return { queued: 1 };
}

/** New deliveries (same webhook-id) of one event, or of a time range, to this endpoint. */
export async function replayToEndpoint(id: string, input: ReplayInput) {
  const hasRange = input.from !== undefined || input.to !== undefined;
  if (input.event_id === undefined && !hasRange) throw invalidField("body", "give event_id, or from and to");
  if (input.event_id !== undefined && hasRange) throw invalidField("body", "give event_id, or from and to, not both");
  if (hasRange && (input.from === undefined || input.to === undefined))
    throw invalidField(input.from === undefined ? "body.from" : "body.to", "is required with a time range");
  const from = input.from ? new Date(input.from) : null;
  const to = input.to ? new Date(input.to) : null;
  if (from && to && from > to) throw invalidField("body.to", "must not be before from");
  const queued = await tenantTx(async (tx) => {
    await lockEndpoint(tx, id);
    let queued: number;
    if (input.event_id !== undefined) {
      const e = await tx.event.findFirst({ where: { id: input.event_id, OR: [{ endpoint_id: null }, { endpoint_id: id }] } });
      if (!e) throw notFound("Event");
      await tx.webhookDelivery.create({ data: { endpoint_id: id, event_id: e.id } });
      queued = 1;
    } else queued = await queueReplayRange(tx, id, from as Date, to as Date);
    await audit(
      {
        action: "webhook_endpoint.replayed",
        entity_type: "webhook_endpoint",
        entity_id: id,
        changes: { queued, event_id: input.event_id ?? null, from: input.from ?? null, to: input.to ?? null },
      },
      tx,
    );
    return queued;
  });
  kickAfterWork(DELIVER_JOB);
  return { queued };
}

/** The endpoint's delivery log, newest first. */
export async function attemptPage(id: string, page: Page) {
  if (!(await db.webhookEndpoint.findFirst({ where: { id }, select: { id: true } }))) throw notFound("Webhook endpoint");
  const where = { endpoint_id: id };
  const [rows, total] = await Promise.all([
    db.webhookAttempt.findMany({ where, orderBy: [{ created_at: "desc" }, { id: "asc" }], skip: page.skip, take: page.limit }),
    db.webhookAttempt.count({ where }),
  ]);
  return {
    rows: rows.map((a) => ({
      id: a.id,
      event_id: a.event_id,
      event_type: a.event_type,
      attempt: a.attempt,
      status_code: a.status_code,
      latency_ms: a.latency_ms,
      response_body: a.response_body,
      error: a.error,
      created_at: a.created_at.toISOString(),
    })),
    total,
  };
}
