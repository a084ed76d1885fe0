// After the whole test suite (`make unit`): every operation of generated/openapi.json must
//   1. have a real handler (not a 501 stub of `make stubs`),
//   2. have been called by a test written for it - a 2xx answer recorded in a test file other
//      than the generic proof matrices (they call every operation by construction, so they
//      cannot stand for an operation's own test), and
//   3. be named by that test: one of its 2xx calls made by a test whose full name (describe
//      titles + test title) contains the operationId as a word, so `npm test -- -t <operationId>`
//      runs it and `grep -rn <operationId> test/` finds it.
// Reads the per-file call records that test/support/setup.ts writes to PROOF_RECORD_DIR.
// Usage: tsx scripts/checks/check-conformance.ts <record-dir> [area]   (an area: only its operations, as
// `make conformance area=<area>` runs it after the area's own tests and the matrices over the area)
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";

export interface CallRecord {
  calls: number;
  statuses: Record<string, number>;
  /** full test name -> status -> count (test/support/recorder.ts) */
  tests?: Record<string, Record<string, number>>;
}

export interface FileRecord {
  file: string;
  generic: boolean;
  calls: Record<string, CallRecord>;
}

export interface Operation {
  id: string;
  method: string;
  path: string;
}

export interface Row {
  id: string;
  route: string;
  calls: number;
  /** 2xx answers in the operation's own tests (files other than the generic matrices) */
  own2xx: number;
  /** of those, the ones made by a test whose name names the operation */
  named2xx: number;
  /** the non-generic files that got a 2xx from it */
  files: Set<string>;
  statuses: Set<string>;
}

const isOk = (status: string) => status.startsWith("2");
const okCount = (statuses: Record<string, number>) =>
  Object.entries(statuses)
    .filter(([st]) => isOk(st))
    .reduce((n, [, c]) => n + c, 0);

/** Does the full test name contain the operationId as a word (not as part of a longer identifier)? */
export function namesOperation(testName: string, operationId: string): boolean {
  let from = 0;
  for (;;) {
    const at = testName.indexOf(operationId, from);
    if (at < 0) return false;
    const before = testName[at - 1];
    const after = testName[at + operationId.length];
    if (!(before && /\w/.test(before)) && !(after && /\w/.test(after))) return true;
    from = at + 1;
  }
}

/** Per operation: the calls, 2xx answers of its own tests, and of tests that name it. */
export function tally(ops: Operation[], records: FileRecord[]): Row[] {
  const rows: Row[] = ops.map((o) => ({
    id: o.id,
    route: `${o.method} ${o.path}`,
    calls: 0,
    own2xx: 0,
    named2xx: 0,
    files: new Set(),
    statuses: new Set(),
  }));
  const byId = new Map(rows.map((r) => [r.id, r]));
  for (const rec of records)
    for (const [id, s] of Object.entries(rec.calls)) {
      const row = byId.get(id);
      if (!row) continue;
      row.calls += s.calls;
      for (const st of Object.keys(s.statuses)) row.statuses.add(st);
      const ok = okCount(s.statuses);
      if (rec.generic || !ok) continue;
      row.own2xx += ok;
      row.files.add(rec.file);
      for (const [test, statuses] of Object.entries(s.tests ?? {})) if (namesOperation(test, id)) row.named2xx += okCount(statuses);
    }
  return rows;
}

/** The operations that break a rule, one line each (empty: conformance holds). */
export function failuresOf(rows: Row[], stubbed: Set<string>): string[] {
  const failures: string[] = [];
  for (const r of rows) {
    if (stubbed.has(r.id)) failures.push(`${r.id} (${r.route}): handler is a 501 stub`);
    else if (!r.calls) failures.push(`${r.id} (${r.route}): never called by any test`);
    else if (!r.own2xx)
      failures.push(
        `${r.id} (${r.route}): no test of its own gets a 2xx from it ` +
          `(only ${[...r.statuses].sort().join("/")} seen${[...r.statuses].some(isOk) ? ", 2xx only from the generic matrices" : ""})`,
      );
    else if (!r.named2xx)
      failures.push(
        `${r.id} (${r.route}): no test that gets a 2xx from it has "${r.id}" in ` +
          `its describe/test title; 2xx from: ${[...r.files].sort().join(", ")}`,
      );
  }
  return failures;
}

function main(dir: string | undefined, area: string | undefined): void {
  const root = path.resolve(import.meta.dirname, "../..");
  if (!dir || !existsSync(dir)) {
    console.error(
      `check-conformance: no call records in ${dir ?? "(PROOF_RECORD_DIR unset)"}; ` +
        `run the suite with PROOF_RECORD_DIR set (make unit does)`,
    );
    process.exit(2);
  }
  const doc = JSON.parse(readFileSync(path.join(root, "generated", "openapi.json"), "utf8"));
  const ops: Operation[] = [];
  for (const [p, item] of Object.entries<any>(doc.paths))
    for (const m of ["get", "post", "put", "patch", "delete"])
      if (item[m]?.operationId && (!area || item[m].tags?.[0] === area))
        ops.push({ id: item[m].operationId, method: m.toUpperCase(), path: p });
  if (area && !ops.length) {
    console.error(`check-conformance: the document has no operation in area "${area}" (its first tag)`);
    process.exit(2);
  }

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

  const rows = tally(ops, records);
  const failures = failuresOf(rows, stubbed);
  const w = Math.max(...rows.map((r) => r.id.length));
  console.log(`\nconformance: ${ops.length} operations, ${records.length} test files recorded`);
  console.log(`${"operation".padEnd(w)}  calls  own 2xx  named 2xx  statuses seen`);
  for (const r of rows.sort((a, b) => a.id.localeCompare(b.id)))
    console.log(
      `${r.id.padEnd(w)}  ${String(r.calls).padStart(5)}  ${String(r.own2xx).padStart(7)}  ` +
        `${String(r.named2xx).padStart(9)}  ${[...r.statuses].sort().join(" ")}`,
    );
  if (failures.length) {
    console.error(
      `\nconformance FAILED - ${failures.length} operation(s) without a handler, ` +
        `a test of their own, or a test that names them:\n  ${failures.join("\n  ")}`,
    );
    process.exit(1);
  }
  console.log(`\nconformance OK: every operation has a handler and a test, named after it, that calls it successfully`);
}

if (import.meta.url === `file://${process.argv[1]}`) main(process.argv[2] ?? process.env.PROOF_RECORD_DIR, process.argv[3] || undefined);
