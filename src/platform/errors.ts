// The one error type of the application and its code → status map, below the HTTP layer (areas,
// the platform's services and src/db throw it; src/http/error-middleware.ts writes the envelope).
export type ErrorCode =
  | "validation_failed"
  | "invalid_token"
  | "invalid_signature"
  | "unauthenticated"
  | "forbidden"
  | "module_disabled"
  | "not_found"
  | "method_not_allowed"
  | "request_timeout"
  | "conflict"
  | "payload_too_large"
  | "quota_exceeded"
  | "unsupported_media_type"
  | "rate_limited"
  | "internal"
  | "not_implemented"
  | "unavailable"
  | "idempotency_key_reused"
  | "request_in_progress"
  | "precondition_failed"
  | "precondition_required";

export interface ErrorDetail {
  path: string;
  message: string;
}

/** The one map from an error's code to its HTTP status (src/http/error-middleware.ts writes the envelope). */
export const STATUS_OF: Readonly<Record<ErrorCode, number>> = Object.freeze({
  validation_failed: 400,
  invalid_token: 400,
  invalid_signature: 400,
  unauthenticated: 401,
  forbidden: 403,
  module_disabled: 403,
  not_found: 404,
  method_not_allowed: 405,
  /** the request (its headers or body) did not arrive in time: HEADERS_TIMEOUT_MS, BODY_READ_TIMEOUT_MS, REQUEST_TIMEOUT_MS */
  request_timeout: 408,
  conflict: 409,
  payload_too_large: 413,
  /** a company's storage quota (TENANT_STORAGE_QUOTA_MB) has no room for the upload */
  quota_exceeded: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  internal: 500,
  not_implemented: 501,
  unavailable: 503,
  /** an Idempotency-Key used again with another request (src/http/idempotency.ts) */
  idempotency_key_reused: 422,
  /** the first request with this Idempotency-Key is still being answered */
  request_in_progress: 409,
  /** If-Match names no current version of the resource (src/http/conditional.ts) */
  precondition_failed: 412,
  /** a credential's write of a record declared `x-if-match: required` without If-Match */
  precondition_required: 428,
});

export class AppError extends Error {
  readonly status: number;
  /**
   * `gone`: the one exception to STATUS_OF - a link token that did exist but was used or has
   * expired answers 410 with code `invalid_token` (a token never issued is 400).
   */
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
    opts: { gone?: boolean; fields?: ErrorFields } = {},
  ) {
    super(message);
    this.name = "AppError";
    this.status = opts.gone && code === "invalid_token" ? 410 : STATUS_OF[code];
    this.fields = opts.fields;
  }
  /** Further machine-readable fields of the envelope (components/schemas/Error), e.g. what a 403 lacks. */
  readonly fields?: ErrorFields;
}

export const badRequest = (message: string, details?: ErrorDetail[]) => new AppError("validation_failed", message, details);
/** A 400 naming one field: `invalidField("body.to_date", "must not be before from_date")`. */
export const invalidField = (path: string, message: string) =>
  new AppError("validation_failed", `${path.replace(/^(body|query|params)\./, "")} ${message}`, [{ path, message }]);
/** What a 401 without a session or credential says to do (the error middleware adds `WWW-Authenticate`). */
export const SIGN_IN_HINT =
  "Authentication required: sign in with POST /api/auth/sign-in and send its session cookie, " +
  "or send an API credential as Authorization: Bearer <secret>";
export const unauthenticated = (message = SIGN_IN_HINT) => new AppError("unauthenticated", message);
/** The optional fields of the error envelope beyond error, status, code and details (a 403's). */
export interface ErrorFields {
  /** A 403 for the caller's role: the roles the operation admits. */
  allowed_roles?: string[];
  /** A 403 for an API credential or access token without the scope: the scope the operation needs. */
  required_scope?: string;
}
/** A 403 `forbidden`: `message` says what the caller lacks (the roles, the scope, the rule of the record). */
export const forbidden = (message: string, fields?: ErrorFields, headers?: Record<string, string>) =>
  new AppError("forbidden", message, undefined, headers, { fields });
export const moduleDisabled = (module: string) => new AppError("module_disabled", `The ${module} module is not enabled for this company`);
export const notFound = (what = "Resource") => new AppError("not_found", `${what} not found`);
export const conflict = (message: string) => new AppError("conflict", message);
export const invalidToken = (message = "The link is invalid or has expired") => new AppError("invalid_token", message);
/** A limit's policy as its 429 states it; no `windowSeconds` for a limit of uses at once. */
export interface RateLimitPolicy {
  name: string;
  limit: number;
  windowSeconds?: number;
}
/**
 * The headers of every 429: `Retry-After` and the IETF RateLimit fields as express-rate-limit's "draft-8"
 * sends them (draft-ietf-httpapi-ratelimit-headers-08). The document declares all three.
 */
export function rateLimitHeaders(policy: RateLimitPolicy, retryAfterSeconds: number): Record<string, string> {
  const t = Math.max(1, Math.ceil(retryAfterSeconds));
  const window = policy.windowSeconds === undefined ? "" : `;w=${Math.ceil(policy.windowSeconds)}`;
  return {
    "Retry-After": String(t),
    "RateLimit-Policy": `"${policy.name}";q=${policy.limit}${window}`,
    RateLimit: `"${policy.name}";r=0;t=${t}`,
  };
}
/** 429 `rate_limited` of `policy`, retry after `retryAfterSeconds`; `message` names the limit and the wait. */
export const rateLimited = (retryAfterSeconds: number, policy: RateLimitPolicy, message: string) =>
  new AppError("rate_limited", message, undefined, rateLimitHeaders(policy, retryAfterSeconds));
/** Retry-After of a 503 while overloaded (admission queue full, no connection or lock in time). */
export const RETRY_AFTER_BUSY_S = 2;
/** Retry-After of a 503 while the database cannot be reached. */
export const RETRY_AFTER_DOWN_S = 5;
/** 503 `unavailable` (overloaded, or the database busy or down); every 503 carries `Retry-After`. */
export const unavailable = (message = "Service temporarily unavailable, try again shortly", retryAfterSeconds = RETRY_AFTER_BUSY_S) =>
  new AppError("unavailable", message, undefined, { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) });
export const notImplemented = (operationId: string) => new AppError("not_implemented", `${operationId} is not implemented yet`);

/**
 * A write that names a row its company does not have - the referencing side of a composite tenant
 * foreign key (`<table>_tenant_id_<column>_fkey`; another company's id included) - as a 400 on that
 * field; null for any other error (a delete of a row still referenced stays a 409).
 */
export function missingReference(err: any): AppError | null {
  const cause = err?.meta?.driverAdapterError?.cause ?? err?.cause ?? err;
  const message = String(cause?.originalMessage ?? err?.message ?? "");
  const m = /insert or update on table "([a-z_]+)" violates foreign key constraint "([a-z_]+)"/.exec(message);
  if (!m) return null;
  const column = m[2].startsWith(`${m[1]}_tenant_id_`) ? m[2].slice(`${m[1]}_tenant_id_`.length).replace(/_fkey$/, "") : null;
  if (!column) return badRequest("A referenced record does not exist in this company");
  const what = column.replace(/_id$/, "").replace(/_/g, " ");
  return badRequest(`The ${what} given does not exist in this company`, [
    { path: `body.${column}`, message: `names no ${what} of this company` },
  ]);
}
