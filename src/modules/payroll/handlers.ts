// Payroll area (module `payroll`).
import { ack, created, ok } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { expenseCategories, expenseCategoryJson, loanTypeJson, loanTypes } from "./catalogs.ts";
import { claimHandlers } from "./claims.ts";
import { componentHandlers } from "./components.ts";
import { loanHandlers } from "./loans.ts";
import { runHandlers } from "./runs.ts";
import { setupHandlers } from "./setup.ts";
import { readSettings, updateSettings } from "./statutory.ts";
import { wpsHandlers } from "./wps.ts";

export const handlers = {
  ...componentHandlers,
  ...setupHandlers,
  ...runHandlers,
  ...loanHandlers,
  ...claimHandlers,
  ...wpsHandlers,

  async getPfSettings() {
    return ok(await readSettings("pf"));
  },
  async updatePfSettings({ body, auth }) {
    return ok(await updateSettings("pf", body, auth.userId), "PF settings updated");
  },
  async getEsiSettings() {
    return ok(await readSettings("esi"));
  },
  async updateEsiSettings({ body, auth }) {
    return ok(await updateSettings("esi", body, auth.userId), "ESI settings updated");
  },
  async getProfessionalTaxSettings() {
    return ok(await readSettings("pt"));
  },
  async updateProfessionalTaxSettings({ body, auth }) {
    return ok(await updateSettings("pt", body, auth.userId), "Professional tax settings updated");
  },
  async getGratuitySettings() {
    return ok(await readSettings("gratuity"));
  },
  async updateGratuitySettings({ body, auth }) {
    return ok(await updateSettings("gratuity", body, auth.userId), "Gratuity settings updated");
  },

  async listLoanTypes({ query }) {
    return ok((await loanTypes.list(query.active)).map(loanTypeJson));
  },
  async createLoanType({ body }) {
    return created(loanTypeJson(await loanTypes.create(body)), "Loan type created");
  },
  async getLoanType({ params }) {
    return ok(loanTypeJson(await loanTypes.get(params.id)));
  },
  async updateLoanType({ params, body }) {
    return ok(loanTypeJson(await loanTypes.update(params.id, body)), "Loan type updated");
  },
  async deleteLoanType({ params }) {
    await loanTypes.remove(params.id);
    return ack("Loan type deleted");
  },

  async listExpenseCategories({ query }) {
    return ok((await expenseCategories.list(query.active)).map(expenseCategoryJson));
  },
  async createExpenseCategory({ body }) {
    return created(expenseCategoryJson(await expenseCategories.create(body)), "Expense category created");
  },
  async getExpenseCategory({ params }) {
    return ok(expenseCategoryJson(await expenseCategories.get(params.id)));
  },
  async updateExpenseCategory({ params, body }) {
    return ok(expenseCategoryJson(await expenseCategories.update(params.id, body)), "Expense category updated");
  },
  async deleteExpenseCategory({ params }) {
    await expenseCategories.remove(params.id);
    return ack("Expense category deleted");
  },
} satisfies AreaHandlers<"payroll">;
