// Redocly plugin of this project: the house rules of the contract (lint) and the standard
// error responses every operation can produce (decorator, applied when bundling).
// Rules:    hrms/operation-access    every operation declares `x-public: true` or `x-roles`
//           hrms/operation-id-casing operationId is camelCase
//           hrms/error-envelope      every 4xx/5xx response uses the shared Error schema
//           hrms/x-module-known      x-module is one of the optional modules
//           hrms/retry-after         every 429 and 503 response declares the `Retry-After` header
//                                    (the server sends it on each: overload, database down, limits)
// Decorator: hrms/standard-responses adds, where the operation does not define them itself,
//           400 (validation), 401/403 (non-public operations), 404 (operations with path
//           parameters), 413 and 415 (operations with a request body: the body parser refuses
//           oversized bodies and other media types before the operation runs), 403 on public
//           state-changing operations too (the origin check refuses foreign origins), 500 and
//           503 (overload or database down, with Retry-After: components/responses/Unavailable)
//           - each a $ref to components/responses.
//           hrms/path-file-names checks the sources (adds nothing): each path item is in its own
//           file, directly in openapi/paths/, named from its URL path by pathFileName()
//           (/api/leave-requests/{id} -> api_leave-requests_{id}.yaml, as Redocly's
//           openapi-starter does), and every file there is a path item of the document. A wrong
//           name is an error of the bundle, so `make generate` (and `make test`) fail.
import { readdirSync } from "node:fs";
import path from "node:path";

const ROLES = ["owner", "admin", "hr", "manager", "employee"];
const MODULES = ["payroll", "recruitment", "helpdesk", "assets"];
const ERROR_REF = "#/components/schemas/Error";

function operationAccess() {
  return {
    Operation(op, { report, location }) {
      const isPublic = op["x-public"] === true;
      const roles = op["x-roles"];
      if (!isPublic && !Array.isArray(roles)) {
        report({ message: "Operation must declare `x-public: true` or `x-roles: [...]`.", location: location.key() });
        return;
      }
      if (isPublic && roles) report({ message: "Operation declares both `x-public` and `x-roles`.", location: location.key() });
      if (Array.isArray(roles)) {
        if (roles.length === 0) report({ message: "`x-roles` must not be empty.", location: location.child("x-roles") });
        for (const r of roles)
          if (!ROLES.includes(r)) report({ message: `Unknown role \`${r}\` (one of ${ROLES.join(", ")}).`, location: location.child("x-roles") });
      }
    },
  };
}

function operationIdCasing() {
  return {
    Operation(op, { report, location }) {
      if (op.operationId && !/^[a-z][a-zA-Z0-9]*$/.test(op.operationId))
        report({ message: `operationId \`${op.operationId}\` must be camelCase.`, location: location.child("operationId") });
    },
  };
}

function xModuleKnown() {
  return {
    Operation(op, { report, location }) {
      const m = op["x-module"];
      if (m !== undefined && !MODULES.includes(m))
        report({ message: `Unknown module \`${m}\` (one of ${MODULES.join(", ")}).`, location: location.child("x-module") });
    },
  };
}

function errorEnvelope() {
  return {
    Response: {
      leave(response, { report, location, key }) {
        const code = String(key);
        if (!/^[45]/.test(code)) return;
        const schema = response.content?.["application/json"]?.schema;
        if (!schema || schema.$ref !== ERROR_REF)
          report({ message: `Error response ${code} must use the shared schema ${ERROR_REF} (application/json).`, location: location.key() });
      },
    },
  };
}

function retryAfter() {
  return {
    Response: {
      leave(response, { report, location, key }) {
        const code = String(key);
        if (code !== "429" && code !== "503") return;
        const headers = response.headers ?? {};
        if (!Object.keys(headers).some((h) => h.toLowerCase() === "retry-after"))
          report({ message: `Response ${code} must declare the \`Retry-After\` header (the server sends it with every ${code}).`, location: location.key() });
      },
    },
  };
}

function standardResponses() {
  const ref = (name) => ({ $ref: `#/components/responses/${name}` });
  return {
    PathItem: {
      leave(pathItem, ctx) {
        const pathParams = /\{[^}]+\}/.test(String(ctx.key));
        for (const method of ["get", "put", "post", "delete", "patch"]) {
          const op = pathItem[method];
          if (!op) continue;
          op.responses ??= {};
          const add = (code, name) => {
            if (!op.responses[code]) op.responses[code] = ref(name);
          };
          add("400", "ValidationFailed");
          if (op["x-public"] !== true) {
            add("401", "Unauthenticated");
            add("403", "Forbidden");
          } else if (method !== "get") add("403", "Forbidden");
          if (pathParams) add("404", "NotFound");
          if (op.requestBody) {
            add("413", "PayloadTooLarge");
            add("415", "UnsupportedMediaType");
          }
          add("500", "Internal");
          add("503", "Unavailable");
        }
      },
    },
  };
}

/** The file of a path item: its URL path without the leading "/", each "/" a "_", then ".yaml". */
export function pathFileName(urlPath) {
  return `${urlPath.replace(/^\//, "").replaceAll("/", "_")}.yaml`;
}

function pathFileNames() {
  let pathsDir;
  const seen = new Set();
  return {
    Root: {
      enter(root, ctx) {
        pathsDir = path.join(path.dirname(ctx.location.source.absoluteRef), "paths");
      },
      leave(root, ctx) {
        for (const name of readdirSync(pathsDir).sort())
          if (!seen.has(name))
            ctx.report({ message: `openapi/paths/${name} is no path item of the document: reference it from openapi.yaml under the path it is named after, or delete it.`, location: ctx.location.child("paths") });
      },
    },
    Paths: {
      enter(paths, ctx) {
        for (const [urlPath, item] of Object.entries(paths)) {
          const expected = pathFileName(urlPath);
          const file = item?.$ref ? ctx.resolve(item).location?.source.absoluteRef : undefined;
          if (file && path.dirname(file) === pathsDir && path.basename(file) === expected) seen.add(expected);
          else
            ctx.report({
              message: `The path item of ${urlPath} must be the file openapi/paths/${expected}, referenced from openapi.yaml (${file ? `not openapi/${path.relative(path.dirname(pathsDir), file)}` : "not written inline"}).`,
              location: ctx.location.child(urlPath),
            });
        }
      },
    },
  };
}

export default function hrmsPlugin() {
  return {
    id: "hrms",
    rules: {
      oas3: {
        "operation-access": operationAccess,
        "operation-id-casing": operationIdCasing,
        "error-envelope": errorEnvelope,
        "x-module-known": xModuleKnown,
        "retry-after": retryAfter,
      },
    },
    decorators: {
      oas3: { "standard-responses": standardResponses, "path-file-names": pathFileNames },
    },
  };
}
