// The Express application. Request path: request id + log → admission control (a bound on API
// requests in progress, a bounded deadlined queue, 503 beyond; health and /docs bypass it) →
// security headers → origin check → the request's operation → session (401 for an operation that
// needs one, before its body is read) → JSON body (only for operations that take one, up to the
// operation's x-body-limit, nesting bounded before parsing: src/http/body.ts) → the upload gate
// (multipart operations: caller, uploads in progress, hourly budgets, storage quota - before the
// body is read; src/http/uploads.ts) → OpenAPI validation (requests always, responses in
// development and tests; multipart files streamed to disk) → guards from the operation's
// x-public / x-roles / x-module → the operation's handler (mounted from the generated registry;
// nothing is routed by hand; on the read replica when the document marks it x-read-replica and the
// replica may serve the caller: src/http/read-routing.ts) → envelope → error middleware.
// A slot of admission control is for work: while a body arrives (the JSON parser, the multipart
// reader) the request holds none and the body has its client's budget and a deadline; a response
// has a deadline to be written (src/http/admission.ts); the HTTP server bounds headers and the whole
// request (src/http/server.ts).
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import express, { type NextFunction, type Request, type Response } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import helmet from "helmet";
import { handlers } from "../../generated/handlers.ts";
import { operationTable, type OperationId } from "../../generated/registry.ts";
import { invalidateIdentities } from "../platform/identity/identity-cache.ts";
import { sessionCookieName, sessionMiddlewares } from "../platform/identity/session.ts";
import { clientCookieLast } from "../platform/identity/signin-guard.ts";
import { appUrl, config, type Config, withConfig } from "../config.ts";
import { withTenant } from "../db/tenancy.ts";
import { deliverQueuedMail } from "../platform/mail/outbox.ts";
import { devMailPage } from "./dev-mail.ts";
import { docsPage } from "./docs-page.ts";
import { publicLinkScript } from "./public-link.ts";
import { detailsInWords } from "./validation-messages.ts";
import { logger, logRequest, type RequestInfo, requestContext } from "../log.ts";
import { MAX_UPLOAD_BYTES, uploadStorage } from "../platform/storage/files.ts";
import { checkAppointmentUpload } from "../modules/recruitment/index.ts";
import { type Admission, admissionControl, type AdmissionOptions } from "./admission.ts";
import { createLifecycle, type Lifecycle } from "./lifecycle.ts";
import { NO_OPERATION, recordRequest } from "../platform/metrics.ts";
import { errorBody, errorMiddleware, notFoundFallback } from "./error-middleware.ts";
import { AppError, type ErrorDetail } from "../platform/errors.ts";
import { sendJson } from "./envelope.ts";
import { authenticateBearer, authorize } from "./guards.ts";
import { bearerSecret } from "../platform/identity/credentials.ts";
import { formBodies, jsonBodies, nulPaths } from "./body.ts";
import { uploadGate } from "./uploads.ts";
import { rememberWrite, runRead } from "./read-routing.ts";
import { idempotently } from "./idempotency.ts";
import { conditionally, tagged } from "./conditional.ts";
import { type CursorSpec, walkOf } from "./cursor.ts";
import { RequestRateLimits, requestRateLimits } from "./rate-limit.ts";
import type { AuthContext, HandlerContext, UploadedFile } from "./types.ts";

export const openapiPath = path.join(config().root, "generated", "openapi.json");
let apiDocCache: any;
export function apiDocument(): any {
  apiDocCache ??= JSON.parse(readFileSync(openapiPath, "utf8"));
  return apiDocCache;
}

export interface AppOptions {
  /**
   * The configuration the app is built and serves with (default: the one in force, i.e. the
   * process's); each request reads it through `config()`. Frozen (loadConfig, configWith).
   */
  config?: Config;
  validateResponses?: boolean;
  /**
   * admission control limits; defaults MAX_CONCURRENT_REQUESTS, MAX_QUEUED_REQUESTS, REQUEST_QUEUE_TIMEOUT_MS,
   * BODY_READS_PER_CLIENT, BODY_READ_TIMEOUT_MS, BODY_MIN_BYTES_PER_SECOND, RESPONSE_WRITE_TIMEOUT_MS
   */
  admission?: Partial<AdmissionOptions>;
  /** where the process is in its life, as readiness reports it (src/http/lifecycle.ts; default: serving) */
  lifecycle?: Lifecycle;
}

const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Public links carry their secret token in the path: never write it to the logs. */
export function redactPath(p: string): string {
  return p.replace(/^(\/api\/public\/[^/]+\/)[^/]+/, "$1[token]");
}

function originCheck(req: Request, _res: Response, next: NextFunction) {
  const origin = req.get("origin");
  // a request with `Authorization` is authenticated by it alone, never by a cookie (issue 31): a
  // page of another site cannot send that header without a CORS preflight, which is not granted
  if (!origin || !STATE_CHANGING.has(req.method) || req.headers.authorization !== undefined) return next();
  const { publicUrl, allowedOrigins } = config();
  const own = new URL(publicUrl).origin;
  const host = req.get("host");
  const sameHost = host && (origin === `http://${host}` || origin === `https://${host}`);
  // APP_URL: the client application the mails link to is one of ours too
  if (origin === own || origin === new URL(appUrl()).origin || sameHost || allowedOrigins.includes(origin)) return next();
  next(new AppError("forbidden", "Cross-origin request refused"));
}

/**
 * A write to an operation that declares no request body carries none: without a `Content-Type`, or
 * `application/json` (what SDKs send with an empty body). Anything else - `text/plain`, a form
 * (`application/x-www-form-urlencoded`, `multipart/form-data`): what a page of another site can
 * send without a CORS preflight - is a 415, whether or not an `Origin` came with it. (Writes with a
 * JSON body refuse other media types when the body is read, src/http/body.ts; uploads are
 * multipart by their document.)
 */
function refuseBodiesOfBodilessWrites() {
  return (req: Request, _res: Response, next: NextFunction) => {
    const op = operationOf(req);
    const type = req.headers["content-type"];
    if (!op || op.body || op.multipart || op.form || !STATE_CHANGING.has(op.method) || type === undefined) return next();
    if (type.split(";", 1)[0].trim().toLowerCase() === "application/json") return next();
    next(new AppError("unsupported_media_type", "This operation takes no request body: send none, or application/json"));
  };
}

/**
 * An operation whose request body is `required` gets a 400 when none was sent (before the
 * validator, which would call it a 415 without a content type, or let the JSON parser's `{}` for
 * an empty payload through to schemas without required properties).
 */
function refuseMissingBody() {
  return (req: Request, _res: Response, next: NextFunction) => {
    const length = req.headers["content-length"];
    if (req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0")) return next();
    const op = operationOf(req);
    if (!op?.bodyRequired) return next();
    next(new AppError("validation_failed", "A request body is required", [{ path: "body", message: "is required" }]));
  };
}

/** A NUL character in any body field or query value is a 400 naming the field, before any handler. */
function refuseNulCharacters(req: Request, _res: Response, next: NextFunction) {
  const paths = nulPaths(req.query, "query", nulPaths(req.body, "body", []));
  if (!paths.length) return next();
  next(
    new AppError(
      "validation_failed",
      "Text must not contain NUL (U+0000) characters",
      paths.map((p) => ({ path: p, message: "must not contain NUL (U+0000) characters" })),
    ),
  );
}

/** Static segments sort before parameters. */
function specificity(p: string): string {
  return p
    .split("/")
    .map((s) => (s.startsWith("{") ? "~" : s))
    .join("/");
}

/**
 * What each public upload checks before its body is read (the upload gate, src/http/uploads.ts):
 * the link in its path. Every public multipart operation must have its entry (buildApp refuses to
 * start otherwise): an anonymous upload to a wrong or dead link must cost neither the time to
 * receive its file nor the disk to hold it.
 */
const PUBLIC_UPLOAD_CHECKS: Partial<Record<OperationId, (params: Record<string, string>) => Promise<void>>> = {
  uploadAppointmentDocument: (params) => checkAppointmentUpload(params.token),
};

/** Does `id` check its link before reading its body (PUBLIC_UPLOAD_CHECKS)? */
export const checksLinkBeforeBody = (id: string): boolean => id in PUBLIC_UPLOAD_CHECKS;

type StringSchema = { minLength?: number; maxLength?: number; pattern?: string };

/**
 * The checks of the path parameters' schemas a value can fail before the body is read (their
 * `minLength`, `maxLength` and `pattern`): a malformed link is the 400 the validator would give,
 * not a lookup. Built from the document for the operations of PUBLIC_UPLOAD_CHECKS.
 */
function pathParamChecks(doc: any, urlPath: string, method: string) {
  const resolve = (p: any) => (typeof p?.$ref === "string" ? doc.components.parameters[p.$ref.split("/").pop()] : p);
  const params = [...(doc.paths[urlPath]?.parameters ?? []), ...(doc.paths[urlPath]?.[method]?.parameters ?? [])].map(resolve);
  const checks = params
    .filter((p) => p?.in === "path")
    .map((p) => {
      const schema = (p.schema ?? {}) as StringSchema;
      // regex-dynamic: a pattern of the document (scripts/checks/check-regex.ts proves each of them linear)
      return { name: p.name as string, schema, pattern: schema.pattern ? new RegExp(schema.pattern, "u") : undefined };
    });
  return (values: Record<string, string>): ErrorDetail[] => {
    // as the validator words them, then in words like every validation message (validation-messages.ts)
    const problems: { path: string; message: string; errorCode: string }[] = [];
    for (const { name, schema, pattern } of checks) {
      const v = values[name] ?? "";
      const length = [...v].length;
      const path = `params.${name}`;
      if (schema.minLength !== undefined && length < schema.minLength)
        problems.push({ path, message: `must NOT have fewer than ${schema.minLength} characters`, errorCode: "minLength" });
      if (schema.maxLength !== undefined && length > schema.maxLength)
        problems.push({ path, message: `must NOT have more than ${schema.maxLength} characters`, errorCode: "maxLength" });
      if (pattern && !pattern.test(v)) problems.push({ path, message: `must match pattern "${schema.pattern}"`, errorCode: "pattern" });
    }
    return detailsInWords(problems, (e) => String(e.path)) as ErrorDetail[];
  };
}

const AUTHORIZED = Symbol("caller authorized before the body was read");
type AuthorizedRequest = Request & { [AUTHORIZED]?: AuthContext | null };
/** The caller, when a gate before the body (uploads) has already resolved it. */
const authorizedBefore = (req: Request) => (req as AuthorizedRequest)[AUTHORIZED];

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
function dispatch(ids: OperationId[], matchers: Matcher[]) {
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

type DocOperation = {
  parameters?: unknown[];
  requestBody?: { required?: boolean; content?: Record<string, unknown> };
  responses?: Record<string, { headers?: Record<string, unknown> }>;
  "x-body-limit"?: number;
  "x-read-replica"?: boolean;
  "x-etag"?: boolean;
  "x-if-match"?: string;
  "x-cursor"?: CursorSpec;
  operationId?: string;
};

/** Conditional requests of an operation (issue 32, src/http/conditional.ts). */
type Conditions = { etag?: boolean; ifMatch?: "optional" | "required"; readId?: OperationId };

/** Method + path of each operation as a matcher, most specific first. */
function operationMatchers(ids: OperationId[]) {
  const doc = apiDocument() as {
    paths: Record<string, Record<string, DocOperation> & { parameters?: unknown[] }>;
    components?: Record<string, Record<string, unknown> | undefined>;
  };
  return ids.map((id) => {
    const meta = operationTable[id];
    // regex-dynamic: a matcher of one of the document's own paths ({param} -> ([^/]+), the rest escaped), linear
    // regex-bounded: applied to the document's paths, not to input
    const re = new RegExp(`^${meta.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "([^/]+)")}/?$`);
    // regex-bounded: applied to the document's paths, not to input
    const params = [...meta.path.matchAll(/\{([^}]+)\}/g)].map((x) => x[1]);
    const op = doc.paths[meta.path]?.[meta.method.toLowerCase()];
    const bodyRequired = op?.requestBody?.required === true;
    // JSON bodies are read up to the operation's limit (the bundle gives every such operation one)
    const jsonBody = op?.requestBody?.content?.["application/json"] !== undefined;
    const bodyLimit = op?.["x-body-limit"];
    if (jsonBody && !(Number.isInteger(bodyLimit) && (bodyLimit as number) > 0))
      throw new Error(`${id}: the bundled document gives its JSON body no x-body-limit (openapi/plugins/hrms.js)`);
    const multipart = Boolean(op?.requestBody?.content?.["multipart/form-data"]);
    // a form body (the OAuth token request, RFC 6749 §4.4.2; src/http/body.ts formBodies)
    const form = Boolean(op?.requestBody?.content?.["application/x-www-form-urlencoded"]);
    // a read that may run on the read replica (src/http/read-routing.ts): reads only
    const readReplica = op?.["x-read-replica"] === true;
    if (readReplica && meta.method.toUpperCase() !== "GET") throw new Error(`${id}: x-read-replica is for GET operations only`);
    // nothing for the request validator to look at when called without a query string
    const noInput = !op?.requestBody && !(op?.parameters?.length || doc.paths[meta.path]?.parameters?.length);
    // an operation that signs someone in declares the session cookie on its success response
    const startsSession = Object.entries(op?.responses ?? {}).some(
      ([status, r]) => status.startsWith("2") && Object.keys(r.headers ?? {}).some((h) => h.toLowerCase() === "set-cookie"),
    );
    // the `Cache-Control` its success responses declare (components/headers/CacheControlNoStore:
    // every operation's), sent on every answer of the operation, errors included (resolveOperation)
    const cacheControl = declaredCacheControl(doc, op);
    // conditional requests (issue 32, openapi/plugins/hrms.js): ETag of a GET, If-Match of a write
    const etag = op?.["x-etag"] === true;
    const ifMatch = op?.["x-if-match"] as "optional" | "required" | undefined;
    // takes an Idempotency-Key (issue 32: every non-public POST, openapi/plugins/hrms.js)
    const idempotent = (op?.parameters ?? []).some((p) => (p as { $ref?: string }).$ref === "#/components/parameters/IdempotencyKey");
    return {
      id,
      method: meta.method.toUpperCase(),
      path: meta.path,
      area: meta.area,
      re,
      params,
      segments: meta.path.split("/").length,
      isPublic: meta.public,
      bodyRequired,
      // the billing webhook's signature is computed over the exact bytes received
      body: jsonBody ? { limit: bodyLimit as number, keepRaw: meta.area === "billing" } : null,
      multipart,
      form,
      noInput,
      startsSession,
      readReplica,
      cacheControl,
      idempotent,
      etag,
      ifMatch,
      // a list walked by cursor (issue 32, openapi/plugins/hrms.js)
      cursor: op?.["x-cursor"],
    };
  });
}

/** The `Cache-Control` value (the header schema's `const`) every 2xx response of `op` declares, or null. */
function declaredCacheControl(doc: { components?: Record<string, Record<string, unknown> | undefined> }, op: DocOperation | undefined) {
  type Declared = { $ref?: string; headers?: Record<string, Declared>; schema?: { const?: unknown } };
  // "#/components/<kind>/<name>" of the bundle, or the object itself
  const deref = (x: Declared | undefined): Declared | undefined => {
    const [, , kind, name] = x?.$ref?.split("/") ?? [];
    return x?.$ref ? (doc.components?.[kind]?.[name] as Declared | undefined) : x;
  };
  const values = new Set<string | null>();
  for (const [status, declared] of Object.entries(op?.responses ?? {})) {
    if (!status.startsWith("2")) continue;
    const headers = deref(declared as Declared)?.headers ?? {};
    const header = deref(Object.entries(headers).find(([h]) => h.toLowerCase() === "cache-control")?.[1]);
    values.add(typeof header?.schema?.const === "string" ? header.schema.const : null);
  }
  if (values.size > 1) throw new Error(`${op?.operationId}: success responses declare different Cache-Control values`);
  return [...values][0] ?? null;
}
type Matcher = ReturnType<typeof operationMatchers>[number];

/**
 * Finds the operation of each request once and keeps it on the request for the middlewares after
 * it: a path without parameters by one map lookup (it is more specific than any templated path of
 * the same shape); a templated one among the paths of the same method, number of segments and area
 * segment (`/api/<area>/...`: no path of the document has a parameter there), most specific first.
 */
function resolveOperation(matchers: Matcher[]) {
  const exact = new Map<string, Matcher>();
  const index = new Map<string, Matcher[]>();
  for (const m of matchers) {
    if (!m.params.length) {
      exact.set(`${m.method} ${m.path}`, m);
      continue;
    }
    const area = m.path.split("/")[2];
    if (area.includes("{")) throw new Error(`${m.id}: a parameter as the path's second segment (${m.path}) is not routed`);
    const key = `${m.method} ${m.segments} ${area}`;
    index.set(key, [...(index.get(key) ?? []), m]);
  }
  return (req: Request, res: Response, next: NextFunction) => {
    const p = req.path.length > 1 && req.path.endsWith("/") ? req.path.slice(0, -1) : req.path;
    const fixed = exact.get(`${req.method} ${p}`);
    const segments = p.split("/");
    const candidates = fixed ? [fixed] : (index.get(`${req.method} ${segments.length} ${segments[2]}`) ?? []);
    for (const m of candidates) {
      const match = m.re.exec(req.path);
      if (!match) continue;
      (req as OperationRequest).operation = m;
      (req as OperationRequest).operationMatch = match;
      // the one place the document's Cache-Control (no-store: personal and pay data) is sent
      if (m.cacheControl) res.setHeader("Cache-Control", m.cacheControl);
      // the OpenAPI validator takes the route from here instead of scanning every route again
      // (patches/express-openapi-validator+5.6.2.patch); a malformed escape is left to its 400
      try {
        const pathParams: Record<string, string> = {};
        for (const [i, name] of m.params.entries()) pathParams[name] = decodeURIComponent(match[i + 1]);
        (req as OperationRequest).openapiRouteHint = { openApiRoute: m.path, pathParams };
      } catch {
        /* not decodable: dispatch answers 400 */
      }
      break;
    }
    next();
  };
}
type OperationRequest = Request & {
  operation?: Matcher;
  operationMatch?: RegExpExecArray;
  openapiRouteHint?: { openApiRoute: string; pathParams: Record<string, string> };
};
const operationOf = (req: Request) => (req as OperationRequest).operation;

/**
 * The session only where it can matter: the request carries the session cookie, or its operation
 * signs someone in. Every other request (health, public links, the webhook, calls without a cookie
 * that end in a 401) skips it. Operations of the auth area and those that set the session cookie
 * get express-session; all others only read who is calling (sessionMiddlewares, "lean").
 */
function sessionWhereNeeded() {
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

function requireSessionFor() {
  return (req: Request, _res: Response, next: NextFunction) => {
    const op = operationOf(req);
    // an API credential (issue 31): checked here, before the body is read, like a session
    const secret = op && !op.isPublic ? bearerSecret(req.headers.authorization) : undefined;
    if (secret !== undefined) return void authenticateBearer(req, secret).then(() => next(), next);
    if (op && !op.isPublic && !req.session?.userId) return next(new AppError("unauthenticated", "Authentication required"));
    next();
  };
}

/**
 * The OpenAPI request/response validator. Built once per process for each setting: it compiles a
 * validator per operation on first use, and every app of the process (a test worker creates one per
 * test file) shares them instead of compiling them again.
 */
const validators = new Map<boolean, express.RequestHandler[]>();
function openApiValidator(validateResponses: boolean): express.RequestHandler[] {
  let v = validators.get(validateResponses);
  if (!v) {
    // ajvCode: an option of our patch (patches/express-openapi-validator+5.6.2.patch)
    const options: Parameters<typeof OpenApiValidator.middleware>[0] & { ajvCode: { optimize: boolean } } = {
      apiSpec: apiDocument(),
      // allErrors: `details` names every offending field (e.g. each missing required property), not just the first.
      validateRequests: { allowUnknownQueryParameters: false, coerceTypes: true, removeAdditional: false, allErrors: true },
      validateResponses: validateResponses ? { removeAdditional: false } : false,
      validateSecurity: false,
      validateFormats: true,
      // "full": `format: date` rejects impossible days such as 2024-02-30 (the default "fast" mode
      // only checks the shape, and the date would then be stored as 2024-03-01).
      ajvFormats: { mode: "full" },
      // Ajv's optimisation passes pay off for validators compiled once and run for every request
      // (production validates requests only); where responses are validated too (development,
      // tests) hundreds of validators are compiled per process and most run a few times: there
      // they cost more than they save (an eighth of the role matrix's CPU). The checks are the same.
      ajvCode: { optimize: !validateResponses },
      ignorePaths: /^\/(docs|openapi\.json)(\/|$)/,
      ignoreUndocumented: false,
      // files are streamed to disk (src/platform/storage/files.ts), never held in memory
      fileUploader: { storage: uploadStorage(), limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 20, fieldSize: 64 * 1024 } },
    };
    v = OpenApiValidator.middleware(options);
    validators.set(validateResponses, v);
  }
  return v;
}

/** The validator's middlewares that do nothing for an operation without a multipart body. */
const ONLY_FOR_UPLOADS = ["pathParamsMiddleware", "securityMiddleware", "multipartMiddleware"];

/**
 * The validator's middlewares each request needs: all of them for an upload or a request no
 * operation matched (the validator answers its 404/405); for other operations not the three that
 * would do nothing (path parameters are the dispatcher's, security is the guards', no multipart
 * body); none at all for an operation without any input (no parameters, no body) called without
 * a query string, unless responses are validated. The multipart reader runs through `readingBody`
 * (admission control: no slot while the body arrives, the body's budget and deadline).
 */
function validation(validateResponses: boolean, readingBody: Admission["readingBody"]): express.RequestHandler {
  const all = openApiValidator(validateResponses);
  const names = all.map((m) => m.name);
  for (const name of [...ONLY_FOR_UPLOADS, "metadataMiddleware", "requestMiddleware"])
    if (!names.includes(name)) throw new Error(`express-openapi-validator has no ${name} (src/http/app.ts expects it)`);
  // the multipart reader receives the upload's body: without an admission slot, within the body's deadline
  const full = series(all.map((m) => (m.name === "multipartMiddleware" ? readingBody(m) : m)));
  const lean = series(all.filter((m) => !ONLY_FOR_UPLOADS.includes(m.name)));
  return (req, res, next) => {
    const op = operationOf(req);
    if (!op || op.multipart) return full(req, res, next);
    if (op.noInput && !validateResponses && !req.url.includes("?")) return next();
    return lean(req, res, next);
  };
}

/**
 * helmet's security headers. Every option used is static, so helmet's thirteen middlewares are run
 * once at start-up against a recording response, and each request gets the recorded headers from
 * one middleware. Should a future option depend on the request (helmet then does not finish
 * synchronously), helmet itself is used.
 */
function securityHeaders(): express.RequestHandler {
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

/**
 * Middlewares run one after the other as one: each gets the next as its `next`; an error (passed,
 * thrown, or a rejected promise) goes to Express's error handling, and the end of the list to the
 * middleware after this one - as Express's router would do with each of them mounted at `/`.
 */
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

export function createApp(opts: AppOptions = {}): express.Express {
  const cfg = opts.config ?? config();
  return withConfig(cfg, () => buildApp(cfg, opts));
}

/** The app, built with `cfg` in force (the session middlewares read it as they are made). */
function buildApp(cfg: Config, opts: AppOptions): express.Express {
  // Plain code-unit order: "~" (a parameter) sorts after every letter, so `/api/assets/assignments`
  // is mounted before `/api/assets/{assetId}`. (localeCompare puts punctuation before letters.)
  const byCodeUnit = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  const ids = (Object.keys(operationTable) as OperationId[]).sort((a, b) =>
    byCodeUnit(specificity(operationTable[a].path), specificity(operationTable[b].path)),
  );
  const matchers = operationMatchers(ids);
  const publicUploadPaths = new Map<OperationId, ReturnType<typeof pathParamChecks>>();
  for (const m of matchers) {
    if (!m.isPublic || !m.multipart) continue;
    if (!PUBLIC_UPLOAD_CHECKS[m.id])
      throw new Error(`${m.id}: a public upload needs the checks it makes before its body is read (PUBLIC_UPLOAD_CHECKS)`);
    publicUploadPaths.set(m.id, pathParamChecks(apiDocument(), m.path, m.method.toLowerCase()));
  }
  const app = express();
  app.disable("x-powered-by");
  app.set("etag", false);
  app.set("query parser", "simple");
  // only the configured proxies' hops of X-Forwarded-For (never all of them: its left part is the client's to write)
  if (cfg.trustProxy !== false) app.set("trust proxy", cfg.trustProxy);
  app.locals.config = cfg;
  const lifecycle = opts.lifecycle ?? createLifecycle();
  app.locals.lifecycle = lifecycle;

  const requestIdAndLog: express.RequestHandler = (req, res, next) => {
    const method = req.method;
    // HEAD is the GET without its body (RFC 9110 §9.3.2): served as the GET operation, same status
    // and headers; Node's response sends no body for a HEAD request whatever the handler writes
    if (method === "HEAD") req.method = "GET";
    const incoming = req.get("x-request-id");
    const requestId = incoming && /^[\w.-]{1,100}$/.test(incoming) ? incoming : randomUUID();
    res.setHeader("X-Request-Id", requestId);
    // shutting down (src/http/lifecycle.ts): no request after this one on this connection
    if (lifecycle.draining) res.setHeader("Connection", "close");
    const started = process.hrtime.bigint();
    const info: RequestInfo = { requestId, ip: req.ip };
    res.on("finish", () => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      // the metrics of every request, recorded here only (src/platform/metrics.ts): by operationId, never by path
      recordRequest(operationOf(req)?.id ?? NO_OPERATION, method, res.statusCode, ms / 1000);
      logRequest({
        request_id: requestId,
        method,
        path: redactPath(req.path),
        status: res.statusCode,
        ms: Math.round(ms * 10) / 10,
        ...(info.userId && { user_id: info.userId }),
        ...(info.tenantId && { tenant_id: info.tenantId }),
      });
    });
    // the rest of the request (and what it starts) reads this app's configuration
    withConfig(cfg, () => requestContext.run(info, () => next()));
  };
  const admission = admissionControl({
    maxConcurrent: opts.admission?.maxConcurrent ?? cfg.maxConcurrentRequests,
    maxQueued: opts.admission?.maxQueued ?? cfg.maxQueuedRequests,
    queueTimeoutMs: opts.admission?.queueTimeoutMs ?? cfg.requestQueueTimeoutMs,
    retryAfterSeconds: opts.admission?.retryAfterSeconds,
    bodyReadsPerClient: opts.admission?.bodyReadsPerClient ?? cfg.bodyReadsPerClient,
    bodyReadTimeoutMs: opts.admission?.bodyReadTimeoutMs ?? cfg.bodyReadTimeoutMs,
    bodyMinBytesPerSecond: opts.admission?.bodyMinBytesPerSecond ?? cfg.bodyMinBytesPerSecond,
    writeTimeoutMs: opts.admission?.writeTimeoutMs ?? cfg.responseWriteTimeoutMs,
    respond: errorMiddleware,
  });
  app.locals.admission = admission;
  app.locals.validateResponses = opts.validateResponses ?? cfg.validateResponses;
  const rateLimits = new RequestRateLimits();
  app.locals.rateLimits = rateLimits;
  const front = series([requestIdAndLog, admission, securityHeaders(), originCheck]);
  app.use(front);

  app.get("/openapi.json", (_req, res) => {
    res.json(apiDocument());
  });
  // the interactive reference (src/http/docs-page.ts)
  app.use("/docs", docsPage(apiDocument));
  app.get("/", (_req, res) => res.redirect("/docs"));
  // the script of the candidate's offer page (getPublicOfferPage; src/http/public-link.ts)
  app.get("/assets/public-link.js", publicLinkScript);
  // DEV_MAIL (development without SMTP_URL): the outbox page for this machine (src/http/dev-mail.ts)
  if (cfg.devMail) app.get("/dev/mail", devMailPage);

  // The request path of every operation, as one middleware (series): Express's router would test
  // each of these fifteen as a layer of its own on every request.
  const operations = series([
    resolveOperation(matchers),
    sessionWhereNeeded(),
    // issue 32: RateLimit fields on every answer, 429 past a limit (src/http/rate-limit.ts)
    requestRateLimits(rateLimits),
    // A non-public operation without a session is a 401 before its input is looked at (or read).
    requireSessionFor(),
    refuseBodiesOfBodilessWrites(),
    refuseMissingBody(),
    // the body arrives without an admission slot, within its client's budget and its deadline
    jsonBodies((req) => operationOf(req)?.body ?? null, admission.readingBody),
    formBodies((req) => operationOf(req)?.form === true, admission.readingBody),
    // uploads: caller, concurrency, rates and quota before the body is read (src/http/uploads.ts)
    uploadGate({
      upload: (req) => {
        const op = operationOf(req);
        return op?.multipart ? { isPublic: op.isPublic } : undefined;
      },
      authorize: async (req) => {
        const auth = await authorize(req, operationTable[operationOf(req)!.id]);
        (req as AuthorizedRequest)[AUTHORIZED] = auth;
        return auth;
      },
      beforeBody: async (req) => {
        const id = operationOf(req)!.id;
        const params = (req as OperationRequest).openapiRouteHint?.pathParams;
        if (!params)
          throw new AppError("validation_failed", "Malformed path", [{ path: "path", message: "is not valid percent-encoding" }]);
        const problems = publicUploadPaths.get(id)?.(params) ?? [];
        if (problems.length) throw new AppError("validation_failed", "Validation failed", problems);
        await PUBLIC_UPLOAD_CHECKS[id]?.(params);
      },
    }),
    validation(opts.validateResponses ?? cfg.validateResponses, admission.readingBody),
    refuseNulCharacters,
    dispatch(ids, matchers),
  ]);
  app.use(operations);

  app.use(notFoundFallback);
  app.use(errorMiddleware);
  apiPaths.set(app, apiPath(series([front, operations])));
  return app;
}

const apiPaths = new WeakMap<express.Express, (req: Request, res: Response) => void>();

/**
 * The app's request path for `/api/` requests without Express's router (src/http/server.ts uses
 * it): what the router would run for them - the middlewares before the routes, then the
 * operations, then the 404 fallback and the error middleware, as none of the routes between
 * (`/openapi.json`, `/docs`, `/`) matches a path under `/api/` - without testing those routes'
 * paths and keeping the router's state on every request. The request gets what Express's app and
 * router give it (`req.res`, `res.req`, `res.locals`, `req.baseUrl`, `req.originalUrl`). Should the
 * error middleware fail to answer (it never calls next), the 500 envelope is written as it is.
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
