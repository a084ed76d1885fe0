// scripts/checks/check-lines.ts (run by `make lint`): no line of the code is over 140 characters.
import { describe, expect, it } from "vitest";
import { checkLines, longLinesOf, MAX_LINE } from "../../scripts/checks/check-lines.ts";

describe("check-lines", () => {
  it("finds the lines over the limit, counting characters rather than bytes", () => {
    const ok = "x".repeat(MAX_LINE);
    const text = `${ok}\n${"y".repeat(MAX_LINE + 1)}\n${"→".repeat(MAX_LINE)}\r\n${"é".repeat(MAX_LINE + 2)}`;
    expect(longLinesOf("f.ts", text)).toEqual([
      { file: "f.ts", line: 2, length: MAX_LINE + 1 },
      { file: "f.ts", line: 4, length: MAX_LINE + 2 },
    ]);
  });

  it("the repository has no line over 140 characters", () => {
    expect(checkLines().map((l) => `${l.file}:${l.line}: ${l.length}`)).toEqual([]);
  });
});
