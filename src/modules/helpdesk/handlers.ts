// Helpdesk: tickets with a real status machine, assignment to agents, and a conversation.
import { audit } from "../../audit.ts";
import { db, tenantTx } from "../../db/tenancy.ts";
import { ack, created, ok, pageOf, paginated } from "../../http/envelope.ts";
import { conflict, forbidden, invalidField, notFound } from "../../http/errors.ts";
import type { AreaHandlers, AuthContext } from "../../http/types.ts";
import { nextNumber } from "../../lib/sequences.ts";
import { notify } from "../../notify.ts";
import type { Prisma } from "../../../generated/prisma/client.ts";
import { canTransition, requesterMayChange, type TicketStatus } from "./tickets.ts";
import { hrMemberIds, isHr, userNames } from "../shared/access.ts";

type Ticket = Awaited<ReturnType<typeof db.helpdeskTicket.findFirstOrThrow>>;

function visibleMessages(auth: AuthContext): Prisma.HelpdeskMessageWhereInput {
  return isHr(auth) ? {} : { internal: false };
}

async function ticketsJson(auth: AuthContext, tickets: Ticket[]) {
  const names = await userNames(tickets.flatMap((t) => [t.requester_user_id, t.assignee_user_id]));
  const counts = tickets.length
    ? await db.helpdeskMessage.groupBy({ by: ["ticket_id"], where: { ticket_id: { in: tickets.map((t) => t.id) }, ...visibleMessages(auth) }, _count: { _all: true } })
    : [];
  const countOf = new Map(counts.map((c) => [c.ticket_id, c._count._all]));
  return tickets.map((t) => ({
    id: t.id,
    ticket_number: t.ticket_number,
    title: t.title,
    category: t.category as "other",
    priority: t.priority as "low",
    description: t.description,
    status: t.status as TicketStatus,
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

/** The ticket if the caller may see it: agents see all, others their own. */
async function visibleTicket(auth: AuthContext, id: string): Promise<Ticket> {
  const t = await db.helpdeskTicket.findFirst({ where: { id, deleted_at: null, ...(isHr(auth) ? {} : { requester_user_id: auth.userId }) } });
  if (!t) throw notFound("Ticket");
  return t;
}

export const handlers = {
  async listHelpdeskTickets({ query, auth }) {
    const page = pageOf(query);
    const where: Prisma.HelpdeskTicketWhereInput = { deleted_at: null, ...(isHr(auth) ? {} : { requester_user_id: auth.userId }) };
    if (query.status) where.status = query.status;
    if (query.priority) where.priority = query.priority;
    if (query.category) where.category = query.category;
    if (query.assignee_user_id) where.assignee_user_id = query.assignee_user_id;
    if (query.search) where.OR = [{ title: { contains: query.search, mode: "insensitive" } }, { ticket_number: { equals: query.search.toUpperCase() } }];
    const [rows, total] = await Promise.all([
      db.helpdeskTicket.findMany({ where, orderBy: [{ created_at: "desc" }, { id: "desc" }], skip: page.skip, take: page.limit }),
      db.helpdeskTicket.count({ where }),
    ]);
    return paginated(await ticketsJson(auth, rows), page, total);
  },

  async createHelpdeskTicket({ body, auth }) {
    const ticket = await tenantTx(async (tx) => {
      const ticket_number = await nextNumber(tx, "helpdesk_ticket", "TKT-");
      const t = await tx.helpdeskTicket.create({
        data: { ticket_number, title: body.title.trim(), category: body.category, priority: body.priority, description: body.description, requester_user_id: auth.userId, requester_employee_id: auth.employeeId } as any,
      });
      await audit({ action: "helpdesk.ticket_created", entity_type: "helpdesk_ticket", entity_id: t.id, changes: { ticket_number, priority: body.priority, category: body.category } }, tx);
      for (const userId of await hrMemberIds(tx, auth.userId))
        await notify(tx, { userId, kind: "helpdesk.ticket_created", title: `New ${body.priority} ticket ${ticket_number}: ${body.title}`, link: `/api/helpdesk/tickets/${t.id}` });
      return t;
    });
    return created((await ticketsJson(auth, [ticket]))[0], "Ticket created");
  },

  async getHelpdeskTicket({ params, auth }) {
    return ok((await ticketsJson(auth, [await visibleTicket(auth, params.id)]))[0]);
  },

  async updateHelpdeskTicket({ params, body, auth }) {
    const current = await visibleTicket(auth, params.id);
    if (!isHr(auth) && !requesterMayChange(current.status as TicketStatus, body)) throw forbidden("Only the helpdesk team can change this; you may close your ticket or reopen a resolved one");
    if (body.assignee_user_id) {
      if (!(await hrMemberIds()).includes(body.assignee_user_id)) throw invalidField("body.assignee_user_id", "must be an owner, admin or hr member of the company");
    }
    const updated = await tenantTx(async (tx) => {
      // Lock the row: two agents changing the status at once are serialised.
      const [row] = await tx.$queryRaw<{ status: TicketStatus }[]>`SELECT status FROM helpdesk_tickets WHERE tenant_id = ${auth.tenantId}::uuid AND id = ${current.id}::uuid FOR UPDATE`;
      const from = row.status;
      if (from === "closed") throw conflict("The ticket is closed; raise a new ticket instead");
      if (body.status && !canTransition(from, body.status)) throw conflict(`A ticket cannot go from ${from} to ${body.status}`);
      const data: Prisma.HelpdeskTicketUpdateInput = {};
      const changes: Record<string, { from: unknown; to: unknown }> = {};
      if (body.status && body.status !== from) {
        data.status = body.status;
        changes.status = { from, to: body.status };
        if (body.status === "resolved") data.resolved_at = new Date();
        if (body.status === "closed") data.closed_at = new Date();
        if (body.status === "open") data.resolved_at = null;
      }
      if (body.priority && body.priority !== current.priority) {
        data.priority = body.priority;
        changes.priority = { from: current.priority, to: body.priority };
      }
      if (body.assignee_user_id !== undefined && body.assignee_user_id !== current.assignee_user_id) {
        data.assignee_user_id = body.assignee_user_id;
        changes.assignee_user_id = { from: current.assignee_user_id, to: body.assignee_user_id };
        if (body.status === undefined && from === "open" && body.assignee_user_id) {
          data.status = "in_progress";
          changes.status = { from, to: "in_progress" };
        }
      }
      const t = Object.keys(data).length ? await tx.helpdeskTicket.update({ where: { id: current.id }, data }) : current;
      if (Object.keys(changes).length) {
        await audit({ action: changes.status ? "helpdesk.ticket_status_changed" : "helpdesk.ticket_updated", entity_type: "helpdesk_ticket", entity_id: t.id, changes }, tx);
        const requester = (await userNames([t.requester_user_id])).get(t.requester_user_id);
        if (t.requester_user_id !== auth.userId)
          await notify(tx, { userId: t.requester_user_id, email: requester?.email, kind: "helpdesk.ticket_updated", title: `Ticket ${t.ticket_number} is now ${t.status.replace("_", " ")}`, body: `Your ticket "${t.title}" was updated by ${auth.name}.`, link: `/api/helpdesk/tickets/${t.id}` });
        if (changes.assignee_user_id && t.assignee_user_id && t.assignee_user_id !== auth.userId)
          await notify(tx, { userId: t.assignee_user_id, kind: "helpdesk.ticket_assigned", title: `Ticket ${t.ticket_number} was assigned to you`, link: `/api/helpdesk/tickets/${t.id}` });
      }
      return t;
    });
    return ok((await ticketsJson(auth, [updated]))[0], "Ticket updated");
  },

  async deleteHelpdeskTicket({ params, auth }) {
    const t = await visibleTicket(auth, params.id);
    await tenantTx(async (tx) => {
      await tx.helpdeskTicket.update({ where: { id: t.id }, data: { deleted_at: new Date() } });
      await audit({ action: "helpdesk.ticket_deleted", entity_type: "helpdesk_ticket", entity_id: t.id, changes: { ticket_number: t.ticket_number, status: t.status } }, tx);
    });
    return ack("Ticket deleted");
  },

  async listHelpdeskMessages({ params, query, auth }) {
    const t = await visibleTicket(auth, params.id);
    const page = pageOf({ page: query.page, limit: query.limit ?? 50 });
    const where = { ticket_id: t.id, ...visibleMessages(auth) };
    const [rows, total] = await Promise.all([db.helpdeskMessage.findMany({ where, orderBy: [{ created_at: "asc" }, { id: "asc" }], skip: page.skip, take: page.limit }), db.helpdeskMessage.count({ where })]);
    const names = await userNames(rows.map((m) => m.author_user_id));
    return paginated(
      rows.map((m) => ({ id: m.id, ticket_id: m.ticket_id, author_user_id: m.author_user_id, author_name: names.get(m.author_user_id)?.name ?? "Former member", body: m.body, internal: m.internal, created_at: m.created_at.toISOString() })),
      page,
      total,
    );
  },

  async addHelpdeskMessage({ params, body, auth }) {
    const t = await visibleTicket(auth, params.id);
    if (body.internal && !isHr(auth)) throw forbidden("Only the helpdesk team can add internal notes");
    const m = await tenantTx(async (tx) => {
      const [row] = await tx.$queryRaw<{ status: string }[]>`SELECT status FROM helpdesk_tickets WHERE tenant_id = ${auth.tenantId}::uuid AND id = ${t.id}::uuid FOR UPDATE`;
      if (row.status === "closed") throw conflict("The ticket is closed; raise a new ticket instead");
      const msg = await tx.helpdeskMessage.create({ data: { ticket_id: t.id, author_user_id: auth.userId, body: body.body, internal: body.internal ?? false } as any });
      await tx.helpdeskTicket.update({ where: { id: t.id }, data: { updated_at: new Date() } });
      if (!msg.internal) {
        const recipients = auth.userId === t.requester_user_id ? [t.assignee_user_id].filter((x): x is string => Boolean(x)) : [t.requester_user_id];
        const people = await userNames(recipients);
        for (const r of recipients)
          await notify(tx, { userId: r, email: people.get(r)?.email, kind: "helpdesk.message", title: `New reply on ticket ${t.ticket_number}`, body: `${auth.name}: ${body.body.slice(0, 500)}`, link: `/api/helpdesk/tickets/${t.id}` });
      }
      return msg;
    });
    return created({ id: m.id, ticket_id: m.ticket_id, author_user_id: m.author_user_id, author_name: auth.name, body: m.body, internal: m.internal, created_at: m.created_at.toISOString() }, "Message added");
  },
} satisfies AreaHandlers<"helpdesk">;
