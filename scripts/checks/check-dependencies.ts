// `make check-dependencies` (part of `make test`): the import rules of src/, read from the sources.
//
//   1. An area (a folder of src/modules/) is used from outside it - by another area or any other
//      file of src/ - only through its public face, `src/modules/<area>/index.ts`. (The generated
//      handler registry, outside src/, mounts each area's handlers.ts.)
//   2. No cycle between areas (leave -> attendance -> leave would be one).
//   3. Layers: src/db imports neither src/http nor an area; the shared services (src/platform:
//      identity, mail, jobs, storage, audit, notify, errors, ...) and src/lib import no area, and
//      src/platform does not import src/http (the error type and its code → status map live in
//      src/platform/errors.ts, below the HTTP layer); src/log.ts and src/request-context.ts (the
//      request being served, which the logger reads) import no layer; use cases take their types
//      (AuthContext, RequestBody, PageQuery, Listing) from src/platform/use-case.ts, not src/http/;
//      nothing imports src/main.ts
//      (the composition root).
//   4. The shape of an area: its handlers.ts (HTTP in, one use-case call, HTTP out) imports
//      nothing from src/db; only the platform's own entry points (modules/auth, modules/billing)
//      import the system client src/db/client.ts - the other areas use src/db/central.ts. Handlers
//      are defined in handlers.ts only, and a handler calls a use case named for what it does,
//      never an imported function with the handler's own (operationId) name.
//   src/modules/shared/ holds policy every area may use; it is not an area and imports none.
//
// Prints every violation (file, import, rule) and exits 1 when there is one.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";

export const root = path.resolve(import.meta.dirname, "../..");
const src = path.join(root, "src");
const rel = (p: string) => path.relative(root, p).split(path.sep).join("/");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = path.join(dir, name);
    return statSync(p).isDirectory() ? files(p) : /\.ts$/.test(name) ? [p] : [];
  });
}

/** Relative imports of a file (static `import`/`export ... from` and dynamic `import("...")`), resolved. */
export function importsOf(file: string, text: string): string[] {
  const out: string[] = [];
  const re = /(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|^import\s*["']([^"']+)["']/gm;
  for (const m of text.matchAll(re)) {
    const spec = m[1] ?? m[2] ?? m[3];
    if (spec?.startsWith(".")) out.push(path.resolve(path.dirname(file), spec));
  }
  return out;
}

/** The area of a file under src/modules/<area>/ (not `shared`), else null. */
export function areaOf(file: string): string | null {
  const r = rel(file);
  const m = /^src\/modules\/([^/]+)\//.exec(r);
  return m && m[1] !== "shared" ? m[1] : null;
}

const SHARED_SERVICES = ["src/platform/", "src/lib/"];
/** Areas that are the platform's own entry points (sign-in and sign-up, the billing webhook): they may use the system client. */
const SYSTEM_CLIENT_AREAS = new Set(["auth", "billing"]);

export interface Violation {
  file: string;
  imports: string;
  rule: string;
}

/** The sources of src/: absolute path -> text. */
export function sourcesOfSrc(): Map<string, string> {
  return new Map(files(src).map((f) => [f, readFileSync(f, "utf8")]));
}

/** Names a handler's use case apart from the handler and keeps handlers in handlers.ts (rule 4). */
export function shapeOfAreas(sources: Map<string, string>): Violation[] {
  const found: Violation[] = [];
  for (const [file, text] of sources) {
    const from = rel(file);
    if (!/^src\/modules\/[^/]+\//.test(from) || from.startsWith("src/modules/shared/")) continue;
    const isHandlers = /^src\/modules\/[^/]+\/handlers\.ts$/.test(from);
    if (!isHandlers && /\bAreaHandlers\b/.test(text))
      found.push({ file: from, imports: "AreaHandlers", rule: "an area's handlers are defined in its handlers.ts only" });
    if (!isHandlers) continue;
    const imported = new Set<string>();
    for (const m of text.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s*from/g))
      for (const part of m[1].split(",")) {
        const name = part
          .trim()
          .replace(/^type\s+/, "")
          .split(/\s+as\s+/)
          .pop()
          ?.trim();
        if (name) imported.add(name);
      }
    for (const m of text.matchAll(/^\s+(?:async\s+)?([a-z][A-Za-z0-9]*)\s*\(\s*\{/gm))
      if (imported.has(m[1]))
        found.push({ file: from, imports: m[1], rule: "a handler calls a use case named for what it does, not after its operationId" });
  }
  return found;
}

export function check(sources: Map<string, string> = sourcesOfSrc()): Violation[] {
  const violations: Violation[] = [];
  const areaEdges = new Map<string, Set<string>>();
  for (const [file, text] of sources) {
    const from = rel(file);
    const fromArea = areaOf(file);
    for (const target of importsOf(file, text)) {
      const to = rel(target);
      if (!to.startsWith("src/")) continue; // generated/, node_modules
      const toArea = areaOf(target);
      if (to === "src/main.ts") violations.push({ file: from, imports: to, rule: "nothing imports src/main.ts" });
      if (fromArea && toArea && fromArea !== toArea)
        (areaEdges.get(fromArea) ?? areaEdges.set(fromArea, new Set()).get(fromArea)!).add(toArea);
      if (toArea && fromArea !== toArea && to !== `src/modules/${toArea}/index.ts`)
        violations.push({ file: from, imports: to, rule: `an area only through its public face src/modules/${toArea}/index.ts` });
      if (from.startsWith("src/db/") && (to.startsWith("src/http/") || toArea))
        violations.push({ file: from, imports: to, rule: "src/db imports neither src/http nor an area" });
      if (SHARED_SERVICES.some((s) => from.startsWith(s)) && toArea)
        violations.push({ file: from, imports: to, rule: "shared services import no area" });
      if (from.startsWith("src/modules/shared/") && toArea)
        violations.push({ file: from, imports: to, rule: "src/modules/shared imports no area" });
      // the logger and the request context sit below every layer: whatever they imported would import them back
      if (["src/log.ts", "src/request-context.ts"].includes(from) && /^src\/(platform|http|db|modules)\//.test(to))
        violations.push({
          file: from,
          imports: to,
          rule: "src/log.ts and src/request-context.ts import no layer",
        });
      if (from.startsWith("src/platform/") && to.startsWith("src/http/"))
        violations.push({ file: from, imports: to, rule: "src/platform does not import src/http" });
      if (from.startsWith("src/modules/") && !from.endsWith("/handlers.ts") && ["src/http/types.ts", "src/http/envelope.ts"].includes(to))
        violations.push({
          file: from,
          imports: to,
          rule: "use cases take their types and paging from src/platform/use-case.ts, below HTTP",
        });
      if (/^src\/modules\/[^/]+\/handlers\.ts$/.test(from) && to.startsWith("src/db/"))
        violations.push({
          file: from,
          imports: to,
          rule: "handlers translate HTTP to a use case and back: they import nothing from src/db",
        });
      if (to === "src/db/client.ts" && from.startsWith("src/modules/") && !(fromArea && SYSTEM_CLIENT_AREAS.has(fromArea)))
        violations.push({ file: from, imports: to, rule: "areas use src/db/central.ts, not the system client (src/db/client.ts)" });
    }
  }
  violations.push(...shapeOfAreas(sources));
  // cycles between areas: depth-first search over the area graph
  const state = new Map<string, "open" | "done">();
  const stack: string[] = [];
  const visit = (a: string) => {
    state.set(a, "open");
    stack.push(a);
    for (const b of areaEdges.get(a) ?? []) {
      if (state.get(b) === "open")
        violations.push({
          file: `src/modules/${a}`,
          imports: `src/modules/${b}`,
          rule: `no cycle between areas: ${[...stack.slice(stack.indexOf(b)), b].join(" -> ")}`,
        });
      else if (!state.has(b)) visit(b);
    }
    stack.pop();
    state.set(a, "done");
  };
  for (const a of [...areaEdges.keys()].sort()) if (!state.has(a)) visit(a);
  return violations;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const violations = check();
  if (!violations.length) {
    console.log(
      "check-dependencies: every import of src/ follows the rules (areas through their index.ts, no cycle between areas, layers)",
    );
    process.exit(0);
  }
  for (const v of violations) console.error(`${v.file} imports ${v.imports}: ${v.rule}`);
  console.error(`check-dependencies: ${violations.length} violation(s)`);
  process.exit(1);
}
