// The signed-in user's in-app notifications in the active tenant: a page of them (unread only on
// request) with the unread count, and marking them read.
import { db, byId } from "../../db/tenancy.ts";
import { type Listing, type Page, pageOf } from "../../platform/use-case.ts";
import { type Walk, walkPage } from "../../db/keyset.ts";
import { notificationKeys } from "./queries.ts";
import { notFound } from "../../platform/errors.ts";
import type { AuthContext } from "../../platform/use-case.ts";
import type { NotificationKind } from "../../platform/notify.ts";
import * as clock from "../../lib/clock.ts";

function notificationJson(n: {
  id: string;
  kind: string;
  title: string;
  body: string | null;
  link: string | null;
  read_at: Date | null;
  created_at: Date;
}) {
  return {
    id: n.id,
    kind: n.kind as NotificationKind, // written only through notify() (typed) and the payroll slip notice
    title: n.title,
    body: n.body,
    link: n.link,
    read_at: n.read_at?.toISOString() ?? null,
    created_at: n.created_at.toISOString(),
  };
}
type NotificationJson = ReturnType<typeof notificationJson>;

/** The caller's notifications with the unread count: a page by number (newest first), or a page of a walk (docs/integrations-sync.md). */
export async function inboxList(
  auth: AuthContext,
  q: { page?: number; limit?: number; unread?: boolean },
  walk: Walk | null,
): Promise<{ listing: Listing<NotificationJson>; unread: number }> {
  if (!walk) {
    const page = pageOf(q);
    const { rows, total, unread } = await inboxPage(auth, page, { unreadOnly: q.unread });
    return { listing: { rows, page, total }, unread };
  }
  const where = { user_id: auth.userId, ...(q.unread ? { read_at: null } : {}) };
  const [{ rows, last }, unread] = await Promise.all([
    walkPage(
      walk,
      (after, n) => notificationKeys(walk, after, n),
      (ids) => db.notification.findMany({ where: { ...where, id: { in: ids } } }),
    ),
    db.notification.count({ where: { user_id: auth.userId, read_at: null } }),
  ]);
  return { listing: { rows: rows.map(notificationJson), walk, last }, unread };
}

export async function inboxPage(
  auth: AuthContext,
  page: Page,
  opts: { unreadOnly?: boolean } = {},
): Promise<{ rows: NotificationJson[]; total: number; unread: number }> {
  const where = { user_id: auth.userId, ...(opts.unreadOnly ? { read_at: null } : {}) };
  const [rows, total, unread] = await Promise.all([
    db.notification.findMany({ where, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: page.skip, take: page.limit }),
    db.notification.count({ where }),
    db.notification.count({ where: { user_id: auth.userId, read_at: null } }),
  ]);
  return { rows: rows.map(notificationJson), total, unread };
}

/** Marks one of the caller's notifications read (once: a read one keeps its time). */
export async function markRead(auth: AuthContext, id: string): Promise<NotificationJson> {
  const n = await db.notification.findFirst({ where: { id, user_id: auth.userId } });
  if (!n) throw notFound("Notification");
  const updated = n.read_at ? n : await db.notification.update({ where: byId(n.id), data: { read_at: clock.now() } });
  return notificationJson(updated);
}

/** Marks every unread notification of the caller read; returns how many. */
export async function markAllRead(auth: AuthContext): Promise<{ updated: number }> {
  const r = await db.notification.updateMany({ where: { user_id: auth.userId, read_at: null }, data: { read_at: clock.now() } });
  return { updated: r.count };
}
