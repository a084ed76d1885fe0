// The checks of a request's input: the OpenAPI validator (requests always, responses in development
// and tests; multipart files streamed to disk), and the refusals made before it - a body sent to an
// operation that takes none (415), a required body missing (400) - and after it: NUL characters (400).
import type express from "express";
import type { NextFunction, Request, Response } from "express";
import * as OpenApiValidator from "express-openapi-validator";
import { AppError } from "../platform/errors.ts";
import { MAX_UPLOAD_BYTES, uploadStorage } from "../platform/storage/files.ts";
import type { Admission } from "./admission.ts";
import { nulPaths } from "./body.ts";
import { series } from "./middleware.ts";
import { apiDocument, operationOf, STATE_CHANGING } from "./routing.ts";

/**
 * A write to an operation that declares no request body carries none: without a `Content-Type`, or
 * `application/json` (what SDKs send with an empty body). Anything else - `text/plain`, a form
 * (`application/x-www-form-urlencoded`, `multipart/form-data`): what a page of another site can
 * send without a CORS preflight - is a 415, whether or not an `Origin` came with it. (Writes with a
 * JSON body refuse other media types when the body is read, src/http/body.ts; uploads are
 * multipart by their document.)
 */
export function refuseBodiesOfBodilessWrites() {
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
export function refuseMissingBody() {
  return (req: Request, _res: Response, next: NextFunction) => {
    const length = req.headers["content-length"];
    if (req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0")) return next();
    const op = operationOf(req);
    if (!op?.bodyRequired) return next();
    next(new AppError("validation_failed", "A request body is required", [{ path: "body", message: "is required" }]));
  };
}

/** A NUL character in any body field or query value is a 400 naming the field, before any handler. */
export function refuseNulCharacters(req: Request, _res: Response, next: NextFunction) {
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

/**
 * The OpenAPI request/response validator. Built once per process for each setting: it compiles a
 * validator per operation on first use, and every app of the process (a test worker creates one per
 * test file) shares them instead of compiling them again.
 */
const validators = new Map<boolean, express.RequestHandler[]>();
function openApiValidator(validateResponses: boolean): express.RequestHandler[] {
  let v = validators.get(validateResponses);
  if (!v) {
    // ajvCode: an option of our patch (patches/express-openapi-validator+5.6.2.patch). The patch
    // also lets the OAuth flows' URLs be relative (`tokenUrl: /api/oauth/token`), as OAS 3.1 allows
    // every URL to be (§4.6); the validator's copy of the 3.1 schema wrongly asked for absolute ones.
    const options: Parameters<typeof OpenApiValidator.middleware>[0] & { ajvCode: { optimize: boolean } } = {
      apiSpec: apiDocument(),
      // allErrors: `details` names every offending field (e.g. each missing required property), not just the first.
      // coerceTypes (the body only; path, query, header and cookie values, strings on the wire, are always
      // coerced by the validator): off, so a JSON body's `false` for a string or `"5"` for an integer is a
      // 400, never silently converted and stored. Form and multipart bodies declare only strings.
      validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false, removeAdditional: false, allErrors: true },
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
export function validation(validateResponses: boolean, readingBody: Admission["readingBody"]): express.RequestHandler {
  const all = openApiValidator(validateResponses);
  const names = all.map((m) => m.name);
  for (const name of [...ONLY_FOR_UPLOADS, "metadataMiddleware", "requestMiddleware"])
    if (!names.includes(name)) throw new Error(`express-openapi-validator has no ${name} (src/http/validation.ts expects it)`);
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
