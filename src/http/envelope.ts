// Success envelopes, produced here and only here: `{ data, message }`, lists add `pagination`.
export interface PageQuery {
  page?: number;
  limit?: number;
}

export interface Page {
  page: number;
  limit: number;
  skip: number;
}

export function pageOf(q: PageQuery): Page {
  const page = q.page ?? 1;
  const limit = q.limit ?? 20;
  return { page, limit, skip: (page - 1) * limit };
}

export const ok = <T>(data: T, message = "OK") => ({ status: 200 as const, body: { data, message } });
export const created = <T>(data: T, message = "Created") => ({ status: 201 as const, body: { data, message } });
/** The work was queued: the resource as it is now (its status says what is under way). */
export const accepted = <T>(data: T, message = "Accepted") => ({ status: 202 as const, body: { data, message } });
export const ack = (message: string) => ({ status: 200 as const, body: { data: null, message } });

export function paginated<T, E extends object = {}>(data: T[], page: Page, total: number, message = "OK", extra?: E) {
  return {
    status: 200 as const,
    body: {
      data,
      message,
      pagination: { page: page.page, limit: page.limit, total, total_pages: Math.ceil(total / page.limit) },
      ...(extra ?? ({} as E)),
    },
  };
}
