// A typed test client over the generated types: an operation called by its
// operationId, with its path parameters, query and JSON body typed from generated/api-types.ts, and
// the response's body typed for the status the test expects. A change of the contract (a renamed
// field, a new required property, a status no longer declared) then breaks the tests that use it at
// compile time (`make typecheck`), not only when they run.
//
//   const created = await api(hr.agent).op("createHelpdeskTicket", { body: { title, description } }).expect(201);
//   created.body.data.ticket_number; // typed: components["schemas"]["HelpdeskTicket"]
//   const page = await api(hr.agent).op("listHelpdeskTickets", { query: { status: "open" } }).expect(200);
//   expectError(await api(hr.agent).op("getHelpdeskTicket", { params: { id } }), 404, "not_found");
//
// The request is an ordinary supertest request (the agent's cookies, the response recorder and its
// validation against the document all apply); a test of malformed input keeps writing the request
// by hand, since the types would refuse it.
import type supertest from "supertest";
import type { operations } from "../../generated/api-types.ts";
import { type OperationId, operationTable } from "../../generated/registry.ts";

type Op<K extends OperationId> = operations[K];
type Parameters<K extends OperationId> = Op<K> extends { parameters: infer P } ? P : never;
type PathOf<K extends OperationId> = NonNullable<Parameters<K> extends { path?: infer P } ? P : never>;
type QueryOf<K extends OperationId> = NonNullable<Parameters<K> extends { query?: infer Q } ? Q : never>;
/** The header parameters the document declares for `K` (If-Match, If-None-Match, Idempotency-Key, ...). */
type HeaderOf<K extends OperationId> = NonNullable<Parameters<K> extends { header?: infer H } ? H : never>;
type JsonOf<R> = R extends { content: { "application/json": infer J } } ? J : undefined;
type BodyOf<K extends OperationId> = Op<K> extends { requestBody?: infer R } ? JsonOf<NonNullable<R>> : never;
/** The JSON body operation `K` takes. */
export type RequestBodyOf<K extends OperationId> = BodyOf<K>;
type BodyRequired<K extends OperationId> = Op<K> extends { requestBody: object } ? true : false;

/** What a call of operation `K` takes: its path parameters, query, JSON body, its declared header parameters and any other header. */
export type RequestOf<K extends OperationId> = ([PathOf<K>] extends [never] ? { params?: never } : { params: PathOf<K> }) &
  ([QueryOf<K>] extends [never] ? { query?: never } : { query?: QueryOf<K> }) &
  ([BodyOf<K>] extends [never | undefined]
    ? { body?: never }
    : BodyRequired<K> extends true
      ? { body: BodyOf<K> }
      : { body?: BodyOf<K> }) & { headers?: ([HeaderOf<K>] extends [never] ? unknown : HeaderOf<K>) & Record<string, string> };

type Responses<K extends OperationId> = Op<K> extends { responses: infer R } ? R : never;
/** The statuses the document declares for operation `K`. */
export type StatusOf<K extends OperationId> = Extract<keyof Responses<K>, number>;
/** The JSON body operation `K` answers with status `S`. */
export type ResponseBody<K extends OperationId, S extends StatusOf<K>> = JsonOf<Responses<K>[S]>;

/** A response of operation `K` with status `S`: supertest's response with the body typed. */
export type ApiResponse<K extends OperationId, S extends StatusOf<K>> = Omit<supertest.Response, "body" | "status"> & {
  status: S;
  body: ResponseBody<K, S>;
};

/** One call: awaited as it is (a supertest response), or through expect(status) for a typed body. */
export interface OperationCall<K extends OperationId> extends PromiseLike<supertest.Response> {
  /** The response, which must have `status` (else the call throws, showing the body); its body typed for that status. */
  expect<S extends StatusOf<K>>(status: S): Promise<ApiResponse<K, S>>;
}

/** The arguments after the operationId: its request, optional when nothing in it is required. */
export type CallArgs<K extends OperationId> = object extends RequestOf<K> ? [request?: RequestOf<K>] : [request: RequestOf<K>];

/** The path of operation `K` with its parameters put in (each percent-encoded). */
export function operationPath<K extends OperationId>(id: K, params: Record<string, string | number> = {}): string {
  return operationTable[id].path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    if (params[name] === undefined) throw new Error(`${id}: path parameter ${name} missing`);
    return encodeURIComponent(String(params[name]));
  });
}

/** The typed client of an agent (a signed-in TenantSession's `agent`, or `t.request()` for public operations). */
export function api(agent: supertest.Agent) {
  return {
    op<K extends OperationId>(id: K, ...[request]: CallArgs<K>): OperationCall<K> {
      const r = (request ?? {}) as { params?: Record<string, string>; query?: object; body?: unknown; headers?: Record<string, string> };
      const meta = operationTable[id];
      let test = agent[meta.method](operationPath(id, r.params));
      if (r.query) test = test.query(r.query);
      for (const [name, value] of Object.entries(r.headers ?? {})) test = test.set(name, value);
      if (r.body !== undefined) test = test.send(r.body as object);
      const done: Promise<supertest.Response> = test.then((res) => res);
      return {
        // biome-ignore lint/suspicious/noThenProperty: the call is awaited as supertest's request is
        then: (onFulfilled, onRejected) => done.then(onFulfilled, onRejected),
        async expect<S extends StatusOf<K>>(status: S) {
          const res = await done;
          if (res.status !== status) throw new Error(`${id}: expected ${status}, got ${res.status} ${JSON.stringify(res.body)}`);
          return res as unknown as ApiResponse<K, S>;
        },
      };
    },
  };
}
