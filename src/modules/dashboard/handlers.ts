// Dashboard metrics for the caller's scope.
import { ok } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { dashboardOverview } from "./overview.ts";

export const handlers = {
  async getDashboardOverview({ auth }) {
    return ok(await dashboardOverview(auth));
  },
} satisfies Partial<AreaHandlers<"dashboard">>;
