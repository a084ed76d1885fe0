// The employee list: search over name / code / email / phone, filters, sorting, pagination.
import { beforeAll, describe, expect, it } from "vitest";
import { expectError, signupTenant, useTestApp, type TenantSession } from "../support/app.ts";
import { createEmployee, type Employee } from "../support/employees.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
let o: TenantSession;
const people: Record<string, Employee> = {};

beforeAll(async () => {
  o = await signupTenant(t);
  const specs: [string, Record<string, unknown>][] = [
    [
      "priya",
      {
        first_name: "Priya",
        last_name: "Sharma",
        email: "priya.sharma@acme.test",
        department: "Engineering",
        phone: "+91 98765 43210",
        joining_date: "2021-01-10",
      },
    ],
    ["rahul", { first_name: "Rahul", last_name: "Sharma", email: "rahul@acme.test", department: "Sales", joining_date: "2022-03-01" }],
    [
      "anna",
      { first_name: "Anna", last_name: "Andersson", email: "anna@acme.test", department: "Engineering", joining_date: "2020-06-15" },
    ],
    [
      "omar",
      {
        first_name: "Omar",
        last_name: "Haddad",
        email: "omar_h@acme.test",
        department: "Sales",
        phone: "+971 50 123 4567",
        joining_date: "2023-09-01",
      },
    ],
    [
      "zoe",
      {
        first_name: "Zoë",
        last_name: "Zimmer",
        email: "zoe@acme.test",
        department: "Finance",
        joining_date: "2019-02-01",
        status: "inactive",
      },
    ],
  ];
  for (const [key, spec] of specs) people[key] = await createEmployee(o, spec);
  // Another company's look-alike must never show up.
  const other = await signupTenant(t);
  await createEmployee(other, { first_name: "Priya", last_name: "Sharma", email: "priya.sharma@acme.test" });
});

// the searches are sent as clients encode them (raw query strings), so the answers are read by hand
const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((e) => e.id);
const list = async (qs: string) => o.agent.get(`/api/employees${qs}`).expect(200);

describe("listEmployees: search", () => {
  it("matches a part of the name, case-insensitively, and the full name", async () => {
    expect(ids(await list("?search=SHARM"))).toEqual([people.priya.id, people.rahul.id]);
    expect(ids(await list("?search=priya%20sha"))).toEqual([people.priya.id]);
    expect(ids(await list("?search=dersso"))).toEqual([people.anna.id]);
    expect(ids(await list("?search=zo%C3%AB"))).toEqual([people.zoe.id]);
  });

  it("matches the employee code, email and phone (with or without spaces)", async () => {
    expect(ids(await list(`?search=${people.omar.employee_code.toLowerCase()}`))).toEqual([people.omar.id]);
    expect(ids(await list(`?search=${encodeURIComponent("rahul@acme")}`))).toEqual([people.rahul.id]);
    expect(ids(await list("?search=98765%2043210"))).toEqual([people.priya.id]);
    expect(ids(await list("?search=9876543210"))).toEqual([people.priya.id]);
    expect(ids(await list("?search=501234567"))).toEqual([people.omar.id]);
  });

  it("treats LIKE wildcards literally", async () => {
    expect(ids(await list("?search=omar_"))).toEqual([people.omar.id]);
    expect(ids(await list("?search=%25"))).toEqual([]);
    expect(ids(await list("?search=_"))).toEqual([people.omar.id]);
  });

  it("orders and pages the matches of a search by every sort, with the total of all matches", async () => {
    // "acme" is in every e-mail: all five match
    const all = [people.priya, people.rahul, people.anna, people.omar, people.zoe];
    const by = (key: (e: Employee) => string, desc = false) =>
      [...all].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0) * (desc ? -1 : 1)).map((e) => e.id);
    const expected: Record<string, string[]> = {
      name: by((e) => `${e.last_name}\u0000${e.first_name}\u0000${e.id}`),
      "-name": by((e) => `${e.last_name}\u0000${e.first_name}\u0000${e.id}`, true),
      employee_code: by((e) => e.employee_code),
      "-employee_code": by((e) => e.employee_code, true),
      joining_date: by((e) => e.joining_date),
      "-joining_date": by((e) => e.joining_date, true),
    };
    for (const [sort, order] of Object.entries(expected)) {
      const first = await list(`?search=acme&sort=${sort}&limit=2&page=1`);
      const second = await list(`?search=acme&sort=${sort}&limit=2&page=2`);
      const third = await list(`?search=acme&sort=${sort}&limit=2&page=3`);
      expect([...ids(first), ...ids(second), ...ids(third)], sort).toEqual(order);
      expect(first.body.pagination, sort).toMatchObject({ total: 5, total_pages: 3 });
      expect(third.body.data[0], sort).toMatchObject({ view: "directory", id: order[4] });
    }
  });

  it("returns directory entries only", async () => {
    const res = await list("?search=priya");
    expect(res.body.data[0].view).toBe("directory");
    expect(res.body.data[0]).not.toHaveProperty("bank_account_number");
    expect(res.body.data[0]).not.toHaveProperty("date_of_birth");
    expect(res.body.data[0]).toMatchObject({ full_name: "Priya Sharma", phone: "+91 98765 43210", joining_date: "2021-01-10" });
  });
});

describe("listEmployees: filters, sorting, pagination", () => {
  it("filters by department, status and manager, combined with search", async () => {
    expect(ids(await list("?department=Engineering"))).toEqual([people.anna.id, people.priya.id]);
    expect(ids(await list("?status=inactive"))).toEqual([people.zoe.id]);
    expect(ids(await list("?department=Sales&search=sharma"))).toEqual([people.rahul.id]);
    expect(ids(await list("?department=engineering"))).toEqual([]);
    const report = await createEmployee(o, { first_name: "Rita", last_name: "Report", reports_to: people.anna.id });
    expect(ids(await list(`?reports_to=${people.anna.id}`))).toEqual([report.id]);
    await api(o.agent)
      .op("deleteEmployee", { params: { employeeId: report.id } })
      .expect(200);
  });

  it("sorts by the documented keys, ties broken by id", async () => {
    expect(ids(await list("?sort=name"))).toEqual([people.anna.id, people.omar.id, people.priya.id, people.rahul.id, people.zoe.id]);
    expect(ids(await list("?sort=-name"))).toEqual([people.zoe.id, people.rahul.id, people.priya.id, people.omar.id, people.anna.id]);
    expect(ids(await list("?sort=joining_date"))).toEqual([
      people.zoe.id,
      people.anna.id,
      people.priya.id,
      people.rahul.id,
      people.omar.id,
    ]);
    expect(ids(await list("?sort=-employee_code"))).toEqual([
      people.zoe.id,
      people.omar.id,
      people.anna.id,
      people.rahul.id,
      people.priya.id,
    ]);
    expect(ids(await list("?sort=created_at"))).toEqual([people.priya.id, people.rahul.id, people.anna.id, people.omar.id, people.zoe.id]);
    expectError(await o.agent.get("/api/employees?sort=salary"), 400, "validation_failed");
  });

  it("paginates with exact totals, also past the end", async () => {
    const p1 = await list("?limit=2");
    expect(p1.body.pagination).toEqual({ page: 1, limit: 2, total: 5, total_pages: 3 });
    const p3 = await list("?limit=2&page=3");
    expect(ids(p3)).toEqual([people.zoe.id]);
    expect(p3.body.pagination.total).toBe(5);
    const p9 = await list("?limit=2&page=9");
    expect(p9.body.data).toEqual([]);
    expect(p9.body.pagination).toEqual({ page: 9, limit: 2, total: 5, total_pages: 3 });
    const small = await list("?search=sharma&limit=5");
    expect(small.body.pagination).toEqual({ page: 1, limit: 5, total: 2, total_pages: 1 });
  });

  it("plain and per-department totals follow creates, moves and deletes", async () => {
    const total = async (qs: string) => (await list(qs)).body.pagination.total;
    const before = { all: await total(""), eng: await total("?department=Engineering"), legal: await total("?department=Legal") };
    const e = await createEmployee(o, { department: "Legal" });
    expect([await total(""), await total("?department=Legal")]).toEqual([before.all + 1, before.legal + 1]);
    await api(o.agent)
      .op("updateEmployee", { params: { employeeId: e.id }, body: { department: "Engineering", designation: "Counsel" } })
      .expect(200);
    expect([await total("?department=Legal"), await total("?department=Engineering")]).toEqual([before.legal, before.eng + 1]);
    await api(o.agent)
      .op("deleteEmployee", { params: { employeeId: e.id } })
      .expect(200);
    expect([await total(""), await total("?department=Engineering")]).toEqual([before.all, before.eng]);
    // The kept totals equal a real count.
    const [{ n }] = await t.query(`SELECT count(*)::int AS n FROM employees WHERE tenant_id = $1 AND deleted_at IS NULL`, [o.tenantId]);
    expect(await total("")).toBe(n);
  });

  it("rejects out-of-range paging and unknown parameters", async () => {
    for (const qs of [
      "?page=0",
      "?limit=0",
      "?limit=101",
      "?status=retired",
      "?salary=1",
      `?search=${"x".repeat(101)}`,
      "?reports_to=nope",
    ]) {
      expectError(await o.agent.get(`/api/employees${qs}`), 400, "validation_failed");
    }
  });
});
