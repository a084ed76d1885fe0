// Billing webhook: Stripe signature, idempotency, ordering, modules from the subscription.
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { modulesFromSubscription } from "../../src/modules/billing/subscriptions.ts";
import { expectError, signupTenant, useTestApp } from "../support/app.ts";

const secret = "whsec_test_secret_for_hrms";
const t = useTestApp({ config: { billingWebhookSecret: secret } });
const stripe = new Stripe("sk_test_unused");
let seq = 0;

function subscriptionEvent(
  tenantId: string,
  opts: { type?: string; status?: string; lookupKeys?: string[]; created?: number; id?: string; metaModules?: string } = {},
) {
  return {
    id: opts.id ?? `evt_test_${Date.now()}_${seq++}`,
    object: "event",
    type: opts.type ?? "customer.subscription.updated",
    created: opts.created ?? Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: "sub_123",
        object: "subscription",
        customer: "cus_456",
        status: opts.status ?? "active",
        metadata: { tenant_id: tenantId, ...(opts.metaModules ? { modules: opts.metaModules } : {}) },
        items: { data: (opts.lookupKeys ?? []).map((k) => ({ price: { lookup_key: k, metadata: {} } })) },
      },
    },
  };
}

function send(event: object, sign = secret) {
  const payload = JSON.stringify(event);
  const header = stripe.webhooks.generateTestHeaderString({ payload, secret: sign });
  return t.request().post("/api/billing/webhook").set("Content-Type", "application/json").set("Stripe-Signature", header).send(payload);
}

describe("receiveBillingWebhook: billing webhook", () => {
  it("maps subscriptions to modules", () => {
    expect(
      modulesFromSubscription({
        status: "active",
        items: { data: [{ price: { lookup_key: "hrms_payroll" } }, { price: { lookup_key: "assets" } }] },
      }),
    ).toEqual(["payroll", "assets"]);
    expect(modulesFromSubscription({ status: "trialing", metadata: { modules: "helpdesk, recruitment ,bogus" } })).toEqual([
      "recruitment",
      "helpdesk",
    ]);
    expect(modulesFromSubscription({ status: "canceled", items: { data: [{ price: { lookup_key: "payroll" } }] } })).toEqual([]);
    expect(modulesFromSubscription({ status: "active", items: { data: [{ price: { lookup_key: "payroll" } }] } }, true)).toEqual([]);
  });

  it("enables the subscribed modules, once per event, and audits the change", async () => {
    const o = await signupTenant(t);
    const event = subscriptionEvent(o.tenantId, { lookupKeys: ["hrms_payroll", "hrms_assets"] });
    const res = await send(event).expect(200);
    expect(res.body.data).toMatchObject({ handled: true, duplicate: false, tenant_id: o.tenantId, modules: ["payroll", "assets"] });
    const s = await o.agent.get("/api/configuration/company-settings").expect(200);
    expect(s.body.data.modules).toEqual(["payroll", "assets"]);
    await o.agent.get("/api/configuration/payroll/pf-settings").expect(200);
    const again = await send(event).expect(200);
    expect(again.body.data).toMatchObject({ duplicate: true, handled: false });
    const log = await o.agent.get("/api/configuration/activity-log?action=settings.modules_changed").expect(200);
    expect(log.body.data).toHaveLength(1);
    expect(log.body.data[0].changes.modules).toEqual({ from: [], to: ["payroll", "assets"] });
  });

  it("disables modules when the subscription is cancelled or deleted, and ignores older events", async () => {
    const o = await signupTenant(t);
    const now = Math.floor(Date.now() / 1000);
    await send(subscriptionEvent(o.tenantId, { lookupKeys: ["payroll"], created: now })).expect(200);
    const late = await send(subscriptionEvent(o.tenantId, { lookupKeys: ["payroll", "helpdesk"], created: now - 60 })).expect(200);
    expect(late.body.data.handled).toBe(false);
    expect((await o.agent.get("/api/configuration/company-settings")).body.data.modules).toEqual(["payroll"]);
    await send(subscriptionEvent(o.tenantId, { type: "customer.subscription.deleted", lookupKeys: ["payroll"], created: now + 1 })).expect(
      200,
    );
    expect((await o.agent.get("/api/configuration/company-settings")).body.data.modules).toEqual([]);
    expectError(await o.agent.get("/api/configuration/payroll/pf-settings"), 403, "module_disabled");
  });

  it("refuses a bad signature and a missing header; ignores unrelated events", async () => {
    const o = await signupTenant(t);
    expectError(await send(subscriptionEvent(o.tenantId, { lookupKeys: ["payroll"] }), "whsec_wrong"), 400, "invalid_signature");
    expectError(await t.request().post("/api/billing/webhook").send(subscriptionEvent(o.tenantId)), 400, "validation_failed");
    expect((await o.agent.get("/api/configuration/company-settings")).body.data.modules).toEqual([]);
    const other = await send({ id: `evt_other_${seq++}`, object: "event", type: "invoice.paid", created: 1, data: { object: {} } }).expect(
      200,
    );
    expect(other.body.data).toMatchObject({ handled: false, duplicate: false, tenant_id: null });
  });
});
