// `make run` restarted with nothing changed regenerates nothing: generate runs
// only when one of its inputs is newer than its stamp (Makefile, GEN_STAMP). Asked with `make -q`
// (exit 0: up to date, 1: would run) and `-W <file>` (as if that file had just changed), so the
// check changes no file of the repository.
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const STAMP = "node_modules/.generate-stamp";
const make = (...args: string[]) => spawnSync("make", ["--no-print-directory", ...args], { cwd: root, encoding: "utf8" });

describe("make generate's stamp", () => {
  it("a second make generate with nothing changed has nothing to do; a changed document, schema or area would", () => {
    const first = make("generate");
    expect(first.status, first.stderr).toBe(0);
    expect(make("-q", STAMP).status).toBe(0);
    for (const changed of ["openapi/openapi.yaml", "prisma/schema/employees.prisma", "src/config.ts", "src/modules/helpdesk/handlers.ts"])
      expect(make("-q", "-W", changed, STAMP).status, changed).toBe(1);
  });
});
