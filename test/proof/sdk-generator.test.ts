// A second SDK generator over the bundled document: @hey-api/openapi-ts (pinned in
// package.json) generates a TypeScript client from generated/openapi.json, without a warning, and
// the client compiles under `tsc --strict` together with typed calls that must and must not
// compile - a create call without a required field is a type error (the @ts-expect-error lines
// fail as "unused" when a generator makes the field optional, as the old allOf-only `required`
// did). The openapi-fetch journey (journey.test.ts) remains the first generator's check.
import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../..");
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);
const dir = mkdtempSync(path.join(tmpdir(), "hrms-sdk-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const USAGE = `import { createExpenseCategory, createLoanType, createSalaryComponent, getMySalarySlip, listEmployees } from "./out/index";

export async function typedCalls(): Promise<void> {
  // @ts-expect-error \`name\` is required by the create schema
  await createLoanType({ body: { max_installments: 12 } });
  await createLoanType({ body: { name: "Vehicle loan", max_installments: 12 } });
  // @ts-expect-error \`name\` is required
  await createExpenseCategory({ body: { requires_receipt: true } });
  await createExpenseCategory({ body: { name: "Travel" } });
  // @ts-expect-error \`code\` is required
  await createSalaryComponent({ body: { name: "Basic", type: "earning", calculation: "fixed" } });
  await createSalaryComponent({ body: { name: "Basic", code: "BASIC", type: "earning", calculation: "fixed", amount: "25000.00" } });
  // @ts-expect-error \`page\` is a number
  await listEmployees({ query: { page: "2" } });
  const list = await listEmployees({ query: { search: "John Smith", page: 2 } });
  const first: string | undefined = list.data?.data[0]?.id;
  await getMySalarySlip({ path: { draftId: first ?? "" } });
}
`;

const TSCONFIG = {
  compilerOptions: {
    strict: true,
    noEmit: true,
    target: "ES2022",
    module: "ESNext",
    moduleResolution: "Bundler",
    lib: ["ES2022", "DOM", "DOM.Iterable"],
    types: [],
    skipLibCheck: true, // the generated client and the calls are checked; the standard library's own .d.ts files need no re-checking
  },
  include: ["out/**/*.ts", "usage.ts"],
};

describe("a second generator: @hey-api/openapi-ts", () => {
  it("generates a client from the document without a warning, and it compiles under tsc --strict with the typed calls", async () => {
    const gen = await run(bin("openapi-ts"), ["-i", path.join(root, "generated/openapi.json"), "-o", path.join(dir, "out")], {
      cwd: dir,
      env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" },
    });
    const said = `${gen.stdout}\n${gen.stderr}`;
    expect(said).toContain("Done!");
    expect(said).not.toMatch(/warn|error|⚠/i);
    writeFileSync(path.join(dir, "usage.ts"), USAGE);
    writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(TSCONFIG));
    const tsc = await run(bin("tsc"), ["-p", path.join(dir, "tsconfig.json")], { cwd: dir }).catch((e) => e);
    expect(`${tsc.stdout ?? ""}${tsc.stderr ?? ""}`.trim()).toBe("");
  });
});
