// Response recorder (test-only, loaded by test/support/setup.ts in every test file): sees every
// response any Express app of the test process serves, matches it to its operation of
// generated/openapi.json (method + path, most specific path first - as the app mounts them), and
//   - flags a violation when the status is not declared for that operation in the document, when
//     the response's media type (Content-Type) is not one the document declares for that status
//     (JSON or not: downloads, PDFs, exports), when a 4xx/5xx body is not the error envelope, or
//     when a 500 is served at all, or when a header the document declares `required: true` on the
//     response (the RateLimit headers and Retry-After of a 429) is not sent, or a declared header
//     is sent with a value its schema refuses (pattern; integer, minimum, maximum);
//   - counts calls per operation and status, and per test (its full name: describe titles > test
//     title) that made them (written per test file to PROOF_RECORD_DIR, read by
//     scripts/checks/check-conformance.ts after the suite: every operation must have been called, with a
//     2xx, by a test that names it).
// The response validator of express-openapi-validator only sees responses that pass through it;
// errors raised before it (body parsing, the session gate, the origin check) are checked here.
import express, { type Request, type Response } from "express";
import { requestObservers } from "../../src/http/server.ts";
import { asObject, bundledDocument, deref } from "./document.ts";

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

export interface DocOperation {
  operationId: string;
  method: string;
  path: string;
  statuses: string[];
  /** status -> media types its response declares ([] = no body) */
  media: Record<string, string[]>;
  /** status -> the headers its response declares (lower-case name, required, schema) */
  headers: Record<string, DeclaredHeader[]>;
  re: RegExp;
}

let cached: DocOperation[] | undefined;

declare global {
  /** Set by markGeneric for the test file running (test/support/setup.ts writes it with the file's calls). */
  var __proofGeneric: boolean | undefined;
}
/** What the recorder marks on a request and response it has seen (each request is recorded once, with the body sent). */
type RecordedRequest = Request & { __proofRecorded?: boolean };
type RecordedResponse = Response & { __proofBody?: unknown };

/** The operations of the bundled document, most specific path first. */
export function documentOperations(): DocOperation[] {
  if (cached) return cached;
  const ops: DocOperation[] = [];
  for (const [p, item] of Object.entries(asObject(bundledDocument().paths)))
    for (const m of METHODS) {
      const op = asObject(asObject(item)[m]);
      if (typeof op.operationId !== "string") continue;
      const re = new RegExp(`^${p.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+")}/?$`);
      const responses = Object.entries(asObject(op.responses));
      const media = Object.fromEntries(responses.map(([status, r]) => [status, Object.keys(asObject(deref(r).content))]));
      const headers = Object.fromEntries(
        responses.map(([status, r]) => [
          status,
          Object.entries(asObject(deref(r).headers)).map(([name, h]) => ({
            name: name.toLowerCase(),
            required: deref(h).required === true,
            schema: deref(deref(h).schema) as DeclaredHeader["schema"],
          })),
        ]),
      );
      ops.push({
        operationId: op.operationId,
        method: m.toUpperCase(),
        path: p,
        statuses: responses.map(([status]) => status),
        media,
        headers,
        re,
      });
    }
  // code-unit order, so "~" (a parameter) sorts after every static segment (localeCompare would not)
  const spec = (p: string) =>
    p
      .split("/")
      .map((s) => (s.startsWith("{") ? "~" : s))
      .join("/");
  cached = ops.sort((a, b) => (spec(a.path) < spec(b.path) ? -1 : spec(a.path) > spec(b.path) ? 1 : 0));
  return cached;
}

export interface DeclaredHeader {
  name: string;
  required: boolean;
  schema: { type?: string; pattern?: string; minimum?: number; maximum?: number };
}

/** Does a header's value fit its declared schema (integer with its bounds, pattern)? */
export function headerValueValid(schema: DeclaredHeader["schema"], value: string): boolean {
  if (schema.type === "integer") {
    if (!/^-?\d+$/.test(value)) return false;
    const n = Number(value);
    if ((schema.minimum !== undefined && n < schema.minimum) || (schema.maximum !== undefined && n > schema.maximum)) return false;
  }
  return schema.pattern === undefined || new RegExp(schema.pattern, "u").test(value);
}

export function matchOperation(method: string, urlPath: string): DocOperation | undefined {
  return documentOperations().find((o) => o.method === method && o.re.test(urlPath));
}

/** Is `status` declared for the operation (exactly, as `4XX`, or as `default`)? */
export function statusDocumented(op: DocOperation, status: number): boolean {
  return op.statuses.includes(String(status)) || op.statuses.includes(`${String(status)[0]}XX`) || op.statuses.includes("default");
}

// Is the served Content-Type one the document declares for this status (exactly, or as a wildcard)?
export function mediaTypeDocumented(op: DocOperation, status: number, contentType: string | undefined): boolean {
  const declared = op.media[String(status)] ?? op.media[`${String(status)[0]}XX`] ?? op.media.default ?? [];
  if (!contentType) return true; // no body (204, HEAD, a stream cut short)
  const served = contentType.split(";")[0].trim().toLowerCase();
  return declared.some((d) => d === served || d === "*/*" || (d.endsWith("/*") && served.startsWith(d.slice(0, -1))));
}

export function isErrorEnvelope(body: unknown, status: number): boolean {
  const b = asObject(body);
  return typeof b.error === "string" && b.status === status && typeof b.code === "string";
}

export interface Violation {
  operationId: string | null;
  method: string;
  path: string;
  status: number;
  problem: string;
}

export interface CallStats {
  calls: number;
  statuses: Record<string, number>;
  /** full test name (vitest's currentTestName) -> status -> count; OUTSIDE_TEST for hook calls */
  tests: Record<string, Record<string, number>>;
}

/** The test name recorded for a call made outside any test (beforeAll/afterAll hooks). */
export const OUTSIDE_TEST = "(outside a test: beforeAll/afterAll)";

const state = {
  /** operationId -> stats, for the current test file */
  calls: new Map<string, CallStats>(),
  violations: [] as Violation[],
  installed: false,
  /** 500s a test provokes on purpose (a failure injected into the database), still to be seen */
  expected500: 0,
  /** full name of the running test (set around each test by test/support/setup.ts), null in hooks */
  currentTest: null as string | null,
};

/** The test running from now on (its full name), or null between tests. */
export function setCurrentTest(name: string | null): void {
  state.currentTest = name;
}

function record(req: Request, res: Response, body: unknown, test: string) {
  const urlPath = req.path ?? new URL(req.originalUrl ?? req.url, "http://x").pathname;
  // the API, and the document's pages outside it (the mailed links' forms); not /docs, /assets, ...
  if (!urlPath.startsWith("/api/") && !matchOperation(req.method, urlPath)) return;
  const status = res.statusCode;
  const op = matchOperation(req.method, urlPath);
  const v = (problem: string) =>
    state.violations.push({ operationId: op?.operationId ?? null, method: req.method, path: urlPath, status, problem });
  if (op) {
    const s = state.calls.get(op.operationId) ?? { calls: 0, statuses: {}, tests: {} };
    s.calls++;
    s.statuses[status] = (s.statuses[status] ?? 0) + 1;
    const t = s.tests[test] ?? {};
    t[status] = (t[status] ?? 0) + 1;
    s.tests[test] = t;
    state.calls.set(op.operationId, s);
    if (!statusDocumented(op, status))
      v(`status ${status} is not documented for ${op.operationId} (documented: ${op.statuses.join(", ")})`);
    else {
      for (const h of op.headers[String(status)] ?? []) {
        const sent = res.getHeader(h.name);
        if (sent === undefined) {
          if (h.required) v(`${op.operationId} ${status} without the header ${h.name}, which the document declares required`);
        } else if (!headerValueValid(h.schema, String(sent)))
          v(`${op.operationId} ${status}: header ${h.name} "${String(sent)}" does not fit its schema ${JSON.stringify(h.schema)}`);
      }
      const type = res.getHeader("Content-Type");
      if (!mediaTypeDocumented(op, status, type === undefined ? undefined : String(type)))
        v(
          `Content-Type ${String(type)} is not documented for ${op.operationId} ${status} (documented: ${
            (op.media[String(status)] ?? []).join(", ") || "no body"
          })`,
        );
    }
  }
  if (status >= 400 && !isErrorEnvelope(body, status)) v(`a ${status} without the error envelope: ${JSON.stringify(body)?.slice(0, 200)}`);
  if (status === 500) {
    if (state.expected500 > 0 && isErrorEnvelope(body, 500)) state.expected500--;
    else v(`500 served: ${JSON.stringify(body)?.slice(0, 200)}${describeCause(res.locals?.error)}`);
  }
}

/** What the error middleware was handed for a 500 (the body never says): name, codes, message, stack top, causes. */
function describeCause(err: unknown, depth = 0): string {
  if (!err || typeof err !== "object" || depth > 3) return "";
  const e = err as { name?: string; code?: unknown; kind?: unknown; message?: string; stack?: string; cause?: unknown; meta?: unknown };
  const codes = [e.code, e.kind].filter((x) => x !== undefined).join("/");
  const at =
    depth === 0
      ? (e.stack ?? "")
          .split("\n")
          .map((l) => l.trim())
          .filter((l) => l.startsWith("at "))
          .slice(0, 3)
          .join(" < ")
      : "";
  return (
    `\n    ${depth ? "caused by" : "thrown"}: ${e.name ?? "?"}${codes ? ` [${codes}]` : ""}: ${String(e.message ?? "").slice(0, 300)}` +
    `${e.meta ? ` meta=${JSON.stringify(e.meta).slice(0, 300)}` : ""}${at ? `\n      ${at}` : ""}${describeCause(e.cause, depth + 1)}`
  );
}

/**
 * Observes every request of the servers of src/http/server.ts (requestObservers) and wraps
 * express.application.handle for apps served otherwise (and response.json, to keep the body), so
 * every app created afterwards in this process reports its responses (each request once).
 */
export function installRecorder(): void {
  if (state.installed) return;
  state.installed = true;
  const ex = express as unknown as {
    application: { handle: (req: Request, res: Response, cb?: unknown) => unknown };
    response: { json: (body: unknown) => unknown };
  };
  const json = ex.response.json;
  if (!(json as { __proofWrapped?: boolean }).__proofWrapped) {
    ex.response.json = Object.assign(
      function (this: RecordedResponse, b: unknown) {
        this.__proofBody = b;
        return json.call(this, b);
      },
      { __proofWrapped: true },
    );
  }
  const observe = (req: Request, res: Response) => {
    if (!(req as RecordedRequest).__proofRecorded) {
      (req as RecordedRequest).__proofRecorded = true;
      // the test that made the call, taken when the request arrives (it may close after the test)
      const test = state.currentTest ?? OUTSIDE_TEST;
      // "close" always comes (after "finish", or when the client hung up before the last byte was flushed)
      res.once("close", () => {
        try {
          record(req, res, (res as RecordedResponse).__proofBody, test);
        } catch (err) {
          state.violations.push({
            operationId: null,
            method: req.method,
            path: req.originalUrl,
            status: res.statusCode,
            problem: `recorder failed: ${(err as Error).message}`,
          });
        }
      });
    }
  };
  // apps served by src/http/server.ts (their /api/ requests do not pass Express's app.handle)
  requestObservers.push(observe);
  // apps served otherwise (supertest given an app)
  const handle = ex.application.handle;
  ex.application.handle = function (this: unknown, req: Request, res: Response, cb?: unknown) {
    observe(req, res);
    return handle.call(this, req, res, cb);
  };
}

/**
 * For a test that injects a failure on purpose (e.g. a trigger that raises inside a transaction):
 * the next `count` 500s with the error envelope are expected, not violations. A test that declares
 * one and never provokes it fails too (takeViolations reports it).
 */
export function expectServerError(count = 1): void {
  state.expected500 += count;
}

/** Violations seen since the last call (and forgets them). */
export function takeViolations(): Violation[] {
  if (state.expected500 > 0) {
    state.violations.push({
      operationId: null,
      method: "-",
      path: "-",
      status: 500,
      problem: `${state.expected500} expected 500 response(s) (expectServerError) never came`,
    });
    state.expected500 = 0;
  }
  return state.violations.splice(0);
}

export function takeCalls(): Record<string, CallStats> {
  const out = Object.fromEntries(state.calls);
  state.calls.clear();
  return out;
}

export function formatViolations(vs: Violation[]): string {
  return vs.map((x) => `  ${x.method} ${x.path} -> ${x.status}${x.operationId ? ` (${x.operationId})` : ""}: ${x.problem}`).join("\n");
}

/**
 * Marks the calling test file as a generic harness (matrices, fuzzing): its calls count for
 * coverage but not as an operation's own test in scripts/checks/check-conformance.ts.
 */
export function markGeneric(): void {
  globalThis.__proofGeneric = true;
}
