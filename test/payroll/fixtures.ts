// The payroll area's test data: a company with the module on (payrollCompany), the standard
// components (BASIC = CTC × 0.5 as PF wage, HRA = BASIC × 0.4, SPECIAL = the rest; payrollWorld),
// employees with setups, and the unpaid leave of 2027 that runs deduct as loss of pay.
import { insertEmployee, type EmployeeOverrides } from "../leave/fixtures.ts";
import { api, type RequestBodyOf } from "../support/api.ts";
import { addMember, signupTenant, type TenantSession, type TestContext } from "../support/app.ts";

export interface PayrollWorld {
  owner: TenantSession;
  hr: TenantSession;
  components: Record<string, string>;
}

/** A company with the payroll module on and an hr member, no components yet. */
export async function payrollCompany(ctx: TestContext): Promise<Omit<PayrollWorld, "components">> {
  const owner = await signupTenant(ctx);
  await api(owner.agent)
    .op("updateCompanySettings", { body: { modules: ["payroll"] } })
    .expect(200);
  return { owner, hr: await addMember(ctx, owner, "hr", { name: "Hana HR" }) };
}

/** Creates salary components in order; their ids by code. */
export async function createComponents(hr: TenantSession, list: RequestBodyOf<"createSalaryComponent">[]): Promise<Record<string, string>> {
  const ids: Record<string, string> = {};
  for (const body of list) ids[body.code] = (await api(hr.agent).op("createSalaryComponent", { body }).expect(201)).body.data.id;
  return ids;
}

/** payrollCompany with the standard components. */
export async function payrollWorld(ctx: TestContext): Promise<PayrollWorld> {
  const company = await payrollCompany(ctx);
  return { ...company, components: await standardComponents(company.hr) };
}

/** Creates the standard components in `hr`'s company (the payroll module on); their ids by code. */
export function standardComponents(hr: TenantSession): Promise<Record<string, string>> {
  return createComponents(hr, [
    { name: "Basic", code: "BASIC", type: "earning", calculation: "formula", formula: "CTC * 0.5", pf_wage: true, position: 1 },
    { name: "House rent allowance", code: "HRA", type: "earning", calculation: "formula", formula: "BASIC * 0.4", position: 2 },
    { name: "Special allowance", code: "SPECIAL", type: "earning", calculation: "formula", formula: "CTC - BASIC - HRA", position: 3 },
  ]);
}

/**
 * The leave year 2027 (period "FY") and an unpaid type (code LWP), written directly: the runs of 2027
 * deduct the approved days of that type as loss of pay.
 */
export async function unpaidLeave2027(ctx: TestContext, tenantId: string): Promise<{ periodId: string; lwpId: string }> {
  const [period] = await ctx.query<{ id: string }>(
    `INSERT INTO leave_periods (tenant_id, name, start_date, end_date) VALUES ($1, 'FY', '2027-01-01', '2027-12-31') RETURNING id`,
    [tenantId],
  );
  const [lwp] = await ctx.query<{ id: string }>(
    `INSERT INTO leave_types (tenant_id, name, code, is_paid) VALUES ($1, 'Leave without pay', 'LWP', false) RETURNING id`,
    [tenantId],
  );
  return { periodId: period.id, lwpId: lwp.id };
}

export interface PayrollEmployee extends EmployeeOverrides {
  state?: string | null;
  date_of_birth?: string | null;
  labour_card_number?: string | null;
  bank_iban?: string | null;
  bank_routing_code?: string | null;
}

/** Inserts an employee with payroll facts and gives them a salary setup with the standard components. */
export async function payrollEmployee(ctx: TestContext, w: PayrollWorld, ctc: string | null, o: PayrollEmployee = {}): Promise<string> {
  const id = await insertEmployee(ctx, w.owner.tenantId, {
    gender: "male",
    joining_date: "2020-01-06",
    ...o,
    state: o.state === undefined ? "Maharashtra" : o.state,
    date_of_birth: o.date_of_birth ?? "1990-05-05",
  });
  if (ctc) {
    const res = await api(w.hr.agent).op("setEmployeeSalarySetup", {
      params: { employeeId: id },
      body: {
        effective_from: "2024-04-01",
        monthly_ctc: ctc,
        components: Object.values(w.components).map((component_id) => ({ component_id })),
      },
    });
    if (res.status !== 200) throw new Error(`setup: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return id;
}

export async function memberFor(
  ctx: TestContext,
  w: PayrollWorld,
  employeeId: string,
  role: "employee" | "manager" = "employee",
): Promise<TenantSession> {
  return addMember(ctx, w.owner, role, { employeeId });
}

/** Draft and process the company's run of each period in turn (every employee with a setup); returns the runs' ids. */
export async function processRuns(w: Pick<PayrollWorld, "hr">, periods: string[]): Promise<string[]> {
  const ids: string[] = [];
  for (const period of periods) {
    const run = await api(w.hr.agent).op("createPayrollRun", { body: { period } }).expect(201);
    await api(w.hr.agent)
      .op("processPayrollRun", { params: { id: run.body.data.id } })
      .expect(200);
    ids.push(run.body.data.id);
  }
  return ids;
}
