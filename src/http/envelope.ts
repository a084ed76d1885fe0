// Success envelopes, produced here and only here: `{ data, message }`, lists add `pagination`; lists
// walked by cursor (`x-cursor`, src/http/cursor.ts) answer with `listed`: `next_cursor` beside it.
import type { Response } from "express";
export { type Listing, type Page, type PageListing, type PageQuery, pageOf } from "../platform/use-case.ts";
import type { Listing, Page } from "../platform/use-case.ts";

export const ok = <T>(data: T, message = "OK") => ({ status: 200 as const, body: { data, message } });
export const created = <T>(data: T, message = "Created") => ({ status: 201 as const, body: { data, message } });
/** The work was queued: the resource as it is now (its status says what is under way). */
export const accepted = <T>(data: T, message = "Accepted") => ({ status: 202 as const, body: { data, message } });
export const ack = (message: string) => ({ status: 200 as const, body: { data: null, message } });

const paginationOf = (page: Page, total: number) => ({
  page: page.page,
  limit: page.limit,
  total,
  total_pages: Math.ceil(total / page.limit),
});

export function paginated<T, E extends object = Record<never, never>>(data: T[], page: Page, total: number, message = "OK", extra?: E) {
  return {
    status: 200 as const,
    body: {
      data,
      message,
      pagination: paginationOf(page, total),
      ...(extra ?? ({} as E)),
    },
  };
}

/**
 * The one list shape of a list walked by cursor, every field always there: a page by number has its
 * `pagination` and `next_cursor: null`; a page of a walk has `pagination: null` (counting the whole
 * list on every page would cost what the walk saves) and `next_cursor` (to continue, or to come
 * back later). `has_more` says whether more follow now: the page's reader knows it exactly
 * (src/db/keyset.ts, walkPage/walkRows); one that does not say counts a full page as "maybe more".
 */
export function listed<T, E extends object = Record<never, never>>(l: Listing<T>, message = "OK", extra?: E) {
  if ("walk" in l) {
    const has_more = l.walk.hasMore ?? l.rows.length >= l.walk.limit;
    const next_cursor = l.walk.cursorAfter(l.last);
    return { status: 200 as const, body: { data: l.rows, message, pagination: null, next_cursor, has_more, ...(extra ?? ({} as E)) } };
  }
  const pagination = paginationOf(l.page, l.total);
  const has_more = pagination.page < pagination.total_pages;
  return { status: 200 as const, body: { data: l.rows, message, pagination, next_cursor: null, has_more, ...(extra ?? ({} as E)) } };
}

/**
 * Sends `body` as JSON with `status`: the bytes and headers of Express's `res.status(status).json(body)`
 * (`Content-Type: application/json; charset=utf-8`, `Content-Length`; no ETag, which the app turns
 * off), written as one string - without Express's content-type parsing and the copy of the body
 * into a buffer that `res.send` makes. Where responses are validated (development, tests) it is
 * `res.json` itself, which the validator checks; so too for a status without a body (204, 304) or a
 * response whose Content-Type a handler set (Express keeps it and adds the charset).
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  if (res.app.locals.validateResponses || status === 204 || status === 304 || body === undefined || res.hasHeader("Content-Type")) {
    res.status(status).json(body);
    return;
  }
  const json = JSON.stringify(body);
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(json));
  res.end(json);
}

/**
 * A page whose rows PostgreSQL already wrote as JSON text (`rowsJson`: parts, each one or more
 * comma-separated objects): the envelope is written around that text as it is, instead of parsing
 * every row and stringifying it again (a page of 100 employees' leave balances is ~150 kB); part
 * by part, so that no string of the whole body is made (one of that size is a large object that
 * only a full garbage collection frees). Where responses are validated (development, tests), the
 * whole body is parsed and sent through res.json, so the validator sees it as any other response.
 */
export function sendPaginatedJson(res: Response, rowsJson: string[], page: Page, total: number, message = "OK"): { sent: true } {
  const head = '{"data":[';
  const tail = `],"message":${JSON.stringify(message)},"pagination":${JSON.stringify(paginationOf(page, total))}}`;
  if (res.app.locals.validateResponses) {
    res.status(200).json(JSON.parse(head + rowsJson.join(",") + tail));
    return { sent: true };
  }
  let length = head.length + Buffer.byteLength(tail) + Math.max(0, rowsJson.length - 1);
  for (const part of rowsJson) length += Buffer.byteLength(part);
  res.status(200).type("application/json").setHeader("Content-Length", length);
  res.cork();
  res.write(head);
  rowsJson.forEach((part, i) => {
    if (i) res.write(",");
    res.write(part);
  });
  res.end(tail); // uncorks: one write to the socket
  return { sent: true };
}
