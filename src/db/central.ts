// What areas may read of the central tables (tenants, users) and across tenants: a narrow API in place
// of `systemDb` (src/db/client.ts), which areas do not import. Never a password hash.
import type { Prisma } from "../../generated/prisma/client.ts";
import { getHealthPool, systemDb } from "./client.ts";
import { readMigrations } from "./migrations.ts";
import { currentTenantId, tenantScopedModels } from "./tenancy.ts";

/** The active tenant's row (the fields `select` names). */
export async function activeTenant<S extends Prisma.TenantSelect>(select: S): Promise<Prisma.TenantGetPayload<{ select: S }>> {
  return systemDb.tenant.findUniqueOrThrow({ where: { id: currentTenantId() }, select });
}

/** A client that can update a tenant row: the system client, or a transaction of tenantTx (ScopedTx). */
type TenantWriter = { tenant: { update(args: { where: { id: string }; data: Prisma.TenantUpdateInput }): PromiseLike<unknown> } };

/** Updates the active tenant's row (company settings, modules), in the caller's transaction when given. */
export async function updateActiveTenant(data: Prisma.TenantUpdateInput, client: TenantWriter = systemDb): Promise<void> {
  await client.tenant.update({ where: { id: currentTenantId() }, data });
}

export interface UserRef {
  id: string;
  name: string;
  email: string;
}

/** Users by id (ids may repeat or be empty). */
export async function usersByIds(ids: readonly string[]): Promise<UserRef[]> {
  const unique = [...new Set(ids)];
  if (!unique.length) return [];
  return systemDb.user.findMany({ where: { id: { in: unique } }, select: { id: true, name: true, email: true } });
}

/** The user with this e-mail address (case-insensitive column), if any. */
export async function userByEmail(email: string): Promise<UserRef | null> {
  return systemDb.user.findUnique({ where: { email }, select: { id: true, name: true, email: true } });
}

type TenantModel = Uncapitalize<Prisma.ModelName>;

/** Tenants with a row of `model` matching `where`, with each one's first match (jobs, public links); work inside withTenant. */
export async function tenantsWith(model: TenantModel, where: Record<string, unknown>): Promise<{ tenant_id: string; id: string }[]> {
  const name = model.charAt(0).toUpperCase() + model.slice(1);
  if (!tenantScopedModels.has(name)) throw new Error(`tenantsWith: ${model} is not a tenant-owned model`);
  const delegate = (systemDb as unknown as Record<string, { findMany(args: unknown): Promise<{ tenant_id: string; id: string }[]> }>)[
    model
  ];
  return delegate.findMany({ where, distinct: ["tenant_id"], select: { tenant_id: true, id: true }, orderBy: [{ tenant_id: "asc" }] });
}

/** A page of every tenant's id and time zone, in id order after `after` (hourly jobs acting at each company's midnight). */
export async function tenantPage(after: string | undefined, take = 500): Promise<{ id: string; timezone: string }[]> {
  return systemDb.tenant.findMany({
    select: { id: true, timezone: true },
    orderBy: { id: "asc" },
    take,
    ...(after ? { cursor: { id: after }, skip: 1 } : {}),
  });
}

/**
 * SELECT 1 with a short deadline: a stopped database must not make health hang. On connections of
 * its own (getHealthPool), so it does not wait behind an overload for one of the main pool.
 */
export async function databaseUp(timeoutMs = 2000): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      getHealthPool().query("SELECT 1"),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error("timeout")), timeoutMs);
      }),
    ]);
    return true;
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

let migrationNames: Promise<string[]> | undefined;

/**
 * The migrations of this build (prisma/migrations) not applied to the database, read on the health
 * check's own connections (readiness: a process started before its migrations ran is not ready).
 */
export async function pendingMigrations(): Promise<string[]> {
  migrationNames ??= readMigrations().then((files) => files.map((f) => f.name));
  const names = await migrationNames;
  const { rows } = await getHealthPool().query<{ migration_name: string }>(
    `SELECT migration_name FROM "_prisma_migrations" WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
  );
  const applied = new Set(rows.map((r) => r.migration_name));
  return names.filter((n) => !applied.has(n));
}

/**
 * Ends the sessions of `userId` whose active company is the active tenant (their access there ended:
 * a completed exit), in the caller's transaction when given. Sessions in their other companies stay.
 */
export async function endSessionsInActiveTenant(
  userId: string,
  client: { $executeRaw: typeof systemDb.$executeRaw } = systemDb,
): Promise<number> {
  return client.$executeRaw`DELETE FROM "session" WHERE sess->>'userId' = ${userId} AND sess->>'tenantId' = ${currentTenantId()}`;
}
