// The error of the OAuth token endpoint (issueOAuthToken, RFC 6749 §5.2), raised by its use case;
// src/http/oauth-errors.ts writes it (and the errors raised before the operation runs) in the RFC's words.
import { AppError, type ErrorCode } from "./errors.ts";

export type OAuthErrorCode = "invalid_request" | "invalid_client" | "unsupported_grant_type" | "invalid_scope";

/** How to authenticate, sent with every `invalid_client` (RFC 6749 §5.2: 401 with WWW-Authenticate). */
export const BASIC_CHALLENGE = 'Basic realm="hrms", charset="UTF-8"';

/** An error of the token endpoint with the RFC's code. */
export class OAuthError extends AppError {
  constructor(
    readonly oauthCode: OAuthErrorCode,
    description: string,
  ) {
    const code: ErrorCode = oauthCode === "invalid_client" ? "unauthenticated" : "validation_failed";
    super(code, description, undefined, oauthCode === "invalid_client" ? { "WWW-Authenticate": BASIC_CHALLENGE } : undefined);
  }
}
