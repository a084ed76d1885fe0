// A salary formula can no longer overflow. A formula is checked against the
// largest amount (999 999 999 999.99, what a salary figure's column holds) when it is saved; a
// salary setup is calculated before it is saved and refused when a figure would not fit; a setup
// already stored with figures out of range still reads back (200, `calculation_error`), and a run
// names the employee and component it cannot calculate.
import { beforeAll, describe, expect, it } from "vitest";
import { expectDetails, expectError, useTestApp } from "../support/app.ts";
import { payrollEmployee, payrollWorld, type PayrollWorld } from "./fixtures.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
let w: PayrollWorld;
let emp: string;
const components = () => w.hr.agent.post("/api/payroll/salary-components");

beforeAll(async () => {
  w = await payrollWorld(t);
  emp = await payrollEmployee(t, w, "40000.00", { first_name: "Maya", last_name: "Iyer", employee_code: "LIM-001" });
});

describe("createSalaryComponent, updateSalaryComponent: formulas checked against the largest amount", () => {
  it("a formula multiplying large constants is a 400 naming formula, on create and on update; nothing is saved", async () => {
    const e = expectDetails(
      await components().send({
        name: "Huge",
        code: "HUGE",
        type: "earning",
        calculation: "formula",
        formula: "999999999 * 999999999 * CTC",
      }),
      400,
      "validation_failed",
    );
    expect(e.details[0].path).toBe("body.formula");
    expect(e.details[0].message).toContain("999999999999.99");
    const list = await api(w.hr.agent).op("listSalaryComponents").expect(200);
    expect(list.body.data.map((c) => c.code)).not.toContain("HUGE");

    for (const formula of ["999999999 * 999999999 * CTC", "BASIC * CTC", "CTC / 0.001", "CTC * 2"]) {
      const u = expectDetails(
        await api(w.hr.agent).op("updateSalaryComponent", { params: { id: w.components.HRA }, body: { formula } }),
        400,
        "validation_failed",
      );
      expect(u.details[0].path, formula).toBe("body.formula");
    }
    const hra = await api(w.hr.agent)
      .op("getSalaryComponent", { params: { id: w.components.HRA } })
      .expect(200);
    expect(hra.body.data.formula).toBe("BASIC * 0.4");
  });

  it("ordinary formulas - shares of CTC, sums of amounts, min/max - are still accepted", async () => {
    const conv = await components().send({ name: "Conveyance", code: "CONV", type: "earning", calculation: "fixed", active: false });
    expect(conv.status).toBe(201);
    const bonus = await components().send({
      name: "Bonus",
      code: "BONUS",
      type: "earning",
      calculation: "formula",
      formula: "round(BASIC * 0.2, 2) + CONV + max(0, CTC - BASIC - HRA - 1600)",
      active: false,
    });
    expect(bonus.status).toBe(201);
    await api(w.hr.agent)
      .op("deleteSalaryComponent", { params: { id: bonus.body.data.id } })
      .expect(200);
    await api(w.hr.agent)
      .op("deleteSalaryComponent", { params: { id: conv.body.data.id } })
      .expect(200);
  });

  it("a default amount beyond the largest amount is a 400 naming amount", async () => {
    const e = expectDetails(
      await components().send({ name: "Too much", code: "TOOMUCH", type: "earning", calculation: "fixed", amount: "1000000000000.00" }),
      400,
      "validation_failed",
    );
    expect(e.details[0].path).toBe("body.amount");
  });
});

describe("setEmployeeSalarySetup, getEmployeeSalarySetup: a setup that cannot be calculated is never saved", () => {
  it("a setup whose component would exceed the largest amount is a 400 and nothing is saved (GET still shows the old one)", async () => {
    // a sum of two amounts passes the formula check (each amount may be the largest), but not every setup fits
    const extra = await components().send({ name: "Extra", code: "EXTRA", type: "earning", calculation: "fixed", amount: "0.00" });
    expect(extra.status).toBe(201);
    const top = await components().send({ name: "Top up", code: "TOPUP", type: "earning", calculation: "formula", formula: "CTC + EXTRA" });
    expect(top.status).toBe(201);
    const before = await api(w.hr.agent)
      .op("getEmployeeSalarySetup", { params: { employeeId: emp } })
      .expect(200);
    const e = expectError(
      await api(w.hr.agent).op("setEmployeeSalarySetup", {
        params: { employeeId: emp },
        body: {
          effective_from: "2024-04-01",
          monthly_ctc: "900000000000.00",
          components: [
            { component_id: w.components.BASIC },
            { component_id: extra.body.data.id, amount: "900000000000.00" },
            { component_id: top.body.data.id },
          ],
        },
      }),
      400,
      "validation_failed",
    );
    expect(e.error).toContain("TOPUP");
    const after = await api(w.hr.agent)
      .op("getEmployeeSalarySetup", { params: { employeeId: emp } })
      .expect(200);
    expect(after.body.data).toEqual(before.body.data);
    // a CTC the column cannot hold: a 400 naming monthly_ctc (not a database error)
    const c = expectDetails(
      await api(w.hr.agent).op("setEmployeeSalarySetup", {
        params: { employeeId: emp },
        body: { effective_from: "2024-04-01", monthly_ctc: "1000000000000.00" },
      }),
      400,
      "validation_failed",
    );
    expect(c.details[0].path).toBe("body.monthly_ctc");
    expect(
      (
        await api(w.hr.agent)
          .op("getEmployeeSalarySetup", { params: { employeeId: emp } })
          .expect(200)
      ).body.data,
    ).toEqual(before.body.data);
    await api(w.hr.agent)
      .op("deleteSalaryComponent", { params: { id: top.body.data.id } })
      .expect(200);
    await api(w.hr.agent)
      .op("deleteSalaryComponent", { params: { id: extra.body.data.id } })
      .expect(200);
  });

  it("createPayrollRun: a draft run is unaffected by the refused formulas and setups", async () => {
    const run = await api(w.hr.agent)
      .op("createPayrollRun", { body: { period: "2026-03" } })
      .expect(201);
    expect(run.body.data.employee_count).toBe(1);
    expect(run.body.data.total_gross).toBe("40000.00");
    await api(w.hr.agent)
      .op("deletePayrollRun", { params: { id: run.body.data.id } })
      .expect(200);
  });

  it("a setup stored before these checks with a figure out of range reads back (calculation_error); a run names it (400)", async () => {
    const other = await payrollEmployee(t, w, "50000.00", { first_name: "Old", last_name: "Data", employee_code: "LIM-002" });
    // as the formula of the report was stored before the check existed
    await t.query(`UPDATE salary_components SET formula = '999999999 * 999999999 * CTC' WHERE id = $1`, [w.components.HRA]);
    try {
      const got = await api(w.hr.agent)
        .op("getEmployeeSalarySetup", { params: { employeeId: other } })
        .expect(200);
      expect(got.body.data.current!.calculation_error).toContain("HRA");
      expect(got.body.data.current!.monthly_gross).toBe("0.00");
      const run = expectError(await api(w.hr.agent).op("createPayrollRun", { body: { period: "2026-04" } }), 400, "validation_failed");
      expect(run.error).toMatch(/LIM-00[12]/);
      expect(run.error).toContain("HRA");
    } finally {
      await t.query(`UPDATE salary_components SET formula = 'BASIC * 0.4' WHERE id = $1`, [w.components.HRA]);
    }
    const ok = await api(w.hr.agent)
      .op("getEmployeeSalarySetup", { params: { employeeId: other } })
      .expect(200);
    expect(ok.body.data.current!.calculation_error).toBeNull();
  });
});
