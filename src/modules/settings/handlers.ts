// Company settings (incl. enabled modules) and the system activity log. Each handler translates
// HTTP to one use case (company.ts, activity-log.ts) and back.
import { listed, ok } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { activityList } from "./activity-log.ts";
import { changeCompanySettings, companySettings } from "./company.ts";

export const handlers = {
  async getCompanySettings() {
    return ok(await companySettings());
  },

  async updateCompanySettings({ body }) {
    return ok(await changeCompanySettings(body), "Settings updated");
  },

  async listActivityLog({ operationId, query, walk }) {
    return listed(operationId, await activityList(query, walk));
  },
} satisfies Partial<AreaHandlers<"settings">>;
