// Which operation a request is for: the matchers built once from the generated registry and the
// bundled document (method, path, parameters and what the document declares of each operation),
// and resolveOperation, which finds the request's operation once and keeps it on the request for
// the middlewares after it (operationOf). Nothing is routed by hand (docs/decisions/0001-own-dispatch.md).
import { readFileSync } from "node:fs";
import path from "node:path";
import type { NextFunction, Request, Response } from "express";
import { operationTable, type OperationId } from "../../generated/registry.ts";
import { config } from "../config.ts";
import type { CursorSpec } from "./cursor.ts";

export const openapiPath = path.join(config().root, "generated", "openapi.json");
let apiDocCache: any;
/** The bundled OpenAPI document (generated/openapi.json), read once. */
export function apiDocument(): any {
  apiDocCache ??= JSON.parse(readFileSync(openapiPath, "utf8"));
  return apiDocCache;
}

export const STATE_CHANGING = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** Static segments sort before parameters. */
function specificity(p: string): string {
  return p
    .split("/")
    .map((s) => (s.startsWith("{") ? "~" : s))
    .join("/");
}

/** Every operation of the registry, in the order their paths are matched: static segments before parameters. */
export function operationIdsBySpecificity(): OperationId[] {
  // Plain code-unit order: "~" (a parameter) sorts after every letter, so `/api/assets/assignments`
  // is mounted before `/api/assets/{assetId}`. (localeCompare puts punctuation before letters.)
  const byCodeUnit = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return (Object.keys(operationTable) as OperationId[]).sort((a, b) =>
    byCodeUnit(specificity(operationTable[a].path), specificity(operationTable[b].path)),
  );
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

/** Method + path of each operation as a matcher, most specific first. */
// size: one record per operation, each field read from the document with why beside it; the fields belong together
export function operationMatchers(ids: OperationId[]) {
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
      // a list walked by cursor (openapi/plugins/hrms.js), with its query parameters' declared defaults
      cursor: op?.["x-cursor"] ? { ...op["x-cursor"], defaults: queryDefaults(doc, op) } : undefined,
    };
  });
}

type DocParameter = { $ref?: string; name?: string; in?: string; schema?: { default?: unknown } };

/**
 * The declared default of each query parameter of `op` (name -> the default as a query string carries
 * it): generated clients send a parameter at its default when told nothing (openapi-python-client
 * sends `page=1`), which must mean what leaving it out means.
 */
function queryDefaults(
  doc: { components?: Record<string, Record<string, unknown> | undefined> },
  op: DocOperation,
): Record<string, string> {
  const defaults: Record<string, string> = {};
  for (const p of (op.parameters ?? []) as DocParameter[]) {
    const param = (p.$ref ? doc.components?.parameters?.[p.$ref.split("/").pop() as string] : p) as DocParameter | undefined;
    if (param?.in === "query" && param.name && param.schema?.default !== undefined) defaults[param.name] = String(param.schema.default);
  }
  return defaults;
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
export type Matcher = ReturnType<typeof operationMatchers>[number];

/**
 * Finds the operation of each request once and keeps it on the request for the middlewares after
 * it: a path without parameters by one map lookup (it is more specific than any templated path of
 * the same shape); a templated one among the paths of the same method, number of segments and area
 * segment (`/api/<area>/...`: no path of the document has a parameter there), most specific first.
 */
export function resolveOperation(matchers: Matcher[]) {
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
export type OperationRequest = Request & {
  operation?: Matcher;
  operationMatch?: RegExpExecArray;
  openapiRouteHint?: { openApiRoute: string; pathParams: Record<string, string> };
};
/** The operation resolveOperation found for the request, if any. */
export const operationOf = (req: Request) => (req as OperationRequest).operation;
