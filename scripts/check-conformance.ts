// After the whole test suite (`make unit`): every operation of generated/openapi.json must
//   1. have a real handler (not a 501 stub of `make stubs`), and
//   2. have been called by a test written for it - a 2xx answer recorded in a test file other
//      than the generic proof matrices (they call every operation by construction, so they
//      cannot stand for an operation's own test).
// Reads the per-file call records that test/support/setup.ts writes to PROOF_RECORD_DIR.
// Usage: tsx scripts/check-conformance.ts <record-dir>
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const dir = process.argv[2] ?? process.env.PROOF_RECORD_DIR;
if (!dir || !existsSync(dir)) {
  console.error(`check-conformance: no call records in ${dir ?? "(PROOF_RECORD_DIR unset)"}; run the suite with PROOF_RECORD_DIR set (make unit does)`);
  process.exit(2);
}

interface FileRecord {
  file: string;
  generic: boolean;
  calls: Record<string, { calls: number; statuses: Record<string, number> }>;
}

const doc = JSON.parse(readFileSync(path.join(root, "generated", "openapi.json"), "utf8"));
const ops: { id: string; method: string; path: string; area: string }[] = [];
for (const [p, item] of Object.entries<any>(doc.paths))
  for (const m of ["get", "post", "put", "patch", "delete"])
    if (item[m]?.operationId) ops.push({ id: item[m].operationId, method: m.toUpperCase(), path: p, area: item[m]["x-area"] ?? item[m].tags?.[0] });

const records: FileRecord[] = readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .map((f) => JSON.parse(readFileSync(path.join(dir, f), "utf8")));

// Stubs written by `make stubs` answer 501 until implemented.
const stubbed = new Set<string>();
const modules = path.join(root, "src", "modules");
for (const area of existsSync(modules) ? readdirSync(modules) : []) {
  const f = path.join(modules, area, "stubs.ts");
  if (existsSync(f)) for (const m of readFileSync(f, "utf8").matchAll(/notImplemented\("(\w+)"\)/g)) stubbed.add(m[1]);
}

interface Row {
  id: string;
  route: string;
  calls: number;
  own2xx: number;
  files: Set<string>;
  statuses: Set<string>;
}
const rows: Row[] = ops.map((o) => ({ id: o.id, route: `${o.method} ${o.path}`, calls: 0, own2xx: 0, files: new Set(), statuses: new Set() }));
const byId = new Map(rows.map((r) => [r.id, r]));
for (const rec of records)
  for (const [id, s] of Object.entries(rec.calls)) {
    const row = byId.get(id);
    if (!row) continue;
    row.calls += s.calls;
    for (const st of Object.keys(s.statuses)) row.statuses.add(st);
    const ok = Object.entries(s.statuses).filter(([st]) => st.startsWith("2")).reduce((n, [, c]) => n + c, 0);
    if (!rec.generic && ok) {
      row.own2xx += ok;
      row.files.add(rec.file);
    }
  }

const failures: string[] = [];
for (const r of rows) {
  if (stubbed.has(r.id)) failures.push(`${r.id} (${r.route}): handler is a 501 stub`);
  else if (!r.calls) failures.push(`${r.id} (${r.route}): never called by any test`);
  else if (!r.own2xx) failures.push(`${r.id} (${r.route}): no test of its own gets a 2xx from it (only ${[...r.statuses].sort().join("/")} seen${[...r.statuses].some((s) => s.startsWith("2")) ? ", 2xx only from the generic matrices" : ""})`);
}

const w = Math.max(...rows.map((r) => r.id.length));
console.log(`\nconformance: ${ops.length} operations, ${records.length} test files recorded`);
console.log(`${"operation".padEnd(w)}  calls  own 2xx  statuses seen`);
for (const r of rows.sort((a, b) => a.id.localeCompare(b.id)))
  console.log(`${r.id.padEnd(w)}  ${String(r.calls).padStart(5)}  ${String(r.own2xx).padStart(7)}  ${[...r.statuses].sort().join(" ")}`);
if (failures.length) {
  console.error(`\nconformance FAILED - ${failures.length} operation(s) without a handler or a test of their own:\n  ${failures.join("\n  ")}`);
  process.exit(1);
}
console.log(`\nconformance OK: every operation has a handler and a test that calls it successfully`);
