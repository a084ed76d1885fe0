// Typed calls that must and must not compile against the client @hey-api/openapi-ts generates
// (compiled with journey.ts under `tsc --strict` by scripts/sdks/run.ts, never run): a create call
// without a required field is a type error. The @ts-expect-error lines fail as "unused" when the
// generator makes the field optional, as the old allOf-only `required` did.
import {
  createExpenseCategory,
  createLoanType,
  createSalaryComponent,
  getMySalarySlip,
  listEmployees,
} from "../../.sdks/gen/typescript/sdk.gen.ts";

export async function typedCalls(): Promise<void> {
  // @ts-expect-error `name` is required by the create schema
  await createLoanType({ body: { max_installments: 12 } });
  await createLoanType({ body: { name: "Vehicle loan", max_installments: 12 } });
  // @ts-expect-error `name` is required
  await createExpenseCategory({ body: { requires_receipt: true } });
  await createExpenseCategory({ body: { name: "Travel" } });
  // @ts-expect-error `code` is required
  await createSalaryComponent({ body: { name: "Basic", type: "earning", calculation: "fixed" } });
  await createSalaryComponent({ body: { name: "Basic", code: "BASIC", type: "earning", calculation: "fixed", amount: "25000.00" } });
  // @ts-expect-error `page` is a number
  await listEmployees({ query: { page: "2" } });
  const list = await listEmployees({ query: { search: "John Smith", page: 2 } });
  const first: string | undefined = list.data?.data[0]?.id;
  await getMySalarySlip({ path: { draftId: first ?? "" } });
}
