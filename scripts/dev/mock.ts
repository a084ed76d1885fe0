// `make mock`: a mock of the whole API served from the document (docs/mock.md), so a client team
// can build against it before a backend exists. It is Prism (@stoplight/prism-cli, pinned with its
// own lockfile in tools/mock and installed from it on first use, `--ignore-scripts`: its one
// install script is analytics), serving every operation's documented example (the realistic ones
// of the document, test/proof/examples.test.ts) and validating each request against the document:
// a missing session or credential is a 401, a malformed request a 400 with the violations in the
// `sl-violations` header.
//
// What Prism is given is generated/openapi.json with one change, written to .data/mock/openapi.json:
// Prism answers an invalid request with the operation's 422 when it declares one, and a 422 here
// is the Idempotency-Key reused with another request, which the mock cannot tell - so the mock's
// document leaves those 422s out and an invalid request gets the 400 `validation_failed` envelope,
// as from the server.
//
// MOCK_PORT (default 4010; 0 = any free port), MOCK_HOST (default 127.0.0.1). The line
// "Prism is listening on http://<host>:<port>" says where (the test reads it).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const toolDir = path.join(root, "tools", "mock");
const prism = path.join(toolDir, "node_modules", "@stoplight", "prism-cli", "dist", "index.js");

/** Installs Prism from tools/mock's lockfile unless that lockfile is installed already (scripts/support/tool-install.sh). */
export function ensurePrism(): void {
  const install = spawnSync("bash", [path.join(root, "scripts/support/tool-install.sh"), "npm", toolDir], {
    stdio: ["ignore", "inherit", "inherit"],
  });
  if (install.status !== 0 || !existsSync(prism)) throw new Error("installing Prism into tools/mock failed (npm ci)");
}

/** The document Prism serves: generated/openapi.json without the Idempotency-Key 422s. */
export function mockDocument(): Record<string, unknown> {
  const doc = JSON.parse(readFileSync(path.join(root, "generated", "openapi.json"), "utf8"));
  for (const item of Object.values(doc.paths as Record<string, Record<string, { responses?: Record<string, { $ref?: string }> }>>))
    for (const op of Object.values(item))
      if (op?.responses?.["422"]?.$ref === "#/components/responses/IdempotencyKeyReused") delete op.responses["422"];
  return doc;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  ensurePrism();
  const dir = path.join(root, ".data", "mock");
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, "openapi.json");
  writeFileSync(file, JSON.stringify(mockDocument()));
  const port = process.env.MOCK_PORT ?? "4010";
  const host = process.env.MOCK_HOST ?? "127.0.0.1";
  const child = spawn(process.execPath, [prism, "mock", file, "--host", host, "--port", port], {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, SCARF_ANALYTICS: "false", NO_COLOR: process.env.NO_COLOR ?? "" },
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
  child.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}
