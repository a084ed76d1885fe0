// A privacy request as the API shows it, with what is overdue on the day it is read.
import type { components } from "../../../generated/api-types.ts";
import type { PrivacyRequest } from "../../../generated/prisma/client.ts";
import { type DateString, daysBetween, toDateString } from "../../lib/dates.ts";
import type { Clock } from "./rules.ts";

type S = components["schemas"];
export type RequestJson = S["PrivacyRequest"];
export const OPEN_STATUSES = ["received", "in_progress"] as const;

/** What is overdue on an open request on `today`. */
export function requestWarnings(status: string, due: DateString, clock: Clock, today: DateString): string[] {
  if (!(OPEN_STATUSES as readonly string[]).includes(status) || today <= due) return [];
  const late = daysBetween(due, today);
  return [`The answer was due on ${due} (${clock.days} days, ${clock.source}): ${late} day${late === 1 ? "" : "s"} overdue`];
}

export function requestJson(r: PrivacyRequest, today: DateString): RequestJson {
  const due = toDateString(r.due_at);
  const clock = r.clock as unknown as Clock;
  return {
    id: r.id,
    request_number: r.request_number,
    type: r.type as RequestJson["type"],
    status: r.status as RequestJson["status"],
    subject: r.employee_id ? "employee" : "candidate",
    employee_id: r.employee_id,
    candidate_id: r.candidate_id,
    subject_name: r.subject_name,
    channel: r.channel as RequestJson["channel"],
    description: r.description,
    corrections: (r.corrections as RequestJson["corrections"]) ?? null,
    nominee: (r.nominee as RequestJson["nominee"]) ?? null,
    jurisdiction: r.jurisdiction as RequestJson["jurisdiction"],
    received_on: toDateString(r.received_on),
    due_at: due,
    clock: clock as RequestJson["clock"],
    warnings: requestWarnings(r.status, due, clock, today),
    decided_by: r.decided_by,
    decided_at: r.decided_at?.toISOString() ?? null,
    resolution: r.resolution,
    outcome: (r.outcome as Record<string, unknown> | null) ?? null,
    created_at: r.created_at.toISOString(),
    updated_at: r.updated_at.toISOString(),
  };
}

/** The moves of a request; a move not listed is a 409. */
export const REQUEST_MOVES: Record<string, readonly string[]> = {
  received: ["in_progress", "completed", "rejected", "withdrawn"],
  in_progress: ["completed", "rejected", "withdrawn"],
  completed: [],
  rejected: [],
  withdrawn: [],
};
