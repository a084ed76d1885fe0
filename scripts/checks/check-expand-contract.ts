// `make check-migrations` (part of `make test`): migrations are written expand-then-contract
// (docs/operations.md, "Rolling upgrades"). During a rolling upgrade the old release's processes
// run against the new schema: a migration may add (tables, nullable columns, columns with
// defaults, indexes) but must not take away what the running release still reads or writes. So a
// migration that drops or renames a column or a table - a contract step - must ship in a later
// release than the one that stopped using it, and say which that was:
//
//   -- contract: unused since <git ref>        (a tag or commit of that earlier release)
//
// This check fails a migration with a contract statement (DROP COLUMN, RENAME COLUMN, ALTER TABLE
// ... RENAME TO, DROP TABLE) without that line, or whose ref is not a commit of this history
// (an ancestor of HEAD), or whose ref already holds the migration itself (the drop would ship
// with the release that stops using the column: old processes would fail on it mid-upgrade).
// Migrations from before the rule are listed in BEFORE_THE_RULE.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const MIGRATIONS = path.join(root, "prisma", "migrations");

/** Applied before the rule existed (2026-11-28): they cannot change (their checksums are recorded). */
export const BEFORE_THE_RULE = new Set([
  "20261122014844_tenant_settings", // statutory_settings renamed, released with its code in one step
  "20261128002406_signup_password_chosen_at_confirmation", // signup_requests.password_hash dropped
]);

// regex-bounded: applied to the project's own migration files
const CONTRACT = [
  { what: "DROP COLUMN", re: /\bDROP\s+COLUMN\b/i },
  { what: "RENAME COLUMN", re: /\bRENAME\s+COLUMN\b/i },
  { what: "DROP TABLE", re: /\bDROP\s+TABLE\b/i },
  { what: "ALTER TABLE ... RENAME TO", re: /\bALTER\s+TABLE\s+[^;]*?\bRENAME\s+TO\b/i },
];
const MARKER = /^--\s*contract:\s*unused since\s+(\S+)\s*$/im;

/** The contract statements of a migration (comments left out). */
export function contractStatements(sqlText: string): string[] {
  const code = sqlText.replace(/--[^\n]*/g, "");
  return CONTRACT.filter((c) => c.re.test(code)).map((c) => c.what);
}

export interface Git {
  /** `ref` names a commit that is an ancestor of HEAD (or HEAD) */
  isAncestor: (ref: string) => boolean;
  /** the file exists in the tree of `ref` */
  existsAt: (ref: string, file: string) => boolean;
}

/** What is wrong with migration `name` under the rule (empty: nothing). */
export function contractProblems(name: string, sqlText: string, git: Git): string[] {
  if (BEFORE_THE_RULE.has(name)) return [];
  const found = contractStatements(sqlText);
  if (!found.length) return [];
  const ref = MARKER.exec(sqlText)?.[1];
  const what = `${name}: ${found.join(", ")}`;
  if (!ref)
    return [
      `${what} without "-- contract: unused since <git ref>": drop or rename only what an earlier release ` +
        "already stopped using, and name that release (docs/operations.md, Rolling upgrades)",
    ];
  if (!git.isAncestor(ref)) return [`${what}: ${ref} is not a commit of this history (an ancestor of HEAD)`];
  if (git.existsAt(ref, `prisma/migrations/${name}/migration.sql`))
    return [`${what}: ${ref} already holds this migration - the release that stops using it must come before the one that drops it`];
  return [];
}

export const repositoryGit: Git = {
  isAncestor: (ref) => spawnSync("git", ["merge-base", "--is-ancestor", ref, "HEAD"], { cwd: root }).status === 0,
  existsAt: (ref, file) => spawnSync("git", ["cat-file", "-e", `${ref}:${file}`], { cwd: root }).status === 0,
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = readdirSync(MIGRATIONS, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .flatMap((d) => contractProblems(d.name, readFileSync(path.join(MIGRATIONS, d.name, "migration.sql"), "utf8"), repositoryGit));
  if (problems.length) {
    console.error(`check-expand-contract:\n  ${problems.join("\n  ")}`);
    process.exit(1);
  }
  console.log("check-expand-contract: no migration drops or renames what a running release may still use");
}
