// A request's input checks: the OpenAPI validator (responses too in development and tests), and the
// refusals around it (a body where none is taken 415, a missing required body 400, NUL characters 400).
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
 * A bodiless write may carry no `Content-Type` or `application/json` (SDKs' empty body); anything else
 * (text, forms: what another site's page can send without a CORS preflight) is a 415.
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

/** A missing required body is a 400 here: the validator would say 415, or let the parser's `{}` through. */
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

/** Built once per process per setting: every app of the process shares its compiled per-operation validators. */
const validators = new Map<boolean, express.RequestHandler[]>();
function openApiValidator(validateResponses: boolean): express.RequestHandler[] {
  let v = validators.get(validateResponses);
  if (!v) {
    // ajvCode: an option of our patch (patches/express-openapi-validator+5.6.2.patch). The patch
    // also lets the OAuth flows' URLs be relative (`tokenUrl: /api/oauth/token`), as OAS 3.1 allows
    // every URL to be (§4.6); the validator's copy of the 3.1 schema wrongly asked for absolute ones.
    const options: Parameters<typeof OpenApiValidator.middleware>[0] & { ajvCode: { optimize: boolean } } = {
      apiSpec: apiDocument(),
      // allErrors: `details` names every offending field; coerceTypes off (the body only): `"5"` for an integer is a 400
      validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false, removeAdditional: false, allErrors: true },
      validateResponses: validateResponses ? { removeAdditional: false } : false,
      validateSecurity: false,
      validateFormats: true,
      // "full": 2024-02-30 is refused ("fast" checks only the shape, and it would be stored as 2024-03-01)
      ajvFormats: { mode: "full" },
      // optimising pays off only where validators run often (production); with responses validated it cost more than it saved
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
 * The validator's middlewares a request needs: all for an upload or an unmatched path (its 404/405), the
 * lean set otherwise, none for an operation without input called without a query (unless responses are validated).
 */
export function validation(validateResponses: boolean, readingBody: Admission["readingBody"]): express.RequestHandler {
  const all = openApiValidator(validateResponses);
  const names = all.map((m) => m.name);
  for (const name of [...ONLY_FOR_UPLOADS, "metadataMiddleware", "requestMiddleware"])
    if (!names.includes(name)) throw new Error(`express-openapi-validator has no ${name} (src/http/validation.ts expects it)`);
  const full = series(all.map((m) => (m.name === "multipartMiddleware" ? readingBody(m) : m)));
  const lean = series(all.filter((m) => !ONLY_FOR_UPLOADS.includes(m.name)));
  return (req, res, next) => {
    const op = operationOf(req);
    if (!op || op.multipart) return full(req, res, next);
    if (op.noInput && !validateResponses && !req.url.includes("?")) return next();
    return lean(req, res, next);
  };
}
