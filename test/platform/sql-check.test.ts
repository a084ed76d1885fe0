// scripts/checks/check-sql.ts: the static half of "raw SQL cannot forget the tenant" (the runtime half is
// src/db/sql.ts, tested in tenancy.test.ts). Each rule is shown to catch what it is for.
import { describe, expect, it } from "vitest";
import { checkFile, checkSql } from "../../scripts/checks/check-sql.ts";

const tables = new Map([
  ["employees", { name: "employees", schema: "employees", tenantOwned: true, model: "employee" }],
  ["leave_requests", { name: "leave_requests", schema: "leave", tenantOwned: true, model: "leaveRequest" }],
  ["leave_types", { name: "leave_types", schema: "leave", tenantOwned: true, model: "leaveType" }],
  ["tenants", { name: "tenants", schema: "platform", tenantOwned: false, model: "tenant" }],
  ["memberships", { name: "memberships", schema: "platform", tenantOwned: true, model: "membership" }],
]);
const check = (file: string, body: string) =>
  checkFile(file, `import { sql, tenant, query } from "../../db/sql.ts";\n${body}\n`, tables).map((p) => p.message);

describe("check-sql", () => {
  it("rule 5: an area writes another area's models only through that area's index.ts, also through the ORM", () => {
    const write = "await tx.leaveRequest.updateMany({ where: { id }, data: { status: 'approved' } });";
    expect(check("src/modules/payroll/calculation.ts", write)).toEqual([
      "leaveRequest.updateMany: leave_requests belongs to another area; write it through that area's index.ts",
    ]);
    expect(check("src/modules/leave/requests.ts", write)).toEqual([]);
    // reads, the employee record and the platform's models stay open to every area
    expect(check("src/modules/payroll/calculation.ts", "await tx.leaveRequest.findMany({ where: { id } });")).toEqual([]);
    expect(check("src/modules/payroll/calculation.ts", "await tx.employee.update({ where: { id }, data: {} });")).toEqual([]);
    expect(check("src/modules/payroll/calculation.ts", "await tx.membership.deleteMany({ where: { id } });")).toEqual([]);
  });

  it("accepts statements that filter every tenant-owned table by the tenant", () => {
    expect(
      check(
        "src/modules/leave/queries.ts",
        "const a = sql`SELECT id FROM leave_requests WHERE tenant_id = ${tenant}::uuid AND id = ${id}`;",
      ),
    ).toEqual([]);
    expect(
      check(
        "src/modules/leave/queries.ts",
        "const a = sql`SELECT r.id FROM leave_requests r JOIN employees e ON e.tenant_id " +
          "= r.tenant_id AND e.id = r.employee_id WHERE r.tenant_id = ${tenant}::uuid`;",
      ),
    ).toEqual([]);
    expect(
      check("src/modules/leave/queries.ts", "const a = sql`INSERT INTO leave_types (tenant_id, name) VALUES (${tenant}::uuid, ${n})`;"),
    ).toEqual([]);
    expect(check("src/modules/leave/queries.ts", "const a = sql`SELECT name FROM tenants WHERE id = ${id}`;")).toEqual([]);
    expect(check("src/modules/leave/queries.ts", "const f = sql`AND status = ${s}`;")).toEqual([]);
  });

  it("refuses a tenant-owned table without the tenant filter, also when only another alias is filtered", () => {
    expect(check("src/modules/leave/queries.ts", "const a = sql`SELECT id FROM leave_requests WHERE id = ${id}`;")).toEqual([
      expect.stringMatching(/leave_requests is not filtered by the tenant/),
    ]);
    expect(
      check(
        "src/modules/leave/queries.ts",
        "const a = sql`SELECT r.id FROM leave_requests r JOIN employees e ON e.id = r.employee_id WHERE r.tenant_id = ${tenant}::uuid`;",
      ),
    ).toEqual([expect.stringMatching(/employees \(e\) is not filtered/)]);
    // a tenant id of the caller's choosing is not the active tenant
    expect(
      check("src/modules/leave/queries.ts", "const a = sql`SELECT id FROM leave_requests WHERE tenant_id = ${tenantId}::uuid`;"),
    ).toEqual([expect.stringMatching(/not filtered/)]);
    expect(
      check("src/modules/leave/queries.ts", "const a = sql`INSERT INTO leave_types (tenant_id, name) VALUES (${id}::uuid, ${n})`;"),
    ).toEqual([expect.stringMatching(/not filtered/)]);
  });

  it("keeps raw SQL of the areas in their query files, on src/db/sql.ts only", () => {
    expect(check("src/modules/leave/requests.ts", "const a = sql`SELECT 1 FROM leave_types WHERE tenant_id = ${tenant}::uuid`;")).toEqual([
      expect.stringMatching(/query file/),
    ]);
    expect(check("src/modules/leave/queries.ts", "await tx.$queryRaw`SELECT 1 FROM leave_types WHERE tenant_id = ${t}::uuid`;")).toEqual([
      expect.stringMatching(/\$queryRaw/),
    ]);
    expect(check("src/modules/leave/queries.ts", "await tx.$queryRawUnsafe(`SELECT 1 FROM ${table}`);")).toEqual([
      expect.stringMatching(/\$queryRawUnsafe/),
    ]);
    expect(check("src/modules/leave/queries.ts", "const f = Prisma.raw(alias);")).toEqual([expect.stringMatching(/Prisma.raw/)]);
    expect(check("src/modules/leave/queries.ts", 'import { tenantRead } from "../../db/tenancy.ts";')).toEqual([
      expect.stringMatching(/tenantRead/),
    ]);
  });

  it("keeps an area's statements on its own tables, the employee record and the platform's", () => {
    expect(
      check("src/modules/dashboard/queries.ts", "const a = sql`SELECT count(*) FROM leave_requests WHERE tenant_id = ${tenant}::uuid`;"),
    ).toEqual([expect.stringMatching(/belongs to the leave area/)]);
    expect(
      check("src/modules/dashboard/queries.ts", "const a = sql`SELECT count(*) FROM employees WHERE tenant_id = ${tenant}::uuid`;"),
    ).toEqual([]);
  });

  it("lets platform code work across tenants only where a statement says so", () => {
    expect(
      check("src/platform/jobs/sweep.ts", "await systemDb.$queryRaw`SELECT tenant_id FROM leave_requests WHERE status = 'queued'`;"),
    ).toEqual([expect.stringMatching(/not filtered/)]);
    expect(
      check(
        "src/platform/jobs/sweep.ts",
        "// cross-tenant: the sweep finds every tenant's queued work\nawait " +
          "systemDb.$queryRaw`SELECT tenant_id FROM leave_requests WHERE status = 'queued'`;",
      ),
    ).toEqual([]);
  });

  it("lockRows names a tenant-owned table", () => {
    expect(check("src/modules/leave/requests.ts", 'await lockRows(tx, "leave_requests", [id]);')).toEqual([]);
    expect(check("src/modules/leave/requests.ts", 'await lockRows(tx, "tenants", [id]);')).toEqual([
      expect.stringMatching(/not a tenant-owned table/),
    ]);
    expect(check("src/modules/leave/requests.ts", "await lockRows(tx, table, [id]);")).toEqual([expect.stringMatching(/string literal/)]);
  });

  it("reads the real schema", () => {
    expect(checkSql().statements).toBeGreaterThan(10);
  });
});
