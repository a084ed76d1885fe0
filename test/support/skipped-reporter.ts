// A skipped test checks nothing: list every skipped (or todo) test by file and name at the end of
// the run, just above vitest's own summary (which stays the closing lines), so a check that did
// not run is never silent. Listed in test/vitest.config.ts before the default reporter.
import path from "node:path";
import type { Reporter, TestModule } from "vitest/node";

export default class SkippedTests implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const skipped: string[] = [];
    for (const m of testModules)
      for (const t of m.children.allTests())
        if (t.result().state === "skipped")
          skipped.push(`  ${path.relative(process.cwd(), m.moduleId)} > ${t.fullName}${t.options.mode === "todo" ? " (todo)" : ""}`);
    if (!skipped.length) return;
    console.log(`\nSkipped tests (${skipped.length}) - checks that did not run:\n${skipped.join("\n")}\n`);
  }
}
