// The recipe of docs/adding-an-operation.md, followed as written in a throw-away worktree of HEAD:
// a new operation in an existing area (POST /api/helpdesk/tickets/{id}/reopen) →
//   1. `make generate` names it as an operation without a handler;
//   2. without a stub, the compiler fails with one short line naming it (not a dump of the map);
//   3. `make stubs` writes its 501 stub into src/modules/helpdesk/stubs.ts, and the project compiles.
// Step 9 of `make verify`; alone: npx tsx scripts/proof/recipe-drill.ts
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { trackOwnedProcesses } from "../support/owned-processes.ts";
import { runChild } from "../support/run-child.ts";

const root = path.resolve(import.meta.dirname, "../..");

const PATH_FILE = `parameters:
  - { name: id, in: path, required: true, schema: { type: string, format: uuid } }
post:
  operationId: reopenHelpdeskTicket
  tags: [helpdesk]
  summary: Reopen a resolved ticket
  x-roles: [owner, admin, hr, manager, employee]
  x-module: helpdesk
  responses:
    "200":
      description: Reopened.
      x-data: { $ref: ../components/schemas/HelpdeskTicket.yaml }
`;

async function run(cwd: string, cmd: string, args: string[]): Promise<{ status: number; out: string }> {
  const r = await runChild(cmd, args, { cwd, env: { ...process.env, NO_COLOR: "1" } });
  return { status: r.status ?? 1, out: `${r.stdout}${r.stderr}` };
}

export interface DrillResult {
  result: "pass" | "FAIL";
  details: string;
}

export async function runRecipeDrill(): Promise<DrillResult> {
  const dir = path.join(mkdtempSync(path.join(tmpdir(), "hrms-recipe-")), "p");
  const git = (...args: string[]) => run(root, "git", args);
  const added = await git("worktree", "add", "--detach", dir, "HEAD");
  if (added.status) return { result: "FAIL", details: `git worktree add: ${added.out.trim()}` };
  try {
    symlinkSync(path.join(root, "node_modules"), path.join(dir, "node_modules"));
    writeFileSync(path.join(dir, "openapi/paths/api_helpdesk_tickets_{id}_reopen.yaml"), PATH_FILE);
    const doc = path.join(dir, "openapi/openapi.yaml");
    const text = readFileSync(doc, "utf8");
    const anchor = /^ {2}\/api\/helpdesk\/tickets\/\{id\}\/messages: .*$/m;
    if (!anchor.test(text)) return { result: "FAIL", details: "openapi/openapi.yaml has no helpdesk messages path to add beside" };
    writeFileSync(
      doc,
      text.replace(
        anchor,
        (line) => `${line}\n  /api/helpdesk/tickets/{id}/reopen: { $ref: "./paths/api_helpdesk_tickets_{id}_reopen.yaml" }`,
      ),
    );
    const tsc = path.join(root, "node_modules/typescript-native/bin/tsc"); // as `make typecheck`

    const generated = await run(dir, "node", ["scripts/build/generate.mjs"]);
    if (generated.status) return { result: "FAIL", details: `make generate failed: ${generated.out.slice(-300)}` };
    if (
      !/reopenHelpdeskTicket\s+POST \/api\/helpdesk\/tickets\/\{id\}\/reopen\s+-> src\/modules\/helpdesk\/handlers\.ts/.test(generated.out)
    )
      return { result: "FAIL", details: "make generate did not name the operation without a handler" };

    const before = await run(dir, tsc, ["--noEmit", "-p", "tsconfig.json"]);
    const errors = before.out.split("\n").filter((l) => /error TS\d+/.test(l));
    if (!before.status || errors.length !== 1 || !errors[0].includes(`"no handler for reopenHelpdeskTicket"`) || errors[0].length > 300)
      return {
        result: "FAIL",
        details: `without a stub, expected one short error naming the operation; got ${errors.length}: ${errors[0]}`,
      };

    const stubs = await run(dir, "node", ["scripts/build/stubs.mjs"]);
    const regenerated = await run(dir, "node", ["scripts/build/generate.mjs"]);
    if (stubs.status || regenerated.status)
      return { result: "FAIL", details: `make stubs failed: ${stubs.out}${regenerated.out}`.slice(-300) };
    const stubFile = path.join(dir, "src/modules/helpdesk/stubs.ts");
    if (!existsSync(stubFile) || !readFileSync(stubFile, "utf8").includes(`notImplemented("reopenHelpdeskTicket")`))
      return { result: "FAIL", details: "make stubs did not write the stub into src/modules/helpdesk/stubs.ts" };
    const after = await run(dir, tsc, ["--noEmit", "-p", "tsconfig.json"]);
    if (after.status) return { result: "FAIL", details: `with the stub, the project does not compile: ${after.out.split("\n")[0]}` };
    return { result: "pass", details: "new path file → generate names it → one-line compile error → make stubs → compiles" };
  } finally {
    await git("worktree", "remove", "--force", dir);
    rmSync(path.dirname(dir), { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  trackOwnedProcesses();
  const r = await runRecipeDrill();
  console.log(`recipe drill: ${r.result}: ${r.details}`);
  process.exit(r.result === "pass" ? 0 : 1);
}
