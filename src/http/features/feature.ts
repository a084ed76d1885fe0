// A feature of the operation pipeline: `applies` reads the registry's flags once at start, `wrap` runs
// around the rest of the pipeline per request (src/http/features/index.ts composes them).
import type { Request, Response } from "express";
import type { OperationId } from "../../../generated/registry.ts";
import type { Matcher } from "../routing.ts";
import type { AuthContext, HandlerContext } from "../types.ts";

/** The handler's answer, or that it was sent (a file, a 304); `json` as a feature wrote it (drop it when changing `body`). */
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
