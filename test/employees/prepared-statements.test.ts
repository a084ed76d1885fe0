// The hottest reads run as server-side prepared statements (src/db/tenancy.ts tenantRead,
// tenantPreparedRead). A migration applied while servers run (a rolling deploy adds a column)
// must not break them: PostgreSQL refuses a prepared statement whose result type changed
// ("cached plan must not change result type"), so these statements name their columns.
import pg from "pg";
import { beforeAll, describe, expect, it, vi } from "vitest";
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

describe("the profile read is one statement", () => {
  it("an employee on notice: the record, the member account and the exit with its checklist in one round trip", async () => {
    const leaving = (await createEmployee(o, { first_name: "Leav", last_name: "Ing" })).id;
    const exit = (
      await api(o.agent)
        .op("submitResignation", {
          params: { employeeId: leaving },
          body: { resignation_date: "2024-05-02", last_working_day: "2024-06-01", reason: "Moving on" },
        })
        .expect(201)
    ).body.data;
    const after = (
      await api(o.agent)
        .op("updateExitChecklistItem", {
          params: { employeeId: leaving, itemId: exit.checklist[1].id },
          body: { status: "done", notes: "Handed over" },
        })
        .expect(200)
    ).body.data;
    // every statement the server sends that reads an employee or an exit
    const spy = vi.spyOn(pg.Client.prototype, "query");
    try {
      const profile = (
        await api(o.agent)
          .op("getEmployee", { params: { employeeId: leaving } })
          .expect(200)
      ).body.data;
      if (profile.view !== "full") throw new Error("the owner reads the complete record");
      expect(profile.exit).toEqual(after);
      expect(profile.exit?.checklist[1]).toMatchObject({ status: "done", notes: "Handed over", completed_by: o.userId });
      const texts = spy.mock.calls.map(([q]) => (typeof q === "string" ? q : ((q as { text?: string }).text ?? "")));
      expect(texts.filter((q) => /\b(employees|employee_exits|exit_checklist_items)\b/.test(q))).toHaveLength(1);
    } finally {
      spy.mockRestore();
    }
  });
});
