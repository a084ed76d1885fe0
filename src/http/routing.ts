// Which operation a request is for: matchers built once from the generated registry, the match kept on
// the request (operationOf). Nothing is routed by hand (docs/decisions/0001-own-dispatch.md).
import { readFileSync } from "node:fs";
import path from "node:path";
import type { NextFunction, Request, Response } from "express";
import { type OperationId, type OperationMeta, operationTable } from "../../generated/registry.ts";
import { config } from "../config.ts";

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

/** Method + path of each operation as a matcher, with its flags from generated/registry.ts. */
export function operationMatchers(ids: OperationId[]) {
  return ids.map((id) => {
    const meta = operationTable[id] as OperationMeta;
    // regex-dynamic: a matcher of one of the document's own paths ({param} -> ([^/]+), the rest escaped), linear
    // regex-bounded: applied to the document's paths, not to input
    const re = new RegExp(`^${meta.path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "([^/]+)")}/?$`);
    // regex-bounded: applied to the document's paths, not to input
    const params = [...meta.path.matchAll(/\{([^}]+)\}/g)].map((x) => x[1]);
    return {
      ...meta,
      id,
      method: meta.method.toUpperCase(),
      re,
      params,
      segments: meta.path.split("/").length,
      isPublic: meta.public,
      readOperation: meta.readOperation as OperationId | null,
    };
  });
}

export type Matcher = ReturnType<typeof operationMatchers>[number];

/**
 * A static path by one lookup (more specific than any template); a templated one among those of its method,
 * segment count and area segment (never a parameter), most specific first.
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
      // the validator takes the route from here (patches/express-openapi-validator+5.6.2.patch)
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
