// The hottest reads run as server-side prepared statements (src/db/tenancy.ts tenantRead,
// tenantPreparedRead). A migration applied while servers run (a rolling deploy adds a column)
// must not break them: PostgreSQL refuses a prepared statement whose result type changed
// ("cached plan must not change result type"), so these statements name their columns.
import { beforeAll, describe, expect, it } from "vitest";
import { signupTenant, useTestApp, type TenantSession } from "../support/app.ts";
import { createEmployee } from "../support/employees.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
let o: TenantSession;
let id: string;

beforeAll(async () => {
  o = await signupTenant(t);
  id = (await createEmployee(o, { first_name: "Prep", last_name: "Ared" })).id;
});

describe("prepared reads across a schema change", () => {
  it("the profile read keeps working after a column is added to employees", async () => {
    // enough reads that every connection of the pool (10) has prepared the statement
    for (let i = 0; i < 30; i++)
      await api(o.agent)
        .op("getEmployee", { params: { employeeId: id } })
        .expect(200);
    await t.query(`ALTER TABLE employees ADD COLUMN added_by_a_later_release text`);
    try {
      for (let i = 0; i < 30; i++) {
        const res = await api(o.agent).op("getEmployee", { params: { employeeId: id } });
        expect(res.status).toBe(200);
        expect(res.body.data).not.toHaveProperty("added_by_a_later_release");
      }
    } finally {
      await t.query(`ALTER TABLE employees DROP COLUMN added_by_a_later_release`);
    }
  });
});
