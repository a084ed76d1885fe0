// Required fields survive every SDK generator: a create body states its own `required`
// (no allOf member that only adds constraints - generators drop those, and a create call without
// `name` compiles), and requirements that were prose are schema rules (if/then,
// dependentRequired), so a validating client refuses what the server refuses - with the same
// field named in the 400.
import { describe, expect, it } from "vitest";
import { signupTenant, useTestApp } from "../support/app.ts";
import { deref, operations, type Schema } from "./openapi.ts";
import { enableAllModules } from "./world.ts";
import { api } from "../support/api.ts";

const t = useTestApp();

const body = (operationId: string): Schema => {
  const op = operations().find((o) => o.operationId === operationId);
  if (!op?.body) throw new Error(`${operationId} has no body`);
  return deref(op.body.schema);
};
const paths = (res: { body: { details?: { path: string }[] } }) => (res.body.details ?? []).map((d) => d.path);

const TITLE =
  "createLoanType, createExpenseCategory, createSalaryComponent, createCandidate, createTalentPoolCandidate, createLeaveAllocations";
describe(`${TITLE}: required fields as schema rules`, () => {
  it("each create body is one schema with its own required fields", () => {
    expect(body("createLoanType")).toMatchObject({ required: ["name", "max_installments"] });
    expect(body("createExpenseCategory")).toMatchObject({ required: ["name"] });
    expect(body("createSalaryComponent")).toMatchObject({ required: ["name", "code", "type", "calculation"] });
    for (const id of ["createLoanType", "createExpenseCategory", "createSalaryComponent", "updateLoanType", "updateExpenseCategory"])
      expect(body(id).allOf, id).toBeUndefined();
    // (`then` renamed: an object literal with a `then` key would be a thenable)
    const rule = (id: string) => ({ if: body(id).if, whenNot: body(id).then, dependentRequired: body(id).dependentRequired });
    expect(rule("createCandidate").if).toEqual({ not: { required: ["talent_pool_candidate_id"] } });
    expect(rule("createCandidate").whenNot.required).toEqual(["first_name", "last_name", "email"]);
    expect(rule("createTalentPoolCandidate").whenNot.required).toEqual(["first_name", "last_name", "email"]);
    expect(rule("createLeaveAllocations").whenNot.required).toEqual(["policy_id"]);
    expect(rule("createLeaveAllocations").dependentRequired).toMatchObject({ leave_type_id: ["employee_id"], days: ["leave_type_id"] });
  });

  it("the server refuses what the schema refuses, naming the field", async () => {
    const o = await signupTenant(t);
    await enableAllModules(o);
    const post = (url: string, b: object) => o.agent.post(url).send(b).expect(400);
    expect(paths(await post("/api/configuration/payroll/loan-types", { max_installments: 12 }))).toEqual(["body.name"]);
    expect(paths(await post("/api/configuration/payroll/expense-categories", { requires_receipt: true }))).toEqual(["body.name"]);
    expect(paths(await post("/api/payroll/salary-components", { name: "Basic", type: "earning", calculation: "fixed" }))).toEqual([
      "body.code",
    ]);
    expect(paths(await post("/api/recruitment/talent-pool-candidates", { first_name: "Asha" }))).toEqual(["body.last_name", "body.email"]);
    expect(paths(await post("/api/leave-allocations", {}))).toEqual(["body.policy_id"]);
    const someone = "3f1c6a52-8f4e-4a36-9d0e-2b7a1c5d9e01";
    expect(paths(await post("/api/leave-allocations", { policy_id: someone, leave_type_id: someone }))).toEqual(["body.employee_id"]);
    expect(paths(await post("/api/leave-allocations", { employee_id: someone, days: "2" }))).toEqual(["body.leave_type_id"]);
    expect(paths(await post("/api/leave-allocations", { employee_id: someone, leave_type_id: someone, accrual: "monthly" }))).toEqual([
      "body.days",
    ]);
    // updates still take any one field, and refuse an empty body
    expect(
      paths(
        await api(o.agent)
          .op("updateLoanType", { params: { id: someone }, body: {} })
          .expect(400),
      ),
    ).toEqual(["body"]);
  });
});
