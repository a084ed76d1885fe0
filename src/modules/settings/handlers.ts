// Company settings (incl. enabled modules) and the system activity log.
import { audit, auditEntryJson, diff } from "../../audit.ts";
import { systemDb } from "../../db/client.ts";
import { db, tenantTx } from "../../db/tenancy.ts";
import { ok, pageOf, paginated } from "../../http/envelope.ts";
import { invalidField } from "../../http/errors.ts";
import type { AreaHandlers } from "../../http/types.ts";
import type { Prisma } from "../../../generated/prisma/client.ts";

type TenantRow = Awaited<ReturnType<typeof systemDb.tenant.findUniqueOrThrow>>;
type ModuleName = "payroll" | "recruitment" | "helpdesk" | "assets";

export function settingsJson(t: TenantRow) {
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

export const handlers = {
  async getCompanySettings({ auth }) {
    return ok(settingsJson(await systemDb.tenant.findUniqueOrThrow({ where: { id: auth.tenantId } })));
  },

  async updateCompanySettings({ body, auth }) {
    if (body.timezone !== undefined && !isValidTimeZone(body.timezone)) {
      throw invalidField("body.timezone", "is not a known IANA time zone");
    }
    const updated = await tenantTx(async (tx) => {
      const [before] = await tx.$queryRaw<TenantRow[]>`SELECT * FROM tenants WHERE id = ${auth.tenantId}::uuid FOR UPDATE`;
      const data: Prisma.TenantUpdateInput = {};
      for (const k of ["name", "legal_name", "address", "currency", "timezone", "fiscal_year_start_month"] as const) if (body[k] !== undefined) (data as any)[k] = body[k];
      if (body.weekly_offs) data.weekly_offs = [...body.weekly_offs].sort();
      if (body.modules) data.modules = [...body.modules].sort();
      const after = await tx.tenant.update({ where: { id: auth.tenantId }, data });
      const changes = diff(before as any, after as any, Object.keys(data));
      if (Object.keys(changes).length) await audit({ action: changes.modules ? "settings.modules_changed" : "settings.updated", entity_type: "tenant", entity_id: auth.tenantId, changes }, tx);
      return after;
    });
    return ok(settingsJson(updated), "Settings updated");
  },

  async listActivityLog({ query }) {
    const page = pageOf(query);
    const where: Prisma.AuditLogWhereInput = {};
    if (query.action) where.action = query.action.endsWith(".") ? { startsWith: query.action } : query.action;
    if (query.actor_user_id) where.actor_user_id = query.actor_user_id;
    if (query.entity_type) where.entity_type = query.entity_type;
    if (query.entity_id) where.entity_id = query.entity_id;
    if (query.from || query.to)
      where.created_at = { ...(query.from ? { gte: new Date(`${query.from}T00:00:00Z`) } : {}), ...(query.to ? { lt: new Date(new Date(`${query.to}T00:00:00Z`).getTime() + 86400000) } : {}) };
    const [rows, total] = await Promise.all([db.auditLog.findMany({ where, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: page.skip, take: page.limit }), db.auditLog.count({ where })]);
    return paginated(rows.map(auditEntryJson), page, total);
  },
} satisfies AreaHandlers<"settings">;
