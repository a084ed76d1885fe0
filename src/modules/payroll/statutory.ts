// Statutory payroll settings: defaults are the rules in force (see ../../../../shared DOMAIN.md
// §3.1–3.2 for sources); a tenant's row stores only what it changed.
import { audit, diff } from "../../audit.ts";
import { currentTenantId, db, tenantTx } from "../../db/tenancy.ts";
import { invalidField } from "../../http/errors.ts";
import { money } from "../../lib/money.ts";

export const PF_DEFAULTS = {
  enabled: true,
  employee_rate: "12.00",
  employer_rate: "12.00",
  eps_rate: "8.33",
  edli_rate: "0.50",
  admin_charge_rate: "0.50",
  admin_charge_minimum: "500.00",
  wage_ceiling: "15000.00",
  restrict_to_ceiling: true,
  eps_age_limit: 58,
};

export const ESI_DEFAULTS = {
  enabled: true,
  employee_rate: "0.75",
  employer_rate: "3.25",
  wage_threshold: "21000.00",
  disabled_wage_threshold: "25000.00",
  low_wage_daily_exemption: "176.00",
};

const DEFAULTS = { pf: PF_DEFAULTS, esi: ESI_DEFAULTS };
type Kind = keyof typeof DEFAULTS;
const RATE_FIELDS = new Set(["employee_rate", "employer_rate", "eps_rate", "edli_rate", "admin_charge_rate"]);

export async function readSettings<K extends Kind>(kind: K): Promise<(typeof DEFAULTS)[K] & { updated_at: string | null }> {
  const row = await db.statutorySetting.findFirst({ where: { kind } });
  return { ...DEFAULTS[kind], ...((row?.settings as object) ?? {}), updated_at: row?.updated_at.toISOString() ?? null };
}

export async function updateSettings<K extends Kind>(kind: K, patch: Record<string, unknown>, userId: string) {
  for (const [k, v] of Object.entries(patch)) if (RATE_FIELDS.has(k) && money(v as string).gt(100)) throw invalidField(`body.${k}`, "must be at most 100");
  const merged = await tenantTx(async (tx) => {
    const row = await tx.statutorySetting.findFirst({ where: { kind } });
    const before = { ...DEFAULTS[kind], ...((row?.settings as object) ?? {}) } as Record<string, unknown>;
    const after = { ...before, ...patch };
    const stored = Object.fromEntries(Object.entries(after).filter(([k, v]) => (DEFAULTS[kind] as Record<string, unknown>)[k] !== v));
    const saved = await tx.statutorySetting.upsert({
      where: { tenant_id_kind: { tenant_id: currentTenantId(), kind } },
      create: { kind, settings: stored, updated_by: userId } as any,
      update: { settings: stored as object, updated_by: userId },
    });
    const changes = diff(before, after, Object.keys(patch));
    if (Object.keys(changes).length) await audit({ action: `settings.${kind}_updated`, entity_type: "statutory_setting", entity_id: saved.id, changes }, tx);
    return { ...after, updated_at: saved.updated_at.toISOString() };
  });
  return merged as (typeof DEFAULTS)[K] & { updated_at: string };
}
