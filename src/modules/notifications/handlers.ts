// In-app notifications of the signed-in user in the active tenant. Each handler translates HTTP
// to one use case (inbox.ts) and back.
import { ok, pageOf, paginated } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { inboxPage, markAllRead, markRead } from "./inbox.ts";

export const handlers = {
  async listNotifications({ query, auth }) {
    const page = pageOf(query);
    const { rows, total, unread } = await inboxPage(auth, page, { unreadOnly: query.unread });
    return paginated(rows, page, total, "OK", { unread_count: unread });
  },

  async markNotificationRead({ params, auth }) {
    return ok(await markRead(auth, params.notificationId), "Marked read");
  },

  async markAllNotificationsRead({ auth }) {
    return ok(await markAllRead(auth), "All marked read");
  },
} satisfies Partial<AreaHandlers<"notifications">>;
