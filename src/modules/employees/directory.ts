// The employee list (directory): every live employee of the company, filtered, searched and
// sorted - the one hot query of this area (its statements and the indexes they use: queries.ts).
import { pageOf } from "../../http/envelope.ts";
import type { QueryParams } from "../../http/types.ts";
import { containsPattern, directorySearchPage, directoryPage, directoryTotal, type DirectoryFilter } from "./queries.ts";
import { directoryJson } from "./views.ts";

export type EmployeeListQuery = QueryParams<"listEmployees">;

/** A page of the directory with its exact total. */
export async function employeeDirectory(q: EmployeeListQuery) {
  const page = pageOf(q);
  const search = q.search !== undefined && q.search.trim() !== "";
  const filter: DirectoryFilter = {
    department: q.department,
    status: q.status,
    reports_to: q.reports_to,
    pattern: search ? containsPattern(q.search!) : undefined,
    sort: q.sort ?? "name",
  };
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
