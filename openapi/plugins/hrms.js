// Redocly plugin of this project: the house rules of the contract (lint, on generated/openapi.json)
// and what the bundle adds to the sources (applied when bundling, `make generate`). What the
// bundling steps find wrong in the sources is an error of the bundle: `make generate` (so
// `make test`) fails.
// Rules:    hrms/operation-access    every operation declares `x-public: true` or `x-roles`
//           hrms/operation-id-casing operationId is camelCase
//           hrms/error-envelope      every 4xx/5xx response uses the shared Error schema
//           hrms/success-envelope    every 2xx application/json response is the success envelope
//                                    (unless it says `x-unenveloped: <why>`: a standard's shape):
//                                    components/schemas/Ack, or an object whose required `data`
//                                    and `message` (a string) come first, with `pagination`
//                                    (components/schemas/Pagination, required) if any
//           hrms/x-module-known      x-module is one of the optional modules
//           hrms/retry-after         every 429 and 503 response declares the `Retry-After` header
//                                    (the server sends it on each: overload, database down, limits),
//                                    every 429 also `RateLimit` and `RateLimit-Policy` (src/platform/
//                                    errors.ts, rateLimitHeaders)
//           hrms/body-limit          `x-body-limit` (bytes, the most a JSON request body may have;
//                                    src/http/body.ts enforces it) is a positive integer, and only on
//                                    operations with an application/json request body
//           hrms/read-replica        `x-read-replica` (the read may run on the read replica,
//                                    src/http/read-routing.ts) is `true` or absent, on GET only
// Preprocessor: hrms/success-wrapper writes the success envelope around the payload a 2xx
//           response declares (`x-data`, `x-paginated`, `x-envelope-fields`; see successWrapper),
//           and refuses a 2xx JSON response written out in a path file.
// Decorators: hrms/standard-responses adds, where the operation does not define them itself,
//           400 (validation), 401/403 (non-public operations), 404 (operations with path
//           parameters), 413 and 415 (operations with a request body: the body parser refuses
//           oversized bodies and other media types before the operation runs), 408 (with a
//           request body: the body did not arrive in time), 415 on writes without a request body (one
//           sent with another media type than JSON: a cross-site form), 403 on public
//           state-changing operations too (the origin check refuses foreign origins), 500 and
//           503 (overload or database down, with Retry-After: components/responses/Unavailable)
//           - and 429 (RateLimited, the one shape of every limit's refusal: the request rate limits
//           of every operation but the health probes; with a request body also the client's bodies
//           arriving at once, src/http/admission.ts) with `RateLimit` and `RateLimit-Policy`
//           (components/headers/RateLimitState, RateLimitPolicies) on every success response of every
//           operation but the health probes (src/http/rate-limit.ts),
//           - and conditional requests: every non-public GET answering one resource is `x-etag`
//           (an `ETag` header on its 200, a 304 NotModified), the PUT and DELETE of its path (and
//           a write that declares `x-if-match`) take `If-Match` (`x-if-match: optional`, or
//           `required` as its path file says: 412 PreconditionFailed, 428 PreconditionRequired),
//           - and on every non-public POST the `Idempotency-Key` header parameter
//           (components/parameters/IdempotencyKey) with its 409 (RequestInProgress) and 422
//           (IdempotencyKeyReused) and the `Idempotent-Replayed` header on its success responses;
//           a POST whose answer holds a secret shown once declares `x-idempotency: refused` and
//           gets components/parameters/IdempotencyKeyRefused instead (the validator refuses it)
//           - each a $ref to components/responses. Operations with an application/json request
//           body that declare no `x-body-limit` get the default, DEFAULT_BODY_LIMIT (64 KiB), so
//           the bundle states every operation's limit.
//           Every 2xx response gets the `Cache-Control: no-store` header (components/headers/
//           CacheControlNoStore: no answer of the API may be stored by a browser or proxy).
//           hrms/format-limits writes out the size a format implies (maxLength of uuid, date,
//           date-time, email strings; int32/int64 of integers), see formatLimits.
//           hrms/examples gives every string without an example a realistic one (examples.js).
//           hrms/links adds OpenAPI `links` from each create to the operations on its id (links.js).
//           hrms/path-file-names adds nothing, it checks: each path item is a file of its own,
//           directly in openapi/paths/, named from its URL path by pathFileName()
//           (/api/leave-requests/{id} -> api_leave-requests_{id}.yaml, the convention of
//           Redocly's openapi-starter), and every file there is a path item of the document.
import { readdirSync } from "node:fs";
import path from "node:path";
import { familyOf, laterFieldsFollowStatus, numberExample, stringExample } from "./examples.js";
import { links } from "./links.js";

const ROLES = ["owner", "admin", "hr", "manager", "employee"];
const MODULES = ["payroll", "recruitment", "helpdesk", "assets"];
const ERROR_REF = "#/components/schemas/Error";
/** The Idempotency-Key header parameter every non-public POST takes (components/parameters/IdempotencyKey.yaml). */
const IDEMPOTENCY_KEY_REF = "#/components/parameters/IdempotencyKey";
/** The same header declared refused, on operations whose answer holds a secret shown once (`x-idempotency: refused`). */
const IDEMPOTENCY_KEY_REFUSED_REF = "#/components/parameters/IdempotencyKeyRefused";
/** The body limit (bytes) of an operation with a JSON body that declares none (src/http/body.ts has the same). */
export const DEFAULT_BODY_LIMIT = 65536;

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
          if (!ROLES.includes(r))
            report({ message: `Unknown role \`${r}\` (one of ${ROLES.join(", ")}).`, location: location.child("x-roles") });
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

/**
 * No `allOf` member that only adds constraints (`required`, `minProperties`, ...) to another
 * schema: many SDK generators drop such a member, so a field the server requires comes out
 * optional in the client (a create call without `name` compiles). Give the schema its own
 * `required` instead (a `...Create` schema beside the `...Update` one).
 */
const SHAPE_KEYS = ["$ref", "type", "properties", "items", "allOf", "oneOf", "anyOf", "enum", "const"];
function noConstraintOnlyAllOf() {
  return {
    Schema(schema, { report, location }) {
      if (!Array.isArray(schema.allOf)) return;
      schema.allOf.forEach((member, i) => {
        if (member && typeof member === "object" && !SHAPE_KEYS.some((k) => k in member))
          report({
            message: `allOf member ${i} only adds constraints (${Object.keys(member).join(", ")}): give the schema its own instead.`,
            location: location.child(["allOf", i]),
          });
      });
    },
  };
}

/**
 * Redocly's no-required-schema-properties-undefined, extended to conditional rules: a name in
 * `required` must be one of the schema's properties (with those of its allOf/anyOf members) - and
 * the `required` of an `if`, `then`, `else` or `not` part, or a `dependentRequired` entry, names
 * properties of the schema that holds it (the built-in rule looks for them in the part itself).
 */
function requiredPropertiesDefined() {
  const conditional = new WeakSet();
  const parts = (schema) => ["if", "then", "else"].flatMap((k) => (schema[k] ? [schema[k], schema[k].not].filter(Boolean) : []));
  return {
    Schema: {
      enter(schema, { location, report, resolve }) {
        if (conditional.has(schema)) return;
        const seen = new Set();
        const props = (s) => {
          if (!s || typeof s !== "object" || seen.has(s)) return {};
          seen.add(s);
          if (typeof s.$ref === "string") return props(resolve(s).node);
          return Object.assign({}, s.properties, ...(s.allOf ?? []).map(props), ...(s.anyOf ?? []).map(props));
        };
        const known = props(schema);
        const check = (names, at) =>
          (names ?? []).forEach((name, i) => {
            if (known[name] === undefined) report({ message: `Required property '${name}' is undefined.`, location: at.child([i]) });
          });
        check(schema.required, location.child(["required"]));
        for (const part of parts(schema)) conditional.add(part);
        for (const k of ["if", "then", "else"]) {
          if (!schema[k]) continue;
          check(schema[k].required, location.child([k, "required"]));
          check(schema[k].not?.required, location.child([k, "not", "required"]));
        }
        for (const [key, names] of Object.entries(schema.dependentRequired ?? {})) {
          check([key], location.child(["dependentRequired"]));
          check(names, location.child(["dependentRequired", key]));
        }
      },
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
          report({
            message: `Error response ${code} must use the shared schema ${ERROR_REF} (application/json).`,
            location: location.key(),
          });
      },
    },
  };
}

const ACK_REF = "#/components/schemas/Ack";
const PAGINATION_REF = "#/components/schemas/Pagination";

function successEnvelopeShape() {
  return {
    Response: {
      leave(response, { report, location, key }) {
        const code = String(key);
        if (!/^2/.test(code)) return;
        const schema = response.content?.["application/json"]?.schema;
        if (!schema || schema.$ref === ACK_REF || typeof response["x-unenveloped"] === "string") return;
        const props = schema.properties ?? {};
        const required = schema.required ?? [];
        const pagination = "pagination" in props;
        const ok =
          schema.type === "object" &&
          Object.keys(props)[0] === "data" &&
          Object.keys(props)[1] === "message" &&
          required[0] === "data" &&
          required[1] === "message" &&
          props.message?.type === "string" &&
          Object.keys(props.message).every((k) => k === "type" || k === "example") &&
          // a list walked by cursor (x-cursor, cursorLists): pagination is null on a walk's pages
          (!pagination ||
            (required.includes("pagination") &&
              (props.pagination.$ref === PAGINATION_REF ||
                ("next_cursor" in props &&
                  props.pagination.oneOf?.[0]?.$ref === PAGINATION_REF &&
                  props.pagination.oneOf?.[1]?.type === "null"))));
        if (!ok)
          report({
            message:
              `Success response ${code} must be the envelope (${ACK_REF}, or { data, message: string } with required data and ` +
              `message, lists adding ${PAGINATION_REF} as pagination): declare its payload with \`x-data\` in the path file.`,
            location: location.key(),
          });
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
        const headers = Object.keys(response.headers ?? {}).map((h) => h.toLowerCase());
        const wanted = code === "429" ? ["Retry-After", "RateLimit", "RateLimit-Policy"] : ["Retry-After"];
        for (const name of wanted)
          if (!headers.includes(name.toLowerCase()))
            report({
              message: `Response ${code} must declare the \`${name}\` header (the server sends it with every ${code}).`,
              location: location.key(),
            });
      },
    },
  };
}

function bodyLimit() {
  return {
    Operation(op, { report, location }) {
      if (!("x-body-limit" in op)) return;
      const v = op["x-body-limit"];
      if (!Number.isInteger(v) || v < 1)
        report({ message: "`x-body-limit` is a positive integer (bytes).", location: location.child("x-body-limit") });
      if (!op.requestBody?.content?.["application/json"])
        report({
          message: "`x-body-limit` is for operations with an application/json request body.",
          location: location.child("x-body-limit"),
        });
    },
  };
}

function readReplica() {
  return {
    PathItem(pathItem, { report, location }) {
      for (const [method, op] of Object.entries(pathItem)) {
        if (!op || typeof op !== "object" || !("x-read-replica" in op)) continue;
        const at = location.child([method, "x-read-replica"]);
        if (op["x-read-replica"] !== true) report({ message: "`x-read-replica` is `true` or absent.", location: at });
        if (method !== "get") report({ message: "`x-read-replica` is for GET operations only (reads).", location: at });
      }
    },
  };
}

/** A 200 answer with one resource as `data` (an object, not a page or a list), written out in the path file. */
function singleResource(response) {
  const schema = response?.content?.["application/json"]?.schema;
  const data = schema?.properties?.data;
  if (!data || schema.properties.pagination) return false;
  const object = (x) => x?.type === "object" || (typeof x?.$ref === "string" && x.type === undefined);
  return object(data) || (Array.isArray(data.oneOf) && data.oneOf.every(object));
}

/** Adds the header parameter components/parameters/<name> to an operation, once. */
function addParameter(op, name) {
  const $ref = `#/components/parameters/${name}`;
  op.parameters ??= [];
  if (!op.parameters.some((p) => p.$ref === $ref)) op.parameters.push({ $ref });
}

/**
 * The `version` field (components/schemas/ResourceVersion: the ETag without its quotes,
 * src/http/conditional.ts writes it) on the record a GET of one resource answers: on the object
 * schema of its `data`, or on each member of a oneOf - where a component, on the component (it is
 * optional there: lists and creates of the record carry no version).
 */
function versioned(response, ctx) {
  const data = response.content["application/json"].schema.properties.data;
  for (const member of Array.isArray(data.oneOf) ? data.oneOf : [data]) {
    const schema = member.$ref ? ctx.resolve(member).node : member;
    if (!schema || typeof schema !== "object") continue;
    schema.properties ??= {};
    schema.properties.version ??= { $ref: "#/components/schemas/ResourceVersion" };
  }
}

function standardResponses() {
  const ref = (name) => ({ $ref: `#/components/responses/${name}` });
  return {
    PathItem: {
      leave(pathItem, ctx) {
        // the `webhooks` section describes requests this server sends, not answers it gives
        if (ctx.location.pointer.startsWith("#/webhooks/")) return;
        const pathParams = /\{[^}]+\}/.test(String(ctx.key));
        // request rate limits (src/http/rate-limit.ts): every operation but the health probes
        const limited = !/^\/api\/health(\/|$)/.test(String(ctx.key));
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
            // the body arrives within its deadline (408) and its client's budget of bodies (429, below)
            add("408", "RequestTimeout");
            add("413", "PayloadTooLarge");
            add("415", "UnsupportedMediaType");
          } else if (method !== "get") add("415", "UnsupportedMediaType"); // a body (a form, text/plain) where none is taken
          if (op.requestBody?.content?.["application/json"] && !("x-body-limit" in op)) op["x-body-limit"] = DEFAULT_BODY_LIMIT;
          add("500", "Internal");
          add("503", "Unavailable");
          if (limited || op.requestBody) add("429", "RateLimited");
          // conditional requests (src/http/conditional.ts): a GET of one resource gets an
          // ETag and If-None-Match (304); the writes of its path If-Match (412; 428 where required)
          // - each declared in standard form too: the If-None-Match / If-Match header parameters (the
          // description of If-Match says when it is required) and the record's `version` field
          if (method === "get" && op["x-public"] !== true && singleResource(op.responses["200"])) {
            op["x-etag"] = true;
            add("304", "NotModified");
            op.responses["200"].headers ??= {};
            op.responses["200"].headers.ETag ??= { $ref: "#/components/headers/ETag" };
            addParameter(op, "IfNoneMatch");
            versioned(op.responses["200"], ctx);
          }
          if (pathItem.get?.["x-etag"] === true && (method === "put" || method === "delete" || op["x-if-match"] !== undefined)) {
            op["x-if-match"] ??= "optional";
            add("412", "PreconditionFailed");
            if (op["x-if-match"] === "required") add("428", "PreconditionRequired");
            addParameter(op, op["x-if-match"] === "required" ? "IfMatchRequired" : "IfMatch");
          }
          // Idempotency-Key on every POST of a caller (src/http/idempotency.ts enforces it
          // from this parameter): the header, its 409 and 422, and the replay marker on its successes
          // ...except where the answer holds a secret shown once (`x-idempotency: refused`): a kept
          // answer would keep the secret, so the header is declared refused (IdempotencyKeyRefused)
          const refusesKey = op["x-idempotency"] === "refused";
          if (refusesKey) {
            op.parameters ??= [];
            if (!op.parameters.some((p) => p.$ref === IDEMPOTENCY_KEY_REFUSED_REF))
              op.parameters.push({ $ref: IDEMPOTENCY_KEY_REFUSED_REF });
          }
          const idempotent = method === "post" && op["x-public"] !== true && !refusesKey;
          if (idempotent) {
            op.parameters ??= [];
            if (!op.parameters.some((p) => p.$ref === IDEMPOTENCY_KEY_REF)) op.parameters.push({ $ref: IDEMPOTENCY_KEY_REF });
            // the plain Conflict says nothing of a key in progress: RequestInProgress describes both
            if (/(\/|^#\/components\/responses\/)Conflict(\.yaml)?$/.test(String(op.responses["409"]?.$ref))) delete op.responses["409"];
            add("409", "RequestInProgress");
            add("422", "IdempotencyKeyReused");
          }
          // no-store on every success response (components/headers/CacheControlNoStore.yaml): the
          // dispatch sends it for every operation whose document declares it (src/http/app.ts)
          for (const [code, declared] of Object.entries(op.responses)) {
            if (!code.startsWith("2") || !declared) continue;
            // a shared success response (components/responses) gets it where it is defined
            const response = declared.$ref ? ctx.resolve(declared).node : declared;
            if (!response) continue;
            response.headers ??= {};
            if (!Object.keys(response.headers).some((h) => h.toLowerCase() === "cache-control"))
              response.headers["Cache-Control"] = { $ref: "#/components/headers/CacheControlNoStore" };
            if (limited && !response.headers.RateLimit) {
              response.headers["RateLimit-Policy"] = { $ref: "#/components/headers/RateLimitPolicies" };
              response.headers.RateLimit = { $ref: "#/components/headers/RateLimitState" };
            }
            if (idempotent && !response.headers["Idempotent-Replayed"])
              response.headers["Idempotent-Replayed"] = { $ref: "#/components/headers/IdempotentReplayed" };
          }
        }
      },
    },
  };
}

/**
 * Lists walked by cursor (src/http/cursor.ts enforces it, src/db/keyset.ts queries it):
 * an operation with `x-cursor: { tombstones: <boolean> }` gets the query parameters `cursor`
 * (components/parameters/Cursor), `updated_since` (UpdatedSince), `include_deleted`
 * (IncludeDeleted, where `tombstones: true`: the list's records are soft-deleted) and `changed` as
 * a value of its `sort` (or the SortChanged parameter where it has none); its 200 gets the
 * required `next_cursor` and `has_more` fields, and `pagination` is null on a walk's pages;
 * with `tombstones: true` the list's item schema gets the optional `deleted_at` of a tombstone.
 */
function cursorLists() {
  const ref = (name) => ({ $ref: `#/components/parameters/${name}` });
  const SORT_WORDS =
    " `changed`: in the order of change, oldest change first - the order of a walk by `cursor`, which it starts" +
    " (pages by number are refused with it).";
  return {
    PathItem: {
      leave(pathItem, ctx) {
        for (const [method, op] of Object.entries(pathItem)) {
          if (!op || typeof op !== "object" || !("x-cursor" in op)) continue;
          const spec = op["x-cursor"];
          const at = ctx.location.child([method, "x-cursor"]);
          if (method !== "get" || typeof spec !== "object" || spec === null || typeof spec.tombstones !== "boolean") {
            ctx.report({ message: "`x-cursor` is `{ tombstones: true | false }`, on a GET list.", location: at });
            continue;
          }
          const schema = op.responses?.["200"]?.content?.["application/json"]?.schema;
          if (!schema?.properties?.pagination) {
            ctx.report({ message: "`x-cursor` is for paginated lists (`x-paginated: true`).", location: at });
            continue;
          }
          op.parameters ??= [];
          const names = ["Cursor", "UpdatedSince", ...(spec.tombstones ? ["IncludeDeleted"] : [])];
          for (const name of names) if (!op.parameters.some((p) => p.$ref === ref(name).$ref)) op.parameters.push(ref(name));
          const sort = op.parameters.find((p) => p.name === "sort" && p.in === "query");
          if (!sort) op.parameters.push(ref("SortChanged"));
          else if (Array.isArray(sort.schema?.enum) && !sort.schema.enum.includes("changed")) {
            sort.schema.enum.push("changed");
            sort.description = `${sort.description ?? "Order of the list."}${SORT_WORDS}`;
          }
          // a tombstone is the record with its `deleted_at` (absent on live records)
          const items = schema.properties.data?.items;
          const item = items?.$ref ? ctx.resolve(items).node : items;
          if (spec.tombstones && item?.properties)
            item.properties.deleted_at ??= {
              type: "string",
              format: "date-time",
              maxLength: 35,
              example: "2026-11-25T10:30:00.000Z",
              description:
                "Only on a tombstone (a deleted record, listed with `include_deleted=true`): when it was deleted. Absent on live records.",
            };
          // one object shape for both kinds of page, every field always there (generators make one
          // type of it): a page by number has `pagination` and `next_cursor: null`; a page of a walk
          // `pagination: null` and its `next_cursor`; both say `has_more`
          schema.required = [...schema.required, "next_cursor", "has_more"];
          schema.properties.pagination = {
            description:
              "On a page by number: where it is in the list (always there). `null` on a page of a walk by cursor, which " +
              "counts nothing (`next_cursor` and `has_more` say where it goes on).",
            oneOf: [schema.properties.pagination, { type: "null" }],
          };
          schema.properties.next_cursor = {
            type: ["string", "null"],
            maxLength: 300,
            description:
              "On a page of a walk (`sort=changed`, `cursor`, `updated_since` or `include_deleted`): send it as `cursor` for the " +
              "next page while `has_more` is true; when it is false the walk has caught up for now - keep this last one and " +
              "send it later to get what changed since (it is never null on a walk's page, even an empty one). `null` on a " +
              "page by number.",
            example: "AXvK3q9m2v1JQk4bYy8Zt0eyJvIjoibGlzdEVtcGxveWVlcyJ9",
          };
          schema.properties.has_more = {
            type: "boolean",
            description:
              "Whether more records follow right now: on a walk, `true` means send `next_cursor` as `cursor` for them, " +
              "`false` that the walk has caught up (stop; resume later from `next_cursor`); on a page by number, whether a " +
              "later page exists (`page < total_pages`). A paginator stops when it is `false`.",
          };
        }
      },
    },
  };
}

/**
 * Query values as real clients send them: every query parameter is `allowReserved: true`. The
 * server decodes a query string the way HTML forms, URLSearchParams, Python requests and axios
 * encode one (`+` or `%20` for a space, percent-encoded UTF-8) and accepts the characters that
 * encodeURIComponent leaves as they are (`'`, `(`, `)`, `!`, `*`) and the other reserved ones
 * unencoded - without this, the request validator refuses such a value with a 400. (Only `&`, `=`,
 * `#`, `+` and `%` of a value must be percent-encoded, as in every client.)
 */
function queryEncoding() {
  return {
    Parameter: {
      leave(param) {
        if (param.in === "query" && param.allowReserved === undefined) param.allowReserved = true;
      },
    },
  };
}

/**
 * What a schema's format already says about its size, written out for the tools that only read
 * the keywords (Spectral's OWASP rules, SDK generators, the mock servers): a string of format
 * uuid is 36 characters, date 10 (YYYY-MM-DD), date-time at most 35 (RFC 3339 with nanoseconds and
 * an offset; the server writes 24), email 254 (RFC 5321) - each a `maxLength` where the schema
 * declares none. An integer without a format gets `int32` when its bounds fit 32 bits, else
 * `int64` (counts and amounts of JSON numbers; JavaScript keeps them exact up to 2^53).
 */
const FORMAT_MAX_LENGTH = { uuid: 36, date: 10, "date-time": 35, email: 254 };
const INT32 = 2 ** 31;
function formatLimits() {
  const hasType = (schema, t) => schema.type === t || (Array.isArray(schema.type) && schema.type.includes(t));
  return {
    Schema: {
      leave(schema) {
        if (hasType(schema, "string") && schema.maxLength === undefined && FORMAT_MAX_LENGTH[schema.format] !== undefined)
          schema.maxLength = FORMAT_MAX_LENGTH[schema.format];
        if (hasType(schema, "integer") && schema.format === undefined) {
          const hi = schema.maximum ?? schema.exclusiveMaximum;
          const lo = schema.minimum ?? schema.exclusiveMinimum;
          schema.format = hi !== undefined && hi < INT32 && (lo === undefined || lo >= -INT32) ? "int32" : "int64";
        }
      },
    },
  };
}

/**
 * A realistic `example` on every string schema that has none (nor enum, const or examples): by the
 * component it belongs to and its property's (or parameter's) name, else its format - see
 * examples.js. The reference (/docs) and mock servers render these instead of `string`.
 */
function examples() {
  const isString = (s) =>
    s && typeof s === "object" && !s.$ref && (s.type === "string" || (Array.isArray(s.type) && s.type.includes("string")));
  const give = (s, family, name) => {
    if (!isString(s) || s.example !== undefined || s.examples !== undefined || s.enum !== undefined || s.const !== undefined) return;
    const example = stringExample(s, family, name);
    if (example !== undefined) s.example = example;
  };
  const isNumber = (s) =>
    s &&
    typeof s === "object" &&
    !s.$ref &&
    ["integer", "number"].some((t) => s.type === t || (Array.isArray(s.type) && s.type.includes(t)));
  const giveNumber = (s, name) => {
    if (!isNumber(s) || s.example !== undefined || s.examples !== undefined || s.enum !== undefined || s.const !== undefined) return;
    const example = numberExample(s, name);
    if (example !== undefined) s.example = example;
  };
  return {
    Schema: {
      leave(schema, ctx) {
        const family = familyOf(ctx.location.source.absoluteRef);
        for (const [name, prop] of Object.entries(schema.properties ?? {})) {
          give(prop, family, name);
          give(prop?.items, family, name);
          giveNumber(prop, name);
          giveNumber(prop?.items, name);
          for (const member of [...(prop?.oneOf ?? []), ...(prop?.anyOf ?? [])]) {
            give(member, family, name);
            giveNumber(member, name);
          }
        }
        laterFieldsFollowStatus(schema, (ref) => ctx.resolve(ref).node);
        if (ctx.location.pointer === "#/" && family) give(schema, family, family.toLowerCase());
      },
    },
    Parameter: {
      leave(param) {
        give(param.schema, null, param.name);
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
      enter(_root, ctx) {
        pathsDir = path.join(path.dirname(ctx.location.source.absoluteRef), "paths");
      },
      leave(_root, ctx) {
        for (const name of readdirSync(pathsDir).sort())
          if (!seen.has(name))
            ctx.report({
              message:
                `openapi/paths/${name} is no path item of the document: ` +
                `reference it from openapi.yaml under the path it is named after, or delete it.`,
              location: ctx.location.child("paths"),
            });
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
              message:
                `The path item of ${urlPath} must be the file openapi/paths/${expected}, referenced from openapi.yaml ` +
                `(${file ? `not openapi/${path.relative(path.dirname(pathsDir), file)}` : "not written inline"}).`,
              location: ctx.location.child(urlPath),
            });
        }
      },
    },
  };
}

// The success envelope, built from the payload a path file declares on its 2xx response:
//   x-data: <schema>              { data: <schema>, message: string }
//   x-paginated: true             ... and pagination (components/schemas/Pagination); data has
//                                 maxItems PAGE_MAX (the largest `limit`)
//   x-paginated: employees        ... pagination counts employees, data holds all their rows (no
//                                 PAGE_MAX: the path file states its own maxItems where one exists)
//   x-envelope-fields: {name: s}  ... and further required top-level fields, after pagination
//   x-data: null                  components/schemas/Ack ({ data: null, message })
// A preprocessor, not a decorator: Redocly resolves the document's references again after the
// preprocessors, so those in the payload (and in what it references) are bundled exactly as if
// the envelope were written out in the path file; the ones to Ack and Pagination are written
// relative to the path file. A 2xx response of a path file with application/json content of its
// own is refused (the envelope is written only here); other media types (files, PDF, CSV) are
// no envelope and stay as written. The root document has no responses of its own (every path
// item is a file of openapi/paths/; a linted bundle has no x-data left), so it is not checked.
const ENVELOPE_KEYS = ["x-data", "x-paginated", "x-envelope-fields"];
/** The envelope's `message` as src/http/envelope.ts writes it by default, the example of each status. */
const SUCCESS_MESSAGE = { 200: "OK", 201: "Created", 202: "Accepted" };
/** The largest page (Pagination.limit, the `limit` parameters): the `maxItems` of a page's `data`. */
const PAGE_MAX = 100;

function successWrapper() {
  let root;
  return {
    Root: {
      enter(_, ctx) {
        root = ctx.location.source.absoluteRef;
      },
    },
    Response: {
      enter(response, ctx) {
        const file = ctx.location.source.absoluteRef;
        if (file === root) return;
        const code = String(ctx.key);
        const keys = ENVELOPE_KEYS.filter((k) => k in response);
        const report = (message, at = ctx.location) => ctx.report({ message, location: at });
        if (!/^2/.test(code)) {
          for (const k of keys) report(`\`${k}\` declares a success payload; ${code} is no success response.`, ctx.location.child(k));
          return;
        }
        // a success answer whose shape a standard fixes (the OAuth token response, RFC 6749 §5.1):
        // `x-unenveloped: <why>` beside its own `content`
        if (typeof response["x-unenveloped"] === "string" && response.content && !keys.length) return;
        if (!("x-data" in response)) {
          if (keys.length) report(`\`${keys[0]}\` needs \`x-data\` (the payload schema) beside it.`, ctx.location.child(keys[0]));
          if (response.content?.["application/json"])
            report(
              `Success response ${code}: declare the payload as \`x-data: <schema>\` (lists add \`x-paginated: true\`; ` +
                `no payload: \`x-data: null\`) instead of writing the JSON envelope; the bundle adds { data, message }.`,
              ctx.location.child(["content", "application/json"]),
            );
          return;
        }
        if (response.content)
          return report(
            `Success response ${code} has both \`x-data\` and \`content\`: the envelope is built from \`x-data\`.`,
            ctx.location.child("content"),
          );
        const data = response["x-data"];
        const paginated = response["x-paginated"];
        const fields = response["x-envelope-fields"] ?? {};
        if (paginated !== undefined && paginated !== true && paginated !== "employees")
          return report("`x-paginated` is `true`, `employees` or absent.", ctx.location.child("x-paginated"));
        if (
          typeof fields !== "object" ||
          fields === null ||
          Array.isArray(fields) ||
          ("x-envelope-fields" in response && !Object.keys(fields).length)
        )
          return report("`x-envelope-fields` maps field names to their schemas.", ctx.location.child("x-envelope-fields"));
        const taken = Object.keys(fields).filter((f) => ["data", "message", "pagination"].includes(f));
        if (taken.length)
          return report(`\`x-envelope-fields\` must not redefine ${taken.join(", ")}.`, ctx.location.child("x-envelope-fields"));
        if (data === null && (paginated || Object.keys(fields).length))
          return report("`x-data: null` (the Ack envelope) has neither pagination nor further fields.");
        const component = (name) => ({
          $ref: path
            .relative(path.dirname(file), path.join(path.dirname(root), "components", "schemas", `${name}.yaml`))
            .split(path.sep)
            .join("/"),
        });
        for (const k of ENVELOPE_KEYS) delete response[k];
        // a page holds at most `limit` items, and `limit` is at most PAGE_MAX (components/schemas/Pagination);
        // a page of employees holds all the rows of `limit` employees: bounded where its path file says
        if (paginated === true && data?.type === "array" && data.maxItems === undefined) data.maxItems = PAGE_MAX;
        const schema =
          data === null
            ? component("Ack")
            : {
                type: "object",
                required: ["data", "message", ...(paginated ? ["pagination"] : []), ...Object.keys(fields)],
                properties: {
                  data,
                  message: { type: "string", example: SUCCESS_MESSAGE[code] ?? "OK" },
                  ...(paginated ? { pagination: component("Pagination") } : {}),
                  ...fields,
                },
              };
        response.content = { "application/json": { schema } };
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
        "success-envelope": successEnvelopeShape,
        "x-module-known": xModuleKnown,
        "retry-after": retryAfter,
        "no-constraint-only-allof": noConstraintOnlyAllOf,
        "required-properties-defined": requiredPropertiesDefined,
        "body-limit": bodyLimit,
        "read-replica": readReplica,
      },
    },
    preprocessors: {
      oas3: { "success-wrapper": successWrapper },
    },
    decorators: {
      oas3: {
        "standard-responses": standardResponses,
        "path-file-names": pathFileNames,
        "cursor-lists": cursorLists,
        "query-encoding": queryEncoding,
        "format-limits": formatLimits,
        examples,
        links,
      },
    },
  };
}
