// Handler types, derived from the generated OpenAPI types: each handler receives its typed path
// parameters, query and body, and must return one of its documented success responses.
import type { Request, Response } from "express";
import type { Walk } from "../db/keyset.ts";
import type { operations } from "../../generated/api-types.ts";
import type { AreaOperations, OperationId } from "../../generated/registry.ts";

export type Role = "owner" | "admin" | "hr" | "manager" | "employee";
export type ModuleName = "payroll" | "recruitment" | "helpdesk" | "assets";

export interface AuthContext {
  userId: string;
  email: string;
  name: string;
  tenantId: string;
  role: Role;
  /** Employee record linked to the user in this tenant ("me" of self-service routes). */
  employeeId: string | null;
  /**
   * Every employee record that is the caller's own: the records their membership is or ever was
   * linked to in this company (the own-record rule decides by the person, not by the current link;
   * see isOwnRecord of src/modules/shared/access.ts). Absent = only `employeeId`.
   */
  ownEmployeeIds?: readonly string[];
  modules: ModuleName[];
  /** Set when the caller is an API credential (issue 31): its id and name (the audit names it). */
  credential?: { id: string; name: string; scopes?: readonly string[] };
}

type Op<K extends OperationId> = operations[K];
type Clean<T> = [T] extends [undefined] ? Record<string, never> : [T] extends [never] ? Record<string, never> : NonNullable<T>;

export type PathParams<K extends OperationId> = Op<K> extends { parameters: { path?: infer P } } ? Clean<P> : Record<string, never>;
export type QueryParams<K extends OperationId> = Op<K> extends { parameters: { query?: infer Q } } ? Clean<Q> : Record<string, never>;
export type RequestBody<K extends OperationId> =
  Op<K> extends { requestBody?: { content: { "application/json": infer B } } }
    ? B
    : Op<K> extends { requestBody?: { content: { "multipart/form-data": infer B } } }
      ? Omit<B, "file">
      : Op<K> extends { requestBody?: { content: { "application/x-www-form-urlencoded": infer B } } }
        ? B
        : undefined;

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
