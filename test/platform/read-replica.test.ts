// listBranches, createBranch: the read replica (DATABASE_REPLICA_URL, src/db/replica.ts). make test
// has no streaming replica, so a second pool on the file's own database plays it (read-only
// connections named hrms-replica); which pool served a read is told by PostgreSQL's
// pg_stat_activity: the last statement of each of the replica's connections.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { closeReplica, type Lsn, onReplica, parseLsn, probeReplica, setReplayProbe } from "../../src/db/replica.ts";
import { db, withTenant } from "../../src/db/tenancy.ts";
import { isWriteOnReplica } from "../../src/http/read-routing.ts";
import { useReplica } from "../../src/db/client.ts";
import { addMember, signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { freePort } from "../support/ports.ts";
import { api } from "../support/api.ts";

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

/** A `hrms.sid=...` cookie of a new session of the member (signed in again). */
async function sessionCookie(member: TenantSession): Promise<string> {
  const res = await api(t.request())
    .op("signIn", { body: { email: member.email, password: member.password } })
    .expect(200);
  const sid = /hrms\.sid=[^;]+/.exec(String(res.headers["set-cookie"]))![0];
  if (res.body.data.active_tenant_id !== member.tenantId)
    await t.request().post("/api/auth/switch-tenant").set("Cookie", sid).send({ tenantId: member.tenantId }).expect(200);
  return sid;
}

describe("listBranches, createBranch: reads marked x-read-replica", () => {
  it("a list runs on the replica; after the caller's write it waits there until the replica has replayed it", async () => {
    await api(owner.agent).op("listBranches").expect(200);
    expect(await replicaRead("branches")).toBe(true);

    // the replica stays behind the write: the caller's next list is the primary's, with the new branch
    replayedUpTo = await primaryNow();
    const created = await api(owner.agent)
      .op("createBranch", { body: { name: "Replica Lag" } })
      .expect(201);
    expect(String(created.headers["set-cookie"])).toContain("hrms.lsn=");
    await api(owner.agent).op("listWorkLocations").expect(200);
    expect(await replicaRead("work_locations")).toBe(false);
    const list = await api(owner.agent).op("listBranches").expect(200);
    expect(list.body.data.map((b) => b.name)).toContain("Replica Lag");

    // once it has replayed the write, the same caller reads from it again
    replayedUpTo = "now";
    await api(owner.agent).op("listWorkLocations").expect(200);
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
    await api(owner.agent)
      .op("createBranch", { body: { name: "Lag Check" } })
      .expect(201);
    // (the cookie shows no position: the primary's right after the write is at or past it)
    replayedUpTo = await primaryNow();
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
    await api(owner.agent).op("listHolidays").expect(200);
    expect(await replicaRead("holidays")).toBe(false);
    replayedUpTo = "now";
    await probeReplica();
    await api(owner.agent).op("listHolidays").expect(200);
    expect(await replicaRead("holidays")).toBe(true);
  });

  it("the hrms.lsn cookie shows no write position, and another session's is ignored", async () => {
    await closeReplica();
    useReplica(t.url, { max: 2 });
    replayedUpTo = "now";
    await probeReplica();
    const other = await addMember(t, owner, "hr");
    replayedUpTo = await primaryNow();
    const created = await api(owner.agent)
      .op("createBranch", { body: { name: "Opaque" } })
      .expect(201);
    const value = /hrms\.lsn=([^;]+)/.exec(String(created.headers["set-cookie"]))![1];
    expect(value).not.toMatch(/[0-9A-F]+\/[0-9A-F]+/);
    expect(value).not.toContain((await primaryNow()).toString(16).toUpperCase().slice(-4));
    // the writer's next read waits for the replica (primary); the other session carrying the same
    // cookie is not held to it (the replica serves it)
    await api(owner.agent).op("listWorkLocations").expect(200);
    expect(await replicaRead("work_locations")).toBe(false);
    const sid = await sessionCookie(other);
    await t.request().get("/api/holidays").set("Cookie", `${sid}; hrms.lsn=${value}`).expect(200);
    expect(await replicaRead("holidays")).toBe(true);
    replayedUpTo = "now";
  });

  it("a Bearer credential (no cookie jar) reads its own writes too: its write position is kept on the credential", async () => {
    await closeReplica();
    useReplica(t.url, { max: 2 });
    replayedUpTo = "now";
    await probeReplica();
    const made = await api(owner.agent)
      .op("createApiCredential", { body: { name: "Replica sync", scopes: ["organization:read", "organization:write"] } })
      .expect(201);
    const bearer = { Authorization: `Bearer ${made.body.data.secret}` };
    await api(t.request()).op("listBranches", { headers: bearer }).expect(200);
    expect(await replicaRead("branches")).toBe(true);
    // the replica stays behind the credential's write: its next list is the primary's, with the branch
    replayedUpTo = await primaryNow();
    const created = await api(t.request())
      .op("createBranch", { body: { name: "Bearer Write" }, headers: bearer })
      .expect(201);
    expect(created.headers["set-cookie"]).toBeUndefined();
    await api(t.request()).op("listWorkLocations", { headers: bearer }).expect(200);
    expect(await replicaRead("work_locations")).toBe(false);
    const list = await api(t.request()).op("listBranches", { headers: bearer }).expect(200);
    expect(list.body.data.map((b) => b.name)).toContain("Bearer Write");
    // a cookie session of the same company is not held to the credential's write: the replica serves it
    await api(owner.agent).op("listHolidays").expect(200);
    expect(await replicaRead("holidays")).toBe(true);
    // once the replica has replayed the write, the credential reads from it again
    replayedUpTo = "now";
    await api(t.request()).op("listWorkLocations", { headers: bearer }).expect(200);
    expect(await replicaRead("work_locations")).toBe(true);
  });

  // by hand where a test sets the Cookie header itself (a session or hrms.lsn cookie the agent does not hold)
  it("a malformed hrms.lsn cookie is ignored: the list answers 200, never a 500", async () => {
    const sid = await sessionCookie(owner);
    for (const bad of ["%E0%A4%A", "%", "%ZZ", "0/16B3748.x", "a.b.c", "", "=", "x".repeat(5000), "AAAA", "////", "0/0"]) {
      const res = await t.request().get("/api/configuration/branches").set("Cookie", `${sid}; hrms.lsn=${bad}`);
      expect(res.status, bad).toBe(200);
    }
  });

  it("a replica that refuses connections: the read is served by the primary, never an error", async () => {
    await closeReplica();
    // the stubbed check still says it is up: the read fails there and is run again on the primary
    useReplica(`postgres://postgres@127.0.0.1:${await freePort()}/gone`, { max: 2 });
    await probeReplica();
    const list = await api(owner.agent).op("listBranches").expect(200);
    expect(list.body.data.map((b) => b.name)).toContain("Replica Lag");
    // with the real check it is marked down and not tried at all
    setReplayProbe(undefined);
    await probeReplica();
    await api(owner.agent).op("listBranches").expect(200);
  });
});
