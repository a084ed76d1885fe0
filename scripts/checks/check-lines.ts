// `make lint`: no line of the code is over 140 characters (Biome formats at 140 columns, but it
// cannot break a long string, template or comment - those are split by hand).
// Checked: the tracked files under src/, test/, scripts/, openapi/plugins/ and prisma/ that Biome formats.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

export const MAX_LINE = 140;
const root = path.resolve(import.meta.dirname, "../..");
const PATTERNS = ["src/*.ts", "test/*.ts", "scripts/*.ts", "scripts/*.mjs", "openapi/plugins/*.js", "prisma/*.ts"];

export interface LongLine {
  file: string;
  line: number;
  length: number;
}

/** The lines of `text` over `max` characters (code points), numbered from 1. */
export function longLinesOf(file: string, text: string, max = MAX_LINE): LongLine[] {
  const found: LongLine[] = [];
  text.split("\n").forEach((raw, i) => {
    const length = [...raw.replace(/\r$/, "")].length;
    if (length > max) found.push({ file, line: i + 1, length });
  });
  return found;
}

/** Every line over the limit in the repository's tracked code files. */
export function checkLines(): LongLine[] {
  const files = execFileSync("git", ["ls-files", "-z", "--", ...PATTERNS], { cwd: root, encoding: "utf8" })
    .split("\0")
    .filter(Boolean);
  return files.flatMap((file) => longLinesOf(file, readFileSync(path.join(root, file), "utf8")));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const long = checkLines();
  if (long.length) {
    for (const l of long) console.error(`${l.file}:${l.line}: ${l.length} characters (at most ${MAX_LINE})`);
    console.error(`check-lines: ${long.length} line(s) over ${MAX_LINE} characters`);
    process.exit(1);
  }
  console.log(`check-lines: no line over ${MAX_LINE} characters`);
}
