// The system activity log: the tenant's audit entries, newest first, filtered.
import type { Prisma } from "../../../generated/prisma/client.ts";
import { auditEntryJson } from "../../platform/audit.ts";
import { db } from "../../db/tenancy.ts";
import { type Listing, type Page, pageOf } from "../../platform/use-case.ts";
import { type Walk, walkPage } from "../../db/keyset.ts";
import { auditKeys } from "./queries.ts";
import { instantsOfDays } from "../../lib/dates.ts";
import { loadAttendanceSettings } from "../shared/work-settings.ts";
import type { QueryParams } from "../../platform/use-case.ts";

/** The activity log: a page by number (newest first), or a page of a walk in the order of change (docs/integrations-sync.md). */
export async function activityList(
  q: QueryParams<"listActivityLog">,
  walk: Walk | null,
): Promise<Listing<ReturnType<typeof auditEntryJson>>> {
  if (!walk) {
    const page = pageOf(q);
    return { ...(await activityPage(q, page)), page };
  }
  const where = await activityFilter(q);
  const { rows, last } = await walkPage(
    walk,
    (after, n) => auditKeys(walk, after, n),
    (ids) => db.auditLog.findMany({ where: { ...where, id: { in: ids } } }),
  );
  return { rows: rows.map((r) => auditEntryJson(r)), walk, last };
}

async function activityFilter(q: QueryParams<"listActivityLog">): Promise<Prisma.AuditLogWhereInput> {
  const where: Prisma.AuditLogWhereInput = {};
  if (q.action) where.action = q.action.endsWith(".") ? { startsWith: q.action } : q.action;
  if (q.actor_user_id) where.actor_user_id = q.actor_user_id;
  if (q.entity_type) where.entity_type = q.entity_type;
  if (q.entity_id) where.entity_id = q.entity_id;
  // the company's calendar days, as its HR team reads them
  if (q.from || q.to) where.created_at = instantsOfDays(q.from, q.to, (await loadAttendanceSettings()).timezone);
  return where;
}

export async function activityPage(
  q: QueryParams<"listActivityLog">,
  page: Page,
): Promise<{ rows: ReturnType<typeof auditEntryJson>[]; total: number }> {
  const where = await activityFilter(q);
  const [rows, total] = await Promise.all([
    db.auditLog.findMany({ where, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: page.skip, take: page.limit }),
    db.auditLog.count({ where }),
  ]);
  return { rows: rows.map((r) => auditEntryJson(r)), total }; // owner and admin only: actor details shown
}
