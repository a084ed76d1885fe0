// `make lint`: no "issue <number>" in the repository. The tracker those numbers point to is not part
// of it: a comment, test title or document names the doc section or says the reason instead.
// Checked: every tracked text file but generated/ (made from openapi/, which the openapi check of
// the contract covers), docs/integrations*.md and openapi/ (kept by their owners' check) and
// prisma/migrations/ (applied history, never edited).
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "../..");
// written in two parts so that this file does not match itself
const REFERENCE = new RegExp(`\\b${"issue"}s? #?\\d+`, "i");
const SKIPPED = [/^generated\//, /^openapi\//, /^docs\/integrations[^/]*\.md$/, /^prisma\/migrations\//, /^package-lock\.json$/];
const TEXT = /\.(ts|mjs|js|md|prisma|sql|json|yaml|yml|sh|txt)$|^Makefile$|\/Makefile$/;

export interface TrackerRef {
  file: string;
  line: number;
  text: string;
}

/** The lines of `text` that name a tracker issue by number, numbered from 1. */
export function trackerRefsOf(file: string, text: string): TrackerRef[] {
  const found: TrackerRef[] = [];
  text.split("\n").forEach((line, i) => {
    const m = REFERENCE.exec(line);
    if (m) found.push({ file, line: i + 1, text: m[0] });
  });
  return found;
}

/** Every such line in the repository's tracked text files. */
export function checkTrackerRefs(): TrackerRef[] {
  const files = execFileSync("git", ["ls-files", "-z"], { cwd: root, encoding: "utf8" })
    .split("\0")
    .filter((f) => f && TEXT.test(f) && !SKIPPED.some((s) => s.test(f)));
  return files.flatMap((f) => trackerRefsOf(f, readFileSync(path.join(root, f), "utf8")));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const refs = checkTrackerRefs();
  for (const r of refs) console.error(`${r.file}:${r.line}: "${r.text}" points to a tracker the repository does not contain`);
  if (refs.length) {
    console.error(`check-tracker-refs: ${refs.length} reference(s): name the doc section or say the reason instead`);
    process.exit(1);
  }
  console.log("check-tracker-refs: no issue numbers in the repository");
}
