// Tenancy fails closed: `db` adds the active tenant to every query of every tenant-owned model (any with
// a `tenant_id`, derived from the generated client). No tenant, or an operation it cannot scope, throws;
// another tenant's id behaves as a missing one.
import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import { Prisma, type PrismaClient } from "../../generated/prisma/client.ts";
import { getBaseClient } from "./client.ts";
import { literalPatterns } from "./like.ts";

export interface TenantContext {
  tenantId: string;
  /** The transaction of `sharedTenantTx`, which every `tenantTx` inside joins. */
  shared?: ScopedTx;
}
export const tenantStore = new AsyncLocalStorage<TenantContext>();

export class TenantScopeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TenantScopeError";
  }
}

/** Models with a `tenant_id` column, read from the generated client's scalar-field enums. */
export const tenantScopedModels: ReadonlySet<string> = new Set(
  Object.values(Prisma.ModelName).filter((model) => {
    const fields = (Prisma as unknown as Record<string, Record<string, string> | undefined>)[`${model}ScalarFieldEnum`];
    return Boolean(fields && "tenant_id" in fields);
  }),
);

export function currentTenantId(): string {
  const ctx = tenantStore.getStore();
  if (!ctx?.tenantId) throw new TenantScopeError("tenant-scoped query without an active tenant");
  return ctx.tenantId;
}

/** The key of a tenant-owned row: its primary key (tenant_id, id). */
export type ById = { tenant_id_id: { tenant_id: string; id: string } };

/** The where-unique of a tenant-owned row by id: every unique key leads with tenant_id (docs/scaling.md), so `id` alone is none. */
export function byId(id: string): ById {
  return { tenant_id_id: { tenant_id: currentTenantId(), id } };
}

/** Runs fn with `tenantId` as the active tenant (queries must be awaited inside fn). */
export function withTenant<T>(tenantId: string, fn: () => PromiseLike<T>): Promise<T> {
  // Prisma queries are lazy thenables: await inside the context so they run scoped.
  return tenantStore.run({ tenantId }, async () => await fn());
}

const preparedNames = new Map<string, string>();
/** A server-side prepared statement's name for `text` (the same text, the same name; src/db/sql.ts readPrepared). */
export function statementName(text: string): string {
  let name = preparedNames.get(text);
  if (!name) {
    name = `hrms_${createHash("sha1").update(text).digest("hex").slice(0, 24)}`;
    if (preparedNames.size < 1000) preparedNames.set(text, name);
  }
  return name;
}

type Args = Record<string, any>;
const WHERE_OPS = new Set([
  "findUnique",
  "findUniqueOrThrow",
  "findFirst",
  "findFirstOrThrow",
  "findMany",
  "count",
  "aggregate",
  "groupBy",
  "update",
  "updateMany",
  "updateManyAndReturn",
  "delete",
  "deleteMany",
]);
const CREATE_OPS = new Set(["create"]);
const CREATE_MANY_OPS = new Set(["createMany", "createManyAndReturn"]);

/** Returns the arguments with the tenant applied; throws for operations it cannot scope. */
export function scopeArgs(model: string, operation: string, args: Args | undefined, tenantId: string): Args {
  const a: Args = { ...(args ?? {}) };
  if (WHERE_OPS.has(operation)) {
    a.where = { ...(a.where ?? {}), tenant_id: tenantId };
  } else if (CREATE_OPS.has(operation)) {
    a.data = { ...(a.data ?? {}), tenant_id: tenantId };
  } else if (CREATE_MANY_OPS.has(operation)) {
    const rows = Array.isArray(a.data) ? a.data : [a.data];
    a.data = rows.map((r: Args) => ({ ...r, tenant_id: tenantId }));
  } else if (operation === "upsert") {
    a.where = { ...(a.where ?? {}), tenant_id: tenantId };
    a.create = { ...(a.create ?? {}), tenant_id: tenantId };
  } else {
    throw new TenantScopeError(`operation ${operation} on tenant-owned model ${model} cannot be tenant-scoped`);
  }
  return a;
}

const tenancyExtension = Prisma.defineExtension({
  name: "tenancy",
  query: {
    $allModels: {
      $allOperations({ model, operation, args, query }) {
        // string filters match their text literally (LIKE wildcards escaped, src/db/like.ts)
        const literal = literalPatterns(args);
        if (!tenantScopedModels.has(model)) return query(literal);
        return query(scopeArgs(model, operation, literal as Args, currentTenantId()) as typeof args);
      },
    },
  },
});

function makeScoped(base: PrismaClient) {
  return base.$extends(tenancyExtension);
}
export type ScopedClient = ReturnType<typeof makeScoped>;
export type ScopedTx = Parameters<Parameters<ScopedClient["$transaction"]>[0]>[0];

// one scoped client per base client (the primary's, and the replica's: src/db/replica.ts)
const scopedOf = new WeakMap<PrismaClient, ScopedClient>();
function scopedClient(): ScopedClient {
  const base = getBaseClient();
  let scoped = scopedOf.get(base);
  if (!scoped) {
    scoped = makeScoped(base);
    scopedOf.set(base, scoped);
  }
  return scoped;
}

/** The tenant-scoped client. Every query on a tenant-owned model is filtered by the active tenant. */
export const db = new Proxy({} as ScopedClient, {
  get: (_t, prop) => Reflect.get(scopedClient(), prop),
});

/**
 * Interactive transaction on the tenant-scoped client, the tenant re-entered inside. Its waits are the
 * client's (src/db/client.ts); a bulk operation's longer `timeout` also sets its lock wait (SET LOCAL).
 */
export function tenantTx<T>(
  fn: (tx: ScopedTx) => PromiseLike<T>,
  opts?: { isolationLevel?: Prisma.TransactionIsolationLevel; timeout?: number },
): Promise<T> {
  const ctx = tenantStore.getStore();
  if (!ctx) throw new TenantScopeError("tenant transaction without an active tenant");
  const shared = ctx.shared;
  if (shared) return Promise.resolve().then(() => fn(shared));
  const timeout = opts?.timeout;
  return scopedClient().$transaction(
    (tx) =>
      tenantStore.run(ctx, async () => {
        if (timeout) await tx.$executeRawUnsafe(`SET LOCAL lock_timeout = ${Math.floor(timeout)}`);
        return await fn(tx);
      }),
    { timeout, isolationLevel: opts?.isolationLevel },
  );
}

/**
 * One transaction every `tenantTx` inside `fn` joins; with `savepoint` a failing step is undone alone
 * (bulk imports). Reads through `db` inside still run outside the transaction.
 */
export function sharedTenantTx<T>(
  fn: (tx: ScopedTx) => PromiseLike<T>,
  opts?: { isolationLevel?: Prisma.TransactionIsolationLevel; timeout?: number },
): Promise<T> {
  return tenantTx((tx) => {
    const ctx = tenantStore.getStore()!;
    return tenantStore.run({ ...ctx, shared: tx }, async () => await fn(tx));
  }, opts);
}

/** Runs `fn` under a savepoint of `tx`: undone alone (and its error rethrown) when it throws. */
export async function savepoint<T>(tx: ScopedTx, fn: () => PromiseLike<T>): Promise<T> {
  await tx.$executeRawUnsafe("SAVEPOINT step");
  try {
    const out = await fn();
    await tx.$executeRawUnsafe("RELEASE SAVEPOINT step");
    return out;
  } catch (err) {
    await tx.$executeRawUnsafe("ROLLBACK TO SAVEPOINT step");
    throw err;
  }
}
