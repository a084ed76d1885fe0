// Tickets as API JSON (with requester/assignee names and the count of messages the caller sees),
// and which tickets and messages a caller may see: agents (owner, admin, hr) all, others their own
// tickets and no internal notes.
import type { components } from "../../../generated/api-types.ts";
import type { HelpdeskTicket, Prisma } from "../../../generated/prisma/client.ts";
import { db } from "../../db/tenancy.ts";
import { notFound } from "../../platform/errors.ts";
import type { AuthContext } from "../../platform/use-case.ts";
import { isHr, userNames } from "../shared/access.ts";
import { ticketStatus } from "./states.ts";

type S = components["schemas"];
export type Ticket = HelpdeskTicket;
export type TicketJson = S["HelpdeskTicket"];

export function visibleMessages(auth: AuthContext): Prisma.HelpdeskMessageWhereInput {
  return isHr(auth) ? {} : { internal: false };
}

/** The ticket if the caller may see it: agents see all, others their own. */
export async function visibleTicket(auth: AuthContext, id: string): Promise<Ticket> {
  const t = await db.helpdeskTicket.findFirst({
    where: { id, deleted_at: null, ...(isHr(auth) ? {} : { requester_user_id: auth.userId }) },
  });
  if (!t) throw notFound("Ticket");
  return t;
}

export async function ticketsJson(auth: AuthContext, tickets: Ticket[]): Promise<TicketJson[]> {
  const names = await userNames(tickets.flatMap((t) => [t.requester_user_id, t.assignee_user_id]));
  const counts = tickets.length
    ? await db.helpdeskMessage.groupBy({
        by: ["ticket_id"],
        where: { ticket_id: { in: tickets.map((t) => t.id) }, ...visibleMessages(auth) },
        _count: { _all: true },
      })
    : [];
  const countOf = new Map(counts.map((c) => [c.ticket_id, c._count._all]));
  return tickets.map((t) => ({
    id: t.id,
    ticket_number: t.ticket_number,
    title: t.title,
    category: t.category as S["HelpdeskCategory"],
    priority: t.priority as S["HelpdeskPriority"],
    description: t.description,
    status: ticketStatus(t.status),
    requester_user_id: t.requester_user_id,
    requester_name: names.get(t.requester_user_id)?.name ?? "Former member",
    requester_employee_id: t.requester_employee_id,
    assignee_user_id: t.assignee_user_id,
    assignee_name: t.assignee_user_id ? (names.get(t.assignee_user_id)?.name ?? null) : null,
    message_count: countOf.get(t.id) ?? 0,
    resolved_at: t.resolved_at?.toISOString() ?? null,
    closed_at: t.closed_at?.toISOString() ?? null,
    created_at: t.created_at.toISOString(),
    updated_at: t.updated_at.toISOString(),
  }));
}

export async function ticketJson(auth: AuthContext, ticket: Ticket): Promise<TicketJson> {
  return (await ticketsJson(auth, [ticket]))[0];
}
