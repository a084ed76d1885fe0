// JSON and form request bodies: read only for operations that declare one, up to their `x-body-limit`,
// UTF-8, and refused before JSON.parse when too deep or too many values for the limit (one linear scan;
// docs/architecture.md, "The request path"). Walks are iterative: no body can exhaust the stack.
import express, { type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { AppError } from "../platform/errors.ts";

/** Arrays and objects a JSON body may nest (the document's schemas need fewer than ten). */
export const MAX_JSON_DEPTH = 400;
/** The limit of an operation with a JSON body that declares none (openapi/plugins/hrms.js has the same). */
export const DEFAULT_BODY_LIMIT = 65536;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;

/** What one linear scan of a JSON text finds: its nesting, its objects and arrays, its commas. */
export interface JsonShape {
  /** the deepest nesting of arrays and objects, up to `max + 1` (the scan stops there) */
  depth: number;
  /** objects and arrays */
  containers: number;
  /** commas outside strings: one fewer than the elements and members of each container, so a bound on the values */
  commas: number;
}

/** Brackets and commas outside strings; linear, no allocation; malformed text is left to the parser. */
export function jsonShape(buf: Uint8Array, max = MAX_JSON_DEPTH): JsonShape {
  let depth = 0;
  let deepest = 0;
  let containers = 0;
  let commas = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === COMMA) commas++;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      containers++;
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > max) break;
      }
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return { depth: deepest, containers, commas };
}

/** The deepest nesting of arrays and objects in `buf`, up to `max + 1` (jsonShape). */
export const jsonDepth = (buf: Uint8Array, max = MAX_JSON_DEPTH): number => jsonShape(buf, max).depth;

/**
 * `{}` is 3 bytes of text and ~70 of heap: one container per BYTES_PER_CONTAINER and one value per
 * BYTES_PER_VALUE of the limit hold a body to JSON_MEMORY_FACTOR × its limit (scripts/verify/body-memory.ts).
 */
export const BYTES_PER_CONTAINER = 64;
export const BYTES_PER_VALUE = 16;
/** The most memory a JSON body that passed the checks may take, as a multiple of its operation's limit. */
export const JSON_MEMORY_FACTOR = 6;

/** The objects and arrays, and the values, a body of an operation with `limit` may have. */
export const jsonBudget = (limit: number) => ({
  containers: Math.max(1024, Math.floor(limit / BYTES_PER_CONTAINER)),
  values: Math.max(4096, Math.floor(limit / BYTES_PER_VALUE)),
});

/** The memory a JSON body of an operation with `limit` may take once parsed: by its announced length, else its limit. */
export function jsonBodyMemory(limit: number, contentLength?: string): number {
  const announced = contentLength !== undefined && /^\d{1,15}$/.test(contentLength) ? Number(contentLength) : limit;
  return JSON_MEMORY_FACTOR * Math.min(limit, announced);
}

/** The start fails when the body memory cannot hold one body of the largest limit (each would be a 503). */
export function assertBodiesFit(largestLimit: number, budgetBytes: number): void {
  const need = jsonBodyMemory(largestLimit);
  if (need > budgetBytes)
    throw new Error(
      `BODY_MEMORY_MB (${Math.floor(budgetBytes / 1048576)}) cannot hold one JSON body of the largest limit ` +
        `(${Math.ceil(largestLimit / 1048576)} MiB may take ${Math.ceil(need / 1048576)} MiB once parsed): ` +
        "raise NODE_HEAP_MB (the heap of npm start) or BODY_MEMORY_MB",
    );
}

const tooCostly = (limit: number, what: string) =>
  new AppError(
    "payload_too_large",
    `Request body has too many ${what} to be read (this operation takes at most ${jsonBudget(limit).containers} objects and arrays ` +
      `and ${jsonBudget(limit).values} values); send large imports as CSV`,
  );

export const tooDeep = () =>
  new AppError("validation_failed", `JSON nested deeper than ${MAX_JSON_DEPTH} levels`, [
    { path: "body", message: `is nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects` },
  ]);

/** What the JSON parser needs to know of the request's operation (null: no JSON body to read). */
export interface JsonBodySpec {
  limit: number;
  /** Keep the exact bytes on `req.rawBody` (webhook signatures are computed over them). */
  keepRaw: boolean;
}

/** Requests without a JSON body are not read; each parser runs through admission's `reading` (no slot meanwhile). */
export function jsonBodies(
  specOf: (req: Request) => JsonBodySpec | null,
  reading: (reader: RequestHandler, cost?: (req: Request) => number) => RequestHandler = (reader) => reader,
): RequestHandler {
  const parsers = new Map<string, RequestHandler>();
  const parserFor = ({ limit, keepRaw }: JsonBodySpec): RequestHandler => {
    const key = `${limit}:${keepRaw}`;
    let p = parsers.get(key);
    if (!p) {
      p = express.json({
        limit,
        // runs on the raw bytes, before JSON.parse; what it throws is the request's error
        verify: (req, _res, buf, encoding) => {
          if (encoding !== "utf-8") throw new AppError("unsupported_media_type", "JSON bodies must be UTF-8 (RFC 8259)");
          const shape = jsonShape(buf);
          if (shape.depth > MAX_JSON_DEPTH) throw tooDeep();
          const budget = jsonBudget(limit);
          if (shape.containers > budget.containers) throw tooCostly(limit, "objects and arrays");
          if (shape.commas + 1 > budget.values) throw tooCostly(limit, "values");
          if (keepRaw) (req as unknown as { rawBody?: Buffer }).rawBody = buf;
        },
      });
      p = reading(p, (req) => jsonBodyMemory(limit, req.headers["content-length"]));
      parsers.set(key, p);
    }
    return p;
  };
  return (req: Request, res: Response, next: NextFunction) => {
    const spec = specOf(req);
    if (!spec) return next();
    return parserFor(spec)(req, res, next);
  };
}

/** Paths of the strings holding U+0000 (PostgreSQL text cannot), at most `max`, in document order. */
export function nulPaths(root: unknown, at: string, out: string[] = [], max = 20): string[] {
  interface Node {
    value: unknown;
    key: string;
    parent: Node | null;
  }
  const pathOf = (n: Node) => {
    const keys: string[] = [];
    for (let x: Node | null = n; x; x = x.parent) keys.push(x.key);
    return keys.reverse().join(".");
  };
  const stack: Node[] = [{ value: root, key: at, parent: null }];
  while (stack.length && out.length < max) {
    const node = stack.pop() as Node;
    const v = node.value;
    if (typeof v === "string") {
      if (v.includes("\u0000")) out.push(pathOf(node));
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], key: String(i), parent: node });
    } else if (v && typeof v === "object") {
      const entries = Object.entries(v);
      for (let i = entries.length - 1; i >= 0; i--) stack.push({ value: entries[i][1], key: entries[i][0], parent: node });
    }
  }
  return out;
}

/** The most an `application/x-www-form-urlencoded` body may have (the OAuth token request, RFC 6749 §4.4.2). */
export const FORM_BODY_LIMIT = 8192;

/** Flat form bodies (a repeated parameter becomes an array the document refuses); another type is left for the 415. */
export function formBodies(
  isForm: (req: Request) => boolean,
  reading: (reader: RequestHandler) => RequestHandler = (reader) => reader,
): RequestHandler {
  const parser = reading(express.urlencoded({ extended: false, limit: FORM_BODY_LIMIT, parameterLimit: 50 }));
  return (req: Request, res: Response, next: NextFunction) => (isForm(req) ? parser(req, res, next) : next());
}
