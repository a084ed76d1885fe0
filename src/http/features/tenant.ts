// The handler runs in the caller's company: every query of `db` is scoped to it (src/db/tenancy.ts).
import { withTenant } from "../../db/tenancy.ts";
import type { Feature } from "./feature.ts";

export const tenant: Feature = {
  name: "tenant",
  applies: (op) => !op.isPublic,
  // without a company only where the operation allows it (x-tenant-optional: no caller's company yet)
  wrap: (call, next) => (call.auth ? withTenant(call.auth.tenantId, next) : next()),
};
