// Cursor walks on the lists beside the employees (the mechanism and its proof:
// cursor-sync.test.ts): on each, a walk by cursor meets every record in the order of change,
// `updated_since` gives only what changed since, `include_deleted=true` gives deletions as
// tombstones with `deleted_at` (on the lists of soft-deleted records), and a kept cursor later
// gives exactly what changed since.
import { beforeAll, describe, expect, it } from "vitest";
import { addMember, signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { createAsset, createCategory } from "../assets/fixtures.ts";
import { addDays } from "../../src/lib/dates.ts";
import { createEmployee } from "../support/employees.ts";
import { createType, grant, leaveWorld, nextWeekday, today } from "../leave/fixtures.ts";
import { memberFor, payrollEmployee, payrollWorld } from "../payroll/fixtures.ts";
import { eventually } from "../support/eventually.ts";
import { addCandidate, openPosting, recruitingCompany } from "../recruitment/fixtures.ts";
import { api } from "../support/api.ts";

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

/**
 * Walks the list from `cursor` (or the start) with `qs` as a generated paginator does, until
 * `has_more` is false: entries in order, the last cursor. `has_more` is exact: after `true` the next
 * page has records; after `false` the cursor gives none (nothing changes while this walks).
 */
async function walk(l: ListUnderTest, qs: string, cursor: string | null = null, limit = 2) {
  const seen: Entry[] = [];
  const sep = l.url.includes("?") ? "&" : "?";
  const get = async (c: string | null) => {
    const res = await l.agent.get(`${l.url}${sep}${qs}&limit=${limit}${c ? `&cursor=${c}` : ""}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.pagination).toBeNull();
    expect(typeof res.body.next_cursor).toBe("string");
    expect(typeof res.body.has_more).toBe("boolean");
    return res.body as { data: Entry[]; next_cursor: string; has_more: boolean };
  };
  let more = false;
  for (let pages = 0; pages < 100; pages++) {
    const page = await get(cursor);
    if (more) expect(page.data.length, "has_more was true: the next page has records").toBeGreaterThan(0);
    seen.push(...page.data);
    cursor = page.next_cursor;
    more = page.has_more;
    if (page.data.length > 0 && page.data.length < limit) expect(more).toBe(false);
    if (!more) break;
  }
  const after = await get(cursor);
  expect(after.data, "has_more was false: nothing after the last cursor").toEqual([]);
  expect(after.has_more).toBe(false);
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
    await api(owner.agent)
      .op("updateCompanySettings", { body: { modules: ["helpdesk", "assets"] } })
      .expect(200);
  });

  it("helpdesk tickets", async () => {
    let n = 0;
    await proveWalk({
      agent: owner.agent,
      url: "/api/helpdesk/tickets",
      create: async () => {
        const res = await api(owner.agent)
          .op("createHelpdeskTicket", { body: { title: `Ticket ${++n}`, category: "it", priority: "low", description: "Laptop fan" } })
          .expect(201);
        return res.body.data.id;
      },
      change: async (id) =>
        void (await api(owner.agent)
          .op("updateHelpdeskTicket", { params: { id }, body: { priority: "high" } })
          .expect(200)),
      remove: async (id) => void (await api(owner.agent).op("deleteHelpdeskTicket", { params: { id } }).expect(200)),
    });
  });

  it("assets", async () => {
    const category = await createCategory(owner);
    await proveWalk({
      agent: owner.agent,
      url: "/api/assets",
      create: async () => (await createAsset(owner, category)).id,
      change: async (id) =>
        void (await api(owner.agent)
          .op("updateAsset", { params: { assetId: id }, body: { notes: "Changed" } })
          .expect(200)),
      remove: async (id) =>
        void (await api(owner.agent)
          .op("deleteAsset", { params: { assetId: id } })
          .expect(200)),
    });
  });

  it("candidates", async () => {
    const c = await recruitingCompany(t);
    const posting = await openPosting(c.hr.agent);
    await proveWalk({
      agent: c.hr.agent,
      url: "/api/recruitment/candidates",
      create: async () => (await addCandidate(c.hr.agent, posting.id)).id,
      change: async (id) =>
        void (await api(c.hr.agent)
          .op("updateCandidate", { params: { id }, body: { notes: "Strong" } })
          .expect(200)),
      remove: async (id) => void (await api(c.hr.agent).op("deleteCandidate", { params: { id } }).expect(200)),
    });
  });
});

/**
 * A list that only grows (an append-only log): a kept cursor gives the entries written since - with
 * none met before it - and updated_since gives those written after the instant, all of which the
 * cursor gives too (the cursor may give more: an entry written before the instant that an open
 * transaction of other work held back from the first walk); `act` writes at least `atLeast` entries.
 */
async function proveAppend(agent: TenantSession["agent"], url: string, act: () => Promise<void>, atLeast: number) {
  const l: ListUnderTest = { agent, url, create: async () => "", change: async () => {} };
  const start = await walk(l, "sort=changed", null, 100);
  const before = new Set(start.seen.map((e) => e.id));
  const [{ now }] = await t.query<{ now: Date }>("SELECT date_trunc('milliseconds', clock_timestamp()) + interval '1 millisecond' AS now");
  await t.query("SELECT pg_sleep(0.002)");
  await act();
  const since = `updated_since=${encodeURIComponent(new Date(now).toISOString())}`;
  let fromCursor: string[] = [];
  let bySince: string[] = [];
  const ok = await eventually(
    async () => {
      fromCursor = (await walk(l, "sort=changed", start.cursor)).seen.map((e) => e.id);
      bySince = (await walk(l, since)).seen.map((e) => e.id);
      return bySince.length >= atLeast && bySince.every((id) => fromCursor.includes(id));
    },
    { timeoutMs: 15_000, everyMs: 50 },
  );
  expect(ok, `${fromCursor.length} entries after the cursor, ${bySince.length} since the instant`).toBe(true);
  expect(fromCursor.filter((id) => before.has(id))).toEqual([]); // nothing from before the cursor again
  expect(bySince.filter((id) => before.has(id))).toEqual([]);
}

describe("logs and ledgers walked by cursor (they only grow)", () => {
  it("the company's activity log and an employee's", async () => {
    const owner = await signupTenant(t);
    const e = await createEmployee(owner, { first_name: "Audit", last_name: "Trail" });
    await proveAppend(
      owner.agent,
      "/api/configuration/activity-log",
      async () => {
        await createEmployee(owner, { first_name: "New", last_name: "Hire" });
        await api(owner.agent)
          .op("updateEmployee", { params: { employeeId: e.id }, body: { designation: "Lead" } })
          .expect(200);
      },
      2,
    );
    await proveAppend(
      owner.agent,
      `/api/employees/${e.id}/activity-log`,
      async () =>
        void (await api(owner.agent)
          .op("updateEmployee", { params: { employeeId: e.id }, body: { designation: "Principal" } })
          .expect(200)),
      1,
    );
  });

  it("the leave ledger", async () => {
    const w = await leaveWorld(t);
    const type = await createType(w.hr.agent, { name: "Casual leave" });
    await grant(w.hr.agent, w.employeeId, type.id, "2");
    await proveAppend(
      w.hr.agent,
      "/api/leave-ledger",
      async () =>
        void (await api(w.hr.agent)
          .op("createLeaveAdjustment", { body: { employee_id: w.employeeId, leave_type_id: type.id, days: "1", reason: "Extra day" } })
          .expect(201)),
      1,
    );
  });
});

describe("more lists walked by cursor", () => {
  it("leave requests", async () => {
    const w = await leaveWorld(t);
    const type = await createType(w.hr.agent, { name: "Casual leave" });
    await grant(w.hr.agent, w.employeeId, type.id, "10");
    const monday = nextWeekday(addDays(today(), 14), 1);
    let week = 0;
    await proveWalk({
      agent: w.hr.agent,
      url: "/api/leave-requests",
      create: async () => {
        const d = addDays(monday, 7 * week++);
        const res = await api(w.employee.agent).op("createLeaveRequest", {
          body: { leave_type_id: type.id, from_date: d, to_date: d, reason: "Away" },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        return res.body.data.id;
      },
      change: async (id) =>
        void (await api(w.manager.agent)
          .op("updateLeaveRequest", { params: { id }, body: { status: "approved" } })
          .expect(200)),
    });
  });

  it("notifications", async () => {
    const owner = await signupTenant(t);
    await api(owner.agent)
      .op("updateCompanySettings", { body: { modules: ["helpdesk"] } })
      .expect(200);
    const member = await addMember(t, owner, "employee", { name: "Raising Member" });
    let n = 0;
    await proveWalk({
      agent: owner.agent,
      url: "/api/notifications",
      // the member raises a ticket: the owner (an agent) is told
      create: async () => {
        await api(member.agent)
          .op("createHelpdeskTicket", { body: { title: `Printer ${++n}`, category: "it", priority: "low", description: "Jammed" } })
          .expect(201);
        return (
          await api(owner.agent)
            .op("listNotifications", { query: { limit: 1 } })
            .expect(200)
        ).body.data[0].id;
      },
      change: async (id) =>
        void (await api(owner.agent)
          .op("markNotificationRead", { params: { notificationId: id } })
          .expect(200)),
    });
  });

  it("loans and advances, expense claims", async () => {
    const w = await payrollWorld(t);
    const empId = await payrollEmployee(t, w, "30000.00", { first_name: "Eli", last_name: "Employee" });
    const emp = await memberFor(t, w, empId);
    const loanType = (
      await api(w.hr.agent)
        .op("createLoanType", { body: { name: "Personal loan", max_amount: "100000.00", max_installments: 6, interest_rate: "12" } })
        .expect(201)
    ).body.data.id;
    await proveWalk({
      agent: w.hr.agent,
      url: "/api/payroll/loan-advances",
      create: async () =>
        (
          await api(emp.agent)
            .op("createLoanAdvance", { body: { loan_type_id: loanType, amount: "1000.00", installments: 2 } })
            .expect(201)
        ).body.data.id,
      change: async (id) =>
        void (await api(emp.agent)
          .op("updateLoanAdvance", { params: { id }, body: { installments: 3 } })
          .expect(200)),
    });
    const meals = (
      await api(w.hr.agent)
        .op("createExpenseCategory", { body: { name: "Meals", requires_receipt: false } })
        .expect(201)
    ).body.data.id;
    let n = 0;
    await proveWalk({
      agent: w.hr.agent,
      url: "/api/payroll/expense-claims",
      create: async () => {
        const res = await api(emp.agent).op("createExpenseClaim", {
          body: { category_id: meals, amount: `${100 + ++n}.00`, expense_date: today(), description: "Lunch" },
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        return res.body.data.id;
      },
      change: async (id) =>
        void (await api(w.hr.agent)
          .op("updateExpenseClaim", { params: { id }, body: { status: "approved" } })
          .expect(200)),
    });
  });
});
