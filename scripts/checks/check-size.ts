// `make lint`: files that fit in a head. No source file of src/ over 400 lines and
// no function over 60 lines, unless it says why at its top: a `// size: <reason>` comment among the
// comments before the file's first statement (for the file) or before the function (for a function;
// for `const f = () => ...` the comments before the declaration). A function is one that has a name:
// a declaration, a method, or a function or arrow assigned to a variable or a property; an anonymous
// callback counts as part of the function it is written in.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

export const MAX_FILE_LINES = 400;
export const MAX_FUNCTION_LINES = 60;
const root = path.resolve(import.meta.dirname, "../..");
const PATTERNS = ["src/*.ts"];
const REASON = /\/\/\s*size:\s*\S/;
/**
 * Files whose reason is written here rather than in them, for a while: each one names why and until
 * when. Remove the entry (and split the file, or write its reason in it) when that time has come.
 */
export const PENDING: Record<string, string> = {};

export interface Oversize {
  file: string;
  line: number;
  /** the function's name, or null for the file */
  name: string | null;
  lines: number;
}

/** The comments before `node` (its leading trivia) in `text`. */
function leadingComments(text: string, node: ts.Node): string {
  return (ts.getLeadingCommentRanges(text, node.getFullStart()) ?? []).map((r) => text.slice(r.pos, r.end)).join("\n");
}

/** The name of a named function node, or null for an anonymous one (a callback). */
function functionName(node: ts.Node): { name: string; commented: ts.Node } | null {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return { name: node.name.getText(), commented: node };
  if (ts.isConstructorDeclaration(node) || ts.isGetAccessor(node) || ts.isSetAccessor(node))
    return { name: node.name?.getText() ?? "constructor", commented: node };
  if (!ts.isArrowFunction(node) && !ts.isFunctionExpression(node)) return null;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && parent.initializer === node) {
    // the comment goes before `const f = ...` (the statement), or before `f` in a list
    const list = parent.parent;
    const statement = list?.parent;
    const first = ts.isVariableDeclarationList(list) && list.declarations[0] === parent;
    const commented = first && statement && ts.isVariableStatement(statement) ? statement : parent;
    return { name: parent.name.getText(), commented };
  }
  if ((ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && parent.initializer === node)
    return { name: parent.name.getText(), commented: parent };
  return null;
}

/** The file and the functions of `text` over the limits without a written reason. */
export function oversizeOf(file: string, text: string, maxFile = MAX_FILE_LINES, maxFunction = MAX_FUNCTION_LINES): Oversize[] {
  const found: Oversize[] = [];
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const fileLines = text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length;
  const header = source.statements.length ? leadingComments(text, source.statements[0]) : text;
  if (fileLines > maxFile && !REASON.test(header)) found.push({ file, line: 1, name: null, lines: fileLines });
  const visit = (node: ts.Node) => {
    const named = functionName(node);
    if (named) {
      const start = lineOf(node.getStart(source));
      const lines = lineOf(node.getEnd()) - start + 1;
      if (lines > maxFunction && !REASON.test(leadingComments(text, named.commented)))
        found.push({ file, line: start, name: named.name, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Every file and function over the limits in the tracked sources of src/. */
export function checkSize(): Oversize[] {
  const files = execFileSync("git", ["ls-files", "-z", "--", ...PATTERNS], { cwd: root, encoding: "utf8" })
    .split("\0")
    .filter(Boolean);
  return files.filter((file) => !(file in PENDING)).flatMap((file) => oversizeOf(file, readFileSync(path.join(root, file), "utf8")));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const over = checkSize();
  if (over.length) {
    for (const o of over)
      console.error(
        o.name === null
          ? `${o.file}: ${o.lines} lines (at most ${MAX_FILE_LINES} without a "// size: <reason>" at its top)`
          : `${o.file}:${o.line}: ${o.name} is ${o.lines} lines (at most ${MAX_FUNCTION_LINES} without a "// size: <reason>" before it)`,
      );
    console.error(`check-size: ${over.length} file(s) or function(s) over the limits without a reason`);
    process.exit(1);
  }
  console.log(`check-size: no file over ${MAX_FILE_LINES} lines, no function over ${MAX_FUNCTION_LINES}, but those that say why`);
}
