// `make lint`: business time comes from one clock (src/lib/clock.ts). In the areas (src/modules/),
// src/lib/ and src/platform/ (which authorises and delivers with business instants: expiries, a rotated
// secret's grace), the current instant is `clock.now()` / `clock.nowMs()`, never `new Date()` or
// `Date.now()` - so a tenant's "today", the instants on records and the expiry of links follow
// the clock that CLOCK_START and the tests set. A reading of machine time there (an uptime, the age
// of a signature by the sender's clock) says so with a `// machine time` comment on its line or the
// line above. src/db and src/http keep to machine time (timeouts, windows, admission).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const PATTERNS = ["src/modules/*.ts", "src/lib/*.ts", "src/platform/*.ts"];
const EXEMPT = new Set(["src/lib/clock.ts"]);
const READING = /\bnew Date\(\s*\)|\bDate\.now\(\s*\)/;
const MARK = /\/\/ machine time\b/;

export interface ClockReading {
  file: string;
  line: number;
  text: string;
}

/** The lines of `text` that read the machine's clock without saying why, numbered from 1. */
export function clockReadingsOf(file: string, text: string): ClockReading[] {
  const lines = text.split("\n");
  const found: ClockReading[] = [];
  lines.forEach((raw, i) => {
    const code = raw.replace(/\/\/.*$/, "");
    if (!READING.test(code) || /^\s*(\*|\/\*)/.test(raw)) return;
    if (MARK.test(raw) || (i > 0 && /^\s*\/\/ machine time\b/.test(lines[i - 1]))) return;
    found.push({ file, line: i + 1, text: raw.trim() });
  });
  return found;
}

/** Every unmarked reading of the machine's clock in the tracked files of the areas and src/lib. */
export function checkClock(): ClockReading[] {
  const files = execFileSync("git", ["ls-files", "-z", "--", ...PATTERNS], { cwd: root, encoding: "utf8" })
    .split("\0")
    .filter((f) => f && !EXEMPT.has(f));
  return files.flatMap((file) => clockReadingsOf(file, readFileSync(path.join(root, file), "utf8")));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = checkClock();
  if (found.length) {
    for (const r of found) console.error(`${r.file}:${r.line}: ${r.text}`);
    console.error(
      `check-clock: ${found.length} reading(s) of the machine's clock: use clock.now() / clock.nowMs() (src/lib/clock.ts), ` +
        "or mark machine time with a '// machine time' comment",
    );
    process.exit(1);
  }
  console.log("check-clock: business time comes from src/lib/clock.ts");
}
