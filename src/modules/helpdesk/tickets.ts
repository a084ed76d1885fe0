// Helpdesk tickets: raised by any member (numbered per company, agents told), seen by their
// requester and the agents (owner, admin, hr), moved through the status machine (states.ts) and
// assigned by agents, closed or reopened by their requester, soft-deleted.
import type { Prisma } from "../../../generated/prisma/client.ts";
import { audit } from "../../platform/audit.ts";
import { db, tenantTx, byId, type ScopedTx } from "../../db/tenancy.ts";
import { type Listing, type Page, pageOf } from "../../platform/use-case.ts";
import { type Walk, walkPage, withDeletedAt } from "../../db/keyset.ts";
import { forbidden, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, QueryParams, RequestBody } from "../../platform/use-case.ts";
import { nextNumber } from "../../platform/sequences.ts";
import { notify } from "../../platform/notify.ts";
import { hrMemberIds, isHr, userNames } from "../shared/access.ts";
import { lockTicketStatus, ticketKeys } from "./queries.ts";
import {
  ACTIVE_TICKET_STATUSES,
  assertNotClosed,
  checkTicketMove,
  moveStamps,
  requesterMayChange,
  statusOnAssignment,
  ticketStatus,
} from "./states.ts";
import { ticketJson, type TicketJson, ticketsJson, visibleTicket } from "./views.ts";
import * as clock from "../../lib/clock.ts";

/** The tickets the caller may see: a page by number, newest first, or a page of a walk (docs/integrations-sync.md). */
export async function ticketList(
  auth: AuthContext,
  q: QueryParams<"listHelpdeskTickets">,
  walk: Walk | null,
): Promise<Listing<TicketJson>> {
  const where = ticketFilter(auth, q);
  if (walk) {
    if (walk.includeDeleted) delete where.deleted_at;
    const { rows, last } = await walkPage(
      walk,
      (after, n) => ticketKeys(walk, after, n),
      (ids) => db.helpdeskTicket.findMany({ where: { ...where, id: { in: ids } } }),
    );
    const json = await ticketsJson(auth, rows);
    return { rows: json.map((t, i) => withDeletedAt(t, rows[i].deleted_at)), walk, last };
  }
  const page = pageOf(q);
  return { ...(await ticketPage(auth, q, page)), page };
}

function ticketFilter(auth: AuthContext, q: QueryParams<"listHelpdeskTickets">): Prisma.HelpdeskTicketWhereInput {
  const where: Prisma.HelpdeskTicketWhereInput = { deleted_at: null, ...(isHr(auth) ? {} : { requester_user_id: auth.userId }) };
  if (q.status) where.status = q.status;
  if (q.priority) where.priority = q.priority;
  if (q.category) where.category = q.category;
  if (q.assignee_user_id) where.assignee_user_id = q.assignee_user_id;
  if (q.search) where.OR = [{ title: { contains: q.search, mode: "insensitive" } }, { ticket_number: { equals: q.search.toUpperCase() } }];
  return where;
}

/** A page of the tickets the caller may see, newest first, filtered. */
export async function ticketPage(
  auth: AuthContext,
  q: QueryParams<"listHelpdeskTickets">,
  page: Page,
): Promise<{ rows: TicketJson[]; total: number }> {
  const where = ticketFilter(auth, q);
  const [rows, total] = await Promise.all([
    db.helpdeskTicket.findMany({ where, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: page.skip, take: page.limit }),
    db.helpdeskTicket.count({ where }),
  ]);
  return { rows: await ticketsJson(auth, rows), total };
}

/** Raises a ticket (numbered TKT-nnnnn per company); every agent but the caller is told. */
export async function raiseTicket(auth: AuthContext, input: RequestBody<"createHelpdeskTicket">): Promise<TicketJson> {
  const ticket = await tenantTx(async (tx) => {
    const ticket_number = await nextNumber(tx, "helpdesk_ticket", "TKT-");
    const t = await tx.helpdeskTicket.create({
      data: {
        ticket_number,
        title: input.title.trim(),
        category: input.category,
        priority: input.priority,
        description: input.description,
        requester_user_id: auth.userId,
        requester_employee_id: auth.employeeId,
      },
    });
    await audit(
      {
        action: "helpdesk.ticket_created",
        event: "helpdesk.ticket_created",
        entity_type: "helpdesk_ticket",
        entity_id: t.id,
        changes: { ticket_number, priority: input.priority, category: input.category },
      },
      tx,
    );
    for (const userId of await hrMemberIds(tx, auth.userId))
      await notify(tx, {
        userId,
        kind: "helpdesk.ticket_created",
        title: `New ${input.priority} ticket ${ticket_number}: ${input.title}`,
        link: `/api/helpdesk/tickets/${t.id}`,
      });
    return t;
  });
  return ticketJson(auth, ticket);
}

/** A ticket the caller may see. */
export async function ticketById(auth: AuthContext, id: string): Promise<TicketJson> {
  return ticketJson(auth, await visibleTicket(auth, id));
}

/**
 * Changes status, priority or assignee: agents any allowed transition (an assignment moves an open
 * ticket to in progress), the requester only closing it or reopening a resolved one; a closed
 * ticket no longer changes. The requester and a new assignee are told.
 */
export async function changeTicket(auth: AuthContext, id: string, change: RequestBody<"updateHelpdeskTicket">): Promise<TicketJson> {
  const current = await visibleTicket(auth, id);
  if (!isHr(auth) && !requesterMayChange(ticketStatus(current.status), change))
    throw forbidden("Only the helpdesk team can change this; you may close your ticket or reopen a resolved one");
  if (change.assignee_user_id) {
    if (!(await hrMemberIds()).includes(change.assignee_user_id))
      throw invalidField("body.assignee_user_id", "must be an owner, admin or hr member of the company");
  }
  const updated = await tenantTx(async (tx) => {
    const locked = await lockTicketStatus(tx, current.id);
    if (locked === null) throw notFound("Ticket"); // deleted meanwhile
    const from = ticketStatus(locked);
    assertNotClosed(from);
    const moves = change.status ? checkTicketMove(from, change.status) : false;
    const data: Prisma.HelpdeskTicketUpdateInput = {};
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    if (change.status && moves) {
      Object.assign(data, { status: change.status }, moveStamps(change.status, clock.now()));
      changes.status = { from, to: change.status };
    }
    if (change.priority && change.priority !== current.priority) {
      data.priority = change.priority;
      changes.priority = { from: current.priority, to: change.priority };
    }
    if (change.assignee_user_id !== undefined && change.assignee_user_id !== current.assignee_user_id) {
      data.assignee_user_id = change.assignee_user_id;
      changes.assignee_user_id = { from: current.assignee_user_id, to: change.assignee_user_id };
      const assigned = change.status === undefined && change.assignee_user_id ? statusOnAssignment(from) : null;
      if (assigned) {
        data.status = assigned;
        changes.status = { from, to: assigned };
      }
    }
    const t = Object.keys(data).length ? await tx.helpdeskTicket.update({ where: byId(current.id), data }) : current;
    if (Object.keys(changes).length) {
      await audit(
        {
          action: changes.status ? "helpdesk.ticket_status_changed" : "helpdesk.ticket_updated",
          event: changes.status ? undefined : "helpdesk.ticket_updated",
          entity_type: "helpdesk_ticket",
          entity_id: t.id,
          changes,
        },
        tx,
      );
      await tellTicketChange(tx, auth, t, changes);
    }
    return t;
  });
  return ticketJson(auth, updated);
}

/** Tells the requester (unless they made the change) and a new assignee (unless they assigned themselves) of a ticket's change. */
async function tellTicketChange(
  tx: ScopedTx,
  auth: AuthContext,
  t: { id: string; ticket_number: string; title: string; status: string; requester_user_id: string; assignee_user_id: string | null },
  changes: Record<string, { from: unknown; to: unknown }>,
): Promise<void> {
  const requester = (await userNames([t.requester_user_id])).get(t.requester_user_id);
  if (t.requester_user_id !== auth.userId)
    await notify(tx, {
      userId: t.requester_user_id,
      email: requester?.email,
      kind: "helpdesk.ticket_updated",
      title: `Ticket ${t.ticket_number} is now ${t.status.replace("_", " ")}`,
      body: `Your ticket "${t.title}" was updated by ${auth.name}.`,
      link: `/api/helpdesk/tickets/${t.id}`,
    });
  if (changes.assignee_user_id && t.assignee_user_id && t.assignee_user_id !== auth.userId)
    await notify(tx, {
      userId: t.assignee_user_id,
      kind: "helpdesk.ticket_assigned",
      title: `Ticket ${t.ticket_number} was assigned to you`,
      link: `/api/helpdesk/tickets/${t.id}`,
    });
}

/** Soft-deletes a ticket the caller may see (audited). */
export async function discardTicket(auth: AuthContext, id: string): Promise<void> {
  const t = await visibleTicket(auth, id);
  await tenantTx(async (tx) => {
    if ((await lockTicketStatus(tx, t.id)) === null) throw notFound("Ticket"); // deleted meanwhile: one deletion, audited once
    await tx.helpdeskTicket.update({ where: byId(t.id), data: { deleted_at: clock.now() } });
    await audit(
      {
        action: "helpdesk.ticket_deleted",
        entity_type: "helpdesk_ticket",
        entity_id: t.id,
        changes: { ticket_number: t.ticket_number, status: t.status },
      },
      tx,
    );
  });
}

/** A member's access ended: their open tickets go back to the queue, audited `reason: assignee_left`. Returns how many. */
export async function releaseTicketsOf(tx: ScopedTx, userId: string): Promise<number> {
  const tickets = await tx.helpdeskTicket.findMany({
    where: { assignee_user_id: userId, deleted_at: null, status: { in: ACTIVE_TICKET_STATUSES } },
    select: { id: true },
    orderBy: { id: "asc" },
  });
  for (const t of tickets) {
    await tx.helpdeskTicket.update({ where: byId(t.id), data: { assignee_user_id: null } });
    await audit(
      {
        action: "helpdesk.ticket_updated",
        event: "helpdesk.ticket_updated",
        entity_type: "helpdesk_ticket",
        entity_id: t.id,
        changes: { assignee_user_id: { from: userId, to: null }, reason: "assignee_left" },
      },
      tx,
    );
  }
  return tickets.length;
}
