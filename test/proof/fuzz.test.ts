// Property-based fuzzing of every operation of generated/openapi.json (fast-check). Requests are
// generated from each operation's parameter and body schemas (test/proof/arbitraries.ts):
//   valid   - what the schemas accept (unicode, injection-like strings, boundary numbers, long
//             strings where allowed, existing and unknown ids; the query string encoded as one of
//             the common clients would, query-styles.ts): never a 5xx, only documented
//             statuses, every 4xx the error envelope, and never refused by schema validation;
//   invalid - exactly one violation (wrong type, missing required, out of range, too long, not in
//             the enum, bad format, extra field, unknown query parameter, bad path id): a 400
//             `validation_failed` envelope, never a 2xx or 5xx;
//   edges   - per operation with a body: malformed JSON (400), one byte over the operation's
//             `x-body-limit` (413), another media type (415).
// Seeded and reproducible: FUZZ_SEED (default fixed; printed on failure), FUZZ_RUNS per kind and
// operation (default 4; `make verify` runs many more with a random seed), FUZZ_OP=<operationId>
// to run one operation.
import { createHash } from "node:crypto";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { addMember, signupTenant, useTestApp, type TenantSession } from "../support/app.ts";
import { asObject } from "../support/document.ts";
import { markGeneric } from "../support/recorder.ts";
import { jsonBudget, jsonShape } from "../../src/http/body.ts";
import { checksLinkBeforeBody } from "../../src/http/public-uploads.ts";
import { invalidObject, valid, violations, type Invalid } from "./arbitraries.ts";
import { QUERY_STYLES } from "./query-styles.ts";
import { createResources, factoryFor, resourcePrefixes } from "./factories.ts";
import {
  document,
  documentedStatus,
  effective,
  MODULES,
  matrixOperations,
  sampleRequest,
  send,
  type Operation,
  type RequestInput,
  type Role,
  type Schema,
} from "./openapi.ts";
import { describeResponse, enableAllModules, ensureSession, integrations, isEnvelope, resetAuthLimits } from "./world.ts";
import { api } from "../support/api.ts";

markGeneric();
const t = useTestApp({ config: integrations });

const FUZZ_SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const RUNS = Number(process.env.FUZZ_RUNS ?? 4);
const only = process.env.FUZZ_OP;
const ops = matrixOperations().filter((o) => !only || only.split(",").includes(o.operationId));
const stats = { valid: 0, invalid: 0, edges: 0, statuses: new Map<number, number>() };

let owner: TenantSession;
const pools = new Map<string, Record<string, string> | Error>();
let previousChangedState = false;
const members = new Map<Role, TenantSession>();

beforeAll(async () => {
  owner = await signupTenant(t, { company: "Fuzz Co" });
  await enableAllModules(owner);
  members.set("owner", owner);
  console.log(`[fuzz] FUZZ_SEED=${FUZZ_SEED} FUZZ_RUNS=${RUNS} over ${ops.length} operations`);
  // every id-taking operation gets an existing resource of its own, created while the tenant is
  // still in a sane state (fuzzing later operations changes settings, records and sessions)
  // (a read changes nothing: the reads of the same resources by the same caller share them)
  const reads = new Map<string, Record<string, string> | Error>();
  for (const op of ops) {
    if (!op.pathParams.length || !resourcePrefixes(op).every(({ prefix, param }) => factoryFor(prefix, param))) continue;
    const caller = await callerFor(op);
    const holder = caller ?? owner;
    const read = op.method === "get" && !op.public ? `${resourcePrefixes(op).map((p) => p.prefix)} for ${holder.userId}` : undefined;
    const ids =
      (read && reads.get(read)) ||
      (await createResources(op, { t, owner, holder }).then(
        (r) => r.ids,
        (e: Error) => new Error(`factory for ${op.operationId}: ${e.message}`),
      ));
    if (read) reads.set(read, ids);
    pools.set(op.operationId, ids);
  }
});

function seedFor(op: Operation): number {
  return (FUZZ_SEED + createHash("sha256").update(op.operationId).digest().readUInt32BE(0)) % 2 ** 31;
}

/** Sessions checked since the last operation that could change state (a read cannot end one). */
const alive = new Set<TenantSession>();

async function callerFor(op: Operation): Promise<TenantSession | null> {
  if (op.public) return null;
  const role = (op.roles.includes("owner") ? "owner" : op.roles[0]) as Role;
  if (!members.has(role)) members.set(role, await addMember(t, owner, role as Exclude<Role, "owner">));
  const s = members.get(role)!;
  if (!alive.has(s)) await ensureSession(t, s);
  alive.add(s);
  return s;
}

/**
 * Query params: strings stay short enough for a URL (a 16 KB request line is an HTTP limit, not the
 * API's), and are not empty unless the parameter has `allowEmptyValue` (OpenAPI's default).
 */
function querySchema(p: { schema: Schema; allowEmptyValue?: boolean }): Schema {
  const e = effective(p.schema);
  const isString = e.type === "string" || (Array.isArray(e.type) && e.type.includes("string"));
  return isString && !e.enum && !e.format
    ? { ...e, maxLength: Math.min(e.maxLength ?? 200, 200), minLength: Math.max(e.minLength ?? 0, p.allowEmptyValue ? 0 : 1) }
    : e;
}

function toQueryValue(v: unknown): unknown {
  if (Array.isArray(v)) return v.map((x) => (typeof x === "object" ? JSON.stringify(x) : String(x)));
  return typeof v === "object" && v !== null ? JSON.stringify(v) : v === null ? "" : String(v);
}

interface Fuzzed extends RequestInput {
  kind: "valid" | "invalid";
  why?: string;
  raw?: { contentType: string; payload: string | Buffer };
}

function ghostIdsArb(op: Operation): fc.Arbitrary<Record<string, string>> {
  return fc
    .tuple(
      ...op.pathParams.map((p) =>
        effective(p.schema).format === "uuid" ? fc.uuid() : (valid(p.schema) as fc.Arbitrary<unknown>).map(String),
      ),
    )
    .map((vals) => Object.fromEntries(op.pathParams.map((p, i) => [p.name, vals[i]])));
}

function validArb(op: Operation, pools: Record<string, string>[]): fc.Arbitrary<Fuzzed> {
  const ids = op.pathParams.length
    ? pools.length
      ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...pools) }, { weight: 1, arbitrary: ghostIdsArb(op) })
      : ghostIdsArb(op)
    : fc.constant({});
  const query = fc.record(Object.fromEntries(op.queryParams.map((p) => [p.name, valid(querySchema(p)).map(toQueryValue)])), {
    requiredKeys: op.queryParams.filter((p) => p.required).map((p) => p.name),
  });
  let body: fc.Arbitrary<Partial<Fuzzed>> = fc.constant({});
  if (op.body?.contentType === "application/json") body = valid(op.body.schema).map((b) => ({ body: b }));
  if (op.body?.contentType === "multipart/form-data") body = multipartArb(op, true);
  // header values stay printable ASCII (an HTTP client refuses anything else before it is sent)
  // a header that takes no value (maxLength 0: an Idempotency-Key refused where the answer holds a secret) is left out
  const acceptsValue = (p: { schema: Schema }) => effective(p.schema).maxLength !== 0;
  const headers = fc.record(
    Object.fromEntries(
      op.headerParams.filter(acceptsValue).map((p) => [
        p.name,
        // a pattern (the entity tags of If-Match / If-None-Match) is drawn from; it keeps to ASCII
        effective(p.schema).pattern
          ? fc.stringMatching(new RegExp(effective(p.schema).pattern!)).filter((v) => v.length <= (effective(p.schema).maxLength ?? 100))
          : fc.string({
              unit: "grapheme-ascii",
              minLength: Math.max(1, effective(p.schema).minLength ?? 0),
              maxLength: Math.min(effective(p.schema).maxLength ?? 100, 100),
            }),
      ]),
    ),
    { requiredKeys: op.headerParams.filter((p) => p.required).map((p) => p.name) },
  );
  // the query string encoded as one of the clients people use would (form `+`, percent, UTF-8, ...)
  return fc.tuple(ids, query, body, headers, fc.constantFrom(...QUERY_STYLES)).map(([pathParams, q, b, h, queryStyle]) => ({
    kind: "valid" as const,
    pathParams,
    query: q as Record<string, unknown>,
    headers: h as Record<string, string>,
    queryStyle,
    ...b,
  }));
}

const FILE_TYPES = [
  "text/plain",
  "text/csv",
  "application/pdf",
  "image/png",
  "image/jpeg",
  "application/octet-stream",
  "application/x-msdownload",
  "text/html",
];
function multipartArb(op: Operation, validOnly: boolean): fc.Arbitrary<Partial<Fuzzed>> {
  const s = effective(op.body!.schema);
  const fileFields = Object.entries<Schema>(s.properties ?? {})
    .filter(([, p]) => effective(p).format === "binary")
    .map(([k]) => k);
  const fieldSchema = {
    ...s,
    properties: Object.fromEntries(Object.entries<Schema>(s.properties ?? {}).filter(([k]) => !fileFields.includes(k))),
    required: (s.required ?? []).filter((k: string) => !fileFields.includes(k)),
  };
  const fields = validOnly ? valid(fieldSchema) : invalidObject(fieldSchema).map((x) => x.value);
  const file = fc.record({
    content: fc.oneof(
      fc.uint8Array({ minLength: 1, maxLength: 2048 }).map((u) => Buffer.from(u)),
      fc.constantFrom(Buffer.from("%PDF-1.4\n% fuzz\n"), Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]), Buffer.from("a,b\n1,2\n")),
    ),
    filename: fc.oneof(
      fc.constantFrom("a.txt", "report.pdf", "../../etc/passwd", "ünïcødé 📄.csv", "x".repeat(300)),
      fc
        .string({ unit: "grapheme-ascii", minLength: 1, maxLength: 40 })
        .filter((n) => !/["\\]/.test(n) && n.trim() !== "." && n.trim() !== ".."),
    ), // form-data does not escape " or \ in filename=""; busboy drops "." and ".."
    contentType: fc.constantFrom(...FILE_TYPES),
  });
  return fc.tuple(fields, file).map(([f, fl]) => ({
    body:
      typeof f === "object" && f && !Array.isArray(f)
        ? (Object.fromEntries(Object.entries(f).map(([k, v]) => [k, typeof v === "string" ? v : JSON.stringify(v)])) as Record<
            string,
            unknown
          >)
        : {},
    files: Object.fromEntries(fileFields.map((k) => [k, fl])),
  }));
}

function invalidArb(op: Operation, pools: Record<string, string>[]): fc.Arbitrary<Fuzzed> {
  const base = validArb(op, pools);
  const options: fc.Arbitrary<Fuzzed>[] = [];
  // path ids
  for (const p of op.pathParams) {
    // a huge path segment is refused by Node's HTTP parser (431, request line over 16 KB) before the API sees it
    const vs = violations(p.schema).filter((v) => (typeof v.value === "string" || typeof v.value === "number") && v.why !== "huge string");
    if (vs.length)
      options.push(
        fc.tuple(base, fc.constantFrom(...vs)).map(([r, v]) => ({
          ...r,
          kind: "invalid" as const,
          why: `path ${p.name}: ${v.why}`,
          pathParams: { ...r.pathParams, [p.name]: String(v.value) },
        })),
      );
  }
  // query parameters (values arrive as strings: a wrong JSON type is no violation for a string)
  for (const p of op.queryParams) {
    const isString = effective(p.schema).type === "string";
    const vs = violations(p.schema).filter((v) => !(isString && v.why === "wrong type") && v.why !== "huge string");
    if (vs.length)
      options.push(
        fc.tuple(base, fc.constantFrom(...vs)).map(([r, v]) => ({
          ...r,
          kind: "invalid" as const,
          why: `query ${p.name}: ${v.why}`,
          query: { ...r.query, [p.name]: toQueryValue(v.value) },
        })),
      );
  }
  for (const p of op.queryParams.filter((q) => q.required))
    options.push(
      base.map((r) => ({
        ...r,
        kind: "invalid" as const,
        why: `query ${p.name} missing`,
        query: Object.fromEntries(Object.entries(r.query ?? {}).filter(([k]) => k !== p.name)),
      })),
    );
  options.push(
    base.map((r) => ({ ...r, kind: "invalid" as const, why: "unknown query parameter", query: { ...r.query, not_a_parameter: "1" } })),
  );
  for (const p of op.headerParams.filter((h) => h.required))
    options.push(
      base.map((r) => ({
        ...r,
        kind: "invalid" as const,
        why: `header ${p.name} missing`,
        headers: Object.fromEntries(Object.entries(r.headers ?? {}).filter(([k]) => k !== p.name)),
      })),
    );
  // body
  if (op.body?.contentType === "application/json")
    options.push(
      fc.tuple(base, invalidObject(op.body.schema)).map(([r, inv]: [Fuzzed, Invalid]) => ({
        ...r,
        kind: "invalid" as const,
        why: `body ${inv.why}`,
        body: undefined,
        raw: { contentType: "application/json", payload: JSON.stringify(inv.value) },
      })),
    );
  if (op.body?.contentType === "multipart/form-data") {
    const s = effective(op.body.schema);
    const fieldSchema = {
      ...s,
      properties: Object.fromEntries(Object.entries<Schema>(s.properties ?? {}).filter(([, p]) => effective(p).format !== "binary")),
      required: [],
    };
    const fieldViolations = Object.entries<Schema>(fieldSchema.properties).flatMap(([k, p]) =>
      violations(p)
        .filter((v) => typeof v.value === "string")
        .map((v) => ({ k, v })),
    );
    if (fieldViolations.length)
      options.push(
        fc.tuple(base, fc.constantFrom(...fieldViolations)).map(([r, { k, v }]) => ({
          ...r,
          kind: "invalid" as const,
          why: `field ${k}: ${v.why}`,
          body: { ...(r.body as object), [k]: v.value },
        })),
      );
    if ((s.required ?? []).some((k: string) => effective(s.properties?.[k]).format === "binary"))
      options.push(
        base.map((r) => ({
          ...r,
          kind: "invalid" as const,
          why: "file missing",
          files: {},
          body: { ...(r.body as object), proof_probe: "x" },
        })),
      );
  }
  if (op.body?.required && op.body.contentType === "application/json")
    options.push(
      base.map((r) => ({
        ...r,
        kind: "invalid" as const,
        why: "body missing",
        body: undefined,
        raw: { contentType: "application/json", payload: "" },
      })),
    );
  return fc.oneof(...options);
}

async function fire(caller: TenantSession | null, op: Operation, r: Fuzzed) {
  const agent = caller ? caller.agent : t.request();
  if (r.raw) {
    const rq = agent[op.method](op.path.replace(/\{([^}]+)\}/g, (_, n) => encodeURIComponent(r.pathParams![n]))).query(
      (r.query ?? {}) as Record<string, string>,
    );
    for (const [k, v] of Object.entries(r.headers ?? {})) rq.set(k, v);
    return rq.set("Content-Type", r.raw.contentType).send(r.raw.payload as string);
  }
  return send(agent, op, r);
}

function requestSummary(r: Fuzzed) {
  const files =
    r.files &&
    Object.fromEntries(
      Object.entries(r.files).map(([k, f]) => [k, { filename: f.filename, contentType: f.contentType, bytes: f.content.length }]),
    );
  return {
    pathParams: r.pathParams,
    query: r.query,
    queryStyle: r.queryStyle,
    body: r.body ?? r.raw?.payload?.toString().slice(0, 300),
    files,
  };
}

/**
 * An upload that checks its link before reading its body (src/http/public-uploads.ts, the issue-28 rule that an
 * anonymous upload to a wrong link costs no disk): what the link check refuses comes before the
 * body's validation, whatever the body holds - a well-formed link that does not exist (404), its
 * company without the module (403), a link no longer valid (410), a candidate who joined or an
 * appointment that holds its most documents (409; the valid runs fill it). A malformed link is
 * still a 400, and so is an invalid body sent to a live link with room.
 */
function linkCheckedFirst(op: Operation, r: Fuzzed, res: { status: number; body: unknown }): boolean {
  if (!checksLinkBeforeBody(op.operationId) || r.why?.startsWith("path ")) return false;
  const { code } = asObject(res.body);
  if (res.status === 409 && code === "conflict") return true;
  if (res.status === 410 || (res.status === 403 && code === "module_disabled")) return true;
  if (res.status !== 404 || code !== "not_found") return false;
  const pool = pools.get(op.operationId);
  const live = pool && !(pool instanceof Error) && Object.entries(pool).every(([k, v]) => r.pathParams?.[k] === v);
  return !live;
}

function checkResponse(op: Operation, r: Fuzzed, res: { status: number; body: unknown }) {
  const { code, error } = asObject(res.body);
  stats[r.kind]++;
  stats.statuses.set(res.status, (stats.statuses.get(res.status) ?? 0) + 1);
  const what =
    `${op.operationId} ${r.kind}${r.why ? ` (${r.why})` : ""}: ${describeResponse(res)}\n  ` +
    `request: ${JSON.stringify(requestSummary(r))?.slice(0, 600)}`;
  if (res.status >= 500) throw new Error(`5xx - ${what}`);
  if (!documentedStatus(op, res.status)) throw new Error(`undocumented status - ${what}`);
  if (res.status >= 400 && !isEnvelope(res)) throw new Error(`not the error envelope - ${what}`);
  if (r.kind === "valid" && res.status === 400 && error === "Validation failed")
    throw new Error(`valid input refused by schema validation - ${what}`);
  // a body over what its operation takes - its bytes over `x-body-limit`, or more objects, arrays
  // or values than the limit allows (src/http/body.ts) - is a 413 before its content is looked at
  if (overBodyBudget(op, r)) {
    if (!(res.status === 413 && code === "payload_too_large")) throw new Error(`body over its limit not refused with 413 - ${what}`);
    return;
  }
  if (r.kind === "invalid" && !(res.status === 400 && code === "validation_failed") && !linkCheckedFirst(op, r, res))
    throw new Error(`invalid input not refused with 400 validation_failed - ${what}`);
}

/** Is the JSON body of `r` over what its operation takes (bytes, objects and arrays, values)? */
function overBodyBudget(op: Operation, r: Fuzzed): boolean {
  if (op.body?.contentType !== "application/json") return false;
  // an invalid body is sent as its serialized text (raw), a valid one as its value
  const text = r.raw ? (r.raw.contentType.startsWith("application/json") ? r.raw.payload : undefined) : r.body;
  if (text === undefined) return false;
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(typeof text === "string" && r.raw ? text : JSON.stringify(text));
  const limit: number = document().paths[op.path][op.method]["x-body-limit"];
  if (bytes.length > limit) return true;
  const shape = jsonShape(bytes);
  const budget = jsonBudget(limit);
  return shape.containers > budget.containers || shape.commas + 1 > budget.values;
}

describe("fuzzing every operation", () => {
  for (const op of ops)
    it(`${op.operationId}`, async () => {
      await resetAuthLimits(t);
      if (previousChangedState) {
        // an earlier operation may have signed the owner out or switched modules off
        alive.clear();
        const session = (await ensureSession(t, owner)) ?? (await api(owner.agent).op("getSession")).body.data;
        alive.add(owner);
        if ((session?.modules ?? []).length !== MODULES.length) await enableAllModules(owner);
      }
      previousChangedState = op.method !== "get";
      const caller = await callerFor(op);
      const pool = pools.get(op.operationId);
      if (pool instanceof Error) throw pool;
      const poolIds = pool ? [pool] : [];
      const seed = seedFor(op);
      // a run may end the caller's session (sign-out): restore it once a 401 shows it is gone
      const restored = async (status: number) => {
        if (!caller || status !== 401) return false;
        const before = caller.agent;
        await ensureSession(t, caller);
        return caller.agent !== before;
      };
      for (const [kind, arb] of [
        ["valid", validArb(op, poolIds)],
        ["invalid", invalidArb(op, poolIds)],
      ] as const) {
        // each kind starts with fresh hourly budgets: 100 valid uploads would otherwise use up the
        // caller's, and the invalid ones would meet the 429 that comes before their validation
        await resetAuthLimits(t);
        try {
          await fc.assert(
            fc.asyncProperty(arb, async (r) => {
              let res = await fire(caller, op, r);
              if (await restored(res.status)) res = await fire(caller, op, r); // an earlier run signed the caller out
              checkResponse(op, r, res);
            }),
            { seed, numRuns: RUNS, endOnFailure: !process.env.FUZZ_SHRINK },
          );
        } catch (err) {
          throw new Error(
            `fuzz ${op.operationId} (${kind}) failed - reproduce with ` +
              `FUZZ_SEED=${FUZZ_SEED} FUZZ_OP=${op.operationId}\n${(err as Error).message}` +
              `${(err as Error).cause ? `\n${((err as Error).cause as Error).message}` : ""}`,
          );
        }
      }
      if (op.body?.contentType === "application/json") {
        const pathParams = poolIds[0] ?? Object.fromEntries(op.pathParams.map((p) => [p.name, "00000000-0000-4000-8000-000000000000"]));
        const headers = sampleRequest(op).headers;
        const limit: number = document().paths[op.path][op.method]["x-body-limit"];
        const edges: [Fuzzed, number, string][] = [
          [
            { kind: "invalid", why: "malformed JSON", pathParams, headers, raw: { contentType: "application/json", payload: '{"a": ' } },
            400,
            "validation_failed",
          ],
          [
            {
              kind: "invalid",
              why: `body over its x-body-limit (${limit} bytes)`,
              pathParams,
              headers,
              raw: { contentType: "application/json", payload: JSON.stringify({ x: "x".repeat(limit) }) },
            },
            413,
            "payload_too_large",
          ],
          [
            { kind: "invalid", why: "text/plain body", pathParams, headers, raw: { contentType: "text/plain", payload: "a=b" } },
            415,
            "unsupported_media_type",
          ],
        ];
        for (const [r, status, code] of edges) {
          const res = await fire(caller, op, r);
          stats.edges++;
          expect(isEnvelope(res, status, [code]), `${op.operationId} ${r.why}: ${describeResponse(res)}`).toBe(true);
        }
      }
    });

  it("summary", () => {
    const statuses = [...stats.statuses.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([s, n]) => `${s}×${n}`)
      .join(" ");
    console.log(
      `[fuzz] FUZZ_SEED=${FUZZ_SEED}: ${stats.valid} valid + ${stats.invalid} invalid ` +
        `+ ${stats.edges} edge requests over ${ops.length} operations; statuses ${statuses}`,
    );
  });
});
