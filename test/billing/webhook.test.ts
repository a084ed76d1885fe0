// Billing webhook: Stripe signature (age and future dates), idempotency, ordering, the binding of a
// company to its billing customer, modules from the subscription.
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { modulesFromSubscription } from "../../src/modules/billing/subscriptions.ts";
import { expectError, signupTenant, useTestApp } from "../support/app.ts";
import { api } from "../support/api.ts";

const secret = "whsec_test_secret_for_hrms";
const t = useTestApp({ config: { billingWebhookSecret: secret } });
const stripe = new Stripe("sk_test_unused");
let seq = 0;

function subscriptionEvent(
  tenantId: string,
  opts: {
    type?: string;
    status?: string;
    lookupKeys?: string[];
    created?: number;
    id?: string;
    metaModules?: string;
    customer?: string | null;
  } = {},
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
        // each company its own customer unless a test says otherwise
        customer: opts.customer === undefined ? customerOf(tenantId) : opts.customer,
        status: opts.status ?? "active",
        metadata: { tenant_id: tenantId, ...(opts.metaModules ? { modules: opts.metaModules } : {}) },
        items: { data: (opts.lookupKeys ?? []).map((k) => ({ price: { lookup_key: k, metadata: {} } })) },
      },
    },
  };
}

function customerOf(tenantId: string): string {
  return `cus_${tenantId.replaceAll("-", "").slice(0, 14)}`;
}

function send(event: object, sign = secret, timestamp?: number) {
  const payload = JSON.stringify(event);
  const header = stripe.webhooks.generateTestHeaderString({ payload, secret: sign, timestamp });
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
    const s = await api(o.agent).op("getCompanySettings").expect(200);
    expect(s.body.data.modules).toEqual(["payroll", "assets"]);
    await api(o.agent).op("getPfSettings").expect(200);
    const again = await send(event).expect(200);
    expect(again.body.data).toMatchObject({ duplicate: true, handled: false });
    const log = await api(o.agent)
      .op("listActivityLog", { query: { action: "settings.modules_changed" } })
      .expect(200);
    expect(log.body.data).toHaveLength(1);
    expect(log.body.data[0].changes!.modules).toEqual({ from: [], to: ["payroll", "assets"] });
  });

  it("disables modules when the subscription is cancelled or deleted, and ignores older events", async () => {
    const o = await signupTenant(t);
    const now = Math.floor(Date.now() / 1000);
    await send(subscriptionEvent(o.tenantId, { lookupKeys: ["payroll"], created: now })).expect(200);
    const late = await send(subscriptionEvent(o.tenantId, { lookupKeys: ["payroll", "helpdesk"], created: now - 60 })).expect(200);
    expect(late.body.data.handled).toBe(false);
    expect((await api(o.agent).op("getCompanySettings")).body.data.modules).toEqual(["payroll"]);
    await send(subscriptionEvent(o.tenantId, { type: "customer.subscription.deleted", lookupKeys: ["payroll"], created: now + 1 })).expect(
      200,
    );
    expect((await api(o.agent).op("getCompanySettings")).body.data.modules).toEqual([]);
    expectError(await api(o.agent).op("getPfSettings"), 403, "module_disabled");
  });

  it("refuses a bad signature and a missing header; ignores unrelated events", async () => {
    const o = await signupTenant(t);
    expectError(await send(subscriptionEvent(o.tenantId, { lookupKeys: ["payroll"] }), "whsec_wrong"), 400, "invalid_signature");
    expectError(await t.request().post("/api/billing/webhook").send(subscriptionEvent(o.tenantId)), 400, "validation_failed");
    expect((await api(o.agent).op("getCompanySettings")).body.data.modules).toEqual([]);
    const other = await send({ id: `evt_other_${seq++}`, object: "event", type: "invoice.paid", created: 1, data: { object: {} } }).expect(
      200,
    );
    expect(other.body.data).toMatchObject({ handled: false, duplicate: false, tenant_id: null });
  });

  it("refuses signatures dated in the future beyond a minute of clock skew, and older than five minutes", async () => {
    const o = await signupTenant(t);
    const now = Math.floor(Date.now() / 1000);
    for (const at of [now + 3600, now + 120, now - 400]) {
      const e = expectError(await send(subscriptionEvent(o.tenantId, { lookupKeys: ["payroll"] }), secret, at), 400, "invalid_signature");
      expect(e.error).toMatch(/timestamp/i);
    }
    expect((await api(o.agent).op("getCompanySettings")).body.data.modules).toEqual([]);
    // a clock a few seconds behind the provider's is fine
    const skewed = await send(subscriptionEvent(o.tenantId, { lookupKeys: ["payroll"] }), secret, now + 30).expect(200);
    expect(skewed.body.data).toMatchObject({ handled: true, modules: ["payroll"] });
  });

  it("binds a company to the customer of its first subscription event and ignores other customers' events for it", async () => {
    const o = await signupTenant(t);
    const now = Math.floor(Date.now() / 1000);
    const first = await send(subscriptionEvent(o.tenantId, { lookupKeys: ["payroll"], customer: "cus_owner_of_a", created: now - 10 }));
    expect(first.body.data).toMatchObject({ handled: true, reason: null, modules: ["payroll"] });
    const [row] = await t.query("SELECT billing_customer_id FROM tenants WHERE id = $1", [o.tenantId]);
    expect(row.billing_customer_id).toBe("cus_owner_of_a");
    // another customer's subscription naming this company: neither grants nor removes anything
    for (const ev of [
      subscriptionEvent(o.tenantId, { lookupKeys: ["payroll", "recruitment", "helpdesk", "assets"], customer: "cus_intruder" }),
      subscriptionEvent(o.tenantId, { type: "customer.subscription.deleted", customer: "cus_intruder" }),
      subscriptionEvent(o.tenantId, { lookupKeys: ["assets"], customer: null }),
    ]) {
      const res = await send(ev).expect(200);
      expect(res.body.data).toMatchObject({
        handled: false,
        duplicate: false,
        tenant_id: null,
        modules: null,
        reason: "customer_mismatch",
      });
    }
    expect((await api(o.agent).op("getCompanySettings")).body.data.modules).toEqual(["payroll"]);
    const log = await api(o.agent)
      .op("listActivityLog", { query: { action: "settings.modules_changed" } })
      .expect(200);
    expect(log.body.data).toHaveLength(1);
    // its own customer still changes it
    const own = await send(subscriptionEvent(o.tenantId, { lookupKeys: ["payroll", "assets"], customer: "cus_owner_of_a" })).expect(200);
    expect(own.body.data).toMatchObject({ handled: true, modules: ["payroll", "assets"] });
    expect((await t.query("SELECT billing_customer_id FROM tenants WHERE id = $1", [o.tenantId]))[0].billing_customer_id).toBe(
      "cus_owner_of_a",
    );
  });

  it("binds a company only with a live subscription: a cancelled one of an unbound company changes nothing", async () => {
    const o = await signupTenant(t);
    const res = await send(subscriptionEvent(o.tenantId, { status: "canceled", customer: "cus_never_paid" })).expect(200);
    expect(res.body.data).toMatchObject({ handled: false, reason: "unbound" });
    expect((await t.query("SELECT count(*)::int AS n FROM billing_customers WHERE tenant_id = $1", [o.tenantId]))[0].n).toBe(0);
    const live = await send(subscriptionEvent(o.tenantId, { lookupKeys: ["helpdesk"], customer: "cus_paying" })).expect(200);
    expect(live.body.data).toMatchObject({ handled: true, reason: null, modules: ["helpdesk"] });
  });

  it("does not let one customer's subscription bind a second company", async () => {
    const a = await signupTenant(t);
    const b = await signupTenant(t);
    await send(subscriptionEvent(a.tenantId, { lookupKeys: ["payroll"], customer: "cus_shared" })).expect(200);
    const res = await send(subscriptionEvent(b.tenantId, { lookupKeys: ["payroll", "assets"], customer: "cus_shared" })).expect(200);
    expect(res.body.data).toMatchObject({ handled: false, tenant_id: null, modules: null, reason: "customer_in_use" });
    expect((await api(b.agent).op("getCompanySettings")).body.data.modules).toEqual([]);
    const rows = await t.query("SELECT id, billing_customer_id FROM tenants WHERE id = ANY($1::uuid[]) ORDER BY id", [
      [a.tenantId, b.tenantId],
    ]);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.billing_customer_id]))).toEqual({
      [a.tenantId]: "cus_shared",
      [b.tenantId]: null,
    });
  });
});
