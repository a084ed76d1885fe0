// JSON request bodies: read only for operations whose document declares an application/json body,
// each up to its own limit (`x-body-limit` of the operation in the bundle, 64 KiB by default - the
// bundler writes the default, openapi/plugins/hrms.js), in UTF-8 only, and refused without parsing
// when nested deeper than MAX_JSON_DEPTH: one linear scan of the bytes counts the brackets outside
// strings before JSON.parse runs. The NUL-character walk over a parsed body is iterative, so no
// shape of body can exhaust the stack.
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

/**
 * The deepest nesting of arrays and objects in the UTF-8 JSON text `buf`, up to `max + 1` (it stops
 * there). Brackets inside strings do not count; an escaped character is skipped. Linear in the
 * length, no allocation; malformed text gives some number and is left to the parser.
 */
export function jsonDepth(buf: Uint8Array, max = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < buf.length; i++) {
    const c = buf[i];
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > max) return deepest;
      }
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) depth--;
  }
  return deepest;
}

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

/**
 * The JSON body parser: for each request, the spec of its operation (`specOf`); requests of
 * operations without a JSON body (and of no operation) are not read at all. Each parser runs
 * through `reading` (the app's admission control: no slot while the body arrives, the client's
 * budget of bodies and the body's deadline; src/http/admission.ts).
 */
export function jsonBodies(
  specOf: (req: Request) => JsonBodySpec | null,
  reading: (reader: RequestHandler) => RequestHandler = (reader) => reader,
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
          if (jsonDepth(buf) > MAX_JSON_DEPTH) throw tooDeep();
          if (keepRaw) (req as unknown as { rawBody?: Buffer }).rawBody = buf;
        },
      });
      p = reading(p);
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

/**
 * Paths of the strings in `root` that contain U+0000 (PostgreSQL text cannot hold it), at most
 * `max`, in document order. Iterative (an explicit stack), and a path is spelled out only for a
 * string that has the character.
 */
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

/**
 * Form bodies (`application/x-www-form-urlencoded`): read only for operations whose document
 * declares one (`isForm`), up to FORM_BODY_LIMIT, UTF-8, flat (`extended: false`: a repeated
 * parameter becomes an array, which the document's `type: string` refuses). Another media type is
 * left unread for the validator's 415.
 */
export function formBodies(
  isForm: (req: Request) => boolean,
  reading: (reader: RequestHandler) => RequestHandler = (reader) => reader,
): RequestHandler {
  const parser = reading(express.urlencoded({ extended: false, limit: FORM_BODY_LIMIT, parameterLimit: 50 }));
  return (req: Request, res: Response, next: NextFunction) => (isForm(req) ? parser(req, res, next) : next());
}
