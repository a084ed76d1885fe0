// Payroll area (module `payroll`).
import { ok } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { readSettings, updateSettings } from "./statutory.ts";

export const handlers = {
  async getPfSettings() {
    return ok(await readSettings("pf"));
  },
  async updatePfSettings({ body, auth }) {
    return ok(await updateSettings("pf", body, auth.userId), "PF settings updated");
  },
  async getEsiSettings() {
    return ok(await readSettings("esi"));
  },
  async updateEsiSettings({ body, auth }) {
    return ok(await updateSettings("esi", body, auth.userId), "ESI settings updated");
  },
} satisfies AreaHandlers<"payroll">;
