// Cursor walks, updated_since and tombstones (src/http/cursor.ts, src/db/keyset.ts):
// the proof - a walk of 10 000 employees while another client updates 500 and deletes 50 misses
// no id and sees every deletion - and the 400s of a walk, isolation between companies, a sync from
// a kept cursor, and the declarations of the document.
import pg from "pg";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { apiDocument } from "../../src/http/routing.ts";
import { asArray, asObject, at } from "../support/document.ts";
import { addMember, expectDetails, expectError, signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { createEmployee } from "../support/employees.ts";
import { eventually } from "../support/eventually.ts";
import { api, type RequestOf, type ResponseBody } from "../support/api.ts";

const t = useTestApp();
let a: TenantSession;
let b: TenantSession;
const N = 10_000;

/** N employees of the company by one INSERT (the department counts follow by their trigger). */
async function insertEmployees(tenantId: string, n: number, prefix: string): Promise<string[]> {
  const rows = await t.query<{ id: string }>(
    `INSERT INTO employees (tenant_id, employee_code, first_name, last_name, email, department, designation, joining_date)
     SELECT $1::uuid, $2 || lpad(i::text, 6, '0'), 'First' || i, 'Last' || i, $2 || i || '@bulk.test', 'Dept' || (i % 7),
            'Engineer', DATE '2024-01-01'
       FROM generate_series(1, $3::int) AS i RETURNING id`,
    [tenantId, prefix, n],
  );
  return rows.map((r) => r.id);
}

type Page = ResponseBody<"listEmployees", 200>;
type Entry = Page["data"][number];
type Query = NonNullable<RequestOf<"listEmployees">["query"]>;

async function page(s: TenantSession, query: Query): Promise<Page> {
  return (await api(s.agent).op("listEmployees", { query }).expect(200)).body;
}

/** `cursor` as a query parameter, none at the start. */
const from = (cursor: string | null) => (cursor ? { cursor } : {});

/** Walks from `cursor` (or the start) until `has_more` is false; the entries in order and the last cursor. */
async function walk(s: TenantSession, base: Query, cursor: string | null, limit = 100) {
  const seen: Entry[] = [];
  for (;;) {
    const p = await page(s, { ...base, limit, ...from(cursor) });
    seen.push(...p.data);
    cursor = p.next_cursor;
    if (!p.has_more) return { seen, cursor: cursor! };
  }
}

beforeAll(async () => {
  a = await signupTenant(t);
  b = await signupTenant(t);
});

describe("a walk of 10 000 employees while another client writes", () => {
  it("misses no id and sees every deletion; a kept cursor later gives exactly what changed", async () => {
    const ids = await insertEmployees(a.tenantId, N, "W");
    const updated = ids.filter((_, i) => i % 20 === 7); // 500, spread over the walk
    const deleted = ids.filter((_, i) => i % 200 === 3); // 50
    expect(updated).toHaveLength(500);
    expect(deleted).toHaveLength(50);

    const seen = new Map<string, Entry>(); // the last version of each id met
    let cursor: string | null = null;
    let pages = 0;
    let writes: Promise<void> | undefined;
    let written = false;
    for (;;) {
      const p: Page = await page(a, { include_deleted: true, limit: 100, ...from(cursor) });
      expect(p.pagination).toBeNull();
      for (const e of p.data) seen.set(e.id, e);
      cursor = p.next_cursor;
      pages++;
      // the other client starts after the first page: raw-SQL updates (stamped by the trigger, not
      // by Prisma) in batches of 50, and deletions through the API
      if (pages === 1)
        writes = (async () => {
          for (let i = 0; i < updated.length; i += 50)
            await t.query(`UPDATE employees SET designation = 'Updated' WHERE tenant_id = $1 AND id = ANY($2::uuid[])`, [
              a.tenantId,
              updated.slice(i, i + 50),
            ]);
          for (const id of deleted) expect((await api(a.agent).op("deleteEmployee", { params: { employeeId: id } })).status).toBe(200);
          written = true;
        })();
      if (!p.has_more && written) break;
      if (!p.has_more) await new Promise((r) => setTimeout(r, 20)); // caught up with the writer: a moment
    }
    await writes;
    // the writes that committed after the last page come on the next pages of the same walk - once
    // every transaction older than them has ended (on a shared server another's may hold them back
    // a moment: the walk goes on until it has them, or fails after the timeout)
    const done = () =>
      ids.every((id) => seen.has(id)) &&
      deleted.every((id) => seen.get(id)?.deleted_at) &&
      updated.every((id) => seen.get(id)?.designation === "Updated");
    await eventually(
      async () => {
        const rest = await walk(a, { include_deleted: true }, cursor);
        for (const e of rest.seen) seen.set(e.id, e);
        cursor = rest.cursor;
        return done();
      },
      { timeoutMs: 30_000, everyMs: 50 },
    );

    expect(ids.filter((id) => !seen.has(id))).toEqual([]); // no id missing
    for (const id of deleted) expect(seen.get(id)?.deleted_at, `deletion of ${id} seen`).toBeDefined();
    for (const id of updated) expect(seen.get(id)?.designation).toBe("Updated");
    expect([...seen.values()].filter((e) => e.deleted_at).length).toBe(50);

    // a sync later from the kept cursor: only what changed since, deletions included
    const later = [ids[1], ids[2]];
    await t.query(`UPDATE employees SET designation = 'Later' WHERE tenant_id = $1 AND id = ANY($2::uuid[])`, [a.tenantId, later]);
    expect((await api(a.agent).op("deleteEmployee", { params: { employeeId: ids[5] } })).status).toBe(200);
    let changes: Entry[] = [];
    // the walk shows a change once every transaction older than it has ended (other tests' too)
    expect(
      await eventually(async () => {
        changes = (await walk(a, { include_deleted: true }, cursor)).seen;
        return changes.length === 3;
      }),
    ).toBe(true);
    expect(changes.map((e) => e.id).sort()).toEqual([...later, ids[5]].sort());
    expect(changes.find((e) => e.id === ids[5])?.deleted_at).toBeDefined();
    // without include_deleted a walk has only live employees
    let live: Entry[] = [];
    const whole = await eventually(async () => {
      live = (await walk(a, { sort: "changed" }, null)).seen;
      return live.length === N - 51;
    });
    expect(whole, `${live.length} live employees walked`).toBe(true);
    expect(live.some((e) => e.deleted_at)).toBe(false);
  }, 120_000);
});

describe("a transaction that commits late", () => {
  it("is not passed by a walk: what committed after it waits until it has committed", async () => {
    const c = await signupTenant(t);
    const [e1, e2] = await insertEmployees(c.tenantId, 2, "L");
    let cursor: string | null = null;
    expect(
      await eventually(async () => {
        const w = await walk(c, { sort: "changed" }, null);
        cursor = w.cursor;
        return w.seen.length === 2;
      }),
    ).toBe(true);
    // T1 changes e1 and stays open; T2, begun after it, changes e2 and commits
    const t1 = new pg.Client({ connectionString: t.url });
    await t1.connect();
    try {
      await t1.query("BEGIN");
      await t1.query(`UPDATE employees SET designation = 'T1' WHERE tenant_id = $1 AND id = $2`, [c.tenantId, e1]);
      await t.query(`UPDATE employees SET designation = 'T2' WHERE tenant_id = $1 AND id = $2`, [c.tenantId, e2]);
      // e2 is not given while T1 may still commit a change ordered before it (a walk by time would
      // give e2, move past it, and never give e1's change)
      const held = await walk(c, { sort: "changed" }, cursor);
      expect(held.seen).toEqual([]);
      await t1.query("COMMIT");
      let after: Entry[] = [];
      expect(
        await eventually(async () => {
          after = (await walk(c, { sort: "changed" }, held.cursor)).seen;
          return after.length === 2;
        }),
      ).toBe(true);
      expect(after.map((e) => [e.id, e.designation])).toEqual([
        [e1, "T1"],
        [e2, "T2"],
      ]);
    } finally {
      await t1.query("ROLLBACK").catch(() => {});
      await t1.end();
    }
  });
});

describe("a transaction of another database", () => {
  it("does not hold a walk back: it cannot write this database's tables", async () => {
    const c = await signupTenant(t);
    const [e1] = await insertEmployees(c.tenantId, 1, "D");
    let cursor: string | null = null;
    expect(
      await eventually(async () => {
        const w = await walk(c, { sort: "changed" }, null);
        cursor = w.cursor;
        return w.seen.length === 1;
      }),
    ).toBe(true);
    // a write transaction left open in the server's admin database
    const other = new pg.Client({ connectionString: inject("adminUrl") });
    await other.connect();
    try {
      await other.query("BEGIN");
      await other.query("SELECT pg_current_xact_id()");
      await t.query(`UPDATE employees SET designation = 'Seen' WHERE tenant_id = $1 AND id = $2`, [c.tenantId, e1]);
      let seen: Entry[] = [];
      const ok = await eventually(async () => {
        seen = (await walk(c, { sort: "changed" }, cursor)).seen;
        return seen.length === 1;
      });
      expect(ok, "the change was held back by the other database's transaction").toBe(true);
      expect(seen[0].designation).toBe("Seen");
    } finally {
      await other.query("ROLLBACK").catch(() => {});
      await other.end();
    }
  });
});

describe("updated_since", () => {
  it("lists only what changed at or after the instant, by the database clock", async () => {
    const c = await signupTenant(t);
    const before = await createEmployee(c, { first_name: "Old", last_name: "One" });
    const [{ now }] = await t.query<{ now: Date }>(
      "SELECT date_trunc('milliseconds', clock_timestamp()) + interval '1 millisecond' AS now",
    );
    await t.query("SELECT pg_sleep(0.002)"); // past that millisecond by the database clock
    const after = await createEmployee(c, { first_name: "New", last_name: "One" });
    const since = new Date(now).toISOString();
    /** The page once it has `n` rows (a change shows once every older transaction has ended). */
    const changedSince = async (n: number) => {
      let p: Page | undefined;
      const ok = await eventually(async () => {
        p = await page(c, { updated_since: since });
        return p.data.length === n;
      });
      expect(ok, JSON.stringify(p?.data)).toBe(true);
      return p!;
    };
    expect((await changedSince(1)).data.map((e) => e.id)).toEqual([after.id]);
    // a raw-SQL update moves `before` after the instant too (the trigger stamps it)
    await t.query(`UPDATE employees SET phone = '12345' WHERE tenant_id = $1 AND id = $2`, [c.tenantId, before.id]);
    const p = await changedSince(2);
    expect(p.data.map((e) => e.id)).toEqual([after.id, before.id]);
  });
});

describe("include_deleted: tombstones of deleted employees", () => {
  it("are listed to owner, admin and hr only; a manager or employee who may list the directory gets a 403", async () => {
    const o = await signupTenant(t);
    const [gone] = await insertEmployees(o.tenantId, 1, "T");
    await api(o.agent)
      .op("deleteEmployee", { params: { employeeId: gone } })
      .expect(200);
    const hr = await addMember(t, o, "hr");
    const tombstones = (
      await api(hr.agent)
        .op("listEmployees", { query: { include_deleted: true, limit: 100 } })
        .expect(200)
    ).body.data;
    expect(tombstones).toEqual([expect.objectContaining({ id: gone, first_name: "First1", deleted_at: expect.any(String) })]);
    for (const role of ["manager", "employee"] as const) {
      const m = await addMember(t, o, role);
      const refused = expectError(
        await api(m.agent).op("listEmployees", { query: { include_deleted: true, limit: 100 } }),
        403,
        "forbidden",
      );
      expect(refused.error).toContain("owner, admin and hr only");
      // the plain list and a walk without tombstones still answer, without the deleted colleague
      const plain = (
        await api(m.agent)
          .op("listEmployees", { query: { sort: "changed", limit: 100 } })
          .expect(200)
      ).body.data;
      expect(plain.map((e: Entry) => e.id)).not.toContain(gone);
    }
  });
});

describe("the 400s of a walk", () => {
  let cursor: string;
  beforeAll(async () => {
    await insertEmployees(b.tenantId, 5, "B");
    cursor = (await page(b, { sort: "changed", department: "Dept1", limit: 1 })).next_cursor!;
  });
  const cursorError = (res: { status: number; body: unknown }, path = "query.cursor") => {
    const { details } = expectDetails(res, 400, "validation_failed");
    expect(details[0].path).toBe(path);
    expect(details[0].message).toMatch(/ /);
    return details[0].message;
  };

  it("continues with the same filters, and `limit` may change", async () => {
    const p = await page(b, { sort: "changed", department: "Dept1", limit: 5, cursor });
    expect(p.next_cursor).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it("refuses a cursor with other filters, sort, updated_since or include_deleted", async () => {
    const others: Query[] = [
      { sort: "changed", department: "Dept2" },
      { sort: "changed" },
      { sort: "changed", department: "Dept1", include_deleted: true },
    ];
    for (const query of others) {
      const res = await api(b.agent).op("listEmployees", { query: { ...query, cursor } });
      expect(cursorError(res)).toMatch(/other query parameters/);
    }
    cursorError(await api(b.agent).op("listEmployees", { query: { department: "Dept1", sort: "joining_date", cursor } }), "query.sort");
    // `sort=name` is the declared default, the same as no `sort` (cursor-defaults.test.ts): not this walk's parameters
    expect(cursorError(await api(b.agent).op("listEmployees", { query: { department: "Dept1", sort: "name", cursor } }))).toMatch(
      /other query parameters/,
    );
  });

  it("refuses `page` in a walk (but page 1, its declared default, is the same as none: cursor-defaults.test.ts)", async () => {
    cursorError(await api(b.agent).op("listEmployees", { query: { sort: "changed", department: "Dept1", page: 2, cursor } }), "query.page");
    cursorError(await api(b.agent).op("listEmployees", { query: { include_deleted: true, page: 2 } }), "query.page");
  });

  it("refuses garbage and an altered cursor", async () => {
    expect(cursorError(await api(b.agent).op("listEmployees", { query: { sort: "changed", department: "Dept1", cursor: "abc" } }))).toMatch(
      /garbled or altered/,
    );
    const bytes = Buffer.from(cursor, "base64url");
    bytes[bytes.length - 3] ^= 1; // a digit of the key
    const altered = bytes.toString("base64url");
    expect(
      cursorError(await api(b.agent).op("listEmployees", { query: { sort: "changed", department: "Dept1", cursor: altered } })),
    ).toMatch(/garbled or altered/);
    // not base64url at all: the document's pattern
    cursorError(await b.agent.get("/api/employees?sort=changed&cursor=a%2Bb")); // by hand: the query string as sent
  });

  it("refuses a cursor of another list", async () => {
    const employees = (await page(b, { sort: "changed", limit: 1 })).next_cursor;
    const res = await api(b.agent).op("listActivityLog", { query: { sort: "changed", cursor: employees! } });
    expect(cursorError(res)).toMatch(/another list \(listEmployees\)/);
  });

  it("refuses another company's cursor: isolation", async () => {
    const res = await api(a.agent).op("listEmployees", { query: { sort: "changed", department: "Dept1", cursor } });
    expect(cursorError(res)).toMatch(/another company/);
  });

  it("pages by number as before, with next_cursor null and has_more until the last page", async () => {
    const p = await page(b, { page: 1, limit: 2 });
    expect(p.next_cursor).toBeNull();
    expect(p.pagination).toEqual({ page: 1, limit: 2, total: 5, total_pages: 3 });
    expect(p.has_more).toBe(true);
    const last = await page(b, { page: 3, limit: 2 });
    expect(last.pagination).toEqual({ page: 3, limit: 2, total: 5, total_pages: 3 });
    expect(last.has_more).toBe(false);
  });
});

describe("the document", () => {
  it("declares the walk on the employee list: cursor, updated_since, include_deleted, sort=changed, next_cursor, has_more", () => {
    const op = asObject(at(apiDocument(), "paths", "/api/employees", "get"));
    expect(op["x-cursor"]).toEqual({ tombstones: true });
    const parameters = asArray(op.parameters).map(asObject);
    const refs = parameters.map((p) => p.$ref).filter(Boolean);
    for (const name of ["Cursor", "UpdatedSince", "IncludeDeleted"]) expect(refs).toContain(`#/components/parameters/${name}`);
    expect(
      at(
        parameters.find((p) => p.name === "sort"),
        "schema",
        "enum",
      ),
    ).toContain("changed");
    const schema = asObject(at(op, "responses", "200", "content", "application/json", "schema"));
    // one shape, every field required: pagination (null on a walk's page), next_cursor (null on a page by number), has_more
    expect(schema.required).toEqual(["data", "message", "pagination", "next_cursor", "has_more"]);
    expect(at(schema, "properties", "pagination", "oneOf")).toEqual([{ $ref: "#/components/schemas/Pagination" }, { type: "null" }]);
    expect(at(schema, "properties", "has_more", "type")).toBe("boolean");
  });
});
