// The types use cases are written against, below HTTP: the caller (`AuthContext`), an operation's
// typed query and body (derived from the generated OpenAPI types), and list paging (`PageQuery`,
// `Page`, `Listing`). src/http/types.ts and src/http/envelope.ts build the handler's side on them.
import type { operations } from "../../generated/api-types.ts";
import { type OperationId, type OperationMeta, operationTable } from "../../generated/registry.ts";
import type { Walk, WalkKey } from "../db/keyset.ts";

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
  /** Set when the caller is an API credential: its id and name (the audit names it), and its scopes. */
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

export type { UploadedFile } from "./storage/files.ts";

export interface PageQuery {
  page?: number;
  limit?: number;
}

export interface Page {
  page: number;
  limit: number;
  skip: number;
}

export function pageOf(q: PageQuery): Page {
  const page = q.page ?? 1;
  const limit = q.limit ?? 20;
  return { page, limit, skip: (page - 1) * limit };
}

/** What an `x-cursor` list use case answers: a page by number with its total, or a page of a walk with its last key. */
export type Listing<T> = PageListing<T> | { rows: T[]; walk: Walk; last: WalkKey | null };

/** A page by number of a list: its rows (JSON-ready), the page asked for and the total count. */
export interface PageListing<T> {
  rows: T[];
  page: Page;
  total: number;
}

/**
 * Whether the caller could call `operationId` (its x-roles and x-module), for a use case that shows
 * data read through another operation - the same rule, never a copy of its role list.
 */
export function mayCall(auth: Pick<AuthContext, "role" | "modules">, operationId: OperationId): boolean {
  const meta: OperationMeta = operationTable[operationId];
  return meta.roles.includes(auth.role) && (!meta.module || auth.modules.includes(meta.module));
}
