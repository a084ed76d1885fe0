// The Express application: the request path's pieces put in order here (the order and why:
// docs/architecture.md, "The request path").
import express, { type Request, type Response } from "express";
import { config, type Config, withConfig } from "../config.ts";
import { logger } from "../log.ts";
import { AppError } from "../platform/errors.ts";
import { type Admission, admissionControl, type AdmissionOptions } from "./admission.ts";
import { assertBodiesFit, formBodies, jsonBodies } from "./body.ts";
import { devMailPage } from "./dev-mail.ts";
import { docsPage } from "./docs-page.ts";
import { errorBody, errorMiddleware, notFoundFallback } from "./error-middleware.ts";
import { createLifecycle, type Lifecycle } from "../platform/lifecycle.ts";
import { originCheck, requestIdAndLog, requireSessionFor, securityHeaders, series, sessionWhereNeeded } from "./middleware.ts";
import { authorizeBeforeInput, dispatch } from "./operation.ts";
import { publicLinkScript } from "./public-link.ts";
import { demoSignIn } from "../platform/identity/demo.ts";
import { operationUploads } from "./public-uploads.ts";
import { RequestRateLimits, requestRateLimits } from "./rate-limit.ts";
import { apiDocument, type Matcher, operationIdsBySpecificity, operationMatchers, operationOf, resolveOperation } from "./routing.ts";
import { uploadGate } from "./uploads.ts";
import { refuseBodiesOfBodilessWrites, refuseMissingBody, refuseNulCharacters, validation } from "./validation.ts";

export interface AppOptions {
  /** The frozen configuration the app is built and serves with (default: the process's); requests read it through `config()`. */
  config?: Config;
  validateResponses?: boolean;
  /** admission control limits (default: the configuration's, docs/operations.md "Overload") */
  admission?: Partial<AdmissionOptions>;
  /** where the process is in its life, as readiness reports it (src/platform/lifecycle.ts; default: serving) */
  lifecycle?: Lifecycle;
}

export function createApp(opts: AppOptions = {}): express.Express {
  const cfg = opts.config ?? config();
  return withConfig(cfg, () => buildApp(cfg, opts));
}

/** The app, built with `cfg` in force (the session middlewares read it as they are made). */
function buildApp(cfg: Config, opts: AppOptions): express.Express {
  const ids = operationIdsBySpecificity();
  const matchers = operationMatchers(ids);
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "simple");
  // only the configured proxies' hops of X-Forwarded-For (never all of them: its left part is the client's to write)
  if (cfg.trustProxy !== false) app.set("trust proxy", cfg.trustProxy);
  app.locals.config = cfg;
  const lifecycle = opts.lifecycle ?? createLifecycle();
  app.locals.lifecycle = lifecycle;
  const admission = admissionControl(admissionOptions(cfg, opts));
  // BODY_MEMORY_MB must hold a body of every limit the document declares (src/http/body.ts)
  if (opts.admission?.bodyMemoryBytes === undefined)
    assertBodiesFit(Math.max(0, ...matchers.map((m) => m.body?.limit ?? 0)), cfg.bodyMemoryMb * 1048576);
  app.locals.admission = admission;
  app.locals.validateResponses = opts.validateResponses ?? cfg.validateResponses;
  const rateLimits = new RequestRateLimits();
  app.locals.rateLimits = rateLimits;
  const front = series([requestIdAndLog(cfg, lifecycle), admission, securityHeaders(), originCheck]);
  app.use(front);

  app.get("/openapi.json", (_req, res) => {
    res.json(apiDocument());
  });
  app.use("/docs", docsPage(apiDocument, demoSignIn));
  app.get("/", (_req, res) => res.redirect("/docs"));
  // the script of the candidate's offer page (getPublicOfferPage; src/http/public-link.ts)
  app.get("/assets/public-link.js", publicLinkScript);
  // DEV_MAIL (development without SMTP_URL): the outbox page for this machine (src/http/dev-mail.ts)
  if (cfg.devMail) app.get("/dev/mail", devMailPage);

  const operations = operationPath(matchers, admission, rateLimits, opts.validateResponses ?? cfg.validateResponses);
  app.use(operations);

  app.use(notFoundFallback);
  app.use(errorMiddleware);
  apiPaths.set(app, apiPath(series([front, operations])));
  return app;
}

/** Admission control's limits: the options' where given, else the configuration's. */
function admissionOptions(cfg: Config, opts: AppOptions): AdmissionOptions {
  return {
    maxConcurrent: opts.admission?.maxConcurrent ?? cfg.maxConcurrentRequests,
    maxQueued: opts.admission?.maxQueued ?? cfg.maxQueuedRequests,
    queueTimeoutMs: opts.admission?.queueTimeoutMs ?? cfg.requestQueueTimeoutMs,
    retryAfterSeconds: opts.admission?.retryAfterSeconds,
    bodyReadsPerClient: opts.admission?.bodyReadsPerClient ?? cfg.bodyReadsPerClient,
    bodyReadTimeoutMs: opts.admission?.bodyReadTimeoutMs ?? cfg.bodyReadTimeoutMs,
    bodyMinBytesPerSecond: opts.admission?.bodyMinBytesPerSecond ?? cfg.bodyMinBytesPerSecond,
    writeTimeoutMs: opts.admission?.writeTimeoutMs ?? cfg.responseWriteTimeoutMs,
    writeMinBytesPerSecond: opts.admission?.writeMinBytesPerSecond ?? cfg.responseMinBytesPerSecond,
    bodyMemoryBytes: opts.admission?.bodyMemoryBytes ?? cfg.bodyMemoryMb * 1048576,
    respond: errorMiddleware,
  };
}

/**
 * The request path of every operation, as one middleware (series): Express's router would test
 * each of these as a layer of its own on every request.
 */
function operationPath(
  matchers: Matcher[],
  admission: Admission,
  rateLimits: RequestRateLimits,
  validateResponses: boolean,
): express.RequestHandler {
  return series([
    resolveOperation(matchers),
    sessionWhereNeeded(),
    requestRateLimits(rateLimits),
    // A non-public operation without a session is a 401 before its input is looked at (or read).
    requireSessionFor(),
    // then who may call it (roles, module, a credential's scope): a 403 before the input's 400s
    authorizeBeforeInput(),
    refuseBodiesOfBodilessWrites(),
    refuseMissingBody(),
    jsonBodies((req) => operationOf(req)?.body ?? null, admission.readingBody),
    formBodies((req) => operationOf(req)?.form === true, admission.readingBody),
    // before the body is read
    uploadGate(operationUploads(matchers)),
    validation(validateResponses, admission.readingBody),
    refuseNulCharacters,
    dispatch(
      matchers.map((m) => m.id),
      matchers,
    ),
  ]);
}

const apiPaths = new WeakMap<express.Express, (req: Request, res: Response) => void>();

/**
 * What the router would run for `/api/` (no route between matches it), without testing routes per request;
 * the request gets what Express gives it (`req.res`, `res.locals`...). Should the error middleware fail, a bare 500.
 */
function apiPath(path: express.RequestHandler): (req: Request, res: Response) => void {
  return (req, res) => {
    req.res = res;
    res.req = req;
    res.locals ??= Object.create(null);
    req.baseUrl = "";
    req.originalUrl = req.url;
    const lastResort = (err?: unknown) => {
      logger.error(
        { err: { message: (err as Error)?.message, stack: (err as Error)?.stack }, path: req.path },
        "error while answering an error",
      );
      if (res.headersSent) return void res.end();
      const body = JSON.stringify(errorBody(new AppError("internal", "Internal server error")));
      res.writeHead(500, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(body) });
      res.end(body);
    };
    let failed = false;
    const answerError = (err: unknown) => {
      // an error while answering an error (the error middleware does not call next)
      if (failed) return lastResort(err);
      failed = true;
      try {
        errorMiddleware(err, req, res, lastResort);
      } catch (e) {
        lastResort(e);
      }
    };
    // as the app's own stack ends: the 404 fallback, then the error middleware
    path(req, res, (err?: unknown) => (err === undefined || err === null ? notFoundFallback(req, res, answerError) : answerError(err)));
  };
}

/** The app's request path for `/api/` requests without Express's router (see apiPath). */
export function apiRequestHandler(app: express.Express): ((req: Request, res: Response) => void) | undefined {
  return apiPaths.get(app);
}
