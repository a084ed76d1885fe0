// Professional-tax states are validated: an employee's state,
// a salary setup's pt_state and the states of the professional-tax slabs take an Indian state or
// union territory by name or ISO 3166-2:IN code (stored as the name) - a code like `MH` used to be
// stored as given and a misspelling silently deducted nothing; anything else is now a 400.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { expectDetails, expectError, signupTenant, useTestApp } from "../support/app.ts";
import { createEmployee, employeeInput } from "../support/employees.ts";
import { payrollEmployee, payrollWorld } from "./fixtures.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
const MIGRATION = path.resolve(import.meta.dirname, "../../prisma/migrations/20261125174016_indian_state_names/migration.sql");
const SLABS = [{ gender: "any", min_salary: "0.00", max_salary: null, monthly_amount: "200.00", february_amount: "300.00" }];

describe("createEmployee, updateEmployee, setEmployeeSalarySetup, updateProfessionalTaxSettings: Indian states", () => {
  it("stores a code as the state's name and refuses a misspelling, naming the field", async () => {
    const o = await signupTenant(t);
    const e = await createEmployee(o, { state: "MH" });
    expect(e.state).toBe("Maharashtra");
    const bad = expectDetails(await o.agent.post("/api/employees").send(employeeInput({ state: "Maharastra" })), 400, "validation_failed");
    expect(bad.details.map((d: { path: string }) => d.path)).toContain("body.state");
    expect(
      (
        await api(o.agent)
          .op("updateEmployee", { params: { employeeId: e.id }, body: { state: "TS" } })
          .expect(200)
      ).body.data.state,
    ).toBe("Telangana");
    expectError(await o.agent.put(`/api/employees/${e.id}`).send({ state: "Dubai" }), 400, "validation_failed");
    expect(
      (
        await api(o.agent)
          .op("updateEmployee", { params: { employeeId: e.id }, body: { state: null } })
          .expect(200)
      ).body.data.state,
    ).toBeNull();
  });

  it("professional-tax slabs and a setup's pt_state take codes too; a code and its name are the same state", async () => {
    const w = await payrollWorld(t);
    const pt = "/api/configuration/payroll/professional-tax";
    const saved = await w.owner.agent
      .post(pt)
      .send({ states: [{ state: "KA", slabs: SLABS }] })
      .expect(200);
    expect(saved.body.data.states).toEqual([{ state: "Karnataka", slabs: SLABS }]);
    const dup = expectDetails(
      await w.owner.agent.post(pt).send({
        states: [
          { state: "Karnataka", slabs: SLABS },
          { state: "KA", slabs: SLABS },
        ],
      }),
      400,
      "validation_failed",
    );
    expect(dup.details[0].path).toBe("body.states.1.state");
    expectError(await w.owner.agent.post(pt).send({ states: [{ state: "Karnatak", slabs: SLABS }] }), 400, "validation_failed");
    const id = await payrollEmployee(t, w, "40000.00");
    const setup = await api(w.hr.agent)
      .op("setEmployeeSalarySetup", {
        params: { employeeId: id },
        body: { effective_from: "2024-04-01", monthly_ctc: "40000.00", pt_state: "KA" },
      })
      .expect(200);
    expect(JSON.stringify(setup.body.data)).toContain('"pt_state":"Karnataka"');
    expectError(
      await w.hr.agent
        .put(`/api/payroll/employee-setup/${id}`)
        .send({ effective_from: "2024-04-01", monthly_ctc: "40000.00", pt_state: "Karnatka" }),
      400,
      "validation_failed",
    );
  });

  it("the migration stores codes and other spellings of a state as its name and leaves unknown values", async () => {
    const o = await signupTenant(t);
    const ids = [await createEmployee(o), await createEmployee(o), await createEmployee(o)].map((e) => e.id);
    for (const [i, raw] of ["mh", " maharashtra ", "Maharastra"].entries())
      await t.query("UPDATE employees SET state = $2 WHERE id = $1", [ids[i], raw]);
    await t.query(
      `INSERT INTO tenant_settings (tenant_id, kind, settings) VALUES ($1, 'pt', $2)
       ON CONFLICT (tenant_id, kind) DO UPDATE SET settings = EXCLUDED.settings`,
      [
        o.tenantId,
        JSON.stringify({
          enabled: true,
          states: [
            { state: "ka", slabs: SLABS },
            { state: "Nowhere", slabs: SLABS },
          ],
        }),
      ],
    );
    await t.query(readFileSync(MIGRATION, "utf8"));
    const rows = await t.query<{ id: string; state: string }>("SELECT id, state FROM employees WHERE id = ANY($1)", [ids]);
    expect(Object.fromEntries(rows.map((r) => [r.id, r.state]))).toEqual({
      [ids[0]]: "Maharashtra",
      [ids[1]]: "Maharashtra",
      [ids[2]]: "Maharastra",
    });
    const [settings] = await t.query<{ settings: { states: { state: string }[] } }>(
      "SELECT settings FROM tenant_settings WHERE tenant_id = $1 AND kind = 'pt'",
      [o.tenantId],
    );
    expect(settings.settings.states.map((s) => s.state)).toEqual(["Karnataka", "Nowhere"]);
  });
});
