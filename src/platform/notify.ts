// In-app notification + email (through the outbox) for a person, written with the caller's
// transaction client so both exist only if the change commits.
import type { components } from "../../generated/api-types.ts";
import { queueEmail } from "./mail/outbox.ts";

/** The kinds the document lists (NotificationKind): the compiler refuses a kind it does not know. */
export type NotificationKind = components["schemas"]["NotificationKind"];

export interface NotifyInput {
  userId: string;
  email?: string | null;
  kind: NotificationKind;
  title: string;
  body?: string;
  link?: string;
}

type NotifyClient = {
  notification: { create: (args: any) => Promise<unknown> };
  emailOutbox: { create: (args: any) => Promise<{ id: string }> };
};

export async function notify(client: NotifyClient, n: NotifyInput): Promise<void> {
  await client.notification.create({
    data: { user_id: n.userId, kind: n.kind, title: n.title, body: n.body ?? null, link: n.link ?? null },
  });
  if (n.email) await queueEmail(client, { to: n.email, subject: n.title, text: n.body ?? n.title });
}
