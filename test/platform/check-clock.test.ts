// scripts/checks/check-clock.ts (run by `make lint`): the areas and src/lib read business time from the
// one clock (src/lib/clock.ts), never the machine's, unless a line says it means machine time.
import { describe, expect, it } from "vitest";
import { checkClock, clockReadingsOf } from "../../scripts/checks/check-clock.ts";

describe("check-clock", () => {
  it("finds readings of the machine's clock that do not say they mean machine time", () => {
    const text = [
      "const a = new Date();", // 1: found
      "const b = Date.now() + 5;", // 2: found
      "const c = new Date(row.created_at);", // an instant given: not a reading
      "const d = clock.now();",
      "const e = Date.now(); // machine time: an uptime",
      "// machine time: the age of a signature",
      "const f = Math.floor(Date.now() / 1000);",
      "// new Date() in a comment",
      " * Date.now() in a doc comment",
      "const g = new Date( );", // 10: found
    ].join("\n");
    expect(clockReadingsOf("x.ts", text).map((r) => r.line)).toEqual([1, 2, 10]);
  });

  it("the areas and src/lib read no machine time unmarked", () => {
    expect(checkClock().map((r) => `${r.file}:${r.line}: ${r.text}`)).toEqual([]);
  });
});
