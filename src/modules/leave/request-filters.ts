// What the request lists and overlap checks of the leave area share: the active states, the list
// filters by state and date, and how a date range is written in messages.
import { addDays, type DateString, parseDate } from "../../lib/dates.ts";

/** States that hold days (an overlap with them is refused). */
export const ACTIVE = ["pending", "approved"];

/** "2025-03-04" or "2025-03-04 to 2025-03-06". */
export const describeRange = (from: DateString, to: DateString) => (from === to ? from : `${from} to ${to}`);

/** Prisma filters of a request list: by status, and by date (range overlap, the day, or the creation time). */
export function listFilters(query: { status?: string; from_date?: string; to_date?: string }, dateField: "range" | "date" | "created") {
  const w: Record<string, unknown> = query.status ? { status: query.status } : {};
  if (dateField === "range") {
    if (query.from_date) w.to_date = { gte: parseDate(query.from_date) };
    if (query.to_date) w.from_date = { lte: parseDate(query.to_date) };
  } else if (query.from_date || query.to_date) {
    const field = dateField === "date" ? "date" : "created_at";
    const upper =
      dateField === "date"
        ? { lte: parseDate(query.to_date ?? "9999-12-31") }
        : { lt: parseDate(addDays(query.to_date ?? "9999-12-30", 1)) };
    w[field] = { ...(query.from_date ? { gte: parseDate(query.from_date) } : {}), ...(query.to_date ? upper : {}) };
  }
  return w;
}
