// The tenant-scoped client: derived model list, fail-closed without a tenant, scoping of reads,
// writes and transactions, and isolation between two tenants through the API.
import { describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import pg from "pg";
import { getPool, systemDb } from "../../src/db/client.ts";
import { lock, tenantLock, tryLock } from "../../src/db/primitives.ts";
import { execute, lockRow, lockRows, query, read, readGenericPlan, readPrepared, type Sql, sql, tenant } from "../../src/db/sql.ts";
import { byId, db, scopeArgs, statementName, tenantScopedModels, tenantTx, TenantScopeError, withTenant } from "../../src/db/tenancy.ts";
import { expectError, signupTenant, useTestApp } from "../support/app.ts";

const t = useTestApp();

describe("tenant-scoped client", () => {
  it("derives the tenant-owned models from the schema", () => {
    for (const m of ["Membership", "Invitation", "AuditLog", "Notification", "StoredFile", "Employee", "EmployeeDocument"])
      expect(tenantScopedModels.has(m)).toBe(true);
    for (const m of ["User", "Tenant", "Session", "EmailOutbox", "PasswordResetToken"]) expect(tenantScopedModels.has(m)).toBe(false);
  });

  it("throws for a tenant-scoped query without an active tenant", async () => {
    await expect(db.notification.findMany()).rejects.toThrow(TenantScopeError);
    await expect(db.auditLog.count()).rejects.toThrow(/without an active tenant/);
    expect(() => tenantTx(async () => null)).toThrow(TenantScopeError);
  });

  it("throws for an operation it cannot scope", () => {
    expect(() => scopeArgs("Notification", "aggregateRaw", {}, "t")).toThrow(TenantScopeError);
    expect(() => scopeArgs("Notification", "findRaw", {}, "t")).toThrow(TenantScopeError);
  });

  it("scopes reads, writes and transactions to the active tenant", async () => {
    const a = await signupTenant(t);
    const b = await signupTenant(t);
    const n = await withTenant(a.tenantId, () => db.notification.create({ data: { user_id: a.userId, kind: "test", title: "for A" } }));
    expect(n.tenant_id).toBe(a.tenantId);
    // Tenant B cannot read, update or delete A's row, even by id.
    await withTenant(b.tenantId, async () => {
      expect(await db.notification.findUnique({ where: byId(n.id) })).toBeNull();
      // ...even by A's full primary key: the extension still adds B as the tenant
      const aKey = { tenant_id_id: { tenant_id: a.tenantId, id: n.id } };
      expect(await db.notification.findUnique({ where: aKey })).toBeNull();
      await expect(db.notification.update({ where: aKey, data: { title: "hacked" } })).rejects.toMatchObject({ code: "P2025" });
      expect(await db.notification.findMany({ where: { id: n.id } })).toEqual([]);
      expect((await db.notification.updateMany({ where: { id: n.id }, data: { title: "hacked" } })).count).toBe(0);
      await expect(db.notification.update({ where: byId(n.id), data: { title: "hacked" } })).rejects.toMatchObject({ code: "P2025" });
      expect((await db.notification.deleteMany({ where: { id: n.id } })).count).toBe(0);
      // ...also inside an interactive transaction
      const inTx = await tenantTx(async (tx) => [await tx.notification.findFirst({ where: { id: n.id } }), await tx.notification.count()]);
      expect(inTx).toEqual([null, 0]);
      // an explicit tenant_id in the filter cannot widen the scope
      expect(
        await db.notification.findFirst({
          where: { tenant_id: a.tenantId } as any /* invalid on purpose: the scoped client takes no tenant_id */,
        }),
      ).toBeNull();
      // a create with a foreign tenant_id is overridden with the active tenant
      const own = await db.notification.create({
        data: { tenant_id: a.tenantId, user_id: b.userId, kind: "x", title: "mine" } as any /* invalid on purpose: a foreign tenant_id */,
      });
      expect(own.tenant_id).toBe(b.tenantId);
    });
    const rows = await t.query("SELECT title FROM notifications WHERE id = $1", [n.id]);
    expect(rows).toEqual([{ title: "for A" }]);
    // In A's transaction the row is visible.
    const seen = await withTenant(a.tenantId, () => tenantTx((tx) => tx.notification.findFirst({ where: { id: n.id } })));
    expect(seen?.id).toBe(n.id);
  });

  it("another tenant's notification id is a 404 through the API", async () => {
    const a = await signupTenant(t);
    const b = await signupTenant(t);
    const [n] = await t.query<{ id: string }>(
      "INSERT INTO notifications (tenant_id, user_id, kind, title) VALUES ($1, $2, 'leave.submitted', 'hello') RETURNING id",
      [a.tenantId, a.userId],
    );
    expectError(await api(b.agent).op("markNotificationRead", { params: { notificationId: n.id } }), 404, "not_found");
    const list = await api(b.agent).op("listNotifications").expect(200);
    expect(list.body.data).toEqual([]);
    const own = await api(a.agent)
      .op("markNotificationRead", { params: { notificationId: n.id } })
      .expect(200);
    expect(own.body.data.read_at).not.toBeNull();
  });
});

describe("raw SQL through src/db/sql.ts cannot forget the tenant", () => {
  it("binds the active tenant to the placeholder, and refuses a statement without it or without an active tenant", async () => {
    const a = await signupTenant(t);
    const b = await signupTenant(t);
    const count = sql`SELECT count(*)::int AS n FROM memberships WHERE tenant_id = ${tenant}::uuid`;
    for (const run of [
      () => query(count),
      () => execute(count),
      () => read(count),
      () => readPrepared(count),
      () => readGenericPlan(count),
    ])
      await expect(run()).rejects.toThrow(TenantScopeError);
    // a statement naming a tenant id of its own instead of the placeholder is refused under any tenant
    const named = sql`SELECT count(*)::int AS n FROM memberships WHERE tenant_id = ${a.tenantId}::uuid`;
    for (const run of [
      () => query(named),
      () => execute(named),
      () => read(named),
      () => readPrepared(named),
      () => readGenericPlan(named),
    ])
      await expect(withTenant<unknown>(a.tenantId, run)).rejects.toThrow(/must filter on the active tenant/);
    // the same statement answers each tenant with its own rows, however it runs
    const created = await withTenant(a.tenantId, () => db.membership.count());
    expect(created).toBeGreaterThan(0);
    for (const run of [
      () => query<{ n: number }>(count),
      () => read<{ n: number }>(count),
      () => readPrepared<{ n: number }>(count),
      () => readGenericPlan<{ n: number }>(count),
    ]) {
      expect(await withTenant(a.tenantId, run)).toEqual([{ n: created }]);
      expect(await withTenant(b.tenantId, run)).toEqual([{ n: await withTenant(b.tenantId, () => db.membership.count()) }]);
    }
    // fragments compose, and the placeholder may sit in a fragment
    const scoped = sql`tenant_id = ${tenant}::uuid`;
    expect(
      await withTenant(a.tenantId, () => query<{ n: number }>(sql`SELECT count(*)::int AS n FROM memberships WHERE ${scoped}`)),
    ).toEqual([{ n: created }]);
  });

  it("one template composed with different fragments runs each statement as written (prepared texts made once per shape)", async () => {
    const a = await signupTenant(t);
    const one = sql`1 AS n`;
    const two = sql`2 AS n`;
    const pick = (column: Sql) => sql`SELECT ${column}, ${"x"}::text AS v FROM memberships WHERE tenant_id = ${tenant}::uuid LIMIT 1`;
    for (const run of [readPrepared, readGenericPlan])
      for (const [column, n] of [
        [one, 1],
        [two, 2],
        [one, 1],
        [sql`3 AS n`, 3],
        [two, 2],
      ] as const)
        expect(await withTenant(a.tenantId, () => run(pick(column)))).toEqual([{ n, v: "x" }]);
  });

  it("lockRows locks only the active tenant's rows, and named locks are per tenant", async () => {
    const a = await signupTenant(t);
    const b = await signupTenant(t);
    const [memberA] = await withTenant(a.tenantId, () => db.membership.findMany({ take: 1 }));
    expect(await withTenant(a.tenantId, () => tenantTx((tx) => lockRows(tx, "memberships", [memberA.id, memberA.id])))).toEqual([
      memberA.id,
    ]);
    expect(await withTenant(b.tenantId, () => tenantTx((tx) => lockRow(tx, "memberships", memberA.id)))).toBe(false);
    await expect(withTenant(a.tenantId, () => tenantTx((tx) => lockRows(tx, "memberships; DROP TABLE x", [memberA.id])))).rejects.toThrow(
      TenantScopeError,
    );
    // a company's named lock is its own: held in company a, free in company b
    let release = () => {};
    const holding = new Promise<void>((resolve) => {
      release = resolve;
    });
    let taken = () => {};
    const isTaken = new Promise<void>((resolve) => {
      taken = resolve;
    });
    const holder = withTenant(a.tenantId, () =>
      tenantTx(async (tx) => {
        await lock(tx, tenantLock("holidays"));
        taken();
        await holding;
      }),
    );
    await isTaken;
    expect(await withTenant(a.tenantId, () => tenantTx((tx) => tryLock(tx, tenantLock("holidays"))))).toBe(false);
    expect(await withTenant(b.tenantId, () => tenantTx((tx) => tryLock(tx, tenantLock("holidays"))))).toBe(true);
    release();
    await holder;
    expect(await withTenant(a.tenantId, () => tenantTx((tx) => tryLock(tx, tenantLock("holidays"))))).toBe(true);
  });

  it("an insert that does not name its tenant fails (tenant_id has no usable default)", async () => {
    const a = await signupTenant(t);
    await expect(systemDb.notification.create({ data: { user_id: a.userId, kind: "test", title: "no tenant" } })).rejects.toThrow(
      /tenant_id/,
    );
  });
});

describe("readGenericPlan: a statement planned once per connection", () => {
  /** The settings a connection of the pool has when nothing changed them (a connection of its own). */
  async function defaults(): Promise<{ mode: string; jit: string }> {
    const c = new pg.Client({ connectionString: t.url });
    await c.connect();
    try {
      return (await c.query("SELECT current_setting('plan_cache_mode') AS mode, current_setting('jit') AS jit")).rows[0];
    } finally {
      await c.end();
    }
  }
  /** The settings of the pool's most recently released connection (the pool hands out the last one released). */
  async function lastReleased(): Promise<{ mode: string; jit: string }> {
    const c = await getPool().connect();
    try {
      return (await c.query("SELECT current_setting('plan_cache_mode') AS mode, current_setting('jit') AS jit")).rows[0];
    } finally {
      c.release();
    }
  }

  it("runs with the generic plan and without JIT from the first execution, then restores the connection's settings", async () => {
    const a = await signupTenant(t);
    const probe = (name: string) =>
      sql`SELECT current_setting('plan_cache_mode') AS mode, current_setting('jit') AS jit,
                 (SELECT p.generic_plans::int FROM pg_prepared_statements p WHERE p.name = ${name}) AS generic,
                 (SELECT p.custom_plans::int FROM pg_prepared_statements p WHERE p.name = ${name}) AS custom
            FROM memberships m WHERE m.tenant_id = ${tenant}::uuid LIMIT 1`;
    const name = statementName(probe("").text);
    const before = await defaults();
    expect(before.mode).toBe("auto");
    for (let i = 0; i < 8; i++) {
      const [r] = await withTenant(a.tenantId, () =>
        readGenericPlan<{ mode: string; jit: string; generic: number; custom: number }>(probe(name)),
      );
      expect(r).toMatchObject({ mode: "force_generic_plan", jit: "off", custom: 0 });
      expect(r.generic).toBeGreaterThan(0);
      expect(await lastReleased()).toEqual(before);
    }
    // a statement that fails: the error reaches the caller, the connection is restored all the same
    const failing = sql`SELECT 1 / (count(*) - count(*)) AS n FROM memberships m WHERE m.tenant_id = ${tenant}::uuid`;
    await expect(withTenant(a.tenantId, () => readGenericPlan(failing))).rejects.toMatchObject({ code: "22012" });
    expect(await lastReleased()).toEqual(before);
  });
});
