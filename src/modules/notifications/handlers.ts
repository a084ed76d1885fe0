// In-app notifications of the signed-in user in the active tenant.
import { db } from "../../db/tenancy.ts";
import { ok, pageOf, paginated } from "../../http/envelope.ts";
import { notFound } from "../../http/errors.ts";
import type { AreaHandlers } from "../../http/types.ts";

function notificationJson(n: { id: string; kind: string; title: string; body: string | null; link: string | null; read_at: Date | null; created_at: Date }) {
  return { id: n.id, kind: n.kind, title: n.title, body: n.body, link: n.link, read_at: n.read_at?.toISOString() ?? null, created_at: n.created_at.toISOString() };
}

export const handlers = {
  async listNotifications({ query, auth }) {
    const page = pageOf(query);
    const where = { user_id: auth.userId, ...(query.unread ? { read_at: null } : {}) };
    const [rows, total, unread] = await Promise.all([
      db.notification.findMany({ where, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: page.skip, take: page.limit }),
      db.notification.count({ where }),
      db.notification.count({ where: { user_id: auth.userId, read_at: null } }),
    ]);
    return paginated(rows.map(notificationJson), page, total, "OK", { unread_count: unread });
  },

  async markNotificationRead({ params, auth }) {
    const n = await db.notification.findFirst({ where: { id: params.notificationId, user_id: auth.userId } });
    if (!n) throw notFound("Notification");
    const updated = n.read_at ? n : await db.notification.update({ where: { id: n.id }, data: { read_at: new Date() } });
    return ok(notificationJson(updated), "Marked read");
  },

  async markAllNotificationsRead({ auth }) {
    const r = await db.notification.updateMany({ where: { user_id: auth.userId, read_at: null }, data: { read_at: new Date() } });
    return ok({ updated: r.count }, "All marked read");
  },
} satisfies AreaHandlers<"notifications">;
