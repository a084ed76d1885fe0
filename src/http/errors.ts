// The one error type of the application. Everything thrown is mapped to the error envelope by
// src/http/error-middleware.ts.
export type ErrorCode =
  | "validation_failed"
  | "invalid_token"
  | "invalid_signature"
  | "unauthenticated"
  | "forbidden"
  | "module_disabled"
  | "not_found"
  | "method_not_allowed"
  | "conflict"
  | "payload_too_large"
  | "unsupported_media_type"
  | "rate_limited"
  | "internal"
  | "not_implemented"
  | "unavailable";

export interface ErrorDetail {
  path: string;
  message: string;
}

export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "AppError";
  }
}

export const badRequest = (message: string, details?: ErrorDetail[]) => new AppError(400, "validation_failed", message, details);
/** A 400 naming one field: `invalidField("body.to_date", "must not be before from_date")`. */
export const invalidField = (path: string, message: string) => new AppError(400, "validation_failed", `${path.replace(/^(body|query|params)\./, "")} ${message}`, [{ path, message }]);
export const unauthenticated = (message = "Authentication required") => new AppError(401, "unauthenticated", message);
export const forbidden = (message = "Your role does not allow this action") => new AppError(403, "forbidden", message);
export const moduleDisabled = (module: string) => new AppError(403, "module_disabled", `The ${module} module is not enabled for this company`);
export const notFound = (what = "Resource") => new AppError(404, "not_found", `${what} not found`);
export const conflict = (message: string) => new AppError(409, "conflict", message);
export const invalidToken = (message = "The link is invalid or has expired") => new AppError(400, "invalid_token", message);
export const rateLimited = (retryAfterSeconds: number) =>
  new AppError(429, "rate_limited", "Too many attempts, try again later", undefined, { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) });
/** Retry-After of a 503 while overloaded (admission queue full, no connection or lock in time). */
export const RETRY_AFTER_BUSY_S = 2;
/** Retry-After of a 503 while the database cannot be reached. */
export const RETRY_AFTER_DOWN_S = 5;
/**
 * 503 `unavailable`: the service cannot answer this request now (overloaded, or the database is
 * busy or down); `Retry-After` says when to try again. Every 503 carries it (error-middleware.ts).
 */
export const unavailable = (message = "Service temporarily unavailable, try again shortly", retryAfterSeconds = RETRY_AFTER_BUSY_S) =>
  new AppError(503, "unavailable", message, undefined, { "Retry-After": String(Math.max(1, Math.ceil(retryAfterSeconds))) });
export const notImplemented = (operationId: string) => new AppError(501, "not_implemented", `${operationId} is not implemented yet`);
