// What a feature of the operation pipeline is (src/http/features/index.ts composes them): a rule of
// the document that wraps every operation declaring it - `applies` reads the operation's flags in
// generated/registry.ts once at start, `wrap` runs around the rest of the pipeline per request.
import type { Request, Response } from "express";
import type { OperationId } from "../../../generated/registry.ts";
import type { Matcher } from "../routing.ts";
import type { AuthContext, HandlerContext } from "../types.ts";

/**
 * What the handler answered, or that the answer has been sent already (a file, a 304). `json`: the
 * body already written as JSON by a feature (the ETag's, src/http/conditional.ts), sent as it is;
 * a feature that changes `body` after it drops `json`.
 */
export type Answer = { status: number; body: unknown; json?: string } | { sent: true };

export interface Call {
  op: Matcher;
  req: Request;
  res: Response;
  /** the caller; null on public operations */
  auth: AuthContext | null;
  /** what the handler receives (a feature may complete it, e.g. the cursor walk) */
  ctx: HandlerContext<OperationId>;
}

export interface Feature {
  name: string;
  applies(op: Matcher): boolean;
  wrap(call: Call, next: () => Promise<Answer>): Promise<Answer>;
}
