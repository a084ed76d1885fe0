// Proof-harness factories of the integrations area (issue 31; merged into test/proof/factories.ts;
// see its header for what a factory and a scope mean).
import { api, rowOf, type Factory } from "./factory-kit.ts";

export const factories: Record<string, Factory> = {
  "/api/integrations/credentials/{id}": {
    scope: { tenant: "API credentials belong to the company, managed by owner/admin" },
    async create(ctx) {
      const r = await api(ctx.owner.agent, "post", "/api/integrations/credentials", {
        name: "Proof credential",
        scopes: ["employees:read"],
      });
      return { id: r.credential.id, snapshot: rowOf(ctx.t, "api_credentials", r.credential.id) };
    },
  },
};
