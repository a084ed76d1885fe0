// listBranches, createBranch: the read replica (DATABASE_REPLICA_URL, src/db/replica.ts). make test
// has no streaming replica, so a second pool on the file's own database plays it (read-only
// connections named hrms-replica); which pool served a read is told by PostgreSQL's
// pg_stat_activity: the last statement of each of the replica's connections.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeReplica, type Lsn, onReplica, parseLsn, probeReplica, setReplayProbe } from "../../src/db/replica.ts";
import { db, withTenant } from "../../src/db/tenancy.ts";
import { isWriteOnReplica } from "../../src/http/read-routing.ts";
import { useReplica } from "../../src/db/client.ts";
import { signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { freePort } from "../support/ports.ts";

const t = useTestApp();
let owner: TenantSession;
/** The replay position the stubbed check reports: the primary's now, or a fixed one (a replica behind). */
let replayedUpTo: Lsn | "now" = "now";
const primaryNow = async () => parseLsn((await t.query<{ lsn: string }>("SELECT pg_current_wal_insert_lsn()::text AS lsn"))[0].lsn)!;

/** Whether one of the replica's connections last ran a statement on `table`. */
async function replicaRead(table: string): Promise<boolean> {
  const rows = await t.query<{ query: string }>(
    "SELECT query FROM pg_stat_activity WHERE datname = $1 AND application_name = 'hrms-replica'",
    [t.dbName],
  );
  return rows.some((r) => r.query.includes(`"${table}"`));
}

beforeAll(async () => {
  owner = await signupTenant(t);
  setReplayProbe(async () => (replayedUpTo === "now" ? primaryNow() : replayedUpTo));
  useReplica(t.url, { max: 2 });
  await probeReplica();
});
afterAll(() => setReplayProbe(undefined));

describe("listBranches, createBranch: reads marked x-read-replica", () => {
  it("a list runs on the replica; after the caller's write it waits there until the replica has replayed it", async () => {
    await owner.agent.get("/api/configuration/branches").expect(200);
    expect(await replicaRead("branches")).toBe(true);

    // the replica stays behind the write: the caller's next list is the primary's, with the new branch
    replayedUpTo = await primaryNow();
    const created = await owner.agent.post("/api/configuration/branches").send({ name: "Replica Lag" }).expect(201);
    expect(String(created.headers["set-cookie"])).toContain("hrms.lsn=");
    await owner.agent.get("/api/configuration/work-locations").expect(200);
    expect(await replicaRead("work_locations")).toBe(false);
    const list = await owner.agent.get("/api/configuration/branches").expect(200);
    expect(list.body.data.map((b: { name: string }) => b.name)).toContain("Replica Lag");

    // once it has replayed the write, the same caller reads from it again
    replayedUpTo = "now";
    await owner.agent.get("/api/configuration/work-locations").expect(200);
    expect(await replicaRead("work_locations")).toBe(true);
  });

  it("the replica's connections are read-only: a write that strays there fails (a wrongly marked operation fails the tests)", async () => {
    const stray = withTenant(owner.tenantId, () => onReplica(async () => db.branch.create({ data: { name: "Stray" } })));
    const err = await stray.then(
      () => null,
      (e: unknown) => e,
    );
    expect(isWriteOnReplica(err)).toBe(true);
  });

  it("a replica too far behind (DATABASE_REPLICA_MAX_LAG_MS) is not read from, even by a caller whose writes it has", async () => {
    await closeReplica();
    useReplica(t.url, { max: 2, replicaMaxLagMs: 1 });
    const res = await owner.agent.post("/api/configuration/branches").send({ name: "Lag Check" }).expect(201);
    replayedUpTo = parseLsn(/hrms\.lsn=([^.;]+)/.exec(String(res.headers["set-cookie"]))?.[1])!;
    // the primary moves on; the replica stays at the caller's write for longer than the limit
    await t.query("UPDATE tenants SET name = name WHERE id = $1", [owner.tenantId]);
    // "behind" is measured against what the primary has flushed; with synchronous_commit off (the
    // embedded server of make test) the WAL writer flushes a moment after the commit
    const [{ lsn: written }] = await t.query<{ lsn: string }>("SELECT pg_current_wal_insert_lsn()::text AS lsn");
    for (let i = 0; i < 500; i++) {
      const [{ ok }] = await t.query<{ ok: boolean }>("SELECT pg_current_wal_flush_lsn() >= $1::pg_lsn AS ok", [written]);
      if (ok) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await probeReplica();
    await new Promise((r) => setTimeout(r, 20));
    await probeReplica();
    await owner.agent.get("/api/holidays").expect(200);
    expect(await replicaRead("holidays")).toBe(false);
    replayedUpTo = "now";
    await probeReplica();
    await owner.agent.get("/api/holidays").expect(200);
    expect(await replicaRead("holidays")).toBe(true);
  });

  it("a replica that refuses connections: the read is served by the primary, never an error", async () => {
    await closeReplica();
    // the stubbed check still says it is up: the read fails there and is run again on the primary
    useReplica(`postgres://postgres@127.0.0.1:${await freePort()}/gone`, { max: 2 });
    await probeReplica();
    const list = await owner.agent.get("/api/configuration/branches").expect(200);
    expect(list.body.data.map((b: { name: string }) => b.name)).toContain("Replica Lag");
    // with the real check it is marked down and not tried at all
    setReplayProbe(undefined);
    await probeReplica();
    await owner.agent.get("/api/configuration/branches").expect(200);
  });
});
