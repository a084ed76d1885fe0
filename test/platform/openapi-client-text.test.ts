// What a client reads - the API document - speaks to the client: no work-tracking numbers (a tracker's ticket number)
// anywhere in openapi/ (its YAML, comments included, and its plugins), and no file of this repository
// (src/..., docs/..., *.ts) in the bundled document a client downloads from /openapi.json, where such
// a path means nothing. The reference opens with what to do first; the conventions are one click away.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)]));

describe("the API document's text for clients", () => {
  it("names no issue numbers anywhere in openapi/", () => {
    const found = files(path.join(root, "openapi")).flatMap((f) =>
      readFileSync(f, "utf8")
        .split("\n")
        .map((line, i) => ({ at: `${path.relative(root, f)}:${i + 1}`, line }))
        .filter(({ line }) => /\bissues?\s*#?\d+/i.test(line))
        .map(({ at, line }) => `${at}: ${line.trim()}`),
    );
    expect(found).toEqual([]);
  });

  it("names no file of the repository in the bundle clients download", () => {
    const text = readFileSync(path.join(root, "generated", "openapi.json"), "utf8");
    const found = text.match(/\b(src|docs|scripts|test|prisma)\/[\w/.-]+|\b[\w-]+\.(ts|mjs)\b/g) ?? [];
    expect([...new Set(found)]).toEqual([]);
  });

  it("opens with signing in and what to do next; the conventions are folded away", () => {
    const doc = JSON.parse(readFileSync(path.join(root, "generated", "openapi.json"), "utf8"));
    const text: string = doc.info.description;
    const headings = [...text.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
    expect(headings).toEqual(["Start here: signing in", "What to do next", "Conventions"]);
    const opening = text.split("<details>")[0];
    for (const task of ["Connect a program", "Keep a copy in sync", "Write safely", "Receive events", "Import and export"])
      expect(opening).toContain(`**${task}**`);
    expect(text).toMatch(/<details>\n<summary><strong>Conventions<\/strong>[^\n]*<\/summary>\n\n## Conventions\n[\s\S]*\n<\/details>\n?$/);
  });
});
