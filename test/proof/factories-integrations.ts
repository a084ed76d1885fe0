// Proof-harness factories of the integrations area (merged into test/proof/factories.ts;
// see its header for what a factory and a scope mean).
import { call, rowOf, type Factory, type RequestInput } from "./factory-kit.ts";

export const factories: Record<string, Factory> = {
  "/api/integrations/credentials/{id}": {
    scope: { tenant: "API credentials belong to the company, managed by owner/admin" },
    async create(ctx) {
      const r = await call(ctx.owner.agent, "createApiCredential", {
        body: {
          name: "Proof credential",
          scopes: ["employees:read"],
        },
      });
      return { id: r.credential.id, snapshot: rowOf(ctx.t, "api_credentials", r.credential.id) };
    },
  },
  "/api/integrations/webhooks/{id}": {
    scope: { tenant: "webhook endpoints belong to the company, managed by owner/admin" },
    async create(ctx) {
      const r = await call(ctx.owner.agent, "createWebhookEndpoint", { body: { url: "https://hooks.example.com/proof" } });
      return { id: r.endpoint.id, snapshot: rowOf(ctx.t, "webhook_endpoints", r.endpoint.id) };
    },
  },
};

/** Adjustments of the generated valid request, by operationId. */
export const requests: Record<string, (ids: Record<string, string>) => Partial<RequestInput>> = {
  // the schema's properties are all optional; a replay names one event or a time range
  replayWebhookEvents: () => ({ body: { from: "2000-01-01T00:00:00Z", to: "2100-01-01T00:00:00Z" } }),
};
