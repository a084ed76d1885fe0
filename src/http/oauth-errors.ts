// The OAuth token endpoint's errors (RFC 6749 §5.2) within the one envelope: `error` is the RFC's code and
// `error_description` its words, beside `status` and `code`, so OAuth libraries and our clients both read it.
import type { Request } from "express";
import { operationTable } from "../../generated/registry.ts";
import type { AppError } from "../platform/errors.ts";
import { OAuthError, type OAuthErrorCode } from "../platform/oauth-error.ts";

const TOKEN_PATH = operationTable.issueOAuthToken.path;

/** Is this the token endpoint's request? (Its errors are in RFC 6749 §5.2's words.) */
export const isTokenRequest = (req: Request): boolean => {
  const p = req.path.length > 1 && req.path.endsWith("/") ? req.path.slice(0, -1) : req.path;
  return req.method === "POST" && p === TOKEN_PATH;
};

/** The RFC's code for an error of the token request, or null to leave the envelope as it is (429, 5xx). */
export function oauthCodeOf(e: AppError): OAuthErrorCode | null {
  if (e instanceof OAuthError) return e.oauthCode;
  if (e.status === 401) return "invalid_client";
  if (e.status === 400 || e.status === 413 || e.status === 415) return "invalid_request";
  return null;
}

/** The error body of the token endpoint: the envelope with `error` the RFC's code and `error_description`. */
export function oauthErrorBody(e: AppError, envelope: Record<string, unknown>): Record<string, unknown> {
  const code = oauthCodeOf(e);
  if (!code) return envelope;
  const { error: description, ...rest } = envelope;
  return { error: code, error_description: description, ...rest };
}
