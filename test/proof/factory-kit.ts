// Building blocks of the proof harness's factories (test/proof/factories.ts and the areas'
// factories-<area>.ts): types, row snapshots, members, employees, leave set-up, generic
// collection factories. The areas' files import only this module (no import cycle).
import type { TenantSession, TestContext } from "../support/app.ts";
import { MEMBER_PASSWORD_HASH } from "../support/passwords.ts";
import { effective, operationAt, sample, sampleEmail, type RequestInput } from "./openapi.ts";
import { addDays, weekday } from "../../src/lib/dates.ts";
import { today } from "../support/clock.ts";
import { api as client, type CallArgs, type RequestBodyOf, type ResponseBody, type StatusOf } from "../support/api.ts";
import { type OperationId, operationTable } from "../../generated/registry.ts";

export type { RequestInput };
/** A member a resource belongs to; `agent` is there when they are signed in (not for generated direct reports). */
export type Holder = Pick<TenantSession, "userId" | "tenantId"> & { agent?: TenantSession["agent"] };

export interface FactoryContext {
  t: TestContext;
  /** owner session of the tenant the resource is created in */
  owner: TenantSession;
  /** the member the resource belongs to, for resources of one member (defaults to the owner) */
  holder: Holder;
  /** ids of the earlier path parameters of the path, by parameter name */
  parents: Record<string, string>;
}

export interface Created {
  id: string;
  /** The resource's state, compared before and after a foreign call ("unchanged afterwards"). */
  snapshot: () => Promise<unknown>;
}

export type Scope = "own" | { tenant: string };

export interface Factory {
  scope: Scope;
  create: (ctx: FactoryContext) => Promise<Created>;
}

/** The row of `table` with this id (as JSON), for snapshots. */
export function rowOf(t: TestContext, table: string, id: string, idColumn = "id"): () => Promise<unknown> {
  return async () => (await t.query(`SELECT to_jsonb(x) AS row FROM ${table} x WHERE ${idColumn} = $1`, [id]))[0]?.row ?? null;
}

/** A member of the owner's tenant, inserted directly (no sign-in): id of the user. */
export async function insertMember(t: TestContext, tenantId: string, role: string): Promise<string> {
  const [u] = await t.query<{ id: string }>(`INSERT INTO users (email, name, password_hash) VALUES ($1, $2, $3) RETURNING id`, [
    sampleEmail(role),
    `${role} factory`,
    MEMBER_PASSWORD_HASH,
  ]);
  await t.query(`INSERT INTO memberships (tenant_id, user_id, role) VALUES ($1, $2, $3)`, [tenantId, u.id, role]);
  return u.id;
}

// ───────────────────────────── helpers for the areas' factories ─────────────────────────────

let uniq = 0;
/** A counter for unique values (dates, years) of factories. */
export const nextUniq = () => uniq++;
/** A short unique token (codes with patterns such as ^[A-Za-z0-9_-]{1,20}$). */
export const token = (prefix = "P") =>
  `${prefix}${process.pid.toString(36)}${(uniq++).toString(36)}${Date.now().toString(36).slice(-3)}`.toUpperCase().slice(0, 20);

/** The `data` of operation `K`'s successful (2xx) answers. */
export type DataOf<K extends OperationId> =
  ResponseBody<K, Extract<StatusOf<K>, 200 | 201 | 202>> extends infer B ? (B extends { data: infer D } ? D : undefined) : never;

/** Calls operation `K` as `agent` through the typed client; returns `data` of a 2xx, else throws with the answer. */
export async function call<K extends OperationId>(agent: TenantSession["agent"], id: K, ...request: CallArgs<K>): Promise<DataOf<K>> {
  const res = await client(agent).op(id, ...request);
  if (res.status >= 300) throw new Error(`${id} answered ${res.status} ${JSON.stringify(res.body)}`);
  return res.body?.data;
}

/** POSTs `body` to a collection `path` (a factory of any collection, by path); the created record's id. */
export async function createIn(agent: TenantSession["agent"], path: string, body: unknown): Promise<{ id: string }> {
  const res = await agent.post(path).send(body as object);
  if (res.status >= 300) throw new Error(`POST ${path} answered ${res.status} ${JSON.stringify(res.body)}`);
  if (typeof res.body?.data?.id !== "string") throw new Error(`POST ${path} answered no data.id: ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id };
}

/** The document's valid sample body of an operation, with unique names and codes, and overrides. */
export function bodyFor(method: string, path: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const op = operationAt(method, path);
  if (!op?.body) throw new Error(`no ${method.toUpperCase()} ${path} with a body in the document`);
  const b = { ...(sample(op.body.schema) as Record<string, unknown>) };
  const props = effective(op.body.schema).properties ?? {};
  if ("name" in props) b.name = `Proof ${token("")}`;
  if ("code" in props) b.code = token("P");
  if ("title" in props && !overrides.title) b.title = `Proof ${token("")}`;
  return { ...b, ...overrides };
}

/**
 * bodyFor of operation `K`, typed as its request body: a sample of the body's schema (valid by
 * construction, what examples.test.ts and the fuzzer check) with unique names and codes, and overrides.
 */
export function sampleBody<K extends OperationId>(id: K, overrides: Partial<RequestBodyOf<K>> = {}): RequestBodyOf<K> {
  const { method, path } = operationTable[id];
  const body: unknown = bodyFor(method, path, overrides as Record<string, unknown>);
  return body as RequestBodyOf<K>;
}

/** Snapshot through the operation that reads the resource (as the tenant's owner), else the row. */
export function snapshotOf(t: TestContext, owner: TenantSession, path: string, table: string, id: string): () => Promise<unknown> {
  if (operationAt("get", path.replace(/\/[^/]+$/, "/{x}"))) return async () => (await owner.agent.get(path)).body;
  return rowOf(t, table, id);
}

export const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
/** The tenant's today (the server's clock, src/lib/clock.ts) plus `n` days. */
export const fromToday = (n: number) => addDays(today(), n);
export const DAY = 86_400_000;
const employees = new Map<string, string>(); // tenant:user -> employee id
const dayCursor = new Map<string, number>(); // employee -> next offset
const memo = new Map<string, Promise<unknown>>();
export const once = <T>(key: string, fn: () => Promise<T>): Promise<T> => {
  if (!memo.has(key))
    memo.set(
      key,
      fn().catch((e) => {
        memo.delete(key);
        return Promise.reject(e);
      }),
    );
  return memo.get(key) as Promise<T>;
};

/** The live employee record linked to `holder` in the tenant (created and linked when missing). */
export async function employeeOf(ctx: Omit<FactoryContext, "parents">, holder: Holder = ctx.holder, reportsTo?: string): Promise<string> {
  const key = `${holder.tenantId}:${holder.userId}`;
  const known =
    employees.get(key) ??
    (
      await ctx.t.query<{ employee_id: string | null }>(`SELECT employee_id FROM memberships WHERE tenant_id = $1 AND user_id = $2`, [
        holder.tenantId,
        holder.userId,
      ])
    )[0]?.employee_id;
  if (
    known &&
    (await ctx.t.query(`SELECT 1 FROM employees WHERE id = $1 AND deleted_at IS NULL AND status IN ('active', 'inactive')`, [known])).length
  ) {
    employees.set(key, known);
    return known;
  }
  const e = await call(ctx.owner.agent, "createEmployee", {
    body: sampleBody("createEmployee", {
      email: sampleEmail("employee"),
      joining_date: fromToday(-400),
      ...(reportsTo ? { reports_to: reportsTo } : {}),
    }),
  });
  await ctx.t.query(`UPDATE memberships SET employee_id = $3 WHERE tenant_id = $1 AND user_id = $2`, [
    holder.tenantId,
    holder.userId,
    e.id,
  ]);
  employees.set(key, e.id);
  return e.id;
}

/** A new member whose employee record reports to `manager`'s: for operations nobody may do on their own record (approvals). */
export async function reportOf(ctx: Omit<FactoryContext, "parents">, manager: Holder): Promise<Holder> {
  const managerEmployee = await employeeOf(ctx, manager);
  const userId = await insertMember(ctx.t, manager.tenantId, "employee");
  const holder = { userId, tenantId: manager.tenantId };
  await employeeOf(ctx, holder, managerEmployee);
  return holder;
}

/** The tenant's leave set-up: a current period around today, a plain, an encashable and a compensatory type. */
export function leaveBasics(ctx: Omit<FactoryContext, "parents">) {
  return once(`leave:${ctx.owner.tenantId}`, async () => {
    const a = ctx.owner.agent;
    const current = (await call(a, "listLeavePeriods", { query: { limit: 100 } })).find((p) => p.is_current);
    const period =
      current ??
      (await call(a, "createLeavePeriod", {
        body: {
          name: `Proof ${token("")}`,
          start_date: fromToday(-60),
          end_date: fromToday(300),
          is_current: true,
        },
      }));
    const type = await call(a, "createLeaveType", { body: { name: `Proof ${token("")}`, code: token("L"), min_notice_days: 0 } });
    const encashable = await call(a, "createLeaveType", {
      body: {
        name: `Proof ${token("")}`,
        code: token("E"),
        encashable: true,
        min_notice_days: 0,
      },
    });
    const compOff = await call(a, "createLeaveType", {
      body: {
        name: `Proof ${token("")}`,
        code: token("C"),
        is_compensatory: true,
        comp_off_validity_days: 90,
      },
    });
    return { period, type, encashable, compOff };
  });
}

/** Days of a leave type for the employee, in the harness's period (whichever period is current by then). */
export function allocate(ctx: Omit<FactoryContext, "parents">, employeeId: string, leaveTypeId: string, periodId: string) {
  return once(`alloc:${employeeId}:${leaveTypeId}`, () =>
    call(ctx.owner.agent, "createLeaveAllocations", {
      body: {
        employee_id: employeeId,
        leave_type_id: leaveTypeId,
        period_id: periodId,
        days: "60",
      },
    }),
  );
}

/** A date of the employee's that no earlier request used: future working days, or past weekly offs / working days. */
export function dayFor(employeeId: string, kind: "future-workday" | "past-off" | "past-workday"): string {
  const key = `${employeeId}:${kind}`;
  let n = dayCursor.get(key) ?? 0;
  for (;;) {
    const d = fromToday(kind === "future-workday" ? 10 + n : -(3 + n));
    n++;
    const off = weekday(d) === 0 || weekday(d) === 6;
    if (kind === "past-off" ? off : !off) {
      dayCursor.set(key, n);
      return d;
    }
  }
}

/**
 * Files a dated request for an employee on the next free day of `kind`: other tests of the same
 * file (a matrix's create operation, the document's example dates) may already hold a day, which
 * the API rightly answers with 409 - then the next day is tried.
 */
export async function onFreeDay<T>(employeeId: string, kind: Parameters<typeof dayFor>[1], file: (day: string) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await file(dayFor(employeeId, kind));
    } catch (err) {
      if (attempt >= 10 || !/ answered 409 /.test(String((err as Error).message))) throw err;
    }
  }
}

/** Creates a resource through its collection's POST (as the owner) and snapshots it through its GET. */
export function collection(
  scope: Scope,
  path: string,
  table: string,
  body: (ctx: FactoryContext) => Promise<Record<string, unknown>> | Record<string, unknown> = () => bodyFor("post", path),
): Factory {
  return {
    scope,
    async create(ctx) {
      const data = await createIn(ctx.owner.agent, path, await body(ctx));
      return { id: data.id, snapshot: snapshotOf(ctx.t, ctx.owner, `${path}/${data.id}`, table, data.id) };
    },
  };
}

export const configuration = (what: string) => ({ tenant: `${what}: company configuration, readable by every member` });

export async function newAsset(ctx: Omit<FactoryContext, "parents">) {
  const category = await once(`asset-category:${ctx.owner.tenantId}`, () =>
    call(ctx.owner.agent, "createAssetCategory", { body: { name: `Proof ${token("")}` } }),
  );
  return call(ctx.owner.agent, "createAsset", {
    body: sampleBody("createAsset", { category_id: category.id, asset_tag: undefined, serial_number: undefined }),
  });
}
