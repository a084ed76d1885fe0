// Running an operation: dispatch (one Express middleware for every operation of the document: the
// operation resolveOperation found gets its path parameters and runs) and operationHandler (the
// caller's identity and guards, the conditional-request and idempotency wrappers, the handler in the
// caller's tenant, on the read replica where the document allows it, then the envelope).
import type { NextFunction, Request, Response } from "express";
import { handlers } from "../../generated/handlers.ts";
import { operationTable, type OperationId } from "../../generated/registry.ts";
import { withTenant } from "../db/tenancy.ts";
import { invalidateIdentities } from "../platform/identity/identity-cache.ts";
import { deliverQueuedMail } from "../platform/mail/outbox.ts";
import { AppError } from "../platform/errors.ts";
import { conditionally, tagged } from "./conditional.ts";
import { sendJson } from "./envelope.ts";
import { authorize } from "./guards.ts";
import { idempotently } from "./idempotency.ts";
import { type CursorSpec, walkOf } from "./cursor.ts";
import { rememberWrite, runRead } from "./read-routing.ts";
import { type Matcher, type OperationRequest, operationOf, STATE_CHANGING } from "./routing.ts";
import type { AuthContext, HandlerContext, UploadedFile } from "./types.ts";

/** Conditional requests of an operation (issue 32, src/http/conditional.ts). */
type Conditions = { etag?: boolean; ifMatch?: "optional" | "required"; readId?: OperationId };

const AUTHORIZED = Symbol("caller authorized before the body was read");
type AuthorizedRequest = Request & { [AUTHORIZED]?: AuthContext | null };
/** The caller, when a gate before the body (uploads) has already resolved it. */
const authorizedBefore = (req: Request) => (req as AuthorizedRequest)[AUTHORIZED];
/** Keeps the caller a gate before the body (uploads) resolved, for the operation's handler. */
export function markAuthorized(req: Request, auth: AuthContext | null): void {
  (req as AuthorizedRequest)[AUTHORIZED] = auth;
}

/** The Express handler of one operation: identity and guards, the handler, the envelope. */
function operationHandler(id: OperationId, readReplica: boolean, idempotent: boolean, conditions: Conditions = {}, cursor?: CursorSpec) {
  const meta = operationTable[id];
  const handler = handlers[id] as (ctx: HandlerContext<OperationId>) => Promise<any>;
  const changesState = STATE_CHANGING.has(meta.method.toUpperCase());
  return async (req: Request, res: Response, next: NextFunction) => {
    try {
      const auth = meta.public ? null : (authorizedBefore(req) ?? (await authorize(req, meta)));
      // issue 32: a list declared x-cursor pages by number or walks by cursor (src/http/cursor.ts)
      const walk = cursor && auth ? walkOf(req, id, auth.tenantId, cursor) : null;
      const ctx = {
        operationId: id,
        params: req.params,
        query: req.query,
        body: req.body,
        auth: auth as AuthContext,
        files: ((req as Request & { files?: UploadedFile[] }).files ?? []) as UploadedFile[],
        req,
        res,
        ip: req.ip ?? "",
        requestId: res.getHeader("X-Request-Id") as string,
        walk,
      } as unknown as HandlerContext<OperationId>;
      // mail the operation queued is delivered once it has finished (src/platform/mail/outbox.ts)
      // reads the document marks x-read-replica may run on the replica (src/http/read-routing.ts)
      const serve = readReplica ? () => runRead(req, res, () => handler(ctx)) : () => handler(ctx);
      // issue 32: ETag / If-None-Match on a GET of one resource, If-Match on its writes (src/http/conditional.ts)
      const { etag, ifMatch, readId } = conditions;
      const read = readId ? (handlers[readId] as (c: HandlerContext<OperationId>) => Promise<any>) : undefined;
      const readCtx = { ...ctx, operationId: readId, query: {}, body: undefined, files: [] } as unknown as HandlerContext<OperationId>;
      const checked = etag
        ? () => tagged(req, res, serve)
        : ifMatch && read && auth
          ? () => conditionally(req, res, auth, { required: ifMatch === "required", read: () => read(readCtx) }, serve)
          : serve;
      // issue 32: an Idempotency-Key replays the first answer instead of running again (src/http/idempotency.ts)
      const guarded = idempotent && auth ? () => idempotently(req, res, auth, id, ctx.files, checked) : checked;
      const run = () => deliverQueuedMail(guarded);
      const reply = await (auth ? withTenant(auth.tenantId, run) : run()).finally(() => {
        // this process's identity cache must not answer the caller's next request with what its
        // write may have changed (other processes hear of it through NOTIFY); before the response
        if (changesState) invalidateIdentities();
      });
      // the caller's next reads wait for the replica to have this write (read-your-writes)
      if (changesState) await rememberWrite(res);
      if ("sent" in reply) return;
      sendJson(res, reply.status, reply.body);
    } catch (err) {
      next(err);
    }
  };
}

/**
 * One route for every operation of the document: the operation found for the request (by
 * resolveOperation, from the generated registry) gets its path parameters and runs - instead of
 * 227 routes that Express would test one after the other on every request.
 */
export function dispatch(ids: OperationId[], matchers: Matcher[]) {
  const readReplica = new Set(matchers.filter((m) => m.readReplica).map((m) => m.id));
  const idempotent = new Set(matchers.filter((m) => m.idempotent).map((m) => m.id));
  // the GET operation of each path (the current representation of a conditional write)
  const reads = new Map(matchers.filter((m) => m.method === "GET").map((m) => [m.path, m.id]));
  const conditionsOf = (m: Matcher): Conditions => ({
    etag: m.etag,
    ifMatch: m.ifMatch,
    readId: m.ifMatch ? reads.get(m.path) : undefined,
  });
  const byId = new Map(matchers.map((m) => [m.id, m]));
  const run = new Map(
    ids.map((id) => {
      const m = byId.get(id)!;
      return [id, operationHandler(id, readReplica.has(id), idempotent.has(id), conditionsOf(m), m.cursor)];
    }),
  );
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
