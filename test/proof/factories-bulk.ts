// Proof-harness factories of the bulk area (merged into test/proof/factories.ts;
// see its header for what a factory and a scope mean).
import { call, type Factory, rowOf } from "./factory-kit.ts";

export const factories: Record<string, Factory> = {
  "/api/imports/{id}": {
    scope: { tenant: "imports belong to the company: made and read by owner/admin/hr" },
    async create(ctx) {
      // a dry run: an import record without changing anything else
      const r = await call(ctx.owner.agent, "importHolidays", { query: { dry_run: true }, body: { csv: "date,name\n2099-01-01,Proof\n" } });
      return { id: r.id, snapshot: rowOf(ctx.t, "imports", r.id) };
    },
  },
};
