// The document says in standard OpenAPI what the wire does: an `x-` extension may drive the server,
// never replace the declaration a generated client needs (run by test/platform/contract-declared.test.ts
// in `make test`; `tsx scripts/checks/check-contract.ts [bundle.json]` prints the problems of a bundle).
//   1. Each `x-` extension of an operation is known, and what it does on the wire is declared in
//      standard form (EXTENSIONS): `x-etag` - If-None-Match, the ETag header, 304 and `version`;
//      `x-if-match` - If-Match (saying when it is required), 412/428; `x-scope` - the scope under
//      both Bearer schemes and in the oauth2 scheme's scopes; `x-cursor` - the walk's parameters
//      and fields; `x-public`/`x-session-only` - their `security`; ...
//   2. Each request header the server reads (found in src/ by HEADER_READ) is declared where it is
//      read: a handler's read on its operation, a cross-cutting read on every operation its rule
//      says (HEADERS) - or exempt, with the reason, when OpenAPI declares it otherwise (framing,
//      cookies) or not at all. A header read that no rule covers is a problem: declare it.
//   3. Each download declares what a client receives: text (`text/*`, NDJSON) as a string, other
//      bytes as `format: binary`.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

type Json = Record<string, any>;
export interface Operation {
  method: string;
  path: string;
  op: Json;
}

const METHODS = ["get", "put", "post", "delete", "patch"];

export function operationsOf(doc: Json): Operation[] {
  const out: Operation[] = [];
  for (const [p, item] of Object.entries<Json>(doc.paths ?? {}))
    for (const method of METHODS) if (item[method]) out.push({ method, path: p, op: item[method] });
  return out;
}

/** A `$ref` of the document resolved (local references only: the bundle has no others). */
export function resolve(doc: Json, node: Json | undefined): Json | undefined {
  let n = node;
  for (let i = 0; n?.$ref && i < 20; i++)
    n = String(n.$ref)
      .slice(2)
      .split("/")
      .reduce<Json | undefined>((o, k) => o?.[k.replaceAll("~1", "/").replaceAll("~0", "~")], doc);
  return n;
}

/** The operation's header parameter `name` (case-insensitive), resolved, or undefined. */
export function headerParam(doc: Json, item: Json | undefined, op: Json, name: string): Json | undefined {
  const params = [...(item?.parameters ?? []), ...(op.parameters ?? [])].map((p) => resolve(doc, p));
  return params.find((p) => p?.in === "header" && String(p.name).toLowerCase() === name.toLowerCase());
}

const schemeOf = (doc: Json, name: string): Json | undefined => doc.components?.securitySchemes?.[name];
/** The security requirements of an operation (its own, else the document's). */
const requirementsOf = (doc: Json, op: Json): Json[] => op.security ?? doc.security ?? [];
const lists = (doc: Json, op: Json, scheme: string, scope?: string) =>
  requirementsOf(doc, op).some((r) => Array.isArray(r[scheme]) && (scope === undefined || r[scheme].includes(scope)));
const schemesOfType = (doc: Json, test: (s: Json) => boolean) =>
  Object.entries<Json>(doc.components?.securitySchemes ?? {})
    .filter(([, s]) => test(s))
    .map(([n]) => n);

type Check = (doc: Json, o: Operation) => string[];

/** A response of the operation, resolved. */
const response = (doc: Json, o: Operation, code: string) => resolve(doc, o.op.responses?.[code]);

/** The `x-` extensions of an operation, each with the standard declaration it owes (none: no wire behaviour). */
export const EXTENSIONS: Record<string, { check?: Check; why?: string }> = {
  "x-etag": {
    check: (doc, o) => {
      const item = doc.paths[o.path];
      const problems: string[] = [];
      if (!headerParam(doc, item, o.op, "If-None-Match")) problems.push("declares no If-None-Match header parameter");
      if (!resolve(doc, response(doc, o, "200")?.headers?.ETag)) problems.push("declares no ETag header on its 200");
      if (!response(doc, o, "304")) problems.push("declares no 304");
      const data = response(doc, o, "200")?.content?.["application/json"]?.schema?.properties?.data;
      for (const member of data?.oneOf ?? [data])
        if (!resolve(doc, member)?.properties?.version) problems.push("answers a record without its `version` field");
      return problems;
    },
  },
  "x-if-match": {
    check: (doc, o) => {
      const p = headerParam(doc, doc.paths[o.path], o.op, "If-Match");
      const problems: string[] = [];
      if (!p) problems.push("declares no If-Match header parameter");
      if (!response(doc, o, "412")) problems.push("declares no 412");
      if (o.op["x-if-match"] === "required") {
        if (!response(doc, o, "428")) problems.push("declares no 428");
        if (p && !/428/.test(String(p.description)))
          problems.push("has an If-Match whose description does not say when it is required (428)");
      }
      return problems;
    },
  },
  "x-scope": {
    check: (doc, o) => {
      const scope = o.op["x-scope"];
      const problems: string[] = [];
      const bearer = schemesOfType(doc, (s) => s.type === "http" && String(s.scheme).toLowerCase() === "bearer");
      if (!bearer.some((b) => lists(doc, o.op, b, scope))) problems.push(`lists no bearer scheme with the scope ${scope} in its security`);
      const oauth = schemesOfType(doc, (s) => s.type === "oauth2" && s.flows?.clientCredentials);
      if (!oauth.some((b) => lists(doc, o.op, b, scope))) problems.push(`lists no oauth2 scheme with the scope ${scope} in its security`);
      for (const name of oauth) {
        const words = schemeOf(doc, name)?.flows?.clientCredentials?.scopes?.[scope];
        if (typeof words !== "string" || words.trim().length < 10)
          problems.push(`needs ${scope}, which the oauth2 scheme ${name} does not describe`);
      }
      return problems;
    },
  },
  "x-cursor": {
    check: (doc, o) => {
      const problems: string[] = [];
      const item = doc.paths[o.path];
      const query = (name: string) =>
        [...(item.parameters ?? []), ...(o.op.parameters ?? [])]
          .map((p) => resolve(doc, p))
          .some((p) => p?.in === "query" && p.name === name);
      for (const name of ["cursor", "updated_since", "sort", ...(o.op["x-cursor"]?.tombstones ? ["include_deleted"] : [])])
        if (!query(name)) problems.push(`declares no \`${name}\` query parameter`);
      const schema = response(doc, o, "200")?.content?.["application/json"]?.schema;
      for (const field of ["pagination", "next_cursor", "has_more"])
        if (!schema?.required?.includes(field)) problems.push(`answers no required \`${field}\``);
      return problems;
    },
  },
  "x-public": {
    check: (doc, o) =>
      requirementsOf(doc, o.op).length === 0 || requirementsOf(doc, o.op).some((r) => Object.keys(r).length === 0)
        ? []
        : ["is public but its security asks for a credential (give it `security: []`)"],
  },
  "x-session-only": {
    check: (doc, o) => {
      const cookie = schemesOfType(doc, (s) => s.type === "apiKey" && s.in === "cookie");
      const reqs = requirementsOf(doc, o.op);
      return reqs.length && reqs.every((r) => Object.keys(r).every((k) => cookie.includes(k)))
        ? []
        : ["takes the session only, but its security lists other schemes"];
    },
  },
  "x-roles": { check: (doc, o) => (response(doc, o, "403") ? [] : ["admits roles but declares no 403"]) },
  "x-module": { check: (doc, o) => (response(doc, o, "403") ? [] : ["belongs to a module but declares no 403"]) },
  "x-body-limit": { check: (doc, o) => (response(doc, o, "413") ? [] : ["limits its body but declares no 413"]) },
  "x-read-replica": { why: "where the server reads from; nothing on the wire changes" },
  "x-raw-body": {
    why: "the server keeps the body's bytes for the signature check (Stripe-Signature, a declared header); the body is as requestBody says",
  },
  "x-tenant-optional": { why: "a session without a company may call it: its security (the session) says the rest" },
  // the answer holds a secret shown once: the Idempotency-Key is declared refused (no value: maxLength 0) and its 400
  "x-idempotency": {
    check: (doc, o) =>
      o.op["x-idempotency"] === "refused" &&
      (o.op.parameters ?? []).some((p: Json) => p.$ref === "#/components/parameters/IdempotencyKeyRefused") &&
      response(doc, o, "400")
        ? []
        : ["`x-idempotency: refused` needs the IdempotencyKeyRefused header parameter and a 400"],
  },
};

/** Request headers the server reads outside an operation's handler: where each must be declared, or why it need not. */
export const HEADERS: Record<string, { on: (o: Operation) => boolean; declared: Check } | { exempt: string }> = {
  "idempotency-key": {
    on: (o) => o.method === "post" && o.op["x-public"] !== true,
    declared: (doc, o) =>
      headerParam(doc, doc.paths[o.path], o.op, "Idempotency-Key") ? [] : ["declares no Idempotency-Key header parameter"],
  },
  "if-match": {
    on: (o) => o.op["x-if-match"] !== undefined,
    declared: (doc, o) => (headerParam(doc, doc.paths[o.path], o.op, "If-Match") ? [] : ["declares no If-Match header parameter"]),
  },
  "if-none-match": {
    on: (o) => o.op["x-etag"] === true,
    declared: (doc, o) =>
      headerParam(doc, doc.paths[o.path], o.op, "If-None-Match") ? [] : ["declares no If-None-Match header parameter"],
  },
  authorization: {
    // a credential's Bearer on every operation it may call; refused (403, declared) on the others
    on: (o) => typeof o.op["x-scope"] === "string",
    declared: (doc, o) =>
      schemesOfType(doc, (s) => s.type === "http" || s.type === "oauth2").some((s) => lists(doc, o.op, s))
        ? []
        : ["reads Authorization but lists no http or oauth2 security scheme"],
  },
  cookie: {
    on: (o) => o.op["x-public"] !== true,
    declared: (doc, o) =>
      schemesOfType(doc, (s) => s.type === "apiKey" && s.in === "cookie").some((s) => lists(doc, o.op, s))
        ? []
        : ["takes a session but lists no cookie security scheme"],
  },
  "content-type": { exempt: "the body's media type: requestBody.content declares it (OpenAPI ignores a Content-Type parameter)" },
  "content-length": { exempt: "message framing: the body limits are declared as 413 (and x-body-limit)" },
  "transfer-encoding": { exempt: "message framing, as Content-Length" },
  origin: { exempt: "set by browsers, not by API clients: the cross-site check, whose refusal is the declared 403" },
  host: { exempt: "set by every HTTP client: the cross-site check compares Origin with it" },
  "x-request-id": {
    exempt: "an optional correlation id on any request, echoed as X-Request-Id: the document's conventions (info.description) say so once",
  },
};

/** Headers a handler may read without a header parameter: OpenAPI declares them another way. */
const HANDLER_HEADERS: Record<string, Check> = {
  // content negotiation: OpenAPI ignores an Accept parameter; the answer's media types are its declaration
  accept: (doc, o) =>
    Object.keys(response(doc, o, "200")?.content ?? {}).length > 1 ? [] : ["reads Accept but its 200 declares one media type"],
  // client authentication of the token endpoint: an http security scheme
  authorization: (doc, o) =>
    schemesOfType(doc, (s) => s.type === "http").some((s) => lists(doc, o.op, s)) ? [] : ["reads Authorization but lists no http scheme"],
};

/** A request header read: `req.headers.x`, `req.headers["x"]`, `req.headers[CONST]`, `req.get("x")`, `req.header("x")`. */
const HEADER_READ = /\breq\.(?:headers(?:\.([a-z]+)|\[\s*(?:"([A-Za-z0-9-]+)"|([A-Z_]+))\s*\])|(?:get|header)\(\s*"([A-Za-z0-9-]+)"\s*\))/g;
/** Files whose `req` is not a request of the API: the reference page's browser script (Swagger UI's request object). */
const NOT_REQUESTS = new Set(["src/http/docs-page.ts"]);

export interface HeaderRead {
  header: string;
  file: string;
  line: number;
  /** The handler that reads it (src/modules/<area>/handlers.ts), if any. */
  operationId?: string;
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(path.join(dir, e.name)) : e.name.endsWith(".ts") ? [path.join(dir, e.name)] : [],
  );
}

/** Every request header read in src/ (relative to `root`). */
export function headerReads(root: string): HeaderRead[] {
  const reads: HeaderRead[] = [];
  for (const abs of tsFiles(path.join(root, "src"))) {
    const file = path.relative(root, abs).split(path.sep).join("/");
    if (NOT_REQUESTS.has(file)) continue;
    const text = readFileSync(abs, "utf8");
    const consts = Object.fromEntries([...text.matchAll(/\b([A-Z_]+)\s*=\s*"([a-z0-9-]+)"/g)].map((m) => [m[1], m[2]]));
    const handlers = /^src\/modules\/[^/]+\/handlers\.ts$/.test(file);
    for (const m of text.matchAll(HEADER_READ)) {
      const header = (m[1] ?? m[2] ?? (m[3] ? consts[m[3]] : undefined) ?? m[4] ?? `<${m[3]}>`).toLowerCase();
      const before = text.slice(0, m.index);
      const line = before.split("\n").length;
      const operationId = handlers ? [...before.matchAll(/^ {2}async ([a-zA-Z0-9]+)\(/gm)].at(-1)?.[1] : undefined;
      reads.push({ header, file, line, operationId });
    }
  }
  return reads;
}

/** Every problem of `doc`: the wire behaviour its extensions and the server's header reads carry without a standard declaration. */
export function contractProblems(doc: Json, reads: HeaderRead[]): string[] {
  const problems: string[] = [];
  const ops = operationsOf(doc);
  const name = (o: Operation) => `${o.op.operationId} (${o.method.toUpperCase()} ${o.path})`;
  for (const o of ops) {
    for (const key of Object.keys(o.op).filter((k) => k.startsWith("x-"))) {
      const ext = EXTENSIONS[key];
      if (!ext)
        problems.push(`${name(o)}: \`${key}\` is unknown to scripts/checks/check-contract.ts: declare its wire behaviour and add it there`);
      else for (const p of ext.check?.(doc, o) ?? []) problems.push(`${name(o)} \`${key}\`: ${p}`);
    }
    for (const [code, declared] of Object.entries<Json>(o.op.responses ?? {})) {
      if (!code.startsWith("2")) continue;
      for (const [media, content] of Object.entries<Json>(resolve(doc, declared)?.content ?? {})) {
        if (media === "application/json") continue;
        const schema = resolve(doc, content.schema);
        const text = media.startsWith("text/") || media === "application/x-ndjson";
        if (text && (schema?.type !== "string" || schema.format === "binary"))
          problems.push(`${name(o)} ${code} ${media}: a text answer is a string (\`type: string\`, no \`format: binary\`)`);
        if (!text && (schema?.type !== "string" || schema.format !== "binary"))
          problems.push(`${name(o)} ${code} ${media}: bytes are \`type: string, format: binary\``);
      }
    }
  }
  const byId = new Map(ops.map((o) => [o.op.operationId, o]));
  for (const r of reads) {
    const at = `${r.file}:${r.line} reads the request header ${r.header}`;
    if (r.operationId) {
      const o = byId.get(r.operationId);
      if (!o) continue; // not a handler of the document (a helper of the file)
      const other = HANDLER_HEADERS[r.header];
      const found = other
        ? other(doc, o)
        : headerParam(doc, doc.paths[o.path], o.op, r.header)
          ? []
          : [`declares no ${r.header} header parameter`];
      for (const p of found) problems.push(`${at} for ${name(o)}, which ${p}`);
      continue;
    }
    const rule = HEADERS[r.header];
    if (!rule) problems.push(`${at}: no rule of scripts/checks/check-contract.ts says where it is declared - declare it and add one`);
  }
  for (const [header, rule] of Object.entries(HEADERS)) {
    if ("exempt" in rule) continue;
    for (const o of ops) if (rule.on(o)) for (const p of rule.declared(doc, o)) problems.push(`${name(o)} reads ${header} but ${p}`);
  }
  return [...new Set(problems)];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const root = path.resolve(import.meta.dirname, "../..");
  const file = process.argv[2] ?? path.join(root, "generated/openapi.json");
  const problems = contractProblems(JSON.parse(readFileSync(file, "utf8")), headerReads(root));
  for (const p of problems) console.log(p);
  console.log(`check-contract: ${problems.length} problem(s) in ${path.relative(process.cwd(), file)}`);
  process.exitCode = problems.length ? 1 : 0;
}
