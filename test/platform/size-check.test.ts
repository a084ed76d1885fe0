// scripts/checks/check-size.ts (run by `make lint`): no file of src/ over 400 lines and no function over 60
// without a `// size: <reason>` at its top.
import { describe, expect, it } from "vitest";
import { checkSize, oversizeOf } from "../../scripts/checks/check-size.ts";

const body = (n: number) => Array.from({ length: n }, (_, i) => `  const v${i} = ${i};`).join("\n");

describe("check-size", () => {
  it("finds named functions over the limit without a reason, and files over theirs", () => {
    const text = [
      "// a file",
      "import x from 'y';",
      `export function long() {\n${body(60)}\n}`,
      `// size: a table, one row per line\nfunction justified() {\n${body(60)}\n}`,
      `/** doc */\n// size: why\nexport const arrow = () => {\n${body(60)}\n};`,
      `const plain = async () => {\n${body(60)}\n};`,
      `function short() {\n${body(58)}\n}`,
      `call(() => {\n${body(70)}\n});`,
    ].join("\n");
    expect(oversizeOf("f.ts", text).map((o) => [o.name, o.lines])).toEqual([
      ["long", 62],
      ["plain", 62],
    ]);
    expect(oversizeOf("f.ts", text, 100).map((o) => o.name)).toContain(null);
    expect(oversizeOf("f.ts", `// size: the table\nimport x from 'y';\n${body(500)}`, 100)).toEqual([]);
  });

  it("the repository's sources hold the limits or say why", () => {
    expect(checkSize().map((o) => `${o.file}:${o.line} ${o.name ?? "(file)"} ${o.lines}`)).toEqual([]);
  });
});
