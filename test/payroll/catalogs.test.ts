// Loan types and expense categories: CRUD, uniqueness, validation, roles, isolation.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { payrollCompany } from "./fixtures.ts";
import { addMember, expectError, signupTenant, useTestApp, type TenantSession } from "../support/app.ts";

const t = useTestApp();
let owner: TenantSession;

beforeAll(async () => {
  ({ owner } = await payrollCompany(t));
});

describe("listLoanTypes, createLoanType, getLoanType, updateLoanType, deleteLoanType: loan types", () => {
  it("creates, reads, updates and deletes, with audit", async () => {
    const c = await api(owner.agent)
      .op("createLoanType", { body: { name: "Salary advance", max_amount: "50000.00", max_installments: 6, interest_rate: "8.3333" } })
      .expect(201);
    expect(c.body.data).toMatchObject({
      name: "Salary advance",
      max_amount: "50000.00",
      max_installments: 6,
      interest_rate: "8.3333",
      active: true,
    });
    const id = c.body.data.id;
    const u = await api(owner.agent)
      .op("updateLoanType", { params: { id }, body: { interest_rate: "0", active: false } })
      .expect(200);
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
    await api(owner.agent).op("deleteLoanType", { params: { id } }).expect(200);
    expectError(await api(owner.agent).op("getLoanType", { params: { id } }), 404, "not_found");
  });

  it("refuses duplicate names (any case), missing fields and bad amounts", async () => {
    await api(owner.agent)
      .op("createLoanType", { body: { name: "Vehicle loan", max_installments: 36 } })
      .expect(201);
    expectError(await api(owner.agent).op("createLoanType", { body: { name: "vehicle LOAN ", max_installments: 12 } }), 409, "conflict");
    const missing = expectError(
      await owner.agent.post("/api/configuration/payroll/loan-types").send({ name: "No installments" }),
      400,
      "validation_failed",
    );
    expect(JSON.stringify(missing.details)).toContain("max_installments");
    expectError(await api(owner.agent).op("createLoanType", { body: { name: "Bad", max_installments: 0 } }), 400, "validation_failed");
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
      const c = await api(owner.agent)
        .op("createExpenseCategory", { body: { name: "Travel", max_claim_amount: "25000.00" } })
        .expect(201);
      expect(c.body.data).toMatchObject({ name: "Travel", requires_receipt: true, active: true, max_claim_amount: "25000.00" });
      const emp = await addMember(t, owner, "employee");
      const list = await api(emp.agent).op("listExpenseCategories").expect(200);
      expect(list.body.data.map((x) => x.name)).toContain("Travel");
      expectError(await api(emp.agent).op("createExpenseCategory", { body: { name: "Snacks" } }), 403, "forbidden");
      expectError(await api(emp.agent).op("deleteExpenseCategory", { params: { id: c.body.data.id } }), 403, "forbidden");
      const other = await signupTenant(t);
      await api(other.agent)
        .op("updateCompanySettings", { body: { modules: ["payroll"] } })
        .expect(200);
      expectError(await api(other.agent).op("getExpenseCategory", { params: { id: c.body.data.id } }), 404, "not_found");
      expectError(
        await api(other.agent).op("updateExpenseCategory", { params: { id: c.body.data.id }, body: { name: "Mine" } }),
        404,
        "not_found",
      );
      expectError(await api(other.agent).op("deleteExpenseCategory", { params: { id: c.body.data.id } }), 404, "not_found");
      expect((await api(other.agent).op("listExpenseCategories").expect(200)).body.data).toEqual([]);
      await api(other.agent)
        .op("createExpenseCategory", { body: { name: "Travel" } })
        .expect(201); // names are per company
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
        await api(owner.agent)
          .op("createExpenseCategory", { body: { name: "Meals", max_claim_amount: "1500.00" } })
          .expect(201)
      ).body.data;
      const u = await api(owner.agent)
        .op("updateExpenseCategory", { params: { id: c.id }, body: { max_claim_amount: "2000.50", requires_receipt: false } })
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
        await api(owner.agent).op("updateExpenseCategory", { params: { id: c.id }, body: { max_claim_amount: "-1.00" } }),
        400,
        "validation_failed",
      );
      await api(owner.agent)
        .op("deleteExpenseCategory", { params: { id: c.id } })
        .expect(200);
      expectError(await api(owner.agent).op("getExpenseCategory", { params: { id: c.id } }), 404, "not_found");
      expect((await api(owner.agent).op("listExpenseCategories").expect(200)).body.data.map((x) => x.id)).not.toContain(c.id);
    });
  },
);
