// Order of the test files: the longest first, so that no long file starts last and runs alone
// while the other worker idles (the matrices and fault drills take 10-35 s each; most files 2-6 s).
// A fresh clone has no timings from an earlier run, so the long ones are named here (measured);
// the rest keep vitest's order (earlier durations when known, else larger files first).
import path from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const LONGEST_FIRST = [
  "test/proof/fuzz.test.ts",
  "test/proof/roles.test.ts",
  "test/proof/isolation.test.ts",
  "test/proof/faults-database.test.ts",
  "test/proof/faults-crash.test.ts",
  "test/proof/faults-mail.test.ts",
  "test/recruitment/offers.test.ts",
  "test/platform/overload.test.ts",
  "test/platform/auth.test.ts",
];

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (f: TestSpecification) => {
      const i = LONGEST_FIRST.indexOf(path.relative(this.ctx.config.root, f.moduleId).split(path.sep).join("/"));
      return i < 0 ? LONGEST_FIRST.length : i;
    };
    return sorted
      .map((f, i) => ({ f, i }))
      .sort((a, b) => rank(a.f) - rank(b.f) || a.i - b.i)
      .map(({ f }) => f);
  }
}
