// In-app notifications of the signed-in user in the active tenant. Each handler translates HTTP
// to one use case (inbox.ts) and back.
import { listed, ok } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { inboxList, markAllRead, markRead } from "./inbox.ts";

export const handlers = {
  async listNotifications({ operationId, query, auth, walk }) {
    const { listing, unread } = await inboxList(auth, query, walk);
    return listed(operationId, listing, "OK", { unread_count: unread });
  },

  async markNotificationRead({ params, auth }) {
    return ok(await markRead(auth, params.notificationId), "Marked read");
  },

  async markAllNotificationsRead({ auth }) {
    return ok(await markAllRead(auth), "All marked read");
  },
} satisfies Partial<AreaHandlers<"notifications">>;
