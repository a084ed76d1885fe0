// The employee list (directory): every live employee of the company, filtered, searched and
// sorted - the one hot query of this area (its statements and the indexes they use: queries.ts).
import { lastKey, type Walk, walkRows } from "../../db/keyset.ts";
import { type Listing, pageOf } from "../../platform/use-case.ts";
import type { QueryParams } from "../../platform/use-case.ts";
import { containsPattern, directorySearchPage, directoryPage, directoryTotal, directoryWalk, type DirectoryFilter } from "./queries.ts";
import { directoryJson } from "./views.ts";

export type EmployeeListQuery = QueryParams<"listEmployees">;

type Entry = ReturnType<typeof directoryJson>;

/** A page of the directory with its exact total, or a page of a walk in the order of change (`walk`). */
export async function employeeDirectory(q: EmployeeListQuery, walk: Walk | null = null): Promise<Listing<Entry>> {
  const page = pageOf(q);
  const search = q.search !== undefined && q.search.trim() !== "";
  const filter: DirectoryFilter = {
    department: q.department,
    status: q.status,
    reports_to: q.reports_to,
    pattern: search ? containsPattern(q.search!) : undefined,
    // `changed` is the order of a walk (walkOf makes it one)
    sort: q.sort === undefined || q.sort === "changed" ? "name" : q.sort,
  };
  if (walk) {
    const rows = walkRows(walk, await directoryWalk(filter, walk));
    const entries = rows.map((r) => (r.deleted_at ? { ...directoryJson(r), deleted_at: r.deleted_at.toISOString() } : directoryJson(r)));
    return { rows: entries, walk, last: lastKey(rows) };
  }
  if (search) {
    const rows = await directorySearchPage(filter, page);
    // past the last page the window has no row: count on its own
    const total = rows.length ? rows[0].total : page.skip === 0 ? 0 : await directoryTotal(filter);
    return { rows: rows.map(directoryJson), page, total };
  }
  // Filters and plain listing walk a name-ordered partial index; the total is counted in parallel.
  const [rows, total] = await Promise.all([directoryPage(filter, page), directoryTotal(filter)]);
  return { rows: rows.map(directoryJson), page, total };
}
