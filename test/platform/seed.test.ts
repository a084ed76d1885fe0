// `make seed` (scripts/db/seed.ts → scripts/db/seed-demo.ts): the demo company built through the API of
// the file's app (responses validated against the document), twice - the second run adds nothing
// and the company is the same - then each printed sign-in works with its role. A smaller company
// than the demo's 200 employees keeps the test's cost modest; the sections are the same.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer } from "../../src/http/server.ts";
import { FIRST, type SeedResult, seedDemo } from "../../scripts/db/seed-demo.ts";
import * as clock from "../../src/lib/clock.ts";
import { useTestApp } from "../support/app.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer(t.app);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  return new Promise<void>((r) => server.close(() => r()));
});

/** What a visitor of the demo would count, per table of the company. */
async function census(tenantId: string) {
  const n = async (sql: string) => (await t.query<{ n: number }>(sql.replace("$T", "tenant_id = $1"), [tenantId]))[0].n;
  const states = async (table: string) =>
    Object.fromEntries(
      (
        await t.query<{ status: string; n: number }>(`SELECT status, count(*)::int AS n FROM ${table} WHERE tenant_id = $1 GROUP BY 1`, [
          tenantId,
        ])
      ).map((r) => [r.status, r.n]),
    );
  return {
    employees: await n("SELECT count(*)::int AS n FROM employees WHERE $T AND deleted_at IS NULL"),
    managed: await n("SELECT count(*)::int AS n FROM employees WHERE $T AND reports_to IS NOT NULL"),
    members: await n("SELECT count(*)::int AS n FROM memberships WHERE $T"),
    branches: await n("SELECT count(*)::int AS n FROM branches WHERE $T"),
    holidays: await n("SELECT count(*)::int AS n FROM holidays WHERE $T"),
    allocations: await n("SELECT count(*)::int AS n FROM leave_allocations WHERE $T"),
    leave: await states("leave_requests"),
    attendance: await n("SELECT count(*)::int AS n FROM attendance_records WHERE $T"),
    setups: await n("SELECT count(DISTINCT employee_id)::int AS n FROM employee_salary_setups WHERE $T"),
    runs: await states("payroll_runs"),
    slips: await n("SELECT count(*)::int AS n FROM payroll_slips WHERE $T"),
    loans: await n("SELECT count(*)::int AS n FROM loan_advances WHERE $T"),
    claims: await n("SELECT count(*)::int AS n FROM expense_claims WHERE $T"),
    candidates: await n("SELECT count(*)::int AS n FROM candidates WHERE $T"),
    offers: await states("job_offers"),
    tickets: await n("SELECT count(*)::int AS n FROM helpdesk_tickets WHERE $T"),
    assets: await n("SELECT count(*)::int AS n FROM assets WHERE $T"),
    assigned: await n("SELECT count(*)::int AS n FROM asset_assignments WHERE $T"),
    credentials: await n("SELECT count(*)::int AS n FROM api_credentials WHERE $T AND revoked_at IS NULL"),
    endpoints: await n("SELECT count(*)::int AS n FROM webhook_endpoints WHERE $T AND NOT enabled"),
    declarations: await n("SELECT count(*)::int AS n FROM tax_declarations WHERE $T"),
    // processed slips that withheld income tax (the chief executive's, at least)
    taxed: await n("SELECT count(*)::int AS n FROM payroll_slips WHERE $T AND income_tax > 0"),
  };
}

describe("make seed: the demo company", () => {
  let first: SeedResult;

  it("builds a company with every area filled, through the API", async () => {
    first = await seedDemo({ baseUrl: base, query: t.query, employees: 16 });
    expect(first.employees).toBe(16);
    const c = await census(first.tenantId);
    expect(c).toMatchObject({ employees: 16, members: 4, branches: 3, setups: 16, offers: { sent: 1 }, credentials: 1, endpoints: 1 });
    // the API credential works (its secret is printed once)
    const bearer = await fetch(`${base}/api/employees?limit=1`, { headers: { authorization: `Bearer ${first.credentialSecret}` } });
    expect(bearer.status).toBe(200);
    expect(c.managed).toBe(15); // everyone but the chief executive has a manager
    expect(Object.keys(c.leave).sort()).toEqual(["approved", "cancelled", "pending", "rejected"]);
    expect(c.runs).toEqual({ processed: 1, draft: 1 });
    for (const k of [
      "holidays",
      "allocations",
      "attendance",
      "slips",
      "loans",
      "claims",
      "candidates",
      "tickets",
      "assets",
      "assigned",
      "declarations",
      "taxed",
    ] as const)
      expect(c[k], k).toBeGreaterThan(0);
    const [settings] = await t.query<{ modules: string[] }>("SELECT modules FROM tenants WHERE id = $1", [first.tenantId]);
    expect([...settings.modules].sort()).toEqual(["assets", "helpdesk", "payroll", "recruitment"]);
  });

  it("is idempotent: a second run adds nothing and leaves the same company", async () => {
    const before = await census(first.tenantId);
    const second = await seedDemo({ baseUrl: base, query: t.query, employees: 16 });
    expect(second.tenantId).toBe(first.tenantId);
    expect(
      Object.values(second.added).every((n) => n === 0),
      JSON.stringify(second.added),
    ).toBe(true);
    expect(await census(first.tenantId)).toEqual(before);
    expect(second.signIns).toEqual(first.signIns);
  });

  it("prints sign-ins for an owner, an hr, a manager and an employee that work", async () => {
    expect(first.signIns.map((s) => s.role)).toEqual(["owner", "hr", "manager", "employee"]);
    for (const s of first.signIns) {
      const agent = t.request();
      const res = await api(agent).op("signIn", { body: { email: s.email, password: s.password } });
      expect(res.status, s.email).toBe(200);
      expect(res.body.data.active_tenant_id).toBe(first.tenantId);
      expect(res.body.data.tenants.find((x: { id: string }) => x.id === first.tenantId).role).toBe(s.role);
    }
    // the manager sees the demo employee's leave request waiting for a decision
    const manager = first.signIns[2];
    const agent = t.request();
    await api(agent)
      .op("signIn", { body: { email: manager.email, password: manager.password } })
      .expect(200);
    const pending = await api(agent)
      .op("listLeaveRequests", { query: { status: "pending" } })
      .expect(200);
    expect(pending.body.data.length).toBeGreaterThan(0);
  });

  it("is believable: each first name's gender, gendered leave only to that gender, working ages, one code series", async () => {
    const people = await t.query<{
      first_name: string;
      gender: string;
      date_of_birth: string;
      joining_date: string;
      employee_code: string;
      id: string;
    }>("SELECT id, first_name, gender, date_of_birth::text, joining_date::text, employee_code FROM employees WHERE tenant_id = $1", [
      first.tenantId,
    ]);
    const genderOf = new Map<string, string>(FIRST);
    // the table itself: names a reader knows (the seed once gave every name the opposite gender)
    for (const [name, g] of [
      ["Karthik", "male"],
      ["Rohan", "male"],
      ["Rahul", "male"],
      ["Sneha", "female"],
      ["Priya", "female"],
      ["Neha", "female"],
    ])
      expect(genderOf.get(name), name).toBe(g);
    for (const p of people) expect(p.gender, p.first_name).toBe(genderOf.get(p.first_name));
    const years = (from: string, to: string) => (Date.parse(to) - Date.parse(from)) / (365.25 * 86_400_000);
    const today = new Date(clock.nowMs()).toISOString().slice(0, 10);
    for (const p of people) {
      expect(years(p.date_of_birth, p.joining_date), `${p.first_name} joined at`).toBeGreaterThanOrEqual(18);
      expect(years(p.date_of_birth, today), `${p.first_name} is`).toBeLessThan(60);
    }
    // leave of a type for one gender (maternity) is allocated and requested by that gender only
    const mismatched = await t.query(
      `SELECT e.first_name, e.gender, t.name FROM leave_allocations a JOIN employees e ON e.tenant_id = a.tenant_id AND e.id = a.employee_id
         JOIN leave_types t ON t.tenant_id = a.tenant_id AND t.id = a.leave_type_id
        WHERE a.tenant_id = $1 AND cardinality(t.applicable_genders) > 0 AND NOT (e.gender = ANY (t.applicable_genders))
       UNION ALL
       SELECT e.first_name, e.gender, t.name FROM leave_requests r JOIN employees e ON e.tenant_id = r.tenant_id AND e.id = r.employee_id
         JOIN leave_types t ON t.tenant_id = r.tenant_id AND t.id = r.leave_type_id
        WHERE r.tenant_id = $1 AND cardinality(t.applicable_genders) > 0 AND NOT (e.gender = ANY (t.applicable_genders))`,
      [first.tenantId],
    );
    expect(mismatched).toEqual([]);
    const maternity = await t.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM leave_allocations a JOIN leave_types t ON t.tenant_id = a.tenant_id AND t.id = a.leave_type_id
        WHERE a.tenant_id = $1 AND t.code = 'ML'`,
      [first.tenantId],
    );
    expect(maternity[0].n).toBe(people.filter((p) => p.gender === "female").length);
    // the company's one code series, which an import without codes continues
    const codes = people.map((p) => p.employee_code).sort();
    expect(
      codes.every((c) => /^EMP-\d{5}$/.test(c)),
      codes.join(" "),
    ).toBe(true);
    const owner = t.request();
    await api(owner)
      .op("signIn", { body: { email: first.signIns[0].email, password: first.signIns[0].password } })
      .expect(200);
    const csv =
      "first_name,last_name,email,department,designation,joining_date\n" +
      "Anita,Import,anita.import@acme.example,Engineering,Engineer,2024-01-15\n";
    await api(owner).op("importEmployees", { body: { csv } }).expect(201);
    const [imported] = await t.query<{ employee_code: string }>("SELECT employee_code FROM employees WHERE tenant_id = $1 AND email = $2", [
      first.tenantId,
      "anita.import@acme.example",
    ]);
    expect(imported.employee_code).toBe(`EMP-${String(people.length + 1).padStart(5, "0")}`);
  });

  it("/docs' signIn is pre-filled with the demo owner once the demo exists", async () => {
    const doc = (await t.request().get("/docs/reference.json").expect(200)).body;
    expect(doc.paths["/api/auth/sign-in"].post.requestBody.content["application/json"].example).toEqual({
      email: first.signIns[0].email,
      password: first.signIns[0].password,
    });
  });
});
