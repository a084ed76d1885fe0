// What the server does for each operation beyond its access, read from the bundled document once at
// `make generate` and written into generated/registry.ts (OperationMeta): the request path
// (src/http/routing.ts, src/http/operation.ts) reads these flags and derives nothing at start.
// A new `x-` feature: its plugin rule (openapi/plugins/), one field here, one feature file
// (docs/adding-an-operation.md, "Adding a feature").

/** The `Cache-Control` value (the header schema's `const`) every 2xx response of `op` declares, or null. */
function declaredCacheControl(doc, op) {
  // "#/components/<kind>/<name>" of the bundle, or the object itself
  const deref = (x) => {
    const [, , kind, name] = x?.$ref?.split("/") ?? [];
    return x?.$ref ? doc.components?.[kind]?.[name] : x;
  };
  const values = new Set();
  for (const [status, declared] of Object.entries(op.responses ?? {})) {
    if (!status.startsWith("2")) continue;
    const headers = deref(declared)?.headers ?? {};
    const header = deref(Object.entries(headers).find(([h]) => h.toLowerCase() === "cache-control")?.[1]);
    values.add(typeof header?.schema?.const === "string" ? header.schema.const : null);
  }
  if (values.size > 1) throw new Error(`${op.operationId}: success responses declare different Cache-Control values`);
  return [...values][0] ?? null;
}

/** The flags of the operation `method` of the path item `item` of the document. */
export function operationFlags(doc, method, item) {
  const op = item[method];
  const id = op.operationId;
  const content = op.requestBody?.content ?? {};
  // JSON bodies are read up to the operation's limit (the bundle gives every such operation one)
  const jsonBody = content["application/json"] !== undefined;
  const limit = op["x-body-limit"];
  if (jsonBody && !(Number.isInteger(limit) && limit > 0))
    throw new Error(`${id}: the bundled document gives its JSON body no x-body-limit (openapi/plugins/hrms.js)`);
  // the exact bytes kept for the handler (a signature computed over them: the billing webhook)
  const rawBody = op["x-raw-body"] === true;
  if ("x-raw-body" in op && (!jsonBody || op["x-raw-body"] !== true))
    throw new Error(`${id}: x-raw-body is \`true\` or absent, on an operation with an application/json body`);
  // a read that may run on the read replica (src/http/read-routing.ts): reads only
  const readReplica = op["x-read-replica"] === true;
  if (readReplica && method !== "get") throw new Error(`${id}: x-read-replica is for GET operations only`);
  const ifMatch = op["x-if-match"] ?? null;
  // the current representation a conditional write is checked against: its path's GET
  const readOperation = ifMatch ? (item.get?.operationId ?? null) : null;
  if (ifMatch && !readOperation) throw new Error(`${id}: x-if-match on a path without a GET operation`);
  return {
    bodyRequired: op.requestBody?.required === true,
    body: jsonBody ? { limit, keepRaw: rawBody } : null,
    // a form body (the OAuth token request, RFC 6749 §4.4.2; src/http/body.ts formBodies)
    form: Boolean(content["application/x-www-form-urlencoded"]),
    // nothing for the request validator to look at when called without a query string
    noInput: !op.requestBody && !(op.parameters?.length || item.parameters?.length),
    // an operation that signs someone in declares the session cookie on its success response
    startsSession: Object.entries(op.responses ?? {}).some(
      ([status, r]) => status.startsWith("2") && Object.keys(r.headers ?? {}).some((h) => h.toLowerCase() === "set-cookie"),
    ),
    readReplica,
    // the `Cache-Control` its success responses declare, sent on every answer, errors included
    cacheControl: declaredCacheControl(doc, op),
    // takes an Idempotency-Key (every non-public POST, openapi/plugins/hrms.js)
    idempotent: (op.parameters ?? []).some((x) => x.$ref === "#/components/parameters/IdempotencyKey"),
    // conditional requests (openapi/plugins/hrms.js): ETag of a GET, If-Match of a write
    etag: op["x-etag"] === true,
    ifMatch,
    readOperation,
    // a list walked by cursor (src/http/cursor.ts)
    cursor: op["x-cursor"] ?? null,
  };
}

/** The TypeScript declaration of the flags (fields of OperationMeta). */
export const FLAG_FIELDS = `  readonly bodyRequired: boolean;
  /** a JSON body: its limit in bytes (x-body-limit) and whether its exact bytes are kept (x-raw-body) */
  readonly body: { readonly limit: number; readonly keepRaw: boolean } | null;
  readonly form: boolean;
  /** no parameters and no body: nothing to validate in a request without a query string */
  readonly noInput: boolean;
  /** a success response sets the session cookie */
  readonly startsSession: boolean;
  /** may run on the read replica (x-read-replica) */
  readonly readReplica: boolean;
  /** the Cache-Control its success responses declare, sent on every answer */
  readonly cacheControl: string | null;
  /** takes an Idempotency-Key */
  readonly idempotent: boolean;
  /** an ETag on its 200 and a 304 for a current If-None-Match (x-etag) */
  readonly etag: boolean;
  /** takes If-Match (x-if-match), checked against the answer of readOperation */
  readonly ifMatch: "optional" | "required" | null;
  readonly readOperation: string | null;
  /** a list walked by cursor (x-cursor) */
  readonly cursor: { readonly tombstones: boolean } | null;`;
