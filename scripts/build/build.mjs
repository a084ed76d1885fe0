#!/usr/bin/env node
// `npm run build` (`make build`): the production server as one ES module for plain node (dist/server.js,
// its map, and the entry dist/main.js that turns source maps on for it alone); npm packages stay in
// node_modules, where they find their own files. What a deployment needs: docs/operations.md, "Production".
// No type checking here (`make typecheck`); the build fails when the server imports a package that is not
// in "dependencies" (it would be missing after `npm ci --omit=dev`).
//
//   node scripts/build/build.mjs                 -> dist/
//   node scripts/build/build.mjs --outdir <dir>  -> <dir> (the build test uses a temporary folder)
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { parseArgs } from "node:util";
import { build } from "esbuild";

const root = path.resolve(import.meta.dirname, "../..");
const { values: args } = parseArgs({ options: { outdir: { type: "string", default: "dist" } } });
const outdir = path.resolve(root, args.outdir);
const started = performance.now();

// start from an empty folder (no stale chunk or map), but never delete anything that is not output
// of a build (a mistyped --outdir such as "." or "src")
if (existsSync(outdir)) {
  const foreign = readdirSync(outdir).filter((name) => !/\.js(\.map)?$/.test(name));
  if (foreign.length) {
    console.error(`build: ${outdir} holds more than a build's output (${foreign.slice(0, 3).join(", ")}): choose another --outdir`);
    process.exit(1);
  }
  rmSync(outdir, { recursive: true, force: true });
}
const result = await build({
  absWorkingDir: root,
  entryPoints: { server: "src/main.ts" },
  outdir,
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20.19",
  packages: "external",
  tsconfig: "tsconfig.json",
  sourcemap: "linked",
  // positions and file names are what stack traces need; without the sources' text the map is
  // about a third of the size, and node parses it at start-up
  sourcesContent: false,
  // class and function names as written (error classes, logged names), not esbuild's renames
  keepNames: true,
  legalComments: "none",
  metafile: true,
  logLevel: "warning",
});

// Every package the bundle imports must be a production dependency.
const pkg = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8"));
const builtins = new Set(builtinModules);
const packageOf = (spec) =>
  spec
    .split("/")
    .slice(0, spec.startsWith("@") ? 2 : 1)
    .join("/");
const imported = new Set();
for (const output of Object.values(result.metafile.outputs))
  for (const imp of output.imports)
    if (imp.external && !imp.path.startsWith("node:") && !builtins.has(imp.path) && !builtins.has(packageOf(imp.path)))
      imported.add(packageOf(imp.path));
const missing = [...imported].filter((name) => !pkg.dependencies?.[name]).sort();
if (missing.length) {
  console.error(`build: the server imports packages that are not in "dependencies" of package.json: ${missing.join(", ")}`);
  process.exit(1);
}

// The entry: source maps for the bundle before it is loaded (a module's map is read when it is
// compiled); Node 20 lacks module.setSourceMapsSupport and maps every module's stack frames.
writeFileSync(
  path.join(outdir, "main.js"),
  `// written by scripts/build/build.mjs: stack traces of the bundle name the TypeScript (not node_modules')
import module from "node:module";
if (module.setSourceMapsSupport) module.setSourceMapsSupport(true, { nodeModules: false, generatedCode: false });
else process.setSourceMapsEnabled(true);
await import("./server.js");
`,
);

const main = result.metafile.outputs[path.relative(root, path.join(outdir, "server.js")).split(path.sep).join("/")];
const kb = (n) => `${Math.round(n / 1024)} kB`;
console.log(
  `build: ${path.relative(root, outdir) || "."}/main.js and server.js ` +
    `(${kb(main?.bytes ?? 0)}, ${Object.keys(result.metafile.inputs).length} modules, ${imported.size} packages external) ` +
    `+ source map in ${Math.round(performance.now() - started)} ms`,
);
