// The billing provider's webhook: Stripe's signature check (plus a bound on future timestamps, which it lets
// through), once per event id; a subscription event sets the tenant's modules unless a newer one applied.
// A company binds to the first customer whose live subscription event names it: events from any other
// customer are acknowledged and ignored, so one customer can neither grant nor remove another's modules.
import Stripe from "stripe";
import { config } from "../../config.ts";
import { systemDb } from "../../db/client.ts";
import { logger } from "../../log.ts";
import { AppError } from "../../platform/errors.ts";
import type { ModuleName } from "../../platform/use-case.ts";
import { lockBillingTenant } from "./queries.ts";
import { modulesFromSubscription, subscriptionIsLive } from "./subscriptions.ts";

const stripe = new Stripe("sk_webhook_verification_only");
const SUBSCRIPTION_EVENTS = new Set(["customer.subscription.created", "customer.subscription.updated", "customer.subscription.deleted"]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** How old a signature's timestamp may be (replay window). */
export const SIGNATURE_MAX_AGE_S = 300;
/** How far a signature's timestamp may lie in the future (the provider's clock ahead of ours). */
export const SIGNATURE_MAX_SKEW_S = 60;

/** Why an event changed nothing (null: it was applied). */
export type IgnoredReason =
  | "duplicate"
  | "unhandled_type"
  | "unknown_company"
  | "customer_mismatch"
  | "customer_in_use"
  | "unbound"
  | "stale";

export interface BillingEventResult {
  event_id: string;
  handled: boolean;
  duplicate: boolean;
  tenant_id: string | null;
  modules: ModuleName[] | null;
  reason: IgnoredReason | null;
}

/** The timestamp (`t=`) of a Stripe-Signature header, read as Stripe's library reads it (the last `t` wins). */
function signedAt(header: string): number | null {
  let t: number | null = null;
  for (const item of header.split(",")) {
    const [k, v] = item.split("=");
    if (k === "t") t = Number.parseInt(v ?? "", 10);
  }
  return t !== null && Number.isFinite(t) ? t : null;
}

/** The event, if the signature over the raw body is valid and its timestamp within 5 minutes before and 1 minute after now. */
function verifiedEvent(raw: Buffer | undefined, signature: string): Stripe.Event {
  const secret = config().billingWebhookSecret;
  if (!secret) throw new AppError("unavailable", "The billing webhook is not configured (BILLING_WEBHOOK_SECRET)");
  const at = signedAt(signature);
  const now = Math.floor(Date.now() / 1000); // machine time: the signature's age, by the sender's clock
  let event: Stripe.Event;
  try {
    event = stripe.webhooks.constructEvent(raw ?? Buffer.alloc(0), signature, secret, SIGNATURE_MAX_AGE_S);
  } catch {
    if (at !== null && now - at > SIGNATURE_MAX_AGE_S)
      throw new AppError("invalid_signature", `The webhook signature's timestamp is more than ${SIGNATURE_MAX_AGE_S} seconds old`);
    throw new AppError("invalid_signature", "The webhook signature is invalid");
  }
  if (at === null || at - now > SIGNATURE_MAX_SKEW_S)
    throw new AppError("invalid_signature", `The webhook signature's timestamp is more than ${SIGNATURE_MAX_SKEW_S} seconds in the future`);
  return event;
}

const ignored = (reason: IgnoredReason, tenant: { id: string; modules: string[] } | null = null) => ({
  handled: false,
  duplicate: reason === "duplicate",
  tenant_id: tenant?.id ?? null,
  modules: tenant ? (tenant.modules as ModuleName[]) : null,
  reason,
});

/** Verifies and applies one webhook delivery (a repeated event id changes nothing). */
export async function receiveBillingEvent(raw: Buffer | undefined, signature: string): Promise<BillingEventResult> {
  const event = verifiedEvent(raw, signature);
  const result = await systemDb.$transaction(async (tx) => {
    const fresh = await tx.billingEvent.createMany({ data: [{ id: event.id, type: event.type, handled: false }], skipDuplicates: true });
    if (fresh.count === 0) return ignored("duplicate");
    if (!SUBSCRIPTION_EVENTS.has(event.type)) return ignored("unhandled_type");
    const sub = event.data.object as Stripe.Subscription;
    const deleted = event.type === "customer.subscription.deleted";
    const tenantId = sub.metadata?.tenant_id;
    if (!tenantId || !UUID.test(tenantId)) return ignored("unknown_company");
    const tenant = await lockBillingTenant(tx, tenantId);
    if (!tenant) return ignored("unknown_company");
    const customer = typeof sub.customer === "string" ? sub.customer : (sub.customer?.id ?? null);
    if (!customer) return ignored("customer_mismatch");
    // The first live subscription of a company binds it to its customer (a no-op when the company or
    // the customer is bound already; waits for a concurrent binding of either to commit).
    if (!deleted && subscriptionIsLive(sub))
      await tx.billingCustomer.createMany({ data: [{ customer_id: customer, tenant_id: tenant.id }], skipDuplicates: true });
    const bound = await tx.billingCustomer.findUnique({ where: { tenant_id: tenant.id }, select: { customer_id: true } });
    if (bound?.customer_id !== customer) {
      const holder = bound ? null : await tx.billingCustomer.findUnique({ where: { customer_id: customer }, select: { tenant_id: true } });
      // bound to another customer; or not bound because the customer is another company's, or
      // because this event's subscription is not live (only a live one binds)
      const reason: IgnoredReason = bound ? "customer_mismatch" : holder ? "customer_in_use" : "unbound";
      logger.warn({ event_id: event.id, tenant_id: tenant.id, customer, reason }, "billing event ignored: not the company's customer");
      return ignored(reason);
    }
    const at = new Date((event.created ?? Math.floor(Date.now() / 1000)) * 1000); // machine time: the sender's clock
    if (tenant.billing_event_at && tenant.billing_event_at > at) return ignored("stale", tenant);
    const modules = modulesFromSubscription(sub, deleted);
    await tx.tenant.update({
      where: { id: tenant.id },
      data: {
        modules,
        billing_customer_id: customer,
        billing_subscription_id: sub.id ?? null,
        subscription_status: deleted ? "canceled" : (sub.status ?? null),
        billing_event_at: at,
      },
    });
    await tx.billingEvent.update({ where: { id: event.id }, data: { handled: true, tenant_id: tenant.id } });
    const before = [...tenant.modules].sort();
    if (JSON.stringify(before) !== JSON.stringify([...modules].sort()))
      await tx.auditLog.create({
        data: {
          tenant_id: tenant.id,
          action: "settings.modules_changed",
          entity_type: "tenant",
          entity_id: tenant.id,
          actor_email: "billing-webhook",
          changes: { modules: { from: before, to: modules }, event_id: event.id },
        },
      });
    return { handled: true, duplicate: false, tenant_id: tenant.id, modules, reason: null };
  });
  return { event_id: event.id, ...result };
}
