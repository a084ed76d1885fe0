// Shared set-up of the payroll tests: a company with the module on, the standard components
// (BASIC = CTC × 0.5 as PF wage, HRA = BASIC × 0.4, SPECIAL = the rest) and employees with setups.
import { addMember, signupTenant, type TenantSession, type TestContext } from "../support/app.ts";
import { insertEmployee, type EmployeeOverrides } from "../support/leave-factories.ts";

export interface PayrollWorld {
  owner: TenantSession;
  hr: TenantSession;
  components: Record<string, string>;
}

export async function payrollWorld(ctx: TestContext): Promise<PayrollWorld> {
  const owner = await signupTenant(ctx);
  await owner.agent
    .post("/api/configuration/company-settings")
    .send({ modules: ["payroll"] })
    .expect(200);
  const hr = await addMember(ctx, owner, "hr", { name: "Hana HR" });
  return { owner, hr, components: await standardComponents(hr) };
}

/** Creates the standard components in `hr`'s company (the payroll module on); their ids by code. */
export async function standardComponents(hr: TenantSession): Promise<Record<string, string>> {
  const components: Record<string, string> = {};
  for (const c of [
    { name: "Basic", code: "BASIC", type: "earning", calculation: "formula", formula: "CTC * 0.5", pf_wage: true, position: 1 },
    { name: "House rent allowance", code: "HRA", type: "earning", calculation: "formula", formula: "BASIC * 0.4", position: 2 },
    { name: "Special allowance", code: "SPECIAL", type: "earning", calculation: "formula", formula: "CTC - BASIC - HRA", position: 3 },
  ]) {
    const res = await hr.agent.post("/api/payroll/salary-components").send(c);
    if (res.status !== 201) throw new Error(`component: ${res.status} ${JSON.stringify(res.body)}`);
    components[c.code] = res.body.data.id;
  }
  return components;
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
    const res = await w.hr.agent.put(`/api/payroll/employee-setup/${id}`).send({
      effective_from: "2024-04-01",
      monthly_ctc: ctc,
      components: Object.values(w.components).map((component_id) => ({ component_id })),
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
