// Loan types and expense categories: CRUD, uniqueness, validation, roles, isolation.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { addMember, expectError, signupTenant, useTestApp, type TenantSession } from "../support/app.ts";

const t = useTestApp();
let owner: TenantSession;

beforeAll(async () => {
  owner = await signupTenant(t);
  await owner.agent
    .post("/api/configuration/company-settings")
    .send({ modules: ["payroll"] })
    .expect(200);
});

describe("listLoanTypes, createLoanType, getLoanType, updateLoanType, deleteLoanType: loan types", () => {
  it("creates, reads, updates and deletes, with audit", async () => {
    const c = await owner.agent
      .post("/api/configuration/payroll/loan-types")
      .send({ name: "Salary advance", max_amount: "50000.00", max_installments: 6, interest_rate: "8.3333" })
      .expect(201);
    expect(c.body.data).toMatchObject({
      name: "Salary advance",
      max_amount: "50000.00",
      max_installments: 6,
      interest_rate: "8.3333",
      active: true,
    });
    const id = c.body.data.id;
    const u = await owner.agent.put(`/api/configuration/payroll/loan-types/${id}`).send({ interest_rate: "0", active: false }).expect(200);
    expect(u.body.data).toMatchObject({ interest_rate: "0.00", active: false });
    expect(
      (
        await api(owner.agent)
          .op("listLoanTypes", { query: { active: true } })
          .expect(200)
      ).body.data,
    ).toEqual([]);
    expect((await api(owner.agent).op("getLoanType", { params: { id } }).expect(200)).body.data.name).toBe("Salary advance");
    const log = await api(owner.agent)
      .op("listActivityLog", { query: { entity_id: id } })
      .expect(200);
    expect(log.body.data.map((e) => e.action)).toEqual(["loan_type.updated", "loan_type.created"]);
    expect(log.body.data[0].changes!.active).toEqual({ from: true, to: false });
    await owner.agent.delete(`/api/configuration/payroll/loan-types/${id}`).expect(200);
    expectError(await owner.agent.get(`/api/configuration/payroll/loan-types/${id}`), 404, "not_found");
  });

  it("refuses duplicate names (any case), missing fields and bad amounts", async () => {
    await owner.agent.post("/api/configuration/payroll/loan-types").send({ name: "Vehicle loan", max_installments: 36 }).expect(201);
    expectError(
      await owner.agent.post("/api/configuration/payroll/loan-types").send({ name: "vehicle LOAN ", max_installments: 12 }),
      409,
      "conflict",
    );
    const missing = expectError(
      await owner.agent.post("/api/configuration/payroll/loan-types").send({ name: "No installments" }),
      400,
      "validation_failed",
    );
    expect(JSON.stringify(missing.details)).toContain("max_installments");
    expectError(
      await owner.agent.post("/api/configuration/payroll/loan-types").send({ name: "Bad", max_installments: 0 }),
      400,
      "validation_failed",
    );
    expectError(
      await owner.agent.post("/api/configuration/payroll/loan-types").send({ name: "Bad", max_installments: 3, max_amount: 100 }),
      400,
      "validation_failed",
    );
  });
});

describe(
  "listExpenseCategories, createExpenseCategory, getExpenseCategory, " + "updateExpenseCategory, deleteExpenseCategory: expense categories",
  () => {
    it("lets every member read, only owner/admin/hr write, and isolates tenants", async () => {
      const c = await owner.agent
        .post("/api/configuration/payroll/expense-categories")
        .send({ name: "Travel", max_claim_amount: "25000.00" })
        .expect(201);
      expect(c.body.data).toMatchObject({ name: "Travel", requires_receipt: true, active: true, max_claim_amount: "25000.00" });
      const emp = await addMember(t, owner, "employee");
      const list = await api(emp.agent).op("listExpenseCategories").expect(200);
      expect(list.body.data.map((x) => x.name)).toContain("Travel");
      expectError(await emp.agent.post("/api/configuration/payroll/expense-categories").send({ name: "Snacks" }), 403, "forbidden");
      expectError(await emp.agent.delete(`/api/configuration/payroll/expense-categories/${c.body.data.id}`), 403, "forbidden");
      const other = await signupTenant(t);
      await other.agent
        .post("/api/configuration/company-settings")
        .send({ modules: ["payroll"] })
        .expect(200);
      expectError(await other.agent.get(`/api/configuration/payroll/expense-categories/${c.body.data.id}`), 404, "not_found");
      expectError(
        await other.agent.put(`/api/configuration/payroll/expense-categories/${c.body.data.id}`).send({ name: "Mine" }),
        404,
        "not_found",
      );
      expectError(await other.agent.delete(`/api/configuration/payroll/expense-categories/${c.body.data.id}`), 404, "not_found");
      expect((await api(other.agent).op("listExpenseCategories").expect(200)).body.data).toEqual([]);
      await other.agent.post("/api/configuration/payroll/expense-categories").send({ name: "Travel" }).expect(201); // names are per company
      expect(
        (
          await api(owner.agent)
            .op("getExpenseCategory", { params: { id: c.body.data.id } })
            .expect(200)
        ).body.data.name,
      ).toBe("Travel");
    });

    it("updates partially (audited) and deletes a category", async () => {
      const c = (
        await owner.agent
          .post("/api/configuration/payroll/expense-categories")
          .send({ name: "Meals", max_claim_amount: "1500.00" })
          .expect(201)
      ).body.data;
      const u = await owner.agent
        .put(`/api/configuration/payroll/expense-categories/${c.id}`)
        .send({ max_claim_amount: "2000.50", requires_receipt: false })
        .expect(200);
      expect(u.body.data).toMatchObject({ id: c.id, name: "Meals", max_claim_amount: "2000.50", requires_receipt: false, active: true });
      expect(
        (
          await api(owner.agent)
            .op("getExpenseCategory", { params: { id: c.id } })
            .expect(200)
        ).body.data,
      ).toMatchObject({
        max_claim_amount: "2000.50",
        requires_receipt: false,
      });
      expectError(
        await owner.agent.put(`/api/configuration/payroll/expense-categories/${c.id}`).send({ max_claim_amount: "-1.00" }),
        400,
        "validation_failed",
      );
      await owner.agent.delete(`/api/configuration/payroll/expense-categories/${c.id}`).expect(200);
      expectError(await owner.agent.get(`/api/configuration/payroll/expense-categories/${c.id}`), 404, "not_found");
      expect((await api(owner.agent).op("listExpenseCategories").expect(200)).body.data.map((x) => x.id)).not.toContain(c.id);
    });
  },
);
