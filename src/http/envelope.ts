// Success envelopes, produced here and only here: `{ data, message }`; every list answers with `listed`
// (`pagination`, and for a list walked by cursor - `x-cursor`, src/http/cursor.ts - `next_cursor`).
// scripts/checks/check-envelopes.ts holds the handlers to it.
import type { Response } from "express";
import type { operations } from "../../generated/api-types.ts";
import { type OperationId, operationTable } from "../../generated/registry.ts";
export { type Listing, type Page, type PageListing, type PageQuery, pageOf } from "../platform/use-case.ts";
import type { Listing, Page } from "../platform/use-case.ts";

/** `extra`: fields the operation declares beside `data` and `message` (`x-envelope-fields`). */
export const ok = <T, E extends object = Record<never, never>>(data: T, message = "OK", extra?: E) => ({
  status: 200 as const,
  body: { data, message, ...(extra ?? ({} as E)) },
});
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

type Json200<K extends OperationId> = operations[K]["responses"] extends { 200: { content: { "application/json": infer B } } } ? B : never;
/** Whether the document declares `K` a list walked by cursor (its 200 has `next_cursor`, see `x-cursor`). */
type IsCursorList<K extends OperationId> = "next_cursor" extends keyof Json200<K> ? true : false;
type Pagination = ReturnType<typeof paginationOf>;

/** What `listed` takes for operation `K`: a page by number (its rows, the page, the total), or for a cursor list also a walk's page. */
export type ListingFor<K extends OperationId> =
  IsCursorList<K> extends true ? Listing<unknown> : { rows: unknown; page: Page; total: number };
type ListBody<K extends OperationId, D> =
  IsCursorList<K> extends true
    ? { data: D; message: string; pagination: Pagination | null; next_cursor: string | null; has_more: boolean }
    : { data: D; message: string; pagination: Pagination };

/**
 * The one answer of a list, in its document's shape: `pagination` for a page by number; a cursor list
 * always has both fields, a walk's page `pagination: null` (counting every page would cost what the walk
 * saves). Without the walk's exact `has_more`, a full page counts as "maybe more".
 */
export function listed<K extends OperationId, L extends ListingFor<K>, E extends object = Record<never, never>>(
  operationId: K,
  listing: L,
  message = "OK",
  extra?: E,
): { status: 200; body: ListBody<K, L["rows"]> & E } {
  const l = listing as Listing<unknown> | { rows: unknown; page: Page; total: number };
  const tail = extra ?? ({} as E);
  let body: object;
  if (operationTable[operationId].cursor === null) {
    if ("walk" in l) throw new Error(`${operationId} is not a cursor list: it has no walk`);
    body = { data: l.rows, message, pagination: paginationOf(l.page, l.total), ...tail };
  } else if ("walk" in l) {
    const has_more = l.walk.hasMore ?? l.rows.length >= l.walk.limit;
    body = { data: l.rows, message, pagination: null, next_cursor: l.walk.cursorAfter(l.last), has_more, ...tail };
  } else {
    const pagination = paginationOf(l.page, l.total);
    body = { data: l.rows, message, pagination, next_cursor: null, has_more: pagination.page < pagination.total_pages, ...tail };
  }
  return { status: 200, body: body as ListBody<K, L["rows"]> & E };
}

/**
 * The bytes and headers of `res.status(status).json(body)` written as one string, without Express's
 * parsing and copy; `res.json` itself where responses are validated, for 204/304 and a handler's own type.
 */
export function sendJson(res: Response, status: number, body: unknown, written?: string): void {
  if (res.app.locals.validateResponses || status === 204 || status === 304 || body === undefined || res.hasHeader("Content-Type")) {
    res.status(status).json(body);
    return;
  }
  // `written`: the body's JSON, already made (the ETag's, src/http/conditional.ts taggedAnswer)
  const json = written ?? JSON.stringify(body);
  res.statusCode = status;
  res.setHeader("Content-Type", "application/json; charset=utf-8");
  res.setHeader("Content-Length", Buffer.byteLength(json));
  res.end(json);
}

/** A whole file answered as a download: its type, length and attachment name; `headers` adds any other. */
export function sendAttachment(
  res: Response,
  file: { fileName: string; contentType: string; body: Buffer | string; headers?: Record<string, string> },
): { sent: true } {
  res.status(200);
  res.setHeader("Content-Type", file.contentType);
  res.setHeader("Content-Length", String(Buffer.byteLength(file.body)));
  res.setHeader("Content-Disposition", `attachment; filename="${file.fileName}"`);
  for (const [name, value] of Object.entries(file.headers ?? {})) res.setHeader(name, value);
  res.end(file.body);
  return { sent: true };
}

/**
 * `listed` around rows PostgreSQL already wrote as JSON (parts of comma-separated objects), part by part:
 * no reparse, and no whole-body string (only a full collection frees one); parsed where responses are validated.
 */
export function sendListedJson<K extends OperationId>(
  res: Response,
  operationId: K,
  rowsJson: string[],
  page: Page,
  total: number,
  message = "OK",
): { sent: true } {
  const { data: _, ...rest } = listed(operationId, { rows: [], page, total } as ListingFor<K>, message).body;
  const head = '{"data":[';
  const tail = `],${JSON.stringify(rest).slice(1)}`;
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
