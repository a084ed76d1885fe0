// Company settings (incl. enabled modules) and the system activity log. Each handler translates
// HTTP to one use case (company.ts, activity-log.ts) and back.
import { ok, pageOf, paginated } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { activityPage } from "./activity-log.ts";
import { changeCompanySettings, companySettings } from "./company.ts";

export const handlers = {
  async getCompanySettings() {
    return ok(await companySettings());
  },

  async updateCompanySettings({ body }) {
    return ok(await changeCompanySettings(body), "Settings updated");
  },

  async listActivityLog({ query }) {
    const page = pageOf(query);
    const { rows, total } = await activityPage(query, page);
    return paginated(rows, page, total);
  },
} satisfies Partial<AreaHandlers<"settings">>;
