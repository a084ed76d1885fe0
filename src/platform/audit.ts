// Audit trail: every state change of a business record and every security event is written to
// `audit_logs` - inside the same transaction as the change when one is given.
import { Prisma } from "../../generated/prisma/client.ts";
import { systemDb } from "../db/client.ts";
import { db } from "../db/tenancy.ts";
import { requestContext } from "../request-context.ts";
import type { EventType } from "../../generated/registry.ts";
import { type EventClient, recordEvent, recordEvents } from "./events/events.ts";
import { execute, sql, tenant } from "../db/sql.ts";

export interface AuditEntry {
  action: string;
  entity_type?: string;
  entity_id?: string | null;
  changes?: Record<string, unknown> | null;
  /** The webhook event this change raises: declared by the producer, never inferred from the action's name. */
  event?: EventType;
}

type AuditClient = { auditLog: { create: (args: { data: Prisma.AuditLogUncheckedCreateInput }) => Promise<unknown> } } & EventClient;

/** The changes as a JSON column value (SQL NULL when there are none). */
const changesJson = (changes: AuditEntry["changes"]): Prisma.InputJsonValue | typeof Prisma.DbNull =>
  changes ? (changes as Prisma.InputJsonObject) : Prisma.DbNull;

function actor() {
  const ctx = requestContext.getStore();
  return {
    actor_user_id: ctx?.userId ?? null,
    actor_email: ctx?.email ?? null,
    ip: ctx?.ip ?? null,
    request_id: ctx?.requestId ?? null,
    // a change made with an API credential is audited under its name too (docs/integrations.md)
    actor_credential_id: ctx?.credential?.id ?? null,
    actor_credential_name: ctx?.credential?.name ?? null,
  };
}

/** Audit in the active tenant; an entry naming an `event` also writes it, with the same client (in the change's transaction). */
export async function audit(entry: AuditEntry, client: AuditClient = db): Promise<void> {
  await client.auditLog.create({
    data: {
      ...actor(),
      action: entry.action,
      entity_type: entry.entity_type ?? null,
      entity_id: entry.entity_id ?? null,
      changes: changesJson(entry.changes),
    },
  });
  if (entry.event) await recordEvent(client, { ...entry, type: entry.event });
}

/** Many entries at once (bulk imports), as `audit()` would write them, in two statements. */
export async function auditMany(entries: AuditEntry[], client: Parameters<typeof execute>[1]): Promise<void> {
  if (!entries.length) return;
  const a = actor();
  const rows = entries.map((e) => ({
    action: e.action,
    entity_type: e.entity_type ?? null,
    entity_id: e.entity_id ?? null,
    changes: e.changes ?? null,
  }));
  await execute(
    sql`INSERT INTO audit_logs (tenant_id, actor_user_id, actor_email, ip, request_id, actor_credential_id, actor_credential_name,
        action, entity_type, entity_id, changes)
      SELECT ${tenant}::uuid, ${a.actor_user_id}::uuid, ${a.actor_email}, ${a.ip}, ${a.request_id}, ${a.actor_credential_id}::uuid,
        ${a.actor_credential_name}, x.action, x.entity_type, x.entity_id, x.changes
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(action text, entity_type text, entity_id uuid, changes jsonb)`,
    client,
  );
  const events = entries.flatMap((e) => (e.event ? [{ ...e, type: e.event }] : []));
  if (events.length) await recordEvents(client, events);
}

/** Audit in explicit tenants (sign-in events, before a tenant is active). */
export async function auditTenants(
  tenantIds: string[],
  entry: Omit<AuditEntry, "event"> & { actor_user_id?: string | null; actor_email?: string | null },
): Promise<void> {
  if (!tenantIds.length) return;
  const a = actor();
  await systemDb.auditLog.createMany({
    data: tenantIds.map((tenant_id) => ({
      tenant_id,
      ...a,
      actor_user_id: entry.actor_user_id ?? a.actor_user_id,
      actor_email: entry.actor_email ?? a.actor_email,
      action: entry.action,
      entity_type: entry.entity_type ?? null,
      entity_id: entry.entity_id ?? null,
      changes: changesJson(entry.changes),
    })),
  });
}

/**
 * Identifiers of pay and statutory accounts (and the password hash): shown to their last four
 * characters in audit entries, and to managers reading their reports' records (employees/views.ts).
 */
export const MASKED_FIELDS = [
  "bank_account_number",
  "bank_ifsc",
  "bank_iban",
  "bank_routing_code",
  "labour_card_number",
  "pan_number",
  "uan",
  "esi_number",
  "password_hash",
] as const;
const MASKED = new Set<string>(MASKED_FIELDS);
export function mask(field: string, value: unknown): unknown {
  if (!MASKED.has(field) || value === null || value === undefined) return value;
  const s = String(value);
  return s.length <= 4 ? "****" : `${"*".repeat(Math.min(8, s.length - 4))}${s.slice(-4)}`;
}

function comparable(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString();
  if (v && typeof v === "object" && "toFixed" in (v as object)) return String(v);
  if (Array.isArray(v)) return JSON.stringify(v);
  return v ?? null;
}

/** `{ field: { from, to } }` for the fields of `after` whose values differ from `before` (sensitive ones masked). */
export function diff(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  fields?: string[],
): Record<string, { from: unknown; to: unknown }> {
  const out: Record<string, { from: unknown; to: unknown }> = {};
  for (const f of fields ?? Object.keys(after)) {
    if (f === "updated_at" || f === "created_at") continue;
    const a = comparable(before[f]);
    const b = comparable(after[f]);
    if (a !== b) out[f] = { from: mask(f, Array.isArray(before[f]) ? before[f] : a), to: mask(f, Array.isArray(after[f]) ? after[f] : b) };
  }
  return out;
}

/** An audit entry as the API shows it; `actorDetails: false` leaves out the actor's e-mail and IP (readers other than owner and admin). */
export function auditEntryJson(
  a: {
    id: string;
    action: string;
    actor_user_id: string | null;
    actor_email: string | null;
    entity_type: string | null;
    entity_id: string | null;
    changes: unknown;
    ip: string | null;
    created_at: Date;
    actor_credential_id?: string | null;
    actor_credential_name?: string | null;
  },
  opts: { actorDetails: boolean } = { actorDetails: true },
) {
  return {
    id: a.id,
    action: a.action,
    actor_user_id: a.actor_user_id,
    actor_email: opts.actorDetails ? a.actor_email : null,
    entity_type: a.entity_type,
    entity_id: a.entity_id,
    changes: (a.changes ?? null) as Record<string, unknown> | null,
    ip: opts.actorDetails ? a.ip : null,
    created_at: a.created_at.toISOString(),
    actor_credential: a.actor_credential_id ? { id: a.actor_credential_id, name: a.actor_credential_name ?? "" } : null,
  };
}
