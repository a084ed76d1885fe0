// Company settings (name, currency, time zone, weekly offs, fiscal year, enabled modules): the
// active tenant's row, changed under its row lock and audited in the same transaction.
import { audit, diff } from "../../platform/audit.ts";
import { activeTenant, updateActiveTenant } from "../../db/central.ts";
import { currentTenantId, tenantTx } from "../../db/tenancy.ts";
import { config } from "../../config.ts";
import { forbidden, invalidField } from "../../platform/errors.ts";
import type { ModuleName, RequestBody } from "../../platform/use-case.ts";
import type { Prisma } from "../../../generated/prisma/client.ts";
import { type CompanyRow, companyRow } from "./queries.ts";

const COMPANY_COLUMNS = {
  id: true,
  name: true,
  legal_name: true,
  address: true,
  currency: true,
  timezone: true,
  weekly_offs: true,
  fiscal_year_start_month: true,
  modules: true,
  updated_at: true,
} as const;

function companyJson(t: CompanyRow) {
  return {
    id: t.id,
    name: t.name,
    legal_name: t.legal_name,
    address: t.address,
    currency: t.currency,
    timezone: t.timezone,
    weekly_offs: t.weekly_offs,
    fiscal_year_start_month: t.fiscal_year_start_month,
    modules: t.modules as ModuleName[],
    updated_at: t.updated_at.toISOString(),
  };
}

function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export async function companySettings() {
  return companyJson(await activeTenant(COMPANY_COLUMNS));
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const x = new Set(a);
  const y = new Set(b);
  return x.size === y.size && [...x].every((v) => y.has(v));
}

/**
 * Changes the given settings (a known IANA time zone; weekly offs and modules sorted); audits what
 * changed. `modules` naming the set already enabled (in any order) is no change. Under
 * MODULES_FROM_BILLING only the subscription changes modules: a different set is a 403 and nothing
 * of the request is saved.
 */
export async function changeCompanySettings(input: RequestBody<"updateCompanySettings">) {
  if (input.timezone !== undefined && !isValidTimeZone(input.timezone))
    throw invalidField("body.timezone", "is not a known IANA time zone");
  const after = await tenantTx(async (tx) => {
    const before = await companyRow(tx, { lock: true });
    const data: Prisma.TenantUpdateInput = {};
    if (input.name !== undefined) data.name = input.name;
    if (input.legal_name !== undefined) data.legal_name = input.legal_name;
    if (input.address !== undefined) data.address = input.address;
    if (input.currency !== undefined) data.currency = input.currency;
    if (input.timezone !== undefined) data.timezone = input.timezone;
    if (input.fiscal_year_start_month !== undefined) data.fiscal_year_start_month = input.fiscal_year_start_month;
    if (input.weekly_offs) data.weekly_offs = [...input.weekly_offs].sort();
    if (input.modules && !sameSet(input.modules, before.modules)) {
      if (config().modulesFromBilling)
        throw forbidden(
          "Modules are switched by the company's subscription (MODULES_FROM_BILLING): change the plan with the billing " +
            "provider, or send the modules enabled now",
        );
      data.modules = [...input.modules].sort();
    }
    await updateActiveTenant(data, tx);
    const after = await companyRow(tx);
    const changes = diff({ ...before }, { ...after }, Object.keys(data));
    if (Object.keys(changes).length)
      await audit(
        {
          action: changes.modules ? "settings.modules_changed" : "settings.updated",
          entity_type: "tenant",
          entity_id: currentTenantId(),
          changes,
        },
        tx,
      );
    return after;
  });
  return companyJson(after);
}
