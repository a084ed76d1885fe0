// Cursor walks on the lists beside the employees (issue 32 part 4; the mechanism and its proof:
// cursor-sync.test.ts): on each, a walk by cursor meets every record in the order of change,
// `updated_since` gives only what changed since, `include_deleted=true` gives deletions as
// tombstones with `deleted_at` (on the lists of soft-deleted records), and a kept cursor later
// gives exactly what changed since.
import { beforeAll, describe, expect, it } from "vitest";
import { signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { createAsset, createCategory } from "../support/asset-factories.ts";
import { eventually } from "../support/eventually.ts";
import { addCandidate, openPosting, recruitingCompany } from "../recruitment/helpers.ts";

const t = useTestApp();

type Entry = { id: string; deleted_at?: string };

interface ListUnderTest {
  agent: TenantSession["agent"];
  /** the list's path, with its own query parameters if any (`?` included) */
  url: string;
  create: () => Promise<string>;
  change: (id: string) => Promise<void>;
  /** deletes (soft) the record: the list has tombstones */
  remove?: (id: string) => Promise<void>;
}

/** Walks the list from `cursor` (or the start) with `qs` until a page shorter than `limit`: entries in order, the last cursor. */
async function walk(l: ListUnderTest, qs: string, cursor: string | null = null, limit = 2) {
  const seen: Entry[] = [];
  const sep = l.url.includes("?") ? "&" : "?";
  for (let pages = 0; pages < 100; pages++) {
    const res = await l.agent.get(`${l.url}${sep}${qs}&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.pagination).toBeUndefined();
    seen.push(...res.body.data);
    cursor = res.body.next_cursor;
    if (res.body.data.length < limit) break;
  }
  return { seen, cursor: cursor! };
}

/** Until the walk gives `want` (the ids of `mine` it meets, in order), or fails after the timeout. */
async function walkUntil(l: ListUnderTest, qs: string, cursor: string | null, mine: string[], want: string[]) {
  let got: { seen: Entry[]; cursor: string } = { seen: [], cursor: "" };
  const ok = await eventually(
    async () => {
      got = await walk(l, qs, cursor);
      return JSON.stringify(got.seen.filter((e) => mine.includes(e.id)).map((e) => e.id)) === JSON.stringify(want);
    },
    { timeoutMs: 15_000, everyMs: 50 },
  );
  expect(
    got.seen.filter((e) => mine.includes(e.id)).map((e) => e.id),
    ok ? "" : "the walk did not give the records in the order of change",
  ).toEqual(want);
  return got;
}

async function proveWalk(l: ListUnderTest) {
  const ids = [await l.create(), await l.create(), await l.create()];
  // a walk from the start meets them in the order they were written, two to a page
  const first = await walkUntil(l, "sort=changed", null, ids, ids);
  // the next millisecond by the database clock (a JavaScript Date has no microseconds), then past it
  const [{ now }] = await t.query<{ now: Date }>("SELECT date_trunc('milliseconds', clock_timestamp()) + interval '1 millisecond' AS now");
  await t.query("SELECT pg_sleep(0.002)");
  await l.change(ids[0]);
  if (l.remove) await l.remove(ids[1]);
  const since = `updated_since=${encodeURIComponent(new Date(now).toISOString())}`;
  const changed = [ids[0]];
  // updated_since: only what changed at or after the instant
  await walkUntil(l, since, null, ids, changed);
  // the kept cursor of the first walk: what changed since
  await walkUntil(l, "sort=changed", first.cursor, ids, changed);
  if (l.remove) {
    // deletions as tombstones, after the record's earlier changes
    const all = await walkUntil(l, `${since}&include_deleted=true`, null, ids, [ids[0], ids[1]]);
    expect(all.seen.find((e) => e.id === ids[1])?.deleted_at).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(all.seen.find((e) => e.id === ids[0])?.deleted_at).toBeUndefined();
    const whole = await walkUntil(l, "include_deleted=true", null, ids, [ids[2], ids[0], ids[1]]);
    expect(whole.seen.filter((e) => e.deleted_at).map((e) => e.id)).toContain(ids[1]);
  }
}

describe("lists walked by cursor", () => {
  let owner: TenantSession;
  beforeAll(async () => {
    owner = await signupTenant(t);
    await owner.agent
      .post("/api/configuration/company-settings")
      .send({ modules: ["helpdesk", "assets"] })
      .expect(200);
  });

  it("helpdesk tickets", async () => {
    let n = 0;
    await proveWalk({
      agent: owner.agent,
      url: "/api/helpdesk/tickets",
      create: async () => {
        const res = await owner.agent
          .post("/api/helpdesk/tickets")
          .send({ title: `Ticket ${++n}`, category: "it", priority: "low", description: "Laptop fan" })
          .expect(201);
        return res.body.data.id;
      },
      change: async (id) => void (await owner.agent.put(`/api/helpdesk/tickets/${id}`).send({ priority: "high" }).expect(200)),
      remove: async (id) => void (await owner.agent.delete(`/api/helpdesk/tickets/${id}`).expect(200)),
    });
  });

  it("assets", async () => {
    const category = await createCategory(owner);
    await proveWalk({
      agent: owner.agent,
      url: "/api/assets",
      create: async () => (await createAsset(owner, category)).id,
      change: async (id) => void (await owner.agent.put(`/api/assets/${id}`).send({ notes: "Changed" }).expect(200)),
      remove: async (id) => void (await owner.agent.delete(`/api/assets/${id}`).expect(200)),
    });
  });

  it("candidates", async () => {
    const c = await recruitingCompany(t);
    const posting = await openPosting(c.hr.agent);
    await proveWalk({
      agent: c.hr.agent,
      url: "/api/recruitment/candidates",
      create: async () => (await addCandidate(c.hr.agent, posting.id)).id,
      change: async (id) => void (await c.hr.agent.put(`/api/recruitment/candidates/${id}`).send({ notes: "Strong" }).expect(200)),
      remove: async (id) => void (await c.hr.agent.delete(`/api/recruitment/candidates/${id}`).expect(200)),
    });
  });
});
