// Proof-harness factories of the payroll area (merged into test/proof/factories.ts; see its header
// for what a factory, a scope, `decidedByOthers` and `requests` mean).
//
// Payroll runs are one per month and tenant, so every run a factory makes takes a month of its
// own (far in the future: the employees made here joined ~400 days ago, so they are eligible,
// and no attendance exists there to cause loss of pay). Runs are limited to one employee
// (`employee_ids`) so that they stay small and do not pay other factories' claims or loans.
import { sampleEmail } from "./openapi.ts";
import { api } from "../support/api.ts";
import {
  call,
  createIn,
  sampleBody,
  collection,
  employeeOf,
  fromToday,
  once,
  rowOf,
  token,
  type Factory,
  type FactoryContext,
  type RequestInput,
  type Scope,
} from "./factory-kit.ts";

type Ctx = Omit<FactoryContext, "parents">;

/** A fixed earning with a default amount (its code is unique: it must not clash with codes other tests create). */
function baseComponent(ctx: Ctx): Promise<{ id: string; code: string }> {
  return once(`payroll-component:${ctx.owner.tenantId}`, () =>
    call(ctx.owner.agent, "createSalaryComponent", {
      body: {
        name: `Proof base ${token("")}`,
        code: token("B"),
        type: "earning",
        calculation: "fixed",
        amount: "30000.00",
        position: 0,
      },
    }),
  );
}

/** Gives the employee a salary setup in force since 2020 (the base component at 30 000). */
async function giveSetup(ctx: Ctx, employeeId: string): Promise<void> {
  const base = await baseComponent(ctx);
  await call(ctx.owner.agent, "setEmployeeSalarySetup", {
    params: { employeeId },
    body: {
      effective_from: "2020-01-01",
      monthly_ctc: "50000.00",
      components: [{ component_id: base.id, amount: "30000.00" }],
    },
  });
}

/** A new employee of the tenant with WPS details (labour card, routing code, IBAN) and a salary setup. */
async function payrollEmployee(ctx: Ctx): Promise<string> {
  const e = await call(ctx.owner.agent, "createEmployee", {
    body: sampleBody("createEmployee", {
      email: sampleEmail("payroll"),
      joining_date: fromToday(-400),
      labour_card_number: "12345678",
      bank_routing_code: "802420101",
      bank_iban: "AE070331234567890123456",
    }),
  });
  await giveSetup(ctx, e.id);
  return e.id;
}

/** The holder's own employee record, with a salary setup (once per employee). */
async function ownPayrollEmployee(ctx: Ctx): Promise<string> {
  const id = await employeeOf(ctx);
  await once(`payroll-setup:${id}`, () => giveSetup(ctx, id));
  return id;
}

const months = new Map<string, number>(); // tenant -> next month index from 2030-01
/** A draft run of a month no run of the tenant has, for these employees only. */
async function draftRun(ctx: Ctx, employeeIds: string[]): Promise<{ id: string }> {
  for (;;) {
    const i = months.get(ctx.owner.tenantId) ?? 0;
    months.set(ctx.owner.tenantId, i + 1);
    if (i >= 70 * 12) throw new Error("payroll run factory: no month left between 2030 and 2099");
    const period = `${2030 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, "0")}`;
    const res = await api(ctx.owner.agent).op("createPayrollRun", {
      body: { period, notes: `Proof ${token("")}`, employee_ids: employeeIds },
    });
    if (res.status === 409) continue; // the month was taken by a run created through the API by another test
    if (res.status !== 201) throw new Error(`payroll run factory: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data;
  }
}

async function processedRun(ctx: Ctx, employeeId: string): Promise<{ id: string }> {
  const run = await draftRun(ctx, [employeeId]);
  await call(ctx.owner.agent, "processPayrollRun", { params: { id: run.id } });
  return run;
}

/** The run row with its slips (a recalculation replaces the slips, so their ids show it). */
function runSnapshot(ctx: Ctx, runId: string): () => Promise<unknown> {
  return async () => ({
    run: await rowOf(ctx.t, "payroll_runs", runId)(),
    slips: (
      await ctx.t.query<{ row: unknown }>(`SELECT to_jsonb(s) AS row FROM payroll_slips s WHERE run_id = $1 ORDER BY id`, [runId])
    ).map((r) => r.row),
  });
}

/** WPS employer id and bank routing code, so that the SIF of a processed run can be produced. */
function wpsSettings(ctx: Ctx) {
  return once(`payroll-wps:${ctx.owner.tenantId}`, () =>
    call(ctx.owner.agent, "updateWpsSettings", { body: { employer_id: "123456", bank_routing_code: "802420101" } }),
  );
}

const loanType = (ctx: Ctx) =>
  once(`payroll-loan-type:${ctx.owner.tenantId}`, () =>
    call(ctx.owner.agent, "createLoanType", { body: { name: `Proof ${token("")}`, max_installments: 24 } }),
  );
const expenseCategory = (ctx: Ctx) =>
  once(`payroll-expense-category:${ctx.owner.tenantId}`, () =>
    call(ctx.owner.agent, "createExpenseCategory", { body: { name: `Proof ${token("")}`, requires_receipt: false } }),
  );

/** Applies or claims as the holder when signed in (employees apply for themselves), else as the owner for the holder's employee. */
async function asHolder(ctx: Ctx, path: string, body: Record<string, unknown>): Promise<{ id: string }> {
  const employeeId = await employeeOf(ctx);
  return ctx.holder.agent ? createIn(ctx.holder.agent, path, body) : createIn(ctx.owner.agent, path, { ...body, employee_id: employeeId });
}

const managedByHr = (what: string): Scope => ({ tenant: `${what}: managed by owner/admin/hr only (no employee operation)` });

export const factories: Record<string, Factory> = {
  "/api/payroll/salary-components/{id}": collection(
    managedByHr("salary components"),
    "/api/payroll/salary-components",
    "salary_components",
    () => ({
      name: `Proof ${token("")}`,
      code: token("C"),
      type: "earning",
      calculation: "fixed",
      amount: "100.00",
      position: 50,
    }),
  ),

  // an employee with a setup already (history to keep unchanged; the employee alone would do for GET)
  "/api/payroll/employee-setup/{employeeId}": {
    scope: managedByHr("salary setups"),
    async create(ctx) {
      const id = await payrollEmployee(ctx);
      return {
        id,
        snapshot: async () => ({
          employee: await rowOf(ctx.t, "employees", id)(),
          versions: await ctx.t.query(
            `SELECT to_jsonb(s) AS setup, (SELECT coalesce(jsonb_agg(to_jsonb(l) ORDER BY l.component_id), ` +
              `'[]') FROM employee_salary_components l WHERE l.setup_id = s.id) AS lines
               FROM employee_salary_setups s WHERE s.employee_id = $1 ORDER BY s.effective_from`,
            [id],
          ),
        }),
      };
    },
  },

  // a calculated draft with one employee, so that processing it succeeds
  "/api/payroll/draft-runs/{id}": {
    scope: managedByHr("payroll runs"),
    async create(ctx) {
      const run = await draftRun(ctx, [await payrollEmployee(ctx)]);
      return { id: run.id, snapshot: runSnapshot(ctx, run.id) };
    },
  },

  // the employee of the run (its parent)
  "/api/payroll/draft-runs/{id}/employees/{employeeId}": {
    scope: managedByHr("payroll runs"),
    async create(ctx) {
      const [slip] = await ctx.t.query<{ id: string; employee_id: string }>(
        `SELECT id, employee_id FROM payroll_slips WHERE run_id = $1 ORDER BY employee_code LIMIT 1`,
        [ctx.parents.id],
      );
      if (!slip) throw new Error("payroll run employee factory: the run has no employee");
      return { id: slip.employee_id, snapshot: rowOf(ctx.t, "payroll_slips", slip.id) };
    },
  },

  // a processed run with a slip of the holder's own employee record
  "/api/payroll/my-salary/{draftId}": {
    scope: "own",
    async create(ctx) {
      const run = await processedRun(ctx, await ownPayrollEmployee(ctx));
      return { id: run.id, snapshot: runSnapshot(ctx, run.id) };
    },
  },

  // a processed run whose employee has WPS details, in a company with WPS settings
  "/api/payroll/wps/{draftId}": {
    scope: managedByHr("payroll runs"),
    async create(ctx) {
      await wpsSettings(ctx);
      const run = await processedRun(ctx, await payrollEmployee(ctx));
      return { id: run.id, snapshot: runSnapshot(ctx, run.id) };
    },
  },

  // the holder's own employee with a salary setup: their tax profile (and projection) of the year
  "/api/payroll/tax-profiles/{employeeId}": {
    scope: "own",
    async create(ctx) {
      const id = await ownPayrollEmployee(ctx);
      return {
        id,
        snapshot: async () => ctx.t.query(`SELECT to_jsonb(p) AS row FROM tax_profiles p WHERE employee_id = $1 ORDER BY id`, [id]),
      };
    },
  },
  "/api/payroll/tax-projection/{employeeId}": {
    scope: "own",
    async create(ctx) {
      const id = await ownPayrollEmployee(ctx);
      return { id, snapshot: rowOf(ctx.t, "employees", id) };
    },
  },
  // with a Part A uploaded for 2025-26 (the document's example year) and for the tax year of today (the default)
  "/api/payroll/form-16/{employeeId}": {
    scope: "own",
    async create(ctx) {
      const id = await ownPayrollEmployee(ctx);
      const today = (await call(ctx.owner.agent, "getTaxProfile", { params: { employeeId: id } }))?.tax_year as string;
      for (const year of new Set(["2025-26", today])) {
        const res = await ctx.owner.agent
          .put(`/api/payroll/form-16/${id}/part-a?tax_year=${year}`)
          .attach("file", Buffer.from(`%PDF-1.4\n% proof ${token("")}\n%%EOF\n`), {
            filename: "part-a.pdf",
            contentType: "application/pdf",
          });
        if (res.status !== 200) throw new Error(`form 16 factory: Part A upload answered ${res.status} ${JSON.stringify(res.body)}`);
      }
      return {
        id,
        snapshot: async () => ({
          employee: await rowOf(ctx.t, "employees", id)(),
          part_a: await ctx.t.query(`SELECT to_jsonb(p) AS row FROM form16_part_a p WHERE employee_id = $1 ORDER BY id`, [id]),
        }),
      };
    },
  },

  // a submitted declaration item of the holder, recorded by the owner (outside the windows only hr may declare)
  "/api/payroll/tax-declarations/{id}": {
    scope: "own",
    async create(ctx) {
      const employeeId = await employeeOf(ctx);
      const d = await call(ctx.owner.agent, "declareTaxInvestment", {
        body: {
          employee_id: employeeId,
          section: "80C",
          description: "Proof PPF",
          amount: "50000.00",
        },
      });
      return { id: d.id, snapshot: rowOf(ctx.t, "tax_declarations", d.id) };
    },
  },

  // a pending application of the holder (what every party may read, change and cancel)
  "/api/payroll/loan-advances/{id}": {
    scope: "own",
    async create(ctx) {
      const type = await loanType(ctx);
      const loan = await asHolder(ctx, "/api/payroll/loan-advances", {
        loan_type_id: type.id,
        amount: "1200.00",
        installments: 3,
        reason: "Proof loan",
      });
      return {
        id: loan.id,
        snapshot: async () => ({
          loan: await rowOf(ctx.t, "loan_advances", loan.id)(),
          schedule: (
            await ctx.t.query<{ row: unknown }>(`SELECT to_jsonb(i) AS row FROM loan_installments i WHERE loan_id = $1 ORDER BY seq`, [
              loan.id,
            ])
          ).map((r) => r.row),
        }),
      };
    },
  },

  // a pending claim of the holder
  "/api/payroll/expense-claims/{id}": {
    scope: "own",
    async create(ctx) {
      const category = await expenseCategory(ctx);
      const claim = await asHolder(ctx, "/api/payroll/expense-claims", {
        category_id: category.id,
        amount: "250.00",
        expense_date: fromToday(-5),
        description: "Proof claim",
      });
      return { id: claim.id, snapshot: rowOf(ctx.t, "expense_claims", claim.id) };
    },
  },

  // a draft settlement of an employee who resigned with a last working day that has passed (so
  // that processing it succeeds)
  "/api/payroll/final-settlements/{id}": {
    scope: managedByHr("final settlements"),
    async create(ctx) {
      const employeeId = await payrollEmployee(ctx);
      await call(ctx.owner.agent, "submitResignation", {
        params: { employeeId },
        body: {
          resignation_date: fromToday(-10),
          last_working_day: fromToday(-2),
          reason: "Proof",
        },
      });
      const s = await call(ctx.owner.agent, "createFinalSettlement", { body: { employee_id: employeeId } });
      return { id: s.id, snapshot: rowOf(ctx.t, "final_settlements", s.id) };
    },
  },
};

export const operationScopes: Record<string, Scope> = {};

// deferring an installment is a decision about money on the loan's employee record: never one's own
// (only the company's owner may), so the loan belongs to a direct report of the caller
export const decidedByOthers: string[] = ["deferLoanAdvance"];

export const requests: Record<string, (ids: Record<string, string>) => Partial<RequestInput>> = {
  // the first property would be a decision (`status`), which only hr/admin/owner make and never on
  // their own loan or claim: the change every party may make to a pending record of their own
  updateLoanAdvance: () => ({ body: { reason: "Proof: changed reason" } }),
  updateExpenseClaim: () => ({ body: { description: "Proof: changed description" } }),
};
