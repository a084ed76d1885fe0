// Cursor walks of the lists the bundle marks `x-cursor`: a cursor is signed for its list, company and
// query (else a 400 naming `query.cursor`); docs/decisions/0007-integrations-internals.md, "Syncing a list".
import { createHash, createHmac, timingSafeEqual } from "node:crypto";
import type { Request } from "express";
import { config } from "../config.ts";
import type { Walk, WalkKey } from "../db/keyset.ts";
import { AppError } from "../platform/errors.ts";

/** What `x-cursor` of an operation declares. */
export interface CursorSpec {
  /** The list's records are soft-deleted: `include_deleted` applies. */
  tombstones: boolean;
  /** The declared default of each query parameter (src/http/routing.ts): sent at its default, a parameter counts as left out. */
  defaults?: Record<string, string>;
}

const VERSION = 1;
const MAC_BYTES = 16;
/** Query parameters a cursor is not bound to: itself, the page size, and `page` (refused in a walk). */
const UNBOUND = new Set(["cursor", "limit", "page"]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const DIGITS = /^[0-9]{1,20}$/;

let macKey: { secret: string; key: Buffer } | undefined;
function keyOf(): Buffer {
  const secret = config().sessionSecret;
  if (macKey?.secret !== secret) macKey = { secret, key: createHash("sha256").update(`hrms list cursor\0${secret}`).digest() };
  return macKey.key;
}

const mac = (payload: Buffer) => createHmac("sha256", keyOf()).update(payload).digest().subarray(0, MAC_BYTES);

function invalid(message: string, path = "query.cursor"): AppError {
  return new AppError("validation_failed", "Invalid cursor walk", [{ path, message }]);
}

/** The raw query less parameters sent at their default: a generated client's `page=1` is the request without it. */
function rawQuery(req: Request, defaults: Record<string, string> = {}): URLSearchParams {
  const url = req.originalUrl ?? req.url;
  const at = url.indexOf("?");
  const raw = new URLSearchParams(at < 0 ? "" : url.slice(at + 1));
  return new URLSearchParams([...raw].filter(([k, v]) => defaults[k] !== v));
}

/** What a cursor is bound to: the company and the query parameters but `cursor`, `limit` and `page`. */
function bindingOf(tenantId: string, raw: URLSearchParams): string {
  const bound = [...raw].filter(([k]) => !UNBOUND.has(k)).sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  return createHash("sha256")
    .update(JSON.stringify([tenantId, bound]))
    .digest("base64url")
    .slice(0, 22);
}

export function encodeCursor(operationId: string, binding: string, key: WalkKey | null): string {
  const payload = Buffer.from(JSON.stringify({ o: operationId, h: binding, k: key ? [key.xid, key.id] : null }));
  return Buffer.concat([Buffer.from([VERSION]), mac(payload), payload]).toString("base64url");
}

/** The key a cursor continues after, or a 400 naming `query.cursor`. */
export function decodeCursor(cursor: string, operationId: string, binding: string): WalkKey | null {
  const bytes = Buffer.from(cursor, "base64url");
  const payload = bytes.subarray(1 + MAC_BYTES);
  if (bytes.length <= 1 + MAC_BYTES || bytes[0] !== VERSION || !timingSafeEqual(bytes.subarray(1, 1 + MAC_BYTES), mac(payload)))
    throw invalid(
      "is not a cursor this API gave (garbled or altered): send a `next_cursor` as it came, or start a new walk without `cursor`",
    );
  const { o, h, k } = JSON.parse(payload.toString("utf8")) as { o: string; h: string; k: [string, string] | null };
  if (o !== operationId) throw invalid(`is a cursor of another list (${o}): a cursor continues the list that gave it`);
  if (h !== binding)
    throw invalid(
      "was given with other query parameters, or in another company: send the same filters, `sort`, `updated_since` and " +
        "`include_deleted` as the request that returned it (only `limit` may change), or start a new walk without `cursor`",
    );
  if (k === null) return null;
  if (!Array.isArray(k) || !DIGITS.test(k[0]) || !UUID.test(k[1])) throw invalid("is not a cursor this API gave (garbled or altered)");
  return { xid: k[0], id: k[1] };
}

/** The walk asked for, or null when paging by number; 400 for `page` or another `sort` in a walk, or a foreign cursor. */
export function walkOf(req: Request, operationId: string, tenantId: string, spec: CursorSpec): Walk | null {
  const raw = rawQuery(req, spec.defaults);
  const q = req.query as Record<string, unknown>;
  const includeDeleted = spec.tombstones && q.include_deleted === true;
  const cursor = raw.get("cursor");
  const walking = cursor !== null || raw.has("updated_since") || includeDeleted || raw.get("sort") === "changed";
  if (!walking) return null;
  if (raw.has("page"))
    throw invalid(
      "is for pages by number: a walk (`cursor`, `sort=changed`, `updated_since` or `include_deleted=true`) goes on by `next_cursor`",
      "query.page",
    );
  const sort = raw.get("sort");
  if (sort !== null && sort !== "changed")
    throw invalid("must be `changed` (or left out) in a walk by cursor: a walk goes in the order of change", "query.sort");
  const binding = bindingOf(tenantId, raw);
  const after = cursor === null ? null : decodeCursor(cursor, operationId, binding);
  const since = q.updated_since;
  return {
    after,
    limit: typeof q.limit === "number" ? q.limit : 20,
    updatedSince: since === undefined ? null : new Date(String(since)),
    includeDeleted,
    cursorAfter: (key) => encodeCursor(operationId, binding, key ?? after),
  };
}
