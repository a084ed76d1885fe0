// Payroll area (module `payroll`): every operation's handler - HTTP in, one use case, HTTP out.
import { accepted, ack, created, listed, ok, pageOf, sendAttachment } from "../../http/envelope.ts";
import type { AreaHandlers, HandlerContext } from "../../http/types.ts";
import { sendStoredFile } from "../../platform/storage/files.ts";
import { expenseCategories, loanTypes } from "./catalogs.ts";
import { cancelClaim, claimById, claimList, reviseClaim, submitClaim } from "./claims.ts";
import { addComponent, changeComponent, componentById, componentList, removeComponent } from "./components.ts";
import { loanById, loanList } from "./loan-records.ts";
import { applyForLoan, cancelLoan, deferInstallment, reviseLoan } from "./loans.ts";
import { mySlip, mySlipList, mySlipPdf, runEmployeeSlipPdf } from "./my-salary.ts";
import { changeRun, discardRun, openRun, processRun, runBreakdown, runById, runSlip, runsPage } from "./runs.ts";
import { salarySetupOf, saveSalarySetup } from "./salary-setup.ts";
import {
  draftSettlement,
  processSettlement,
  recalculateSettlement,
  settlementById,
  settlementPage,
  settlementPdfOf,
} from "./settlements.ts";
import { readSettings, changeSettings } from "./statutory.ts";
import { changeDeclaration, declarationById, declarationPage, declareInvestment } from "./income-tax/declarations.ts";
import { changeIncomeTaxSettings, changeTaxProfile, incomeTaxSettings, taxProfileOf } from "./income-tax/profile.ts";
import { recordDeposit, tdsMonths } from "./income-tax/challans.ts";
import { form16Of } from "./income-tax/form16.ts";
import { etdsFileOf } from "./income-tax/etds-file.ts";
import { recordReturnFiling, tdsReturnOf } from "./income-tax/tds-return.ts";
import { form16PdfOf } from "./income-tax/form16-pdf.ts";
import { partAFile, removePartA, uploadPartA } from "./income-tax/form16-part-a.ts";
import { taxProjectionOf } from "./income-tax/projection.ts";
import { changeWpsSettings, wpsFile, wpsSettings } from "./wps.ts";

export const handlers = {
  // salary components
  async listSalaryComponents({ query }) {
    return ok(await componentList(query));
  },
  async createSalaryComponent({ body }) {
    return created(await addComponent(body), "Salary component created");
  },
  async getSalaryComponent({ params }) {
    return ok(await componentById(params.id));
  },
  async updateSalaryComponent({ params, body }) {
    return ok(await changeComponent(params.id, body), "Salary component updated");
  },
  async deleteSalaryComponent({ params }) {
    await removeComponent(params.id);
    return ack("Salary component deleted");
  },

  // employee salary setup
  async getEmployeeSalarySetup({ params }) {
    return ok(await salarySetupOf(params.employeeId));
  },
  async setEmployeeSalarySetup({ params, body, auth }) {
    return ok(await saveSalarySetup(auth, params.employeeId, body), "Salary setup saved");
  },

  // statutory settings
  async getPfSettings() {
    return ok(await readSettings("pf"));
  },
  async updatePfSettings({ body, auth }) {
    return ok(await changeSettings("pf", body, auth.userId), "PF settings updated");
  },
  async getEsiSettings() {
    return ok(await readSettings("esi"));
  },
  async updateEsiSettings({ body, auth }) {
    return ok(await changeSettings("esi", body, auth.userId), "ESI settings updated");
  },
  async getProfessionalTaxSettings() {
    return ok(await readSettings("pt"));
  },
  async updateProfessionalTaxSettings({ body, auth }) {
    return ok(await changeSettings("pt", body, auth.userId), "Professional tax settings updated");
  },
  async getGratuitySettings() {
    return ok(await readSettings("gratuity"));
  },
  async updateGratuitySettings({ body, auth }) {
    return ok(await changeSettings("gratuity", body, auth.userId), "Gratuity settings updated");
  },
  async getWageSettings() {
    return ok(await readSettings("wages"));
  },
  async updateWageSettings({ body, auth }) {
    return ok(await changeSettings("wages", body, auth.userId), "Wage settings updated");
  },

  // catalogs
  async listLoanTypes({ query }) {
    return ok(await loanTypes.list(query.active));
  },
  async createLoanType({ body }) {
    return created(await loanTypes.create(body), "Loan type created");
  },
  async getLoanType({ params }) {
    return ok(await loanTypes.get(params.id));
  },
  async updateLoanType({ params, body }) {
    return ok(await loanTypes.update(params.id, body), "Loan type updated");
  },
  async deleteLoanType({ params }) {
    await loanTypes.remove(params.id);
    return ack("Loan type deleted");
  },
  async listExpenseCategories({ query }) {
    return ok(await expenseCategories.list(query.active));
  },
  async createExpenseCategory({ body }) {
    return created(await expenseCategories.create(body), "Expense category created");
  },
  async getExpenseCategory({ params }) {
    return ok(await expenseCategories.get(params.id));
  },
  async updateExpenseCategory({ params, body }) {
    return ok(await expenseCategories.update(params.id, body), "Expense category updated");
  },
  async deleteExpenseCategory({ params }) {
    await expenseCategories.remove(params.id);
    return ack("Expense category deleted");
  },

  // runs
  async listPayrollRuns({ operationId, query }) {
    const page = pageOf(query);
    const { rows, total } = await runsPage(query, page);
    return listed(operationId, { rows, page, total });
  },
  async createPayrollRun({ body, auth }) {
    const r = await openRun(auth, body);
    if (r.background) return accepted(r.run, `Draft payroll run created; ${r.employees} employees are being calculated in the background`);
    return created(r.run, "Draft payroll run created");
  },
  async getPayrollRun({ params }) {
    return ok(await runById(params.id));
  },
  async updatePayrollRun({ params, body, auth }) {
    const r = await changeRun(auth, params.id, body);
    if (r.background) return accepted(r.run, `Draft updated; ${r.employees} employees are being recalculated in the background`);
    return ok(r.run, "Draft updated and recalculated");
  },
  async deletePayrollRun({ params }) {
    await discardRun(params.id);
    return ack("Draft payroll run deleted");
  },
  async processPayrollRun({ params, auth }) {
    const r = await processRun(auth, params.id);
    if (r.background) return accepted(r.run, `${r.employees} employees are being processed in the background`);
    return ok(r.run, "Payroll run processed; salary slips issued");
  },
  async getPayrollRunBreakdown({ operationId, params, query }) {
    const page = pageOf(query);
    const { total, ...data } = await runBreakdown(params.id, query.search, page);
    return listed(operationId, { rows: data, page, total });
  },
  async listPayrollRunEmployees({ operationId, params, query }) {
    const page = pageOf(query);
    const { employees, total } = await runBreakdown(params.id, query.search, page);
    return listed(operationId, { rows: employees, page, total });
  },
  async getPayrollRunEmployee({ params }) {
    return ok(await runSlip(params.id, params.employeeId));
  },

  // the employee's own slips
  async listMySalary({ operationId, query, auth, walk }) {
    return listed(operationId, await mySlipList(auth, query, walk));
  },
  async getMySalarySlip({ params, auth }) {
    return ok(await mySlip(auth, params.draftId));
  },
  async downloadMySalarySlip({ params, auth, res }) {
    return sendSlip(res, await mySlipPdf(auth, params.draftId));
  },
  async downloadPayrollRunEmployeeSlip({ params, res }) {
    return sendSlip(res, await runEmployeeSlipPdf(params.id, params.employeeId));
  },

  // WPS
  async getWpsSettings() {
    return ok(await wpsSettings());
  },
  async updateWpsSettings({ body, auth }) {
    return ok(await changeWpsSettings(auth, body), "WPS settings updated");
  },
  async exportWpsSif({ params, query, res }) {
    const sif = await wpsFile(params.draftId, Boolean(query.exclude_incomplete));
    return sendAttachment(res, {
      fileName: sif.fileName,
      contentType: "text/csv; charset=us-ascii",
      body: sif.content,
      headers: { "X-WPS-Excluded": String(sif.excluded) },
    });
  },

  // loans and advances
  async listLoanAdvances({ operationId, query, auth, walk }) {
    return listed(operationId, await loanList(auth, query, walk));
  },
  async createLoanAdvance({ body, auth }) {
    return created(await applyForLoan(auth, body), "Loan application submitted");
  },
  async getLoanAdvance({ params, auth }) {
    return ok(await loanById(auth, params.id));
  },
  async updateLoanAdvance({ params, body, auth }) {
    return ok(await reviseLoan(auth, params.id, body), body.status ? `Loan ${body.status}` : "Loan application updated");
  },
  async cancelLoanAdvance({ params, auth }) {
    return ok(await cancelLoan(auth, params.id), "Loan cancelled");
  },
  async deferLoanAdvance({ params, body, auth }) {
    return ok(await deferInstallment(auth, params.id, body), "Installment deferred to the next month");
  },

  // expense claims
  async listExpenseClaims({ operationId, query, auth, walk }) {
    return listed(operationId, await claimList(auth, query, walk));
  },
  async createExpenseClaim({ body, auth }) {
    return created(await submitClaim(auth, body), "Expense claim submitted");
  },
  async getExpenseClaim({ params, auth }) {
    return ok(await claimById(auth, params.id));
  },
  async updateExpenseClaim({ params, body, auth }) {
    return ok(await reviseClaim(auth, params.id, body), body.status ? `Expense claim ${body.status}` : "Expense claim updated");
  },
  async cancelExpenseClaim({ params, auth }) {
    return ok(await cancelClaim(auth, params.id), "Expense claim cancelled");
  },

  // full and final settlements
  async listFinalSettlements({ operationId, query }) {
    const { rows, page, total } = await settlementPage(query);
    return listed(operationId, { rows, page, total });
  },
  async createFinalSettlement({ body, auth }) {
    return created(await draftSettlement(auth, body), "Final settlement computed");
  },
  async getFinalSettlement({ params }) {
    return ok(await settlementById(params.id));
  },
  async updateFinalSettlement({ params, body, auth }) {
    return ok(await recalculateSettlement(auth, params.id, body), "Final settlement recomputed");
  },
  async processFinalSettlement({ params, auth }) {
    return ok(await processSettlement(auth, params.id), "Final settlement processed");
  },
  async downloadFinalSettlement({ params, res }) {
    const { fileName, pdf } = await settlementPdfOf(params.id);
    return sendAttachment(res, { fileName, contentType: "application/pdf", body: pdf });
  },

  // income tax at source (India)
  async getIncomeTaxSettings() {
    return ok(await incomeTaxSettings());
  },
  async updateIncomeTaxSettings({ body, auth }) {
    return ok(await changeIncomeTaxSettings(body, auth.userId), "Income-tax settings updated");
  },
  async getTaxProfile({ params, query, auth }) {
    const p = await taxProfileOf(auth, params.employeeId, query.tax_year);
    return ok(p, p ? "OK" : "This company withholds no income tax");
  },
  async setTaxProfile({ params, query, body, auth }) {
    return ok(await changeTaxProfile(auth, params.employeeId, query.tax_year, body), "Tax profile saved");
  },
  async getTaxProjection({ params, query, auth }) {
    const p = await taxProjectionOf(auth, params.employeeId, query.tax_year);
    return ok(p, p ? "OK" : "No income tax is withheld for this employee");
  },
  async getForm16({ params, query, auth }) {
    const f = await form16Of(auth, params.employeeId, query.tax_year);
    return ok(f, f ? "OK" : "No income tax was deducted from this employee in the year");
  },
  async downloadForm16({ params, query, auth, res }) {
    return sendSlip(res, await form16PdfOf(auth, params.employeeId, query.tax_year));
  },
  async downloadForm16PartA({ params, query, auth, res }) {
    await sendStoredFile(res, await partAFile(auth, params.employeeId, query.tax_year));
    return { sent: true as const };
  },
  async uploadForm16PartA({ params, query, files, auth }) {
    const file = files.find((f) => f.fieldname === "file");
    return ok(await uploadPartA(auth, params.employeeId, query.tax_year, file), "Form 16 Part A uploaded");
  },
  async deleteForm16PartA({ params, query, auth }) {
    await removePartA(auth, params.employeeId, query.tax_year);
    return ack("Form 16 Part A removed");
  },
  async listTdsChallans({ query }) {
    const m = await tdsMonths(query.tax_year);
    return ok(m, m ? "OK" : "This company withholds no income tax");
  },
  async recordTdsChallan({ body, auth }) {
    return created(await recordDeposit(auth, body), "Challan recorded");
  },
  async getTdsReturn({ query }) {
    const r = await tdsReturnOf(query.tax_year, query.quarter);
    return ok(r, r ? "OK" : "This company withholds no income tax");
  },
  async recordTdsReturnFiling({ query, body, auth }) {
    return ok(await recordReturnFiling(auth, query.tax_year, query.quarter, body), "Filing recorded");
  },
  async downloadTdsReturnFile({ query, res }) {
    const { fileName, content } = await etdsFileOf(query.tax_year, query.quarter);
    return sendAttachment(res, { fileName, contentType: "text/plain; charset=us-ascii", body: Buffer.from(content, "ascii") });
  },
  async listTaxDeclarations({ operationId, query, auth }) {
    const { rows, page, total } = await declarationPage(auth, query);
    return listed(operationId, { rows, page, total });
  },
  async declareTaxInvestment({ body, auth }) {
    return created(await declareInvestment(auth, body), "Declared");
  },
  async getTaxDeclaration({ params, auth }) {
    return ok(await declarationById(auth, params.id));
  },
  async updateTaxDeclaration({ params, body, auth }) {
    return ok(await changeDeclaration(auth, params.id, body), "Declaration updated");
  },
} satisfies Partial<AreaHandlers<"payroll">>;

/** A PDF as an attachment (downloadMySalarySlip, downloadPayrollRunEmployeeSlip, downloadForm16). */
function sendSlip(res: HandlerContext<"downloadMySalarySlip">["res"], { fileName, pdf }: { fileName: string; pdf: Buffer }) {
  return sendAttachment(res, { fileName, contentType: "application/pdf", body: pdf });
}
