// The ticket state machine (src/modules/helpdesk/states.ts): the one table every status change goes through.
import { describe, expect, it } from "vitest";
import {
  checkTicketMove,
  moveStamps,
  requesterMayChange,
  statusOnAssignment,
  TICKET_MOVES,
  type TicketStatus,
} from "../../src/modules/helpdesk/states.ts";

const ALL: TicketStatus[] = ["open", "in_progress", "resolved", "closed"];

describe("ticket states", () => {
  it("allows exactly the listed moves (409 otherwise); staying is no move; closed is final", () => {
    for (const from of ALL)
      for (const to of ALL) {
        if (from === to) expect(checkTicketMove(from, to)).toBe(false);
        else if (TICKET_MOVES[from].includes(to)) expect(checkTicketMove(from, to)).toBe(true);
        else expect(() => checkTicketMove(from, to)).toThrow(`A ticket cannot go from ${from} to ${to}`);
      }
    expect(TICKET_MOVES.closed).toEqual([]);
    expect(TICKET_MOVES.resolved).not.toContain("in_progress");
  });

  it("stamps resolving and closing, clears the resolution on reopening; an assignment moves only an open ticket", () => {
    const now = new Date("2026-01-02T03:04:05Z");
    expect(moveStamps("resolved", now)).toEqual({ resolved_at: now });
    expect(moveStamps("closed", now)).toEqual({ closed_at: now });
    expect(moveStamps("open", now)).toEqual({ resolved_at: null });
    expect(moveStamps("in_progress", now)).toEqual({});
    expect(ALL.map(statusOnAssignment)).toEqual(["in_progress", null, null, null]);
  });

  it("lets the requester only close a ticket or reopen a resolved one", () => {
    expect(requesterMayChange("open", { status: "closed" })).toBe(true);
    expect(requesterMayChange("resolved", { status: "open" })).toBe(true);
    expect(requesterMayChange("in_progress", { status: "open" })).toBe(false);
    expect(requesterMayChange("open", { status: "resolved" })).toBe(false);
    expect(requesterMayChange("open", { status: "closed", priority: "high" })).toBe(false);
    expect(requesterMayChange("open", {})).toBe(false);
  });
});
