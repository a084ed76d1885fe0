#!/usr/bin/env node
// `make stubs`: for every operation of generated/registry.ts that no file of its area folder
// implements yet, writes a stub answering 501 (error envelope) into src/modules/<area>/stubs.ts,
// and creates src/modules/<area>/handlers.ts for a new area. Then run `make generate`.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const registry = readFileSync(path.join(root, "generated", "registry.ts"), "utf8");
const ops = [...registry.matchAll(/^ {2}(\w+): \{ method: "(\w+)", path: "([^"]+)", area: "([^"]+)"/gm)].map((m) => ({
  id: m[1],
  method: m[2],
  path: m[3],
  area: m[4],
}));
const areas = [...new Set(ops.map((o) => o.area))];
const stubMethod = (o) => `  // ${o.method.toUpperCase()} ${o.path}\n  async ${o.id}() {\n    throw notImplemented("${o.id}");\n  },`;
let written = 0;
for (const area of areas) {
  const dir = path.join(root, "src", "modules", area);
  mkdirSync(dir, { recursive: true });
  const handlersFile = path.join(dir, "handlers.ts");
  if (!existsSync(handlersFile))
    writeFileSync(
      handlersFile,
      `import type { AreaHandlers } from "../../http/types.ts";\n\nexport ` +
        `const handlers = {} satisfies Partial<AreaHandlers<"${area}">>;\n`,
    );
  const implemented = readdirSync(dir)
    .filter((f) => f.endsWith(".ts") && f !== "stubs.ts")
    .map((f) => readFileSync(path.join(dir, f), "utf8"))
    .join("\n");
  const missing = ops.filter((o) => o.area === area && !new RegExp(`(^|[\\s{,])(async\\s+)?${o.id}\\s*[(:]`, "m").test(implemented));
  const stubsFile = path.join(dir, "stubs.ts");
  if (!missing.length) {
    if (existsSync(stubsFile)) rmSync(stubsFile);
    continue;
  }
  written += missing.length;
  writeFileSync(
    stubsFile,
    `// Written by \`make stubs\`: operations of the document not implemented yet (501). Implement each in
// handlers.ts, then run \`make stubs\` again to drop it from here.
import { notImplemented } from "../../platform/errors.ts";
import type { AreaHandlers } from "../../http/types.ts";

export const stubs = {
${missing.map(stubMethod).join("\n")}
} satisfies Partial<AreaHandlers<"${area}">>;
`,
  );
}
console.log(written ? `stubs: ${written} operations answer 501 until implemented` : "stubs: every operation has a handler");
