// Running an operation: identity and guards, the features it declares (src/http/features/) around its
// handler, the envelope (docs/architecture.md, "The operation table and the feature pipeline").
import type { NextFunction, Request, Response } from "express";
import { handlers } from "../../generated/handlers.ts";
import { operationTable, type OperationId } from "../../generated/registry.ts";
import { AppError } from "../platform/errors.ts";
import { sendJson } from "./envelope.ts";
import { pipelineOf } from "./features/index.ts";
import { authorize } from "./guards.ts";
import { type Matcher, type OperationRequest, operationOf } from "./routing.ts";
import type { AuthContext, HandlerContext, UploadedFile } from "./types.ts";

const AUTHORIZED = Symbol("caller authorized before the body was read");
type AuthorizedRequest = Request & { [AUTHORIZED]?: AuthContext | null };
/** Keeps the caller a gate before the body (uploads) resolved, for the operation's handler. */
export function markAuthorized(req: Request, auth: AuthContext | null): void {
  (req as AuthorizedRequest)[AUTHORIZED] = auth;
}

/** The caller of a non-public operation, authorized once per request: by the first of the gates before the body, or here. */
export async function authorizeOnce(req: Request): Promise<AuthContext | null> {
  const r = req as AuthorizedRequest;
  if (AUTHORIZED in r) return r[AUTHORIZED] ?? null;
  const auth = await authorize(req, operationTable[operationOf(req)!.id]);
  markAuthorized(req, auth);
  return auth;
}

/** Roles, module and scope before the body: a caller who may not call it gets its 403, not 400s about fields. */
export function authorizeBeforeInput() {
  return (req: Request, _res: Response, next: NextFunction) => {
    const op = operationOf(req);
    if (!op || op.isPublic) return next();
    authorizeOnce(req).then(() => next(), next);
  };
}

/** The Express handler of one operation: identity and guards, the operation's features around its handler, the envelope. */
function operationHandler(op: Matcher) {
  const handler = handlers[op.id] as (ctx: HandlerContext<OperationId>) => Promise<any>;
  const run = pipelineOf(op, (call) => handler(call.ctx));
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const auth = op.isPublic ? null : await authorizeOnce(req);
      const ctx = {
        operationId: op.id,
        params: req.params,
        query: req.query,
        body: req.body,
        auth: auth as AuthContext,
        files: ((req as Request & { files?: UploadedFile[] }).files ?? []) as UploadedFile[],
        req,
        res,
        ip: req.ip ?? "",
        requestId: res.getHeader("X-Request-Id") as string,
        walk: null,
      } as unknown as HandlerContext<OperationId>;
      const reply = await run({ op, req, res, auth, ctx });
      if ("sent" in reply) return;
      sendJson(res, reply.status, reply.body, reply.json);
    } catch (err) {
      next(err);
    }
  };
}

/** One route for every operation, instead of 227 that Express would test in turn on every request. */
export function dispatch(ids: OperationId[], matchers: Matcher[]) {
  const byId = new Map(matchers.map((m) => [m.id, m]));
  const run = new Map(ids.map((id) => [id, operationHandler(byId.get(id)!)]));
  return (req: Request, res: Response, next: NextFunction) => {
    const op = operationOf(req);
    if (!op) return next();
    const m = (req as OperationRequest).operationMatch!;
    try {
      req.params = Object.fromEntries(op.params.map((name, i) => [name, decodeURIComponent(m[i + 1])]));
    } catch {
      return next(new AppError("validation_failed", "Malformed path", [{ path: "path", message: "is not valid percent-encoding" }]));
    }
    return run.get(op.id)!(req, res, next);
  };
}
