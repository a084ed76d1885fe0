// The billing provider's webhook: verified with Stripe's own signature check, processed once per
// event id; a subscription event sets the tenant's modules and billing columns unless a newer
// event was applied already, and a change of modules is audited. Runs on the system client (the
// event names its tenant).
import Stripe from "stripe";
import { config } from "../../config.ts";
import { systemDb } from "../../db/client.ts";
import { AppError } from "../../http/errors.ts";
import type { ModuleName } from "../../http/types.ts";
import { lockBillingTenant } from "./queries.ts";
import { modulesFromSubscription } from "./subscriptions.ts";

const stripe = new Stripe("sk_webhook_verification_only");
const SUBSCRIPTION_EVENTS = new Set(["customer.subscription.created", "customer.subscription.updated", "customer.subscription.deleted"]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface BillingEventResult {
  event_id: string;
  handled: boolean;
  duplicate: boolean;
  tenant_id: string | null;
  modules: ModuleName[] | null;
}

/** The event, if the signature over the raw body is valid and at most 5 minutes old. */
function verifiedEvent(raw: Buffer | undefined, signature: string): Stripe.Event {
  const secret = config().billingWebhookSecret;
  if (!secret) throw new AppError(503, "unavailable", "The billing webhook is not configured (BILLING_WEBHOOK_SECRET)");
  try {
    return stripe.webhooks.constructEvent(raw ?? Buffer.alloc(0), signature, secret, 300);
  } catch {
    throw new AppError(400, "invalid_signature", "The webhook signature is invalid or too old");
  }
}

/** Verifies and applies one webhook delivery (a repeated event id changes nothing). */
export async function receiveBillingEvent(raw: Buffer | undefined, signature: string): Promise<BillingEventResult> {
  const event = verifiedEvent(raw, signature);
  const result = await systemDb.$transaction(async (tx) => {
    const fresh = await tx.billingEvent.createMany({ data: [{ id: event.id, type: event.type, handled: false }], skipDuplicates: true });
    if (fresh.count === 0) return { handled: false, duplicate: true, tenant_id: null, modules: null };
    if (!SUBSCRIPTION_EVENTS.has(event.type)) return { handled: false, duplicate: false, tenant_id: null, modules: null };
    const sub = event.data.object as Stripe.Subscription;
    const tenantId = sub.metadata?.tenant_id;
    if (!tenantId || !UUID.test(tenantId)) return { handled: false, duplicate: false, tenant_id: null, modules: null };
    const tenant = await lockBillingTenant(tx, tenantId);
    if (!tenant) return { handled: false, duplicate: false, tenant_id: null, modules: null };
    const at = new Date((event.created ?? Math.floor(Date.now() / 1000)) * 1000);
    if (tenant.billing_event_at && tenant.billing_event_at > at)
      return { handled: false, duplicate: false, tenant_id: tenant.id, modules: tenant.modules as ModuleName[] };
    const modules = modulesFromSubscription(sub, event.type === "customer.subscription.deleted");
    await tx.tenant.update({
      where: { id: tenant.id },
      data: {
        modules,
        billing_customer_id: typeof sub.customer === "string" ? sub.customer : (sub.customer?.id ?? null),
        billing_subscription_id: sub.id ?? null,
        subscription_status: event.type === "customer.subscription.deleted" ? "canceled" : (sub.status ?? null),
        billing_event_at: at,
      },
    });
    await tx.billingEvent.update({ where: { id: event.id }, data: { handled: true, tenant_id: tenant.id } });
    const before = [...tenant.modules].sort();
    if (JSON.stringify(before) !== JSON.stringify(modules))
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
    return { handled: true, duplicate: false, tenant_id: tenant.id, modules };
  });
  return { event_id: event.id, ...result };
}
