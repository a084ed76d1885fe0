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
  async getProfessionalTaxSettings() {
    return ok(await readSettings("pt"));
  },
  async updateProfessionalTaxSettings({ body, auth }) {
    return ok(await updateSettings("pt", body, auth.userId), "Professional tax settings updated");
  },
  async getGratuitySettings() {
    return ok(await readSettings("gratuity"));
  },
  async updateGratuitySettings({ body, auth }) {
    return ok(await updateSettings("gratuity", body, auth.userId), "Gratuity settings updated");
  },
} satisfies AreaHandlers<"payroll">;
