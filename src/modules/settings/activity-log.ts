// The system activity log: the tenant's audit entries, newest first, filtered.
import type { Prisma } from "../../../generated/prisma/client.ts";
import { auditEntryJson } from "../../platform/audit.ts";
import { db } from "../../db/tenancy.ts";
import type { Page } from "../../http/envelope.ts";
import type { QueryParams } from "../../http/types.ts";

export async function activityPage(
  q: QueryParams<"listActivityLog">,
  page: Page,
): Promise<{ rows: ReturnType<typeof auditEntryJson>[]; total: number }> {
  const where: Prisma.AuditLogWhereInput = {};
  if (q.action) where.action = q.action.endsWith(".") ? { startsWith: q.action } : q.action;
  if (q.actor_user_id) where.actor_user_id = q.actor_user_id;
  if (q.entity_type) where.entity_type = q.entity_type;
  if (q.entity_id) where.entity_id = q.entity_id;
  if (q.from || q.to)
    where.created_at = {
      ...(q.from ? { gte: new Date(`${q.from}T00:00:00Z`) } : {}),
      ...(q.to ? { lt: new Date(new Date(`${q.to}T00:00:00Z`).getTime() + 86400000) } : {}),
    };
  const [rows, total] = await Promise.all([
    db.auditLog.findMany({ where, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: page.skip, take: page.limit }),
    db.auditLog.count({ where }),
  ]);
  return { rows: rows.map((r) => auditEntryJson(r)), total }; // owner and admin only: actor details shown
}
