// Handler types, derived from the generated OpenAPI types: each handler receives its typed path
// parameters, query and body, and must return one of its documented success responses.
import type { Request, Response } from "express";
import type { Walk } from "../db/keyset.ts";
import type { operations } from "../../generated/api-types.ts";
import type { AreaOperations, OperationId } from "../../generated/registry.ts";

export type { AuthContext, ModuleName, PathParams, QueryParams, RequestBody, Role } from "../platform/use-case.ts";
import type { AuthContext, PathParams, QueryParams, RequestBody } from "../platform/use-case.ts";

type Op<K extends OperationId> = operations[K];

export type SuccessStatus<K extends OperationId> = Extract<keyof Op<K>["responses"], 200 | 201 | 202>;
type JsonOf<R> = R extends { content: { "application/json": infer B } } ? B : never;

/** A documented JSON success response, or `{ sent: true }` when the handler streamed a file itself. */
export type Reply<K extends OperationId> =
  | { [S in SuccessStatus<K>]: { status: S; body: JsonOf<Op<K>["responses"][S]> } }[SuccessStatus<K>]
  | { sent: true };

export type { UploadedFile } from "../platform/storage/files.ts";
import type { UploadedFile } from "../platform/storage/files.ts";

export interface HandlerContext<K extends OperationId> {
  operationId: K;
  params: PathParams<K>;
  query: QueryParams<K>;
  body: RequestBody<K>;
  /** Set for every non-public operation (a signed-in member of the active tenant). */
  auth: AuthContext;
  files: UploadedFile[];
  req: Request;
  res: Response;
  ip: string;
  requestId: string;
  /** The walk of a list declared `x-cursor` (src/http/cursor.ts); null when it pages by number, or for other operations. */
  walk: Walk | null;
}

export type Handler<K extends OperationId> = (ctx: HandlerContext<K>) => Promise<Reply<K>>;
export type AreaHandlers<A extends keyof AreaOperations> = { [K in AreaOperations[A]]: Handler<K> };
export type Handlers = { [K in OperationId]: Handler<K> };
