// What the request lists and overlap checks of the leave area share: the active states, the list
// filters by state and date, and how a date range is written in messages.
import { type DateString, instantsOfDays, parseDate } from "../../lib/dates.ts";

/** States that hold days (an overlap with them is refused). */
export const ACTIVE = ["pending", "approved"];

/** "2025-03-04" or "2025-03-04 to 2025-03-06". */
export const describeRange = (from: DateString, to: DateString) => (from === to ? from : `${from} to ${to}`);

/** Prisma filters of a request list: by status, and by date (range overlap, the day, or the creation time in the company's days). */
export function listFilters(
  query: { status?: string; from_date?: string; to_date?: string },
  dateField: "range" | "date" | { createdIn: string },
) {
  const w: Record<string, unknown> = query.status ? { status: query.status } : {};
  if (dateField === "range") {
    if (query.from_date) w.to_date = { gte: parseDate(query.from_date) };
    if (query.to_date) w.from_date = { lte: parseDate(query.to_date) };
  } else if (dateField === "date") {
    if (query.from_date || query.to_date)
      w.date = {
        ...(query.from_date ? { gte: parseDate(query.from_date) } : {}),
        ...(query.to_date ? { lte: parseDate(query.to_date) } : {}),
      };
  } else if (query.from_date || query.to_date) {
    w.created_at = instantsOfDays(query.from_date, query.to_date, dateField.createdIn);
  }
  return w;
}
