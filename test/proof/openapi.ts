// The proof harness's view of generated/openapi.json: operations with their resolved parameters,
// bodies and responses; a deterministic valid sample of any schema; and a request sender. Every
// matrix and the fuzzer derive their cases from here, so an operation added to the document is
// covered without a new test.
import { randomUUID } from "node:crypto";
import fc from "fast-check";
import type supertest from "supertest";
import { encodeQuery, type QueryStyle } from "./query-styles.ts";
import { asArray, asObject, bundledDocument, pointer } from "../support/document.ts";
import * as clock from "../../src/lib/clock.ts";

export type Schema = Record<string, any>;
export type Role = "owner" | "admin" | "hr" | "manager" | "employee";
export const ROLES: Role[] = ["owner", "admin", "hr", "manager", "employee"];
export const MODULES = ["payroll", "recruitment", "helpdesk", "assets"] as const;

export interface Param {
  name: string;
  in: "path" | "query" | "header" | "cookie";
  required: boolean;
  allowEmptyValue?: boolean;
  schema: Schema;
}

export interface Operation {
  operationId: string;
  method: "get" | "post" | "put" | "patch" | "delete";
  path: string;
  /** its area: the first tag (the folder under src/modules/) */
  area: string;
  public: boolean;
  roles: Role[];
  module: string | null;
  tenantOptional: boolean;
  pathParams: Param[];
  queryParams: Param[];
  headerParams: Param[];
  body: { contentType: "application/json" | "multipart/form-data"; required: boolean; schema: Schema } | null;
  responses: Record<string, Schema>;
}

/** generated/openapi.json (read once, by test/support/document.ts). */
export function document(): Schema {
  return bundledDocument();
}

/** Follows local `$ref`s (one level at a time, so recursive schemas stay finite). */
export function deref<T = Schema>(node: unknown): T {
  let n = node;
  for (let i = 0; i < 20 && typeof (n as Schema | undefined)?.$ref === "string"; i++) n = pointer((n as Schema).$ref);
  return n as T;
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;
let opsCache: Operation[] | undefined;

export function operations(): Operation[] {
  if (opsCache) return opsCache;
  const out: Operation[] = [];
  for (const [p, rawItem] of Object.entries(asObject(document().paths))) {
    const item = asObject(deref(rawItem));
    for (const method of METHODS) {
      const op = asObject(item[method]);
      if (typeof op.operationId !== "string") continue;
      const params = new Map<string, Param>();
      for (const raw of [...asArray(item.parameters), ...asArray(op.parameters)]) {
        const prm = asObject(deref(raw));
        const where = prm.in as Param["in"];
        params.set(`${where}:${prm.name}`, {
          name: String(prm.name),
          in: where,
          required: Boolean(prm.required || where === "path"),
          allowEmptyValue: prm.allowEmptyValue === true,
          schema: deref(prm.schema ?? {}),
        });
      }
      const rb = op.requestBody ? asObject(deref(op.requestBody)) : null;
      const content = asObject(rb?.content);
      const ct = content["application/json"] ? "application/json" : content["multipart/form-data"] ? "multipart/form-data" : null;
      out.push({
        operationId: op.operationId,
        method,
        path: p,
        area: String(asArray(op.tags)[0] ?? ""),
        public: op["x-public"] === true,
        roles: asArray(op["x-roles"]) as Role[],
        module: typeof op["x-module"] === "string" ? op["x-module"] : null,
        tenantOptional: op["x-tenant-optional"] === true,
        pathParams: [...params.values()].filter((x) => x.in === "path").sort((a, b) => p.indexOf(`{${a.name}}`) - p.indexOf(`{${b.name}}`)),
        queryParams: [...params.values()].filter((x) => x.in === "query"),
        headerParams: [...params.values()].filter((x) => x.in === "header"),
        body: rb && ct ? { contentType: ct, required: Boolean(rb.required), schema: deref(asObject(content[ct]).schema ?? {}) } : null,
        responses: Object.fromEntries(Object.entries(asObject(op.responses)).map(([k, v]) => [k, deref(v)])),
      });
    }
  }
  opsCache = out.sort((a, b) => a.operationId.localeCompare(b.operationId));
  return opsCache;
}

/**
 * The operations the per-operation matrices (roles, isolation, fuzz) cover: all of them, or one
 * area's with PROOF_AREA=<area> (`make conformance area=<area>`: the quick check of one area).
 */
export function matrixOperations(): Operation[] {
  const area = process.env.PROOF_AREA;
  return area ? operations().filter((o) => o.area === area) : operations();
}

export function operation(id: string): Operation | undefined {
  return operations().find((o) => o.operationId === id);
}

/** The operation of the document for a method and path template, if it exists yet. */
export function operationAt(method: string, pathTemplate: string): Operation | undefined {
  const shape = (s: string) => s.replace(/\{[^}]+\}/g, "{}");
  return operations().find((o) => o.method === method.toLowerCase() && shape(o.path) === shape(pathTemplate));
}

export function documentedStatus(op: Operation, status: number): boolean {
  return Boolean(op.responses[String(status)] || op.responses[`${String(status)[0]}XX`] || op.responses.default);
}

/** The JSON schema of a response body (for a status), when it has one. */
export function responseSchema(op: Operation, status: number): Schema | undefined {
  const r = op.responses[String(status)];
  return r?.content?.["application/json"]?.schema ? deref(r.content["application/json"].schema) : undefined;
}

// ───────────────────────────── schema helpers ─────────────────────────────

/** Flattens allOf and resolves refs; returns the effective schema. */
export function effective(schema: Schema | undefined): Schema {
  const s = deref(schema ?? {});
  if (!s.allOf) return s;
  const merged: Schema = { ...s, allOf: undefined, properties: { ...(s.properties ?? {}) }, required: [...(s.required ?? [])] };
  for (const part of s.allOf.map((x: Schema) => effective(x))) {
    Object.assign(merged.properties, part.properties ?? {});
    merged.required.push(...(part.required ?? []));
    for (const k of Object.keys(part)) if (!["properties", "required"].includes(k) && merged[k] === undefined) merged[k] = part[k];
  }
  return merged;
}

export function types(schema: Schema): string[] {
  const s = effective(schema);
  if (Array.isArray(s.type)) return s.type;
  if (s.type) return [s.type];
  if (s.enum)
    return [
      ...new Set(
        s.enum.map((v: unknown) =>
          v === null
            ? "null"
            : Array.isArray(v)
              ? "array"
              : typeof v === "number"
                ? Number.isInteger(v)
                  ? "integer"
                  : "number"
                : typeof v,
        ),
      ),
    ] as string[];
  if (s.properties) return ["object"];
  return [];
}

let sampleCounter = 0;
/** A unique, valid e-mail address for samples (never collides between calls). */
export function sampleEmail(prefix = "proof"): string {
  return `${prefix}.${process.pid}.${Date.now().toString(36)}.${sampleCounter++}@example.test`;
}

function sampleString(s: Schema): string {
  const fmt = s.format as string | undefined;
  let v: string;
  if (fmt === "email") v = sampleEmail();
  else if (fmt === "uuid") v = randomUUID();
  else if (fmt === "date") v = "2026-03-16";
  else if (fmt === "date-time") v = clock.now().toISOString();
  else if (fmt === "uri" || fmt === "url") v = "https://example.test/x";
  else if (fmt === "binary") v = "";
  else if (s.pattern) {
    const re = new RegExp(s.pattern);
    const fits = (x: string) => [...x].length >= (s.minLength ?? 0) && [...x].length <= (s.maxLength ?? Infinity);
    v =
      ["Proof sample", ...fc.sample(fc.stringMatching(re), { seed: 42, numRuns: 200 })].find((x) => re.test(x) && fits(x)) ??
      "Proof sample";
  } else v = "Proof sample";
  const min = s.minLength ?? 0;
  const max = s.maxLength ?? Infinity;
  if (!s.pattern && !fmt) {
    if (v.length < min) v = v.padEnd(min, "x");
    if (v.length > max) v = v.slice(0, max);
  }
  return v;
}

/**
 * A valid value for the schema: its example (or default, const, first enum value) when it has one,
 * else one built from its type and constraints. Objects get their required properties, plus the
 * first optional ones when `minProperties` asks for more.
 */
export function sample(schema: Schema | undefined, opts: { allProperties?: boolean } = {}): unknown {
  const s = effective(schema);
  if (s.const !== undefined) return s.const;
  // not the example of an e-mail, id, date or timestamp: samples are unique addresses and ids, and
  // the harness's own dates (sampleString) rather than the document's (a timestamp turns into the past)
  const own = !["email", "uuid", "date", "date-time"].includes(s.format);
  if (s.example !== undefined && !opts.allProperties && own) return structuredClone(s.example);
  if (s.examples?.length && !opts.allProperties) return structuredClone(s.examples[0]);
  if (s.default !== undefined) return structuredClone(s.default);
  if (s.enum) return s.enum.find((v: unknown) => v !== null) ?? s.enum[0];
  if (s.oneOf || s.anyOf)
    return sample((s.oneOf ?? s.anyOf).find((x: Schema) => !types(x).includes("null")) ?? (s.oneOf ?? s.anyOf)[0], opts);
  const t = types(s).find((x) => x !== "null") ?? "string";
  switch (t) {
    case "object": {
      const out: Record<string, unknown> = {};
      const props = s.properties ?? {};
      const keys = Object.keys(props);
      const want = new Set<string>(s.required ?? []);
      if (opts.allProperties) for (const k of keys) want.add(k);
      for (const k of keys) if (want.size < (s.minProperties ?? 0) && !want.has(k)) want.add(k);
      for (const k of want) out[k] = sample(props[k]);
      return out;
    }
    case "array": {
      const n = Math.max(s.minItems ?? 0, 0);
      const items = [];
      for (let i = 0; i < n; i++) items.push(sample(s.items));
      return items;
    }
    case "integer":
    case "number": {
      let v = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : Math.min(1, s.maximum ?? 1));
      if (s.multipleOf) v = Math.ceil(v / s.multipleOf) * s.multipleOf;
      return v;
    }
    case "boolean":
      return true;
    default:
      return sampleString(s);
  }
}

// ───────────────────────────── sending ─────────────────────────────

export interface RequestInput {
  pathParams?: Record<string, string>;
  query?: Record<string, unknown>;
  body?: unknown;
  /** multipart: file parts by field name */
  files?: Record<string, { content: Buffer; filename: string; contentType: string }>;
  headers?: Record<string, string>;
  /** How the query string is encoded (query-styles.ts); supertest's own encoding when unset. */
  queryStyle?: QueryStyle;
}

export function urlFor(op: Operation, pathParams: Record<string, string> = {}): string {
  return op.path.replace(/\{([^}]+)\}/g, (_, name) => {
    if (pathParams[name] === undefined) throw new Error(`${op.operationId}: no value for path parameter ${name}`);
    return encodeURIComponent(pathParams[name]);
  });
}

/** Sends the request of `op` with `agent` (supertest agent or app request) and returns the response. */
export async function send(agent: supertest.Agent, op: Operation, input: RequestInput = {}): Promise<supertest.Response> {
  const q: Record<string, string> = {};
  for (const [k, v] of Object.entries(input.query ?? {}))
    if (v !== undefined) q[k] = Array.isArray(v) ? v.join(",") : typeof v === "object" && v !== null ? JSON.stringify(v) : String(v);
  const styled = input.queryStyle && Object.keys(q).length ? `?${encodeQuery(q, input.queryStyle)}` : "";
  let req = agent[op.method](urlFor(op, input.pathParams) + styled);
  for (const [k, v] of Object.entries(input.headers ?? {})) req = req.set(k, v);
  if (!styled && Object.keys(q).length) req = req.query(q);
  if (op.body?.contentType === "multipart/form-data") {
    for (const [k, f] of Object.entries(input.files ?? {}))
      req = req.attach(k, f.content, { filename: f.filename, contentType: f.contentType });
    for (const [k, v] of Object.entries((input.body as Record<string, unknown>) ?? {}))
      if (v !== undefined) req = req.field(k, typeof v === "string" ? v : JSON.stringify(v));
    return await req;
  }
  if (input.body !== undefined) return await req.send(input.body as object);
  return await req;
}

/** A valid request for `op` (path ids given), built from the document's schemas. */
export function sampleRequest(op: Operation, pathParams: Record<string, string> = {}): RequestInput {
  const query: Record<string, unknown> = {};
  for (const p of op.queryParams) if (p.required) query[p.name] = sample(p.schema);
  const headers: Record<string, string> = {};
  for (const p of op.headerParams) if (p.required) headers[p.name] = String(sample(p.schema));
  const input: RequestInput = { pathParams, query, headers };
  if (op.body?.contentType === "application/json") input.body = sample(op.body.schema);
  if (op.body?.contentType === "multipart/form-data") {
    const s = effective(op.body.schema);
    const body: Record<string, unknown> = {};
    input.files = {};
    for (const [k, ps] of Object.entries<Schema>(s.properties ?? {})) {
      const e = effective(ps);
      if (e.format === "binary")
        input.files[k] = { content: Buffer.from("proof harness sample file\n"), filename: "sample.txt", contentType: "text/plain" };
      else if ((s.required ?? []).includes(k)) body[k] = sample(e);
    }
    input.body = body;
  }
  return input;
}
