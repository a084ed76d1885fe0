// MODULES_FROM_BILLING=true: the billing webhook alone switches modules; company settings refuse a
// change of the enabled modules (403) and take everything else, including the current set repeated.
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config.ts";
import { appWith, expectError, signupTenant, useTestApp } from "../support/app.ts";
import { api } from "../support/api.ts";

const secret = "whsec_modules_from_billing";
const t = useTestApp({ config: { billingWebhookSecret: secret, modulesFromBilling: true } });
const stripe = new Stripe("sk_test_unused");

function subscribe(tenantId: string, modules: string[]) {
  const payload = JSON.stringify({
    id: `evt_mfb_${tenantId}_${modules.join("_")}`,
    object: "event",
    type: "customer.subscription.updated",
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: "sub_mfb",
        object: "subscription",
        customer: `cus_${tenantId.slice(0, 8)}`,
        status: "active",
        metadata: { tenant_id: tenantId },
        items: { data: modules.map((m) => ({ price: { lookup_key: m, metadata: {} } })) },
      },
    },
  });
  return t
    .request()
    .post("/api/billing/webhook")
    .set("Content-Type", "application/json")
    .set("Stripe-Signature", stripe.webhooks.generateTestHeaderString({ payload, secret }))
    .send(payload);
}

describe("updateCompanySettings, receiveBillingWebhook: modules from billing (MODULES_FROM_BILLING=true)", () => {
  it("refuses a change of modules with 403 and saves nothing of that request", async () => {
    const o = await signupTenant(t, { company: "Billed Co" });
    const res = expectError(
      await api(o.agent).op("updateCompanySettings", { body: { name: "Renamed Co", modules: ["payroll"] } }),
      403,
      "forbidden",
    );
    expect(res.error).toMatch(/subscription/i);
    const s = await api(o.agent).op("getCompanySettings").expect(200);
    expect(s.body.data).toMatchObject({ name: "Billed Co", modules: [] });
    expectError(await api(o.agent).op("getPfSettings"), 403, "module_disabled");
    const log = await api(o.agent)
      .op("listActivityLog", { query: { action: "settings.modules_changed" } })
      .expect(200);
    expect(log.body.data).toHaveLength(0);
  });

  it("takes other settings, and the current set of modules repeated in any order", async () => {
    const o = await signupTenant(t);
    await api(o.agent)
      .op("updateCompanySettings", { body: { name: "Still Fine", modules: [] } })
      .expect(200);
    await subscribe(o.tenantId, ["payroll", "assets"]).expect(200);
    const same = await api(o.agent).op("updateCompanySettings", { body: { weekly_offs: [5, 6], modules: ["payroll", "assets"] } });
    expect(same.status).toBe(200);
    expect(same.body.data).toMatchObject({ name: "Still Fine", weekly_offs: [5, 6], modules: ["payroll", "assets"] });
    // switching one off is a change too
    expectError(await api(o.agent).op("updateCompanySettings", { body: { modules: ["payroll"] } }), 403, "forbidden");
    expect((await api(o.agent).op("getCompanySettings")).body.data.modules).toEqual(["payroll", "assets"]);
    // the subscription changes them
    expect((await subscribe(o.tenantId, ["helpdesk"]).expect(200)).body.data.modules).toEqual(["helpdesk"]);
    expect((await api(o.agent).op("getCompanySettings")).body.data.modules).toEqual(["helpdesk"]);
  });

  it("leaves owner/admin switching on where the setting is off (self-hosted)", async () => {
    const selfHosted = appWith(t, { modulesFromBilling: false });
    const o = await signupTenant(t);
    const res = await api(selfHosted.as(o.agent))
      .op("updateCompanySettings", { body: { modules: ["payroll"] } })
      .expect(200);
    expect(res.body.data.modules).toEqual(["payroll"]);
  });
});

describe("updateCompanySettings: MODULES_FROM_BILLING's default follows billing", () => {
  it("is on when BILLING_WEBHOOK_SECRET is set and the variable is not; off without billing; the variable decides when given", () => {
    expect(loadConfig({ BILLING_WEBHOOK_SECRET: secret }, "/srv/hrms").modulesFromBilling).toBe(true);
    expect(loadConfig({}, "/srv/hrms").modulesFromBilling).toBe(false);
    expect(loadConfig({ BILLING_WEBHOOK_SECRET: secret, MODULES_FROM_BILLING: "false" }, "/srv/hrms").modulesFromBilling).toBe(false);
    expect(loadConfig({ MODULES_FROM_BILLING: "true" }, "/srv/hrms").modulesFromBilling).toBe(true);
  });

  it("a free signup on a server with billing configured cannot switch paid modules on", async () => {
    const env = loadConfig({ BILLING_WEBHOOK_SECRET: secret }, "/srv/hrms");
    const billed = appWith(t, { billingWebhookSecret: env.billingWebhookSecret, modulesFromBilling: env.modulesFromBilling });
    const o = await signupTenant(t);
    expectError(
      await api(billed.as(o.agent)).op("updateCompanySettings", { body: { modules: ["payroll", "recruitment", "helpdesk", "assets"] } }),
      403,
      "forbidden",
    );
    expect((await api(billed.as(o.agent)).op("getCompanySettings").expect(200)).body.data.modules).toEqual([]);
  });
});
