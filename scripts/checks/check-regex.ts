// `make lint`: no regular expression of the server can backtrack super-linearly (ReDoS). One
// request with a crafted text must never hold the event loop for every tenant (the
// years-of-experience pattern took 16 s on one run of 4 000 spaces).
//
// Checked with recheck (a ReDoS analyser: it finds attack strings by static analysis and fuzzing)
// - every regular expression literal and `new RegExp(...)` in src/, and
// - every `pattern` of the bundled OpenAPI document (the request validator applies them to input).
//
// A pattern recheck calls vulnerable (exponential or polynomial, e.g. `\s+$` is quadratic when
// tried from every position of a long run of spaces) fails the check, unless the line before it
// says why the input it meets is short: `// regex-bounded: <why>` (the reason is printed). A
// pattern built at run time must interpolate only escapeRegExp(...) (checked as a literal `x` in
// its place), be a join of string literals, or carry `// regex-dynamic: <why>`.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createHash } from "node:crypto";
import path from "node:path";
import { execFileSync } from "node:child_process";
import { checkSync } from "recheck";
import ts from "typescript";

const root = path.resolve(import.meta.dirname, "../..");

export interface Found {
  where: string;
  source: string;
  flags: string;
  /** The reason given on the line before (`regex-bounded:` / `regex-dynamic:`), if any. */
  bounded?: string;
  dynamic?: string;
  /** Set when the pattern is built at run time from something this check cannot see. */
  opaque?: boolean;
}

const reasonOf = (text: string, pos: number, tag: string): string | undefined => {
  const lines = text.slice(0, pos).split("\n");
  // the line of the pattern itself, then the comment lines right above it
  const own = lines.pop() ?? "";
  const above: string[] = [];
  while (lines.length && lines[lines.length - 1].trim().startsWith("//")) above.push(lines.pop()!);
  for (const line of [own, ...above]) {
    const m = line.indexOf(`// ${tag}:`);
    if (m >= 0) return line.slice(m + tag.length + 4).trim();
  }
  return undefined;
};

const isEscapeCall = (e: ts.Expression) => ts.isCallExpression(e) && ts.isIdentifier(e.expression) && e.expression.text === "escapeRegExp";

/** The pattern source of a `new RegExp(arg)` argument, or null when it cannot be known statically. */
function sourceOf(arg: ts.Expression): string | null {
  if (ts.isStringLiteral(arg) || ts.isNoSubstitutionTemplateLiteral(arg)) return arg.text;
  if (ts.isTemplateExpression(arg)) {
    if (!arg.templateSpans.every((s) => isEscapeCall(s.expression))) return null;
    return arg.head.text + arg.templateSpans.map((s) => `x${s.literal.text}`).join("");
  }
  // "a" + "b"
  if (ts.isBinaryExpression(arg) && arg.operatorToken.kind === ts.SyntaxKind.PlusToken) {
    const [l, r] = [sourceOf(arg.left), sourceOf(arg.right)];
    return l === null || r === null ? null : l + r;
  }
  // ["a", "b"].join("|")
  if (
    ts.isCallExpression(arg) &&
    ts.isPropertyAccessExpression(arg.expression) &&
    arg.expression.name.text === "join" &&
    ts.isArrayLiteralExpression(arg.expression.expression) &&
    arg.arguments.length === 1 &&
    ts.isStringLiteral(arg.arguments[0])
  ) {
    const items = arg.expression.expression.elements;
    if (!items.every((i) => ts.isStringLiteral(i))) return null;
    return items.map((i) => (i as ts.StringLiteral).text).join((arg.arguments[0] as ts.StringLiteral).text);
  }
  return null;
}

/** Every regular expression of one TypeScript file. */
export function regexesOf(file: string, text: string): Found[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: Found[] = [];
  const visit = (node: ts.Node) => {
    const at = () => `${file}:${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}`;
    const reasons = () => ({
      bounded: reasonOf(text, node.getStart(sf), "regex-bounded"),
      dynamic: reasonOf(text, node.getStart(sf), "regex-dynamic"),
    });
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const lit = (node as ts.RegularExpressionLiteral).text;
      const end = lit.lastIndexOf("/");
      out.push({ where: at(), source: lit.slice(1, end), flags: lit.slice(end + 1), ...reasons() });
    } else if (
      (ts.isNewExpression(node) || ts.isCallExpression(node)) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === "RegExp" &&
      node.arguments?.length
    ) {
      const [arg, flagArg] = node.arguments;
      const source = sourceOf(arg);
      const flags = flagArg && ts.isStringLiteral(flagArg) ? flagArg.text : "";
      out.push({ where: at(), source: source ?? arg.getText(sf), flags, opaque: source === null, ...reasons() });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

/** Every `pattern` of the bundled document, with its JSON pointer. */
export function documentPatterns(doc: unknown): Found[] {
  const out: Found[] = [];
  const stack: [unknown, string][] = [[doc, ""]];
  while (stack.length) {
    const [node, ptr] = stack.pop()!;
    if (!node || typeof node !== "object") continue;
    for (const [k, v] of Object.entries(node)) {
      if (k === "pattern" && typeof v === "string") out.push({ where: `generated/openapi.json#${ptr}/pattern`, source: v, flags: "u" });
      else stack.push([v, `${ptr}/${k.replace(/~/g, "~0").replace(/\//g, "~1")}`]);
    }
  }
  return out;
}

/**
 * The same verdict on a busy machine as on an idle one: a fixed seed, and the fuzzer bounded by
 * steps only (recheck's time limits would turn a slow run into a different answer).
 */
const RECHECK_PARAMS = {
  randomSeed: 1,
  timeout: null,
  attackTimeout: null,
  incubationTimeout: null,
  seedingTimeout: null,
  recallTimeout: -1,
} as const;

export interface Verdict extends Found {
  status: "safe" | "vulnerable" | "unknown" | "opaque";
  detail: string;
}

/** What recheck answered for one pattern (all a verdict reads of it). */
interface Analysis {
  status: "safe" | "vulnerable" | "unknown";
  /** for a vulnerable pattern: its complexity and an attack string; for an unknown one: why */
  detail: string;
}

function analyse(source: string, flags: string): Analysis {
  const r = checkSync(source, flags, RECHECK_PARAMS);
  if (r.status === "vulnerable") {
    const degree = r.complexity.type === "polynomial" ? ` (degree ${r.complexity.degree})` : "";
    return { status: "vulnerable", detail: `${r.complexity.type}${degree}, e.g. ${r.attack.pattern}` };
  }
  if (r.status === "unknown") return { status: "unknown", detail: String(r.error?.kind ?? "unknown") };
  return { status: "safe", detail: "" };
}

// recheck's answer depends only on the pattern, its flags, the parameters above (a fixed seed, no time
// limits) and recheck's version: answers are kept between runs in node_modules/.cache (ignored; a new
// `npm ci` starts afresh), so a run analyses only the patterns that changed (each takes a process of
// recheck's own and up to seconds of CPU).
const recheckVersion = (createRequire(import.meta.url)("recheck/package.json") as { version: string }).version;
const paramsHash = createHash("sha256").update(JSON.stringify(RECHECK_PARAMS)).digest("hex").slice(0, 8);
const cacheFile = path.join(root, "node_modules/.cache/check-regex", `${recheckVersion}-${paramsHash}.json`);
let analyses: Record<string, Analysis> | undefined;
const cached = (source: string, flags: string): Analysis => {
  analyses ??= existsSync(cacheFile) ? (JSON.parse(readFileSync(cacheFile, "utf8")) as Record<string, Analysis>) : {};
  const key = `${flags}/${source}`;
  analyses[key] ??= analyse(source, flags);
  return analyses[key];
};
const saveAnalyses = () => {
  if (!analyses) return;
  mkdirSync(path.dirname(cacheFile), { recursive: true });
  writeFileSync(cacheFile, JSON.stringify(analyses));
};

export function judge(f: Found): Verdict {
  if (f.opaque) return { ...f, status: f.dynamic ? "safe" : "opaque", detail: f.dynamic ?? "built at run time" };
  const r = cached(f.source, f.flags.replace(/[gy]/g, ""));
  if (r.status === "vulnerable")
    return { ...f, status: f.bounded ? "safe" : "vulnerable", detail: f.bounded ? `bounded: ${f.bounded}` : r.detail };
  if (r.status === "unknown") return { ...f, status: f.bounded ? "safe" : "unknown", detail: r.detail };
  return { ...f, status: "safe", detail: "" };
}

function main() {
  const files = execFileSync("git", ["ls-files", "-z", "--", "src/*.ts"], { cwd: root, encoding: "utf8" }).split("\0").filter(Boolean);
  const found = files.flatMap((f) => regexesOf(f, readFileSync(path.join(root, f), "utf8")));
  const doc = JSON.parse(readFileSync(path.join(root, "generated/openapi.json"), "utf8"));
  const patterns = documentPatterns(doc);
  const unique = new Map<string, Found>();
  for (const p of patterns) if (!unique.has(p.source)) unique.set(p.source, p);
  const verdicts = [...found, ...unique.values()].map(judge);
  saveAnalyses();
  const bad = verdicts.filter((v) => v.status !== "safe");
  const bounded = verdicts.filter((v) => v.detail.startsWith("bounded:"));
  for (const v of bad) console.error(`${v.where}: /${v.source}/${v.flags} is ${v.status}: ${v.detail}`);
  if (bad.length) {
    console.error(
      `check-regex: ${bad.length} regular expression(s) can backtrack super-linearly or cannot be checked. Rewrite them ` +
        "(no adjacent or nested quantifiers over the same characters; trim and split with string code), or say on the line " +
        "before why their input is short (// regex-bounded: <why>).",
    );
    process.exit(1);
  }
  console.log(
    `check-regex: ${found.length} regular expressions in src/ and ${unique.size} distinct patterns of the document are linear` +
      (bounded.length ? ` (${bounded.length} quadratic ones only meet short input: ${bounded.map((b) => b.where).join(", ")})` : ""),
  );
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) main();
