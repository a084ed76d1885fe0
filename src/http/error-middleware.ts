// The one place where anything thrown becomes the error envelope
// `{ error, status, code, details? }`. No stack, SQL or internal message ever reaches a client.
import type { ErrorRequestHandler, Request, RequestHandler } from "express";
import { logger } from "../log.ts";
import { operationTable } from "../../generated/registry.ts";
import { withHints } from "./error-hints.ts";
import { isTokenRequest, oauthErrorBody } from "./oauth-errors.ts";
import { detailsInWords, expectedFormOf, nearestRoute } from "../platform/validation-messages.ts";
import { apiDocument, operationOf } from "./routing.ts";
import {
  AppError,
  STATUS_OF,
  RETRY_AFTER_BUSY_S,
  RETRY_AFTER_DOWN_S,
  unavailable,
  type ErrorCode,
  type ErrorDetail,
  missingReference,
} from "../platform/errors.ts";

const DB_DOWN_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "57P01",
  "57P02",
  "57P03",
  "08000",
  "08001",
  "08003",
  "08006",
  "53300",
  "P1001",
  "P1002",
  "P1017",
  "P2024",
]);
/** @prisma/adapter-pg kinds of a gone connection (a cut mid-transaction is `ConnectionClosed`, not a pg error). */
const DB_DOWN_KINDS = new Set(["DatabaseNotReachable", "ConnectionClosed", "SocketTimeout", "TooManyConnections"]);
const DB_DOWN_TEXT = new RegExp(
  [
    "Connection terminated",
    "timeout exceeded when trying to connect",
    "connect ECONNREFUSED",
    "Client has encountered a connection error",
    "the database system is (shutting down|starting up)",
    "terminating connection due to administrator command",
    "Can't reach database server",
    "Connection (closed|refused)",
  ].join("|"),
  "i",
);

/** True when the error (or any error it wraps) means the database cannot be reached. */
export function isDatabaseUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 6) return false;
  const e = err as Record<string, any>;
  if (typeof e.code === "string" && DB_DOWN_CODES.has(e.code)) return true;
  if (DB_DOWN_KINDS.has(e.cause?.kind) || DB_DOWN_KINDS.has(e.kind)) return true;
  if (typeof e.message === "string" && DB_DOWN_TEXT.test(e.message)) return true;
  if (typeof e.cause?.originalCode === "string" && DB_DOWN_CODES.has(e.cause.originalCode)) return true;
  // Prisma wraps the adapter's error under meta (raw queries: P2010 "Server has closed the connection")
  return (
    isDatabaseUnavailable(e.cause, depth + 1) ||
    isDatabaseUnavailable(e.meta?.driverAdapterError, depth + 1) ||
    (Array.isArray(e.errors) && e.errors.some((x: unknown) => isDatabaseUnavailable(x, depth + 1)))
  );
}

/** SQLSTATEs of a statement that gave up waiting: `lock_timeout` (55P03), `statement_timeout` or a cancel (57014). */
const DB_BUSY_STATES = new Set(["55P03", "57014"]);
/** A connection or transaction that could not be had in time: pg's pool wait, Prisma's maxWait and transaction timeout. */
const DB_BUSY_TEXT = new RegExp(
  [
    "timeout exceeded when trying to connect",
    "Unable to start a transaction in the given time",
    "cannot be executed on an expired transaction",
    "Timed out fetching a new connection",
  ].join("|"),
  "i",
);

/** The database is there but could not serve in time (pool wait, transaction wait or timeout, lock wait): an overload, 503. */
export function isDatabaseBusy(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== "object" || depth > 6) return false;
  const e = err as Record<string, any>;
  if (e.code === "P2024") return true;
  // P2028 "Transaction API error": not started within maxWait, expired (timed out), or forgotten
  // after expiring ("not found"); a query on a committed or rolled-back transaction stays a 500 (a bug)
  if (e.code === "P2028" && /Unable to start|expired transaction|Transaction not found/i.test(String(e.message))) return true;
  if (typeof e.message === "string" && DB_BUSY_TEXT.test(e.message)) return true;
  const state = sqlState(e) ?? (typeof e.originalCode === "string" ? e.originalCode : undefined);
  if (state && DB_BUSY_STATES.has(state)) return true;
  return (
    isDatabaseBusy(e.cause, depth + 1) ||
    isDatabaseBusy(e.meta?.driverAdapterError, depth + 1) ||
    (Array.isArray(e.errors) && e.errors.some((x: unknown) => isDatabaseBusy(x, depth + 1)))
  );
}

function validatorDetails(errors: unknown): ErrorDetail[] | undefined {
  if (!Array.isArray(errors)) return undefined;
  // an `if`/`then` rule's own error only repeats the fields its `then` names, each with its own error
  return detailsInWords(
    errors.filter((e: any) => e?.errorCode !== "if.openapi.validation"),
    (e) =>
      String(e.path ?? "")
        .replace(/^[./]/, "")
        .replace(/\//g, "."),
  );
}

/** The SQLSTATE of a PostgreSQL error, directly (pg) or wrapped by Prisma's driver adapter. */
function sqlState(err: any): string | undefined {
  const c =
    err?.meta?.driverAdapterError?.cause?.originalCode ??
    err?.cause?.originalCode ??
    (err?.name === "DatabaseError" || err?.severity ? err?.code : undefined);
  return typeof c === "string" ? c : undefined;
}

/** The code of an HTTP error raised outside the application (express, the validator): the first code of STATUS_OF with that status. */
const STATUS_CODES: Record<number, ErrorCode> = {};
for (const [code, status] of Object.entries(STATUS_OF) as [ErrorCode, number][]) STATUS_CODES[status] ??= code;

/** multer's messages for an upload the operation does not take. */
const UPLOAD_MISTAKES: Record<string, () => AppError> = {
  "Too many files": () =>
    new AppError("validation_failed", "Upload one file per request", [{ path: "body", message: "holds more than one file" }]),
  "Unexpected field": () =>
    new AppError("validation_failed", "The file is in a field this operation does not take", [
      { path: "body", message: "has a file in an unexpected field" },
    ]),
};

/** The form parser's (busboy's, under multer) errors for a body that is not a well-formed form: the client's, not ours. */
const MALFORMED_FORM = new Set([
  "Malformed part header",
  "Malformed content type",
  "Malformed urlencoded form",
  "Multipart: Boundary not found",
  "Unexpected end of form",
  "Unexpected end of file",
]);

export function toAppError(err: any): AppError {
  if (err instanceof AppError) return err;
  if (isDatabaseBusy(err)) return unavailable("Service busy, try again shortly", RETRY_AFTER_BUSY_S);
  if (isDatabaseUnavailable(err)) return unavailable("Service temporarily unavailable, try again shortly", RETRY_AFTER_DOWN_S);
  if (err?.type === "entity.parse.failed")
    return new AppError("validation_failed", "Malformed JSON body", [{ path: "body", message: "is not valid JSON" }]);
  // multer's errors reach us as 413 or 500: the client's mistake, said plainly
  const upload = UPLOAD_MISTAKES[String(err?.message)];
  if (upload && (err?.status === 413 || err?.status === 500 || String(err?.code).startsWith("LIMIT_"))) return upload();
  if (MALFORMED_FORM.has(String(err?.message)) && (err?.status === undefined || err?.status === 500))
    return new AppError("validation_failed", "Malformed multipart body", [
      { path: "body", message: `is not a well-formed multipart/form-data body (${String(err.message)})` },
    ]);
  if (err?.type === "entity.too.large" && Number.isInteger(err?.limit))
    return new AppError("payload_too_large", `Request body too large (this operation takes at most ${err.limit} bytes)`);
  if (err?.type === "entity.too.large" || err?.code === "LIMIT_FILE_SIZE" || err?.status === 413)
    return new AppError(
      "payload_too_large",
      err?.code === "LIMIT_FILE_SIZE" || /file/i.test(String(err?.message)) ? "File too large" : "Request body too large",
    );
  if (err?.type === "encoding.unsupported" || err?.type === "charset.unsupported")
    return new AppError("unsupported_media_type", "Unsupported body encoding");
  if (typeof err?.code === "string" && err.code.startsWith("LIMIT_"))
    return new AppError("validation_failed", `Upload rejected: ${String(err.message)}`);
  if (err?.code === "P2002") return new AppError("conflict", "A record with the same unique value already exists");
  if (err?.code === "P2025") return new AppError("not_found", "Not found");
  if (err?.code === "P2003" || err?.code === "23503" || err?.cause?.originalCode === "23503")
    return missingReference(err) ?? new AppError("conflict", "The record is still referenced by other records");
  if (err?.code === "P2034") return new AppError("conflict", "The record was changed concurrently, retry the request");
  if (err?.code === "40001" || err?.code === "40P01" || err?.cause?.originalCode === "40001")
    return new AppError("conflict", "The record was changed concurrently, retry the request");
  // PostgreSQL data exceptions (class 22): a value it cannot hold is the input's fault
  if (sqlState(err)?.startsWith("22"))
    return new AppError("validation_failed", "A value is outside what can be stored (date, number or text out of range)");
  const status = Number(err?.status ?? err?.statusCode);
  if (status >= 400 && status < 500 && STATUS_CODES[status]) {
    if (status === 400) return new AppError("validation_failed", "Validation failed", validatorDetails(err.errors));
    if (status === 404) return typeof err?.path === "string" ? notFoundPath(err.path) : new AppError("not_found", "Not found");
    if (status === 405) return methodNotAllowed(err?.headers?.Allow);
    if (status === 415) return new AppError("unsupported_media_type", "Unsupported content type");
    return new AppError(STATUS_CODES[status], String(err.message ?? "Request failed"));
  }
  return new AppError("internal", "Internal server error");
}

/** Is `status` among the responses the matched operation declares (exactly, as `4XX`, or `default`)? */
function declared(req: Parameters<ErrorRequestHandler>[1], status: number): boolean {
  const responses = (req as { openapi?: { schema?: { responses?: Record<string, unknown> } } }).openapi?.schema?.responses;
  if (!responses) return true; // no operation matched (unknown route, body parser): nothing to hold it to
  return String(status) in responses || `${String(status)[0]}XX` in responses || "default" in responses;
}

/** The schema of the request body's field at `path` ("body.a.0.b"): properties, list items and their `$ref`s followed. */
function bodyFieldSchema(req: Request, path: string): any {
  const op = operationOf(req);
  if (!op || !path.startsWith("body.")) return undefined;
  const doc = apiDocument();
  const deref = (n: any): any => {
    for (let i = 0; i < 20 && typeof n?.$ref === "string"; i++)
      n = n.$ref
        .slice(2)
        .split("/")
        .reduce((o: any, k: string) => o?.[k.replace(/~1/g, "/").replace(/~0/g, "~")], doc);
    return n;
  };
  let node = deref(doc.paths?.[op.path]?.[op.method.toLowerCase()]?.requestBody?.content?.["application/json"]?.schema);
  for (const seg of path.split(".").slice(1)) {
    const branches = [node, ...(node?.allOf ?? []), ...(node?.anyOf ?? []), ...(node?.oneOf ?? [])].map(deref);
    node = deref(/^\d+$/.test(seg) ? branches.find((b) => b?.items)?.items : branches.find((b) => b?.properties?.[seg])?.properties?.[seg]);
    if (!node) return undefined;
  }
  return [node, ...(node.anyOf ?? []), ...(node.oneOf ?? [])].map(deref).find((b) => b?.pattern || b?.format);
}

/** A body field sent as another JSON type ("must be a string") is told the form its schema asks for, when it has one. */
function inExpectedForm(req: Request, appErr: AppError): AppError {
  if (appErr.code !== "validation_failed" || !appErr.details?.length) return appErr;
  let changed = false;
  const details = appErr.details.map((d) => {
    const m = /^must be a string( \(or null\))?$/.exec(d.message);
    const form = m ? expectedFormOf(bodyFieldSchema(req, d.path)) : undefined;
    if (!form) return d;
    changed = true;
    return { ...d, message: `${form}${m?.[1] ?? ""}` };
  });
  return changed ? new AppError(appErr.code, appErr.message, details, appErr.headers) : appErr;
}

export const errorMiddleware: ErrorRequestHandler = (err, req, res, _next) => {
  // for the test recorder to name an unexpected 500's cause; never part of the body
  res.locals.error = err;
  let appErr = withHints(req, inExpectedForm(req, toAppError(err)));
  if (!declared(req, appErr.status)) {
    // an undocumented status is our bug: logged, answered 500 (sent as is, the validator would fall to Express's HTML page)
    logger.error(
      { status: appErr.status, code: appErr.code, error: appErr.message, method: req.method, path: req.path },
      "error status not documented for this operation",
    );
    appErr = new AppError("internal", "Internal server error");
  } else if (appErr.status >= 500 && appErr.code !== "unavailable" && appErr.code !== "not_implemented")
    logger.error(
      { err: { message: err?.message, stack: err?.stack, code: err?.code }, method: req.method, path: req.path },
      "request failed",
    );
  // a database that is down or too busy (the request log line has every 503, e.g. admission refusals)
  else if (appErr.code === "unavailable" && !(err instanceof AppError)) logger.warn({ err: err?.message }, "database unavailable or busy");
  if (res.headersSent) {
    res.end();
    return;
  }
  for (const [k, v] of Object.entries(appErr.headers ?? {})) res.setHeader(k, v);
  // every 401 names the scheme to authenticate with (RFC 9110 §11.6.1; RFC 6750 §3 for a refused bearer token)
  if (appErr.status === 401 && !res.getHeader("WWW-Authenticate"))
    res.setHeader(
      "WWW-Authenticate",
      /^Bearer\s/i.test(req.get("authorization") ?? "") ? 'Bearer realm="hrms", error="invalid_token"' : 'Bearer realm="hrms"',
    );
  // every 503 says when to come back (the document declares the header on each one)
  if (appErr.status === 503 && !res.getHeader("Retry-After")) res.setHeader("Retry-After", String(RETRY_AFTER_BUSY_S));
  // the OAuth token endpoint answers in RFC 6749 §5.2's words within the envelope (src/http/oauth-errors.ts)
  res.status(appErr.status).json(isTokenRequest(req) ? oauthErrorBody(appErr, errorBody(appErr)) : errorBody(appErr));
};

/** The error envelope of `e`: `{ error, status, code }`, its further fields (a 403's), and `details` where there are any. */
export function errorBody(e: AppError): Record<string, unknown> {
  const body: Record<string, unknown> = { error: e.message, status: e.status, code: e.code, ...e.fields };
  if (e.details?.length) body.details = e.details;
  return body;
}

export const notFoundFallback: RequestHandler = (req, _res, next) => next(notFoundPath(req.path));

/** The 405 with `Allow` (RFC 9110 §15.5.6): the path's methods, and HEAD wherever GET is (app.ts serves it). */
function methodNotAllowed(allow: unknown): AppError {
  const methods = String(allow ?? "")
    .split(",")
    .map((m) => m.trim().toUpperCase())
    .filter(Boolean);
  if (methods.includes("GET") && !methods.includes("HEAD")) methods.push("HEAD");
  if (!methods.length) return new AppError("method_not_allowed", "Method not allowed on this path");
  return new AppError("method_not_allowed", `Method not allowed on this path (allowed: ${methods.join(", ")})`, undefined, {
    Allow: methods.join(", "),
  });
}

const documentPaths = Object.values(operationTable).map((o) => o.path);
/**
 * The 404 of a path no operation has: the nearest route when one is obvious (validation-messages.ts),
 * else the area's routes, else where every route is listed - never a bare "Not found".
 */
function notFoundPath(path: string): AppError {
  const api = path.startsWith("/api/") ? path : `/api${path}`;
  const near = (api !== path && (documentPaths as string[]).includes(api) ? api : undefined) ?? nearestRoute(api, documentPaths);
  if (near) return new AppError("not_found", `Not found: no route ${path}. Did you mean ${near}?`);
  const area = `/api/${api.split("/")[2] ?? ""}/`;
  const under = [...new Set(documentPaths.filter((p) => p.startsWith(area) && !p.slice(area.length).includes("{")))].sort();
  const some = under.length ? ` Routes under ${area}: ${under.slice(0, 8).join(", ")}${under.length > 8 ? ", ..." : ""}.` : "";
  return new AppError("not_found", `Not found: no route ${path}.${some} Every route is in /docs and /openapi.json.`);
}
