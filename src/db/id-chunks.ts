// Reads keyed by a list of ids that may be as long as a company (a payroll run's 100 000 employees):
// a list in one Prisma statement is one bind parameter per id, and PostgreSQL takes at most 65 535.

/** Ids per statement: far under the bind parameter limit, and few round trips for a large company. */
export const IDS_PER_STATEMENT = 10_000;

/** `read` for each slice of IDS_PER_STATEMENT ids, one after the other; the rows of all, slice by slice. */
export async function readByIdChunks<T>(ids: readonly string[], read: (chunk: string[]) => Promise<T[]>): Promise<T[]> {
  if (ids.length <= IDS_PER_STATEMENT) return ids.length ? read([...ids]) : [];
  const rows: T[] = [];
  for (let i = 0; i < ids.length; i += IDS_PER_STATEMENT) for (const r of await read(ids.slice(i, i + IDS_PER_STATEMENT))) rows.push(r);
  return rows;
}
