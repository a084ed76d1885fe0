// Salary components (formula checks, cycles, codes in use) and employee salary setups.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { addMember, expectDetails, expectError, useTestApp } from "../support/app.ts";
import { payrollEmployee, payrollWorld, type PayrollWorld } from "./fixtures.ts";

const t = useTestApp();
let w: PayrollWorld;
const post = (body: Record<string, unknown>) => w.hr.agent.post("/api/payroll/salary-components").send(body);

beforeAll(async () => {
  w = await payrollWorld(t);
});

describe(
  "listSalaryComponents, createSalaryComponent, getSalaryComponent, " + "updateSalaryComponent, deleteSalaryComponent: salary components",
  () => {
    it("creates fixed and formula components, lists in slip order, audits", async () => {
      const c = await post({
        name: "Conveyance",
        code: "conv",
        type: "earning",
        calculation: "fixed",
        amount: "1600.00",
        esi_applicable: false,
        position: 5,
      }).expect(201);
      expect(c.body.data).toMatchObject({
        code: "CONV",
        amount: "1600.00",
        formula: null,
        pf_wage: false,
        esi_applicable: false,
        depends_on_payment_days: true,
        active: true,
      });
      const list = await api(w.hr.agent).op("listSalaryComponents").expect(200);
      expect(list.body.data.map((x) => x.code)).toEqual(["BASIC", "HRA", "SPECIAL", "CONV"]);
      const u = await api(w.hr.agent)
        .op("updateSalaryComponent", { params: { id: c.body.data.id }, body: { amount: "1800.00", active: false } })
        .expect(200);
      expect(u.body.data).toMatchObject({ amount: "1800.00", active: false });
      expect(
        (
          await api(w.hr.agent)
            .op("listSalaryComponents", { query: { active: true } })
            .expect(200)
        ).body.data.map((x) => x.code),
      ).not.toContain("CONV");
      const log = await api(w.owner.agent)
        .op("listActivityLog", { query: { entity_id: c.body.data.id } })
        .expect(200);
      expect(log.body.data.map((e) => e.action)).toEqual(["salary_component.updated", "salary_component.created"]);
      await api(w.hr.agent)
        .op("deleteSalaryComponent", { params: { id: c.body.data.id } })
        .expect(200);
    });

    it("refuses invalid formulas with a 400 naming the field", async () => {
      for (const [formula, text] of [
        ["BASIC * (0.1", 'expected ")"'],
        ["BASIC ** 2", "unexpected"],
        ["import('fs')", "position"],
        ["BONUS + 1", "unknown component code BONUS"],
        ["DA * 2", "its own component DA"],
        ["sqrt(BASIC)", "unknown function sqrt"],
      ]) {
        const e = expectDetails(
          await post({ name: `Dearness ${formula}`, code: "DA", type: "earning", calculation: "formula", formula }),
          400,
          "validation_failed",
        );
        expect(e.details[0].path, formula).toBe("body.formula");
        expect(e.details[0].message, formula).toContain(text);
      }
      expect(
        expectDetails(await post({ name: "No formula", code: "NF", type: "earning", calculation: "formula" }), 400).details[0].path,
      ).toBe("body.formula");
      expect(
        expectDetails(
          await post({ name: "Both", code: "BOTH", type: "earning", calculation: "formula", formula: "1", amount: "1.00" }),
          400,
        ).details[0].path,
      ).toBe("body.amount");
      expect(
        expectDetails(await post({ name: "Reserved", code: "ctc", type: "earning", calculation: "fixed", amount: "1.00" }), 400).details[0]
          .path,
      ).toBe("body.code");
      expectError(await post({ name: "Bad code", code: "1X", type: "earning", calculation: "fixed" }), 400, "validation_failed");
      expectError(await post({ name: "Basic", code: "BASIC2", type: "earning", calculation: "fixed" }), 409, "conflict");
      expectError(await post({ name: "Basic two", code: "basic", type: "earning", calculation: "fixed" }), 409, "conflict");
    });

    it("refuses cycles between formula components, also through an update", async () => {
      const x = await post({ name: "X", code: "X", type: "earning", calculation: "formula", formula: "BASIC * 0.1" }).expect(201);
      const y = await post({ name: "Y", code: "Y", type: "earning", calculation: "formula", formula: "X + 100" }).expect(201);
      const e = expectDetails(
        await api(w.hr.agent).op("updateSalaryComponent", { params: { id: x.body.data.id }, body: { formula: "Y * 2" } }),
        400,
        "validation_failed",
      );
      expect(e.details[0]).toEqual({ path: "body.formula", message: "creates a cycle between formula components: X → Y → X" });
      const e2 = expectDetails(
        await api(w.hr.agent).op("updateSalaryComponent", { params: { id: w.components.BASIC }, body: { formula: "Y - 100" } }),
        400,
        "validation_failed",
      );
      expect(e2.details[0].message).toContain("cycle");
      // a code in use cannot change and the component cannot be deleted
      expectError(
        await api(w.hr.agent).op("updateSalaryComponent", { params: { id: x.body.data.id }, body: { code: "XX" } }),
        409,
        "conflict",
      );
      expectError(await api(w.hr.agent).op("deleteSalaryComponent", { params: { id: x.body.data.id } }), 409, "conflict");
      await api(w.hr.agent)
        .op("deleteSalaryComponent", { params: { id: y.body.data.id } })
        .expect(200);
      await api(w.hr.agent)
        .op("deleteSalaryComponent", { params: { id: x.body.data.id } })
        .expect(200);
    });

    it("updates only the given fields: flags left out keep their values (no create defaults); {} is a 400", async () => {
      const c = await post({
        name: "Overtime",
        code: "OT",
        type: "earning",
        calculation: "fixed",
        amount: "500.00",
        pf_wage: true,
        esi_applicable: false,
        depends_on_payment_days: false,
      }).expect(201);
      const flags = { pf_wage: true, esi_applicable: false, depends_on_payment_days: false };
      expect(c.body.data).toMatchObject(flags);
      const u = await api(w.hr.agent)
        .op("updateSalaryComponent", { params: { id: c.body.data.id }, body: { name: "Overtime pay" } })
        .expect(200);
      expect(u.body.data).toMatchObject({ name: "Overtime pay", amount: "500.00", ...flags });
      expect(
        (
          await api(w.hr.agent)
            .op("getSalaryComponent", { params: { id: c.body.data.id } })
            .expect(200)
        ).body.data,
      ).toMatchObject(flags);
      const log = await api(w.owner.agent)
        .op("listActivityLog", { query: { entity_id: c.body.data.id } })
        .expect(200);
      expect(Object.keys(log.body.data[0].changes ?? {})).toEqual(["name"]);
      expectError(
        await api(w.hr.agent).op("updateSalaryComponent", { params: { id: c.body.data.id }, body: {} }),
        400,
        "validation_failed",
      );
      expectError(
        await api(w.hr.agent).op("updateSalaryComponent", { params: { id: c.body.data.id }, body: { amount: "-1.00" } }),
        400,
        "validation_failed",
      ); // non-negative, as on create
      await api(w.hr.agent)
        .op("deleteSalaryComponent", { params: { id: c.body.data.id } })
        .expect(200);
    });

    it("is for owner/admin/hr only", async () => {
      const emp = await addMember(t, w.owner, "employee");
      expectError(await api(emp.agent).op("listSalaryComponents"), 403, "forbidden");
      expectError(
        await api(emp.agent).op("createSalaryComponent", { body: { name: "Z", code: "Z", type: "earning", calculation: "fixed" } }),
        403,
        "forbidden",
      );
    });
  },
);

describe("getEmployeeSalarySetup, setEmployeeSalarySetup: employee salary setup", () => {
  it("keeps versions with history and shows full-month amounts", async () => {
    const id = await payrollEmployee(t, w, null);
    const empty = (
      await api(w.hr.agent)
        .op("getEmployeeSalarySetup", { params: { employeeId: id } })
        .expect(200)
    ).body.data;
    expect(empty).toMatchObject({ employee_id: id, current: null, history: [] });
    const comps = Object.values(w.components).map((component_id) => ({ component_id }));
    await api(w.hr.agent)
      .op("setEmployeeSalarySetup", {
        params: { employeeId: id },
        body: { effective_from: "2025-04-01", monthly_ctc: "30000.00", components: comps },
      })
      .expect(200);
    const r = await api(w.hr.agent)
      .op("setEmployeeSalarySetup", {
        params: { employeeId: id },
        body: { effective_from: "2026-04-01", monthly_ctc: "50000.00", components: comps, esi_enabled: false, notes: "Raise" },
      })
      .expect(200);
    expect(r.body.data.history.map((h) => [h.effective_from, h.monthly_ctc])).toEqual([
      ["2026-04-01", "50000.00"],
      ["2025-04-01", "30000.00"],
    ]);
    expect(r.body.data.current).toMatchObject({
      effective_from: "2026-04-01",
      monthly_gross: "50000.00",
      esi_enabled: false,
      notes: "Raise",
    });
    expect(r.body.data.current?.components.map((c) => [c.code, c.monthly_amount])).toEqual([
      ["BASIC", "25000.00"],
      ["HRA", "10000.00"],
      ["SPECIAL", "15000.00"],
    ]);
    // same date replaces that version
    const same = await api(w.hr.agent)
      .op("setEmployeeSalarySetup", { params: { employeeId: id }, body: { effective_from: "2026-04-01", monthly_ctc: "52000.00" } })
      .expect(200);
    expect(same.body.data.history).toHaveLength(2);
    expect(same.body.data.current).toMatchObject({ monthly_ctc: "52000.00", all_components: true, monthly_gross: "52000.00" });
    const log = await api(w.owner.agent)
      .op("listActivityLog", { query: { entity_id: id } })
      .expect(200);
    expect(log.body.data.map((e) => e.action)).toEqual(expect.arrayContaining(["salary_setup.created", "salary_setup.replaced"]));
  });

  it("validates components, amounts and CTC with 400s naming the field", async () => {
    const id = await payrollEmployee(t, w, null);
    const fixed = await post({ name: "Washing", code: "WASH", type: "earning", calculation: "fixed" }).expect(201);
    const put = (body: Record<string, unknown>) =>
      api(w.hr.agent).op("setEmployeeSalarySetup", { params: { employeeId: id }, body: { effective_from: "2026-01-01", ...body } });
    expect(
      expectDetails(await put({ monthly_ctc: "1000.00", components: [{ component_id: fixed.body.data.id }] }), 400).details[0].path,
    ).toBe("body.components.0.amount");
    expect(
      expectDetails(await put({ monthly_ctc: "1000.00", components: [{ component_id: w.components.BASIC, amount: "5.00" }] }), 400)
        .details[0].path,
    ).toBe("body.components.0.amount");
    expect(expectDetails(await put({ components: [{ component_id: w.components.BASIC }] }), 400).details[0].path).toBe("body.monthly_ctc");
    expect(
      expectDetails(await put({ monthly_ctc: "1.00", components: [{ component_id: "00000000-0000-4000-8000-000000000000" }] }), 400)
        .details[0].path,
    ).toBe("body.components.0.component_id");
    expect(expectDetails(await put({ monthly_ctc: "1.00" }), 400).details[0].path).toBe("body.components"); // WASH has no default
    await put({ components: [{ component_id: fixed.body.data.id, amount: "750.00" }] }).expect(200);
    expectError(await api(w.hr.agent).op("deleteSalaryComponent", { params: { id: fixed.body.data.id } }), 409, "conflict");
    await api(w.hr.agent)
      .op("updateSalaryComponent", { params: { id: fixed.body.data.id }, body: { active: false } })
      .expect(200);
    expectError(
      await api(w.hr.agent).op("getEmployeeSalarySetup", { params: { employeeId: "00000000-0000-4000-8000-000000000000" } }),
      404,
      "not_found",
    );
  });
});
