// The request path's middlewares other than an operation's own (docs/architecture.md, "The request path").
import { randomUUID } from "node:crypto";
import type express from "express";
import type { NextFunction, Request, Response } from "express";
import helmet from "helmet";
import { appUrl, config, type Config, withConfig } from "../config.ts";
import { logRequest } from "../log.ts";
import { type RequestInfo, requestContext } from "../request-context.ts";
import { bearerSecret } from "../platform/identity/credentials.ts";
import { sessionCookieName, sessionMiddlewares } from "../platform/identity/session.ts";
import { clientCookieLast } from "../platform/identity/signin-guard.ts";
import { AppError, unauthenticated } from "../platform/errors.ts";
import { NO_OPERATION, recordRequest } from "../platform/metrics.ts";
import { authenticateBearer, credentialOf } from "./guards.ts";
import type { Lifecycle } from "../platform/lifecycle.ts";
import { operationOf, STATE_CHANGING } from "./routing.ts";

/** Public links carry their secret token in the path: never write it to the logs. */
export function redactPath(p: string): string {
  return p.replace(/^(\/api\/public\/[^/]+\/)[^/]+/, "$1[token]");
}

export function originCheck(req: Request, _res: Response, next: NextFunction) {
  const origin = req.get("origin");
  // a request with `Authorization` is authenticated by it alone, never by a cookie (docs/integrations.md): a
  // page of another site cannot send that header without a CORS preflight, which is not granted
  if (!origin || !STATE_CHANGING.has(req.method) || req.headers.authorization !== undefined) return next();
  const { publicUrl, allowedOrigins } = config();
  const own = new URL(publicUrl).origin;
  const host = req.get("host");
  const sameHost = host && (origin === `http://${host}` || origin === `https://${host}`);
  // APP_URL: the client application the mails link to is one of ours too
  if (origin === own || origin === new URL(appUrl()).origin || sameHost || allowedOrigins.includes(origin)) return next();
  next(
    new AppError(
      "forbidden",
      `Cross-origin request refused: ${origin} may not make state-changing requests. Allowed are this server's origin (PUBLIC_URL), ` +
        "the client application's (APP_URL) and the origins listed in the ALLOWED_ORIGINS setting (comma separated); " +
        "a server-side client sends no Origin header",
    ),
  );
}

/** The first middleware: request id (the client's when well formed), log line and metrics, and `cfg` in force. */
export function requestIdAndLog(cfg: Config, lifecycle: Lifecycle): express.RequestHandler {
  return (req, res, next) => {
    const method = req.method;
    // HEAD is the GET without its body (RFC 9110 §9.3.2); Node sends no body for it whatever is written
    if (method === "HEAD") req.method = "GET";
    const incoming = req.get("x-request-id");
    const requestId = incoming && /^[\w.-]{1,100}$/.test(incoming) ? incoming : randomUUID();
    res.setHeader("X-Request-Id", requestId);
    // shutting down (src/platform/lifecycle.ts): no request after this one on this connection
    if (lifecycle.draining) res.setHeader("Connection", "close");
    const started = process.hrtime.bigint();
    const info: RequestInfo = { requestId, ip: req.ip };
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // the metrics of every request, recorded here only (src/platform/metrics.ts): by operationId, never by path
      recordRequest(operationOf(req)?.id ?? NO_OPERATION, method, res.statusCode, ms / 1000);
      const operationId = operationOf(req)?.id;
      logRequest({
        request_id: requestId,
        ...(operationId && { operation_id: operationId }),
        method,
        path: redactPath(req.path),
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
        ...(info.userId && { user_id: info.userId }),
        ...(info.tenantId && { tenant_id: info.tenantId }),
      });
    });
    withConfig(cfg, () => requestContext.run(info, () => next()));
  };
}

/**
 * The session only where it can matter (a session cookie, or an operation that signs in); full
 * express-session only where the cookie is set, the others read who is calling ("lean").
 */
export function sessionWhereNeeded() {
  const { full, lean } = sessionMiddlewares();
  const cookie = `${sessionCookieName()}=`;
  return (req: Request, res: Response, next: NextFunction) => {
    const op = operationOf(req);
    if (op?.startsSession) {
      // the known-client cookie of a sign-in goes after the session's (src/platform/identity/signin-guard.ts)
      clientCookieLast(res);
      return full(req, res, next);
    }
    if (!req.headers.cookie?.includes(cookie)) return next();
    return (op && op.area !== "auth" ? lean : full)(req, res, next);
  };
}

/** A non-public operation without a session or an API credential is a 401, before its input is looked at (or read). */
export function requireSessionFor() {
  return (req: Request, _res: Response, next: NextFunction) => {
    const op = operationOf(req);
    // a credential was checked by the rate limits already (src/http/rate-limit.ts)
    if (credentialOf(req)) return next();
    const secret = op && !op.isPublic ? bearerSecret(req.headers.authorization) : undefined;
    if (secret !== undefined) return void authenticateBearer(req, secret).then(() => next(), next);
    if (op && !op.isPublic && !req.session?.userId) return next(unauthenticated());
    next();
  };
}

/** helmet's static headers recorded once at start-up and set by one middleware (helmet itself if an option is per request). */
export function securityHeaders(): express.RequestHandler {
  const h = helmet({
    contentSecurityPolicy: { directives: { "script-src": ["'self'"], "img-src": ["'self'", "data:"] } },
    crossOriginEmbedderPolicy: false,
  });
  const set: [string, string | number | readonly string[]][] = [];
  const removed: string[] = [];
  let finished = false;
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => set.push([name, value]),
    removeHeader: (name: string) => removed.push(name),
  };
  h({ headers: {} } as Request, recorder as unknown as Response, () => (finished = true));
  if (!finished) return h;
  return (_req, res, next) => {
    for (const [name, value] of set) res.setHeader(name, value);
    for (const name of removed) res.removeHeader(name);
    next();
  };
}

/** Middlewares as one, as the router would run them mounted at `/` (errors passed, thrown or rejected go to error handling). */
export function series(handlers: express.RequestHandler[]): express.RequestHandler {
  return (req, res, done) => {
    let i = 0;
    const next = (err?: unknown) => {
      if (err !== undefined && err !== null) return done(err);
      const handler = handlers[i++];
      if (!handler) return done();
      try {
        const r = handler(req, res, next) as unknown;
        if (r instanceof Promise) r.catch((e: unknown) => done(e ?? new Error("Rejected promise")));
      } catch (e) {
        done(e);
      }
    };
    next();
  };
}
