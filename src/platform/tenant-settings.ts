// Per-tenant settings documents (table tenant_settings, one row per kind). A row stores only
// the values that differ from the defaults, so a later change of a default reaches every
// company that did not override it. Updates are audited with from → to values.
import type { Prisma } from "../../generated/prisma/client.ts";
import { audit, diff } from "./audit.ts";
import { currentTenantId, db, tenantTx } from "../db/tenancy.ts";

export async function readSettingsDoc<T extends object>(kind: string, defaults: T): Promise<T & { updated_at: string | null }> {
  const row = await db.tenantSetting.findFirst({ where: { kind } });
  return { ...defaults, ...((row?.settings as object) ?? {}), updated_at: row?.updated_at.toISOString() ?? null };
}

export async function writeSettingsDoc<T extends object>(
  kind: string,
  defaults: T,
  patch: Partial<T>,
  userId: string,
): Promise<T & { updated_at: string }> {
  return tenantTx(async (tx) => {
    const row = await tx.tenantSetting.findFirst({ where: { kind } });
    const before = { ...defaults, ...((row?.settings as object) ?? {}) } as Record<string, unknown>;
    const after = { ...before, ...patch } as Record<string, unknown>;
    const dflt = defaults as Record<string, unknown>;
    const stored = Object.fromEntries(Object.entries(after).filter(([k, v]) => JSON.stringify(dflt[k]) !== JSON.stringify(v)));
    const saved = await tx.tenantSetting.upsert({
      where: { tenant_id_kind: { tenant_id: currentTenantId(), kind } },
      create: { kind, settings: stored as Prisma.InputJsonObject, updated_by: userId },
      update: { settings: stored as Prisma.InputJsonObject, updated_by: userId },
    });
    const changes = diff(before, after, Object.keys(patch));
    if (Object.keys(changes).length)
      await audit({ action: `settings.${kind}_updated`, entity_type: "tenant_setting", entity_id: saved.id, changes }, tx);
    return { ...(after as T), updated_at: saved.updated_at.toISOString() };
  });
}
