// The expand-then-contract rule of the migrations (scripts/checks/check-expand-contract.ts, run by
// `make check-migrations`): a migration that drops or renames a column or a table names the earlier
// release that stopped using it, or `make test` fails.
import { describe, expect, it } from "vitest";
import { contractProblems, contractStatements, type Git } from "../../scripts/checks/check-expand-contract.ts";

const git = (commits: Record<string, string[]>): Git => ({
  isAncestor: (ref) => ref in commits,
  existsAt: (ref, file) => commits[ref]?.includes(file) ?? false,
});
const name = "20270101000000_drop_old_column";
const file = `prisma/migrations/${name}/migration.sql`;

describe("expand-then-contract migrations", () => {
  it("finds the statements that take something away, not those that add", () => {
    expect(
      contractStatements(`ALTER TABLE "employees" ADD COLUMN "nickname" TEXT;\nCREATE INDEX "x" ON "employees" ("nickname");`),
    ).toEqual([]);
    expect(contractStatements(`ALTER TABLE "employees" DROP COLUMN "nickname";`)).toEqual(["DROP COLUMN"]);
    expect(contractStatements(`ALTER TABLE "employees" RENAME COLUMN "nickname" TO "alias";`)).toEqual(["RENAME COLUMN"]);
    expect(contractStatements(`ALTER TABLE "a" RENAME TO "b";`)).toEqual(["ALTER TABLE ... RENAME TO"]);
    expect(contractStatements(`DROP TABLE "old_things";`)).toEqual(["DROP TABLE"]);
    expect(contractStatements(`-- we used to DROP COLUMN here\nSELECT 1;`)).toEqual([]);
  });

  it("fails a drop without the release that stopped using it, or naming the release that drops it", () => {
    const sql = `ALTER TABLE "employees" DROP COLUMN "nickname";`;
    expect(contractProblems(name, sql, git({}))[0]).toMatch(/without "-- contract: unused since <git ref>"/);
    expect(contractProblems(name, `-- contract: unused since v9\n${sql}`, git({}))[0]).toMatch(/v9 is not a commit of this history/);
    expect(contractProblems(name, `-- contract: unused since v2\n${sql}`, git({ v2: [file] }))[0]).toMatch(/already holds this migration/);
  });

  it("passes a drop that ships after the release that stopped using the column", () => {
    const sql = `-- contract: unused since v2\nALTER TABLE "employees" DROP COLUMN "nickname";`;
    expect(contractProblems(name, sql, git({ v2: [] }))).toEqual([]);
    expect(contractProblems(name, `ALTER TABLE "employees" ADD COLUMN "x" TEXT;`, git({}))).toEqual([]);
  });

  it("the project's migrations keep the rule", async () => {
    const { readdirSync, readFileSync } = await import("node:fs");
    const { repositoryGit } = await import("../../scripts/checks/check-expand-contract.ts");
    const dir = "prisma/migrations";
    const problems = readdirSync(dir, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .flatMap((d) => contractProblems(d.name, readFileSync(`${dir}/${d.name}/migration.sql`, "utf8"), repositoryGit));
    expect(problems).toEqual([]);
  });
});
