// Helpdesk: tickets with a real status machine, assignment to agents, and a conversation. Each
// handler translates HTTP to one use case (tickets.ts, messages.ts) and back.
import { ack, created, listed, ok, pageOf } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { messagePage, postMessage } from "./messages.ts";
import { changeTicket, discardTicket, raiseTicket, ticketById, ticketList } from "./tickets.ts";

export const handlers = {
  async listHelpdeskTickets({ operationId, query, auth, walk }) {
    return listed(operationId, await ticketList(auth, query, walk));
  },

  async createHelpdeskTicket({ body, auth }) {
    return created(await raiseTicket(auth, body), "Ticket created");
  },

  async getHelpdeskTicket({ params, auth }) {
    return ok(await ticketById(auth, params.id));
  },

  async updateHelpdeskTicket({ params, body, auth }) {
    return ok(await changeTicket(auth, params.id, body), "Ticket updated");
  },

  async deleteHelpdeskTicket({ params, auth }) {
    await discardTicket(auth, params.id);
    return ack("Ticket deleted");
  },

  async listHelpdeskMessages({ operationId, params, query, auth }) {
    const page = pageOf({ page: query.page, limit: query.limit ?? 50 });
    const { rows, total } = await messagePage(auth, params.id, page);
    return listed(operationId, { rows, page, total });
  },

  async addHelpdeskMessage({ params, body, auth }) {
    return created(await postMessage(auth, params.id, body), "Message added");
  },
} satisfies Partial<AreaHandlers<"helpdesk">>;
