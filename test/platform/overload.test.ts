// Overload: what the server does when it gets more than it can serve in time.
//   - admission control (src/http/admission.ts), with a tiny limit for this file's own app: the
//     requests beyond the slots and the queue, or still queued at the deadline, get a 503
//     `unavailable` envelope with Retry-After (never a 500); health answers meanwhile; afterwards
//     everything succeeds again;
//   - bounded database waits (src/db/client.ts, with short limits for this file): a write blocked
//     behind another transaction's lock, a transaction that cannot start in time and one that
//     outlives its timeout are 503 `unavailable` with Retry-After;
//   - employee creates do not wait for each other's transactions (the generated code is drawn
//     outside them), so 16 at once succeed.
// The figures at three times the sustainable rate are measured by scripts/measure/overload.ts.
import pg from "pg";
import supertest from "supertest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getBaseClient, getPool, initDb } from "../../src/db/client.ts";
import { tenantTx, withTenant } from "../../src/db/tenancy.ts";
import { createApp } from "../../src/http/app.ts";
import type { AdmissionStats } from "../../src/http/admission.ts";
import { toAppError } from "../../src/http/error-middleware.ts";
import { expectError, signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { employeeInput } from "../support/employees.ts";
import { api } from "../support/api.ts";
import { waitFor } from "../support/eventually.ts";

const t = useTestApp();

/** A 503 `unavailable` envelope with a Retry-After of whole seconds ≥ 1. */
function expectUnavailable(res: { status: number; body: unknown; headers: Record<string, string> }) {
  expectError(res, 503, "unavailable");
  expect(res.headers["retry-after"], "Retry-After").toMatch(/^[1-9]\d*$/);
}

async function withLocker<T>(sql: string[], fn: (locker: pg.Client) => Promise<T>): Promise<T> {
  const locker = new pg.Client({ connectionString: t.url });
  await locker.connect();
  try {
    await locker.query("BEGIN");
    for (const s of sql) await locker.query(s);
    return await fn(locker);
  } finally {
    await locker.query("ROLLBACK").catch(() => {});
    await locker.end();
  }
}

describe("admission control", () => {
  it("answers the requests it cannot serve in time with 503 + Retry-After, keeps health answering, and recovers", async () => {
    const o = await signupTenant(t);
    // 2 in progress, 3 waiting for at most 1 s; the 12 requests below are slow (blocked on a lock)
    const app = createApp({ validateResponses: true, admission: { maxConcurrent: 2, maxQueued: 3, queueTimeoutMs: 1000 } });
    const stats = () => (app.locals.admission as { stats: () => AdmissionStats }).stats();
    const agent = supertest.agent(app);
    await api(agent)
      .op("signIn", { body: { email: o.email, password: o.password } })
      .expect(200);

    const answers = await withLocker(["LOCK TABLE tenants IN ACCESS EXCLUSIVE MODE"], async (locker) => {
      const done: supertest.Response[] = [];
      const burst = Array.from({ length: 12 }, () =>
        api(agent)
          .op("getCompanySettings")
          .then((r) => {
            done.push(r);
            return r;
          }),
      );
      // 7 refused at once (queue full), 3 after waiting 1 s in the queue; 2 are in progress
      await waitFor("the 10 refusals", () => done.length >= 10);
      expect(stats()).toMatchObject({ active: 2, queued: 0, rejectedFull: 7, rejectedTimeout: 3 });
      // health bypasses the queue and uses connections of its own: it answers while the API is full
      const health = await api(supertest(app)).op("getHealth").expect(200);
      expect(health.body.data).toMatchObject({ status: "ok", database: "up" });
      // so do the reference and its document
      await supertest(app).get("/openapi.json").expect(200);
      expect(done.every((r) => r.status === 503)).toBe(true);
      await locker.query("COMMIT");
      return Promise.all(burst);
    });

    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, ...Array(10).fill(503)]);
    for (const r of answers.filter((x) => x.status === 503)) expectUnavailable(r);
    expect(answers.filter((x) => x.status === 200).every((r) => r.body.data.id === o.tenantId)).toBe(true);

    // afterwards everything succeeds again (as many at once as there are slots)
    for (let round = 0; round < 3; round++) {
      const again = await Promise.all([api(agent).op("getCompanySettings"), api(agent).op("getSession")]);
      expect(again.map((r) => r.status)).toEqual([200, 200]);
    }
    await waitFor("the slots to be free", () => stats().active === 0);
    expect(stats().queued).toBe(0);
  });

  it("gives every 503 a Retry-After, also one raised without it", async () => {
    // the billing webhook answers 503 while no secret is configured (an AppError without headers); by hand, as
    // Stripe sends it
    const res = await t
      .request()
      .post("/api/billing/webhook")
      .set("Stripe-Signature", "t=1,v1=00")
      .send({ id: "evt_1", type: "customer.subscription.updated" });
    expectUnavailable(res);
  });
});

describe("employee creates under contention", () => {
  it("do not wait for each other's transactions, and 16 at once all succeed with distinct codes", async () => {
    const o = await signupTenant(t);
    // Every create stops at its audit entry while the activity log is locked. Each must get there
    // on its own: none may be waiting for another create's transaction (the code counter row and
    // the department's count row used to stay locked until the create that touched them
    // committed, so the others queued behind it, each holding a connection and a transaction).
    const blocked = await withLocker(["LOCK TABLE audit_logs IN SHARE MODE"], async (locker) => {
      const creates = Array.from({ length: 8 }, () =>
        api(o.agent)
          .op("createEmployee", { body: employeeInput() })
          .then((r) => r),
      );
      await waitFor("8 creates waiting at the activity log", async () => {
        const [r] = await t.query<{ n: number }>(
          `SELECT count(*)::int AS n FROM pg_locks WHERE relation = 'audit_logs'::regclass AND NOT ` +
            `granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
        );
        return r.n === 8;
      });
      await locker.query("COMMIT");
      return Promise.all(creates);
    });
    expect(blocked.map((r) => r.status)).toEqual(Array(8).fill(201));

    const burst = await Promise.all(Array.from({ length: 16 }, () => api(o.agent).op("createEmployee", { body: employeeInput() })));
    expect(burst.map((r) => r.status)).toEqual(Array(16).fill(201));
    const codes = [...blocked, ...burst].map((r) => r.body.data.employee_code as string);
    expect(new Set(codes).size).toBe(24);
    expect(codes.every((c) => /^EMP-\d{5}$/.test(c))).toBe(true);
  });
});

describe("bounded database waits", () => {
  // a pool of 3; transactions and lock waits of at most 2 s
  const reopen = (opts: Parameters<typeof initDb>[1]) => {
    initDb(t.url, opts);
    // the session store holds the pool it was created with: a new app for the new pool
    t.app = createApp({ validateResponses: true });
    t.request = () => supertest.agent(t.app);
  };
  // the companies are signed up on the usual pool (a signup is several statements: on a busy
  // machine it may outlive 2 s); on the small pool their owners sign in again
  let companies: TenantSession[];
  const signedIn = async (o: TenantSession): Promise<TenantSession> => {
    const agent = t.request();
    await api(agent)
      .op("signIn", { body: { email: o.email, password: o.password } })
      .expect(200);
    return { ...o, agent };
  };
  beforeAll(async () => {
    companies = [await signupTenant(t), await signupTenant(t)];
    await closeDb();
    reopen({ max: 3, connectionTimeoutMillis: 5000, transactionTimeoutMs: 2000 });
  });
  afterAll(async () => {
    await closeDb();
    reopen({ max: 10 }); // as test/support/app.ts opened it (its afterAll closes it)
  });

  it(
    "a write that waits too long for another transaction's lock " + "is a 503 with Retry-After, and succeeds once the lock is gone",
    async () => {
      const o = await signedIn(companies[0]);
      await withLocker([], async (locker) => {
        await locker.query("SELECT 1 FROM tenants WHERE id = $1 FOR UPDATE", [o.tenantId]);
        expectUnavailable(await api(o.agent).op("updateCompanySettings", { body: { name: "Renamed while locked" } }));
      });
      const [row] = await t.query(`SELECT name FROM tenants WHERE id = $1`, [o.tenantId]);
      expect(row.name).not.toBe("Renamed while locked");
      const ok = await api(o.agent)
        .op("updateCompanySettings", { body: { name: "Renamed later" } })
        .expect(200);
      expect(ok.body.data.name).toBe("Renamed later");
    },
  );

  it("a transaction that cannot start in time, or outlives its timeout, is a 503 with Retry-After (Prisma P2028)", async () => {
    const o = await signedIn(companies[1]);
    // no connection for it: the pool's three are taken
    const held = await Promise.all([1, 2, 3].map(() => getPool().connect()));
    let notStarted: unknown;
    try {
      notStarted = await getBaseClient()
        .$transaction(async () => 1, { maxWait: 200 })
        .then(
          () => null,
          (e: unknown) => e,
        );
    } finally {
      for (const c of held) c.release();
    }
    expect(notStarted).toMatchObject({ code: "P2028" });
    expect((notStarted as Error).message).toMatch(/Unable to start a transaction/);
    expect(toAppError(notStarted)).toMatchObject({
      status: 503,
      code: "unavailable",
      headers: { "Retry-After": expect.stringMatching(/^[1-9]\d*$/) },
    });

    // open longer than the 2 s it may be
    const expired = await withTenant(o.tenantId, () =>
      tenantTx(async (tx) => {
        await tx.$executeRawUnsafe("SELECT pg_sleep(2.5)");
        return tx.employee.count();
      }),
    ).then(
      () => null,
      (e: unknown) => e,
    );
    expect(expired).toMatchObject({ code: "P2028" });
    expect((expired as Error).message).toMatch(/expired transaction/);
    expect(toAppError(expired)).toMatchObject({
      status: 503,
      code: "unavailable",
      headers: { "Retry-After": expect.stringMatching(/^[1-9]\d*$/) },
    });

    // and the pool is fine afterwards
    await api(o.agent).op("getCompanySettings").expect(200);
  });
});
