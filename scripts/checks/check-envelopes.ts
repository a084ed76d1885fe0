// `make lint`: every success envelope comes from src/http/envelope.ts (`ok`, `created`, `accepted`,
// `ack`, and `listed` for every list), so a list answers in the shape its document declares in one
// place. Elsewhere in src/, a response body written out as `{ data, ... }` or a list's own field
// (`pagination`, `has_more`, `total_pages`) as an object key is a hand-built envelope.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
const EXEMPT = new Set(["src/http/envelope.ts"]);
const HAND_BUILT = [
  { pattern: /\bbody:\s*\{\s*data\b/, what: "a response body built as { data, ... }" },
  { pattern: /\b(pagination|has_more|total_pages)\s*:/, what: "a list envelope's field" },
];

export interface HandBuilt {
  file: string;
  line: number;
  what: string;
  text: string;
}

/** The lines of `text` (a source file) that build an envelope by hand, numbered from 1; comments aside. */
export function handBuiltEnvelopesOf(file: string, text: string): HandBuilt[] {
  const found: HandBuilt[] = [];
  text.split("\n").forEach((raw, i) => {
    if (/^\s*(\/\/|\*|\/\*)/.test(raw)) return;
    const code = raw.replace(/\/\/.*$/, "").replace(/"(?:[^"\\]|\\.)*"|`(?:[^`\\]|\\.)*`|'(?:[^'\\]|\\.)*'/g, '""');
    for (const { pattern, what } of HAND_BUILT) if (pattern.test(code)) found.push({ file, line: i + 1, what, text: raw.trim() });
  });
  return found;
}

/** Every hand-built envelope in the tracked sources of src/. */
export function checkEnvelopes(): HandBuilt[] {
  const files = execFileSync("git", ["ls-files", "-z", "--", "src/*.ts"], { cwd: root, encoding: "utf8" })
    .split("\0")
    .filter((f) => f && !EXEMPT.has(f));
  return files.flatMap((file) => handBuiltEnvelopesOf(file, readFileSync(path.join(root, file), "utf8")));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const found = checkEnvelopes();
  if (found.length) {
    for (const f of found) console.error(`${f.file}:${f.line}: ${f.what}: ${f.text}`);
    console.error(
      `check-envelopes: ${found.length} hand-built envelope(s): answer with ok / created / accepted / ack, and every list with ` +
        "listed(operationId, listing) of src/http/envelope.ts",
    );
    process.exit(1);
  }
  console.log("check-envelopes: every success envelope comes from src/http/envelope.ts");
}
