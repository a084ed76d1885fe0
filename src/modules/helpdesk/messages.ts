// A ticket's conversation: replies (told to the other side) and internal notes of the agents,
// which only agents see.
import { db, tenantTx, byId } from "../../db/tenancy.ts";
import type { Page } from "../../platform/use-case.ts";
import { forbidden, notFound } from "../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { notify } from "../../platform/notify.ts";
import { isHr, userNames } from "../shared/access.ts";
import { lockTicketStatus } from "./queries.ts";
import { assertNotClosed, ticketStatus } from "./states.ts";
import { visibleMessages, visibleTicket } from "./views.ts";
import * as clock from "../../lib/clock.ts";

interface MessageJson {
  id: string;
  ticket_id: string;
  author_user_id: string;
  author_name: string;
  body: string;
  internal: boolean;
  created_at: string;
}

/** A page of the messages of a ticket the caller may see, oldest first (internal notes for agents only). */
export async function messagePage(auth: AuthContext, ticketId: string, page: Page): Promise<{ rows: MessageJson[]; total: number }> {
  const t = await visibleTicket(auth, ticketId);
  const where = { ticket_id: t.id, ...visibleMessages(auth) };
  const [rows, total] = await Promise.all([
    db.helpdeskMessage.findMany({ where, orderBy: [{ created_at: "asc" }, { id: "asc" }], skip: page.skip, take: page.limit }),
    db.helpdeskMessage.count({ where }),
  ]);
  const names = await userNames(rows.map((m) => m.author_user_id));
  return {
    rows: rows.map((m) => ({
      id: m.id,
      ticket_id: m.ticket_id,
      author_user_id: m.author_user_id,
      author_name: names.get(m.author_user_id)?.name ?? "Former member",
      body: m.body,
      internal: m.internal,
      created_at: m.created_at.toISOString(),
    })),
    total,
  };
}

/** Adds a reply or (agents) an internal note to an open ticket; a reply is told to the other side. */
export async function postMessage(auth: AuthContext, ticketId: string, input: RequestBody<"addHelpdeskMessage">): Promise<MessageJson> {
  const t = await visibleTicket(auth, ticketId);
  if (input.internal && !isHr(auth)) throw forbidden("Only the helpdesk team can add internal notes");
  const m = await tenantTx(async (tx) => {
    const status = await lockTicketStatus(tx, t.id);
    if (status === null) throw notFound("Ticket"); // deleted meanwhile
    assertNotClosed(ticketStatus(status));
    const msg = await tx.helpdeskMessage.create({
      data: { ticket_id: t.id, author_user_id: auth.userId, body: input.body, internal: input.internal ?? false },
    });
    await tx.helpdeskTicket.update({ where: byId(t.id), data: { updated_at: clock.now() } });
    if (!msg.internal) {
      const recipients =
        auth.userId === t.requester_user_id ? [t.assignee_user_id].filter((x): x is string => Boolean(x)) : [t.requester_user_id];
      const people = await userNames(recipients);
      for (const r of recipients)
        await notify(tx, {
          userId: r,
          email: people.get(r)?.email,
          kind: "helpdesk.message",
          title: `New reply on ticket ${t.ticket_number}`,
          body: `${auth.name}: ${input.body.slice(0, 500)}`,
          link: `/api/helpdesk/tickets/${t.id}`,
        });
    }
    return msg;
  });
  return {
    id: m.id,
    ticket_id: m.ticket_id,
    author_user_id: m.author_user_id,
    author_name: auth.name,
    body: m.body,
    internal: m.internal,
    created_at: m.created_at.toISOString(),
  };
}
