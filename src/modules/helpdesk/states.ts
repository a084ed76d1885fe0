// The state machine of a helpdesk ticket, in one place: the moves (another is a 409), what each writes,
// who may make it; a closed ticket no longer changes. Every status change goes through these.
import type { Prisma } from "../../../generated/prisma/client.ts";
import { conflict } from "../../platform/errors.ts";

export type TicketStatus = "open" | "in_progress" | "resolved" | "closed";

const STATUSES: readonly string[] = ["open", "in_progress", "resolved", "closed"] satisfies TicketStatus[];

/** Statuses in which a ticket is still being worked on (its assignee's queue). */
export const ACTIVE_TICKET_STATUSES: TicketStatus[] = ["open", "in_progress"];

/** A stored status as the union (the column is text). */
export function ticketStatus(s: string): TicketStatus {
  if (!STATUSES.includes(s)) throw new Error(`unknown ticket status ${JSON.stringify(s)}`);
  return s as TicketStatus;
}

export const TICKET_MOVES: Record<TicketStatus, TicketStatus[]> = {
  open: ["in_progress", "resolved", "closed"],
  in_progress: ["open", "resolved", "closed"],
  resolved: ["open", "closed"],
  closed: [],
};

/** 409 when the ticket is closed: it no longer changes, nor takes replies or notes. */
export function assertNotClosed(status: TicketStatus): void {
  if (status === "closed") throw conflict("The ticket is closed; raise a new ticket instead");
}

/** 409 unless `from → to` is a move (or no move: the same status); returns whether the status changes. */
export function checkTicketMove(from: TicketStatus, to: TicketStatus): boolean {
  if (from !== to && !TICKET_MOVES[from].includes(to)) throw conflict(`A ticket cannot go from ${from} to ${to}`);
  return from !== to;
}

/** What moving to `to` writes besides the status: when it was resolved (cleared by a reopening), when it was closed. */
export function moveStamps(to: TicketStatus, now: Date): Prisma.HelpdeskTicketUpdateInput {
  if (to === "resolved") return { resolved_at: now };
  if (to === "closed") return { closed_at: now };
  if (to === "open") return { resolved_at: null };
  return {};
}

/** The move an assignment makes without a status of its own: an open ticket goes in progress. */
export function statusOnAssignment(from: TicketStatus): TicketStatus | null {
  return from === "open" ? "in_progress" : null;
}

/** The requester (not an agent) may only close their ticket or reopen a resolved one. */
export function requesterMayChange(
  from: TicketStatus,
  patch: { status?: string; priority?: string; assignee_user_id?: string | null },
): boolean {
  if (patch.priority !== undefined || patch.assignee_user_id !== undefined) return false;
  if (patch.status === undefined) return false;
  return patch.status === "closed" || (from === "resolved" && patch.status === "open");
}
