// Helpdesk rules: who sees a ticket, which status changes are allowed, who may make them.

export type TicketStatus = "open" | "in_progress" | "resolved" | "closed";

const STATUSES: readonly string[] = ["open", "in_progress", "resolved", "closed"] satisfies TicketStatus[];

/** A stored status as the union (the column is text). */
export function ticketStatus(s: string): TicketStatus {
  if (!STATUSES.includes(s)) throw new Error(`unknown ticket status ${JSON.stringify(s)}`);
  return s as TicketStatus;
}

const TRANSITIONS: Record<TicketStatus, TicketStatus[]> = {
  open: ["in_progress", "resolved", "closed"],
  in_progress: ["open", "resolved", "closed"],
  resolved: ["open", "closed"],
  closed: [],
};

export function canTransition(from: TicketStatus, to: TicketStatus): boolean {
  return from === to || TRANSITIONS[from].includes(to);
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
