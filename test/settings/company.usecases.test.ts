// Company settings through the use cases, without HTTP: validation, normalisation and audit.
import { describe, expect, it } from "vitest";
import { withTenant } from "../../src/db/tenancy.ts";
import { changeCompanySettings, companySettings } from "../../src/modules/settings/company.ts";
import { signupTenant, useTestApp } from "../support/app.ts";

const t = useTestApp();

describe("updateCompanySettings: the active company's row", () => {
  it(
    "refuses an unknown time zone; sorts weekly offs and modules; " + "audits a change of modules as such, nothing when nothing changed",
    async () => {
      const o = await signupTenant(t, { company: "Acme" });
      const other = await signupTenant(t, { company: "Other" });
      const as = <T>(fn: () => Promise<T>) => withTenant(o.tenantId, fn);
      await expect(as(() => changeCompanySettings({ timezone: "Mars/Olympus" }))).rejects.toMatchObject({
        status: 400,
        details: [{ path: "body.timezone" }],
      });
      const s = await as(() => changeCompanySettings({ legal_name: "Acme Pvt Ltd", weekly_offs: [6, 0, 5], timezone: "Asia/Dubai" }));
      expect(s).toMatchObject({
        id: o.tenantId,
        name: "Acme",
        legal_name: "Acme Pvt Ltd",
        weekly_offs: [0, 5, 6],
        timezone: "Asia/Dubai",
        modules: [],
      });
      expect(await as(() => changeCompanySettings({ modules: ["helpdesk", "assets"] }))).toMatchObject({ modules: ["assets", "helpdesk"] });
      await as(() => changeCompanySettings({ timezone: "Asia/Dubai" }));
      const audits = await t.query(
        `SELECT action, changes FROM audit_logs WHERE tenant_id = $1 AND ` +
          `entity_type = 'tenant' AND action LIKE 'settings.%' ORDER BY created_at`,
        [o.tenantId],
      );
      expect(audits).toEqual([
        {
          action: "settings.updated",
          changes: {
            legal_name: { from: null, to: "Acme Pvt Ltd" },
            timezone: { from: "Asia/Kolkata", to: "Asia/Dubai" },
            weekly_offs: { from: [0, 6], to: [0, 5, 6] },
          },
        },
        { action: "settings.modules_changed", changes: { modules: { from: [], to: ["assets", "helpdesk"] } } },
      ]);
      expect(await as(() => companySettings())).toMatchObject({ legal_name: "Acme Pvt Ltd", modules: ["assets", "helpdesk"] });
      // another company's row is untouched
      expect(await withTenant(other.tenantId, () => companySettings())).toMatchObject({
        name: "Other",
        legal_name: null,
        timezone: "Asia/Kolkata",
        modules: [],
      });
    },
  );
});
