// `make generate` (and `make docs`): writes docs/configuration.md from src/config.ts and package.json,
// so the list of environment variables cannot drift from the code that reads them. The page holds:
//   - the introduction: the leading comment of src/config.ts but its first paragraph;
//   - one row per variable `loadConfig` reads through a reading function of src/config-readers.ts (`integer`, `bool`, `url`,
//     ...): the variable, its default, the values it takes and what it means. The default is the
//     code's own (the reading function's `dflt` argument, or the right side of a `??`), rendered from
//     its literals; a `@default` line of the field's doc comment describes it only where the code
//     computes it or gives none. The meaning is the doc comment of the `Config` field it fills, which
//     must name the variable in backticks;
//   - the variables package.json's `start` script reads itself (`${NAME:-default}`).
// It fails rather than write a page that says less than the code: a field read from the environment
// without a doc comment naming its variable, a reading function it does not know, a `@default` line
// beside a default the code states, or a variable of `npm start` without its meaning here.
// test/platform/config.test.ts checks that the committed page is what this writes and that it lists
// exactly the variables loadConfig reads; `make test` (check-generated) fails when it is stale.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const root = path.resolve(import.meta.dirname, "../..");
export const CONFIG_SOURCE = "src/config.ts";
/** The reading functions loadConfig calls and the constants they use. */
export const CONFIG_READERS_SOURCE = "src/config-readers.ts";
export const CONFIG_DOC = "docs/configuration.md";
/** The headings the variables' tables stand under. */
export const SERVER_HEADING = "## Variables of the server";
export const NPM_START_HEADING = "## Variables of `npm start`";

/** What the variables of package.json's start script mean (the script holds their defaults). */
const NPM_START_VARIABLES: Record<string, string> = {
  NODE_HEAP_MB: "V8's old-space limit in MiB (`--max-old-space-size`) of the server `npm start` runs " + '(docs/operations.md, "Memory")',
  NODE_SEMI_SPACE_MB:
    "V8's semi-space in MiB (`--max-semi-space-size`; the young generation is two of them) of the server `npm start` " +
    "runs: 8 (the default) holds ~16 MB less than 16 and collects the young generation twice as often, at no " +
    'measured throughput (docs/operations.md, "Memory")',
  MALLOC_ARENA_MAX:
    "glibc's malloc arenas of the server `npm start` runs: sign-in's scrypt working memory is not kept " +
    'per thread (docs/operations.md, "Memory")',
  MALLOC_MMAP_THRESHOLD_:
    "glibc's mmap threshold in bytes, fixed: large blocks freed (scrypt's 16 MB at each sign-in) go back to the system " +
    'instead of staying in the arenas (docs/operations.md, "Memory")',
};

/** One variable of the server as the page lists it. */
export interface Variable {
  name: string;
  /** The Config field it fills. */
  field: string;
  dflt: string;
  accepts: string;
  meaning: string;
}

function fail(message: string): never {
  throw new Error(`scripts/build/docs-config.ts: ${message}`);
}

/** The text of a `/** ... *\/` comment, one line per source line, without the stars. */
function docLines(comment: string): string[] {
  return comment
    .replace(/^\/\*\*/, "")
    .replace(/\*\/$/, "")
    .split("\n")
    .map((l) => l.replace(/^\s*\*( |$)/, "").trimEnd())
    .filter((l, i, all) => l !== "" || (i > 0 && i < all.length - 1));
}

/** The doc comment just above `node`, or undefined. */
function docCommentOf(source: string, node: ts.Node): string | undefined {
  const ranges = ts.getLeadingCommentRanges(source, node.getFullStart()) ?? [];
  const last = ranges.at(-1);
  const text = last && source.slice(last.pos, last.end);
  return text?.startsWith("/**") ? text : undefined;
}

/** A value of the source as its literals give it (numbers, strings, arrays of them, known constants). */
function evaluate(e: ts.Expression, consts: Map<string, ts.Expression>): unknown {
  if (ts.isParenthesizedExpression(e)) return evaluate(e.expression, consts);
  if (ts.isAsExpression(e)) return evaluate(e.expression, consts);
  if (ts.isNumericLiteral(e)) return Number(e.text);
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return e.text;
  if (ts.isArrayLiteralExpression(e)) return e.elements.map((x) => evaluate(x, consts));
  if (ts.isIdentifier(e) && consts.has(e.text)) return evaluate(consts.get(e.text) as ts.Expression, consts);
  if (ts.isPropertyAccessExpression(e) && e.getText() === "Number.MAX_SAFE_INTEGER") return Number.MAX_SAFE_INTEGER;
  if (ts.isBinaryExpression(e)) {
    const [a, b] = [evaluate(e.left, consts), evaluate(e.right, consts)];
    if (typeof a === "number" && typeof b === "number") {
      if (e.operatorToken.kind === ts.SyntaxKind.AsteriskToken) return a * b;
      if (e.operatorToken.kind === ts.SyntaxKind.LessThanLessThanToken) return a << b;
      if (e.operatorToken.kind === ts.SyntaxKind.PlusToken) return a + b;
    }
  }
  return fail(`cannot evaluate \`${e.getText()}\``);
}

const code = (s: unknown) => `\`${s}\``;

/** A reading function's call: its arguments (or its parameters' defaults) and the constants of src/config.ts, evaluated. */
interface Call {
  arg(i: number): unknown;
  constant(name: string): unknown;
  node: ts.CallExpression;
}
/** How each reading function of src/config.ts is described in the "Takes" column. */
const READERS: Record<string, (c: Call) => string> = {
  integer: (c) => String(c.arg(5)),
  positiveInt: () => "a positive integer",
  nonNegativeInt: () => "a non-negative integer",
  durationMs: (c) => `milliseconds, ${c.arg(3)} to ${c.constant("MAX_DELAY_MS")}`,
  portNumber: (c) => `a port, ${c.arg(3)} to 65535`,
  optionalPort: () => "a port, 0 to 65535",
  secretKey: () => "32 bytes: 64 hex digits or the base64 of 32 bytes",
  bool: (c) => {
    const [yes, no] = [c.constant("TRUE_WORDS"), c.constant("FALSE_WORDS")] as string[][];
    return `a boolean: ${yes.map((t, i) => `${code(t)}/${code(no[i])}`).join(", ")}, any case`;
  },
  oneOf: (c) => `one of ${(c.arg(2) as string[]).map(code).join(", ")}`,
  url: (c) => `a ${(c.arg(2) as string[]).map((p) => code(`${p}//`)).join(" or ")} URL`,
  origins: () => "origins, comma-separated",
  instant: () => "an ISO 8601 instant with its offset",
  trustProxy: () => "`false`, `true`, a number of hops, or addresses/CIDRs, comma-separated",
  text: (c) =>
    ts.isCallExpression(c.node.parent) && c.node.parent.expression.getText() === "path.resolve"
      ? "a folder (a relative one: in the project folder)"
      : "text",
};

/** The default as the page shows it, from the code's expression; undefined where the code computes it. */
function renderDefault(e: ts.Expression, locals: Map<string, ts.Expression>, readOf: (e: ts.Expression) => string | undefined) {
  const CONDITIONS: Record<string, string> = { isProduction: "in production" };
  const render = (x: ts.Expression): string | undefined => {
    if (ts.isParenthesizedExpression(x)) return render(x.expression);
    if (ts.isNumericLiteral(x)) return code(Number(x.text));
    if (ts.isStringLiteral(x) || ts.isNoSubstitutionTemplateLiteral(x)) return code(x.text);
    if (x.kind === ts.SyntaxKind.TrueKeyword) return code(true);
    if (x.kind === ts.SyntaxKind.FalseKeyword) return code(false);
    if (ts.isTemplateExpression(x)) {
      const spans = x.templateSpans.map((s) => {
        const variable = ts.isIdentifier(s.expression) && locals.has(s.expression.text) && readOf(locals.get(s.expression.text)!);
        return variable ? `$${variable}${s.literal.text}` : undefined;
      });
      return spans.every((s) => s !== undefined) ? code(x.head.text + spans.join("")) : undefined;
    }
    if (ts.isConditionalExpression(x) && ts.isIdentifier(x.condition) && CONDITIONS[x.condition.text]) {
      const [otherwise, when] = [render(x.whenFalse), render(x.whenTrue)];
      return otherwise && when ? `${otherwise} (${when} ${CONDITIONS[x.condition.text]})` : undefined;
    }
    if (
      ts.isPrefixUnaryExpression(x) &&
      x.operator === ts.SyntaxKind.ExclamationToken &&
      ts.isIdentifier(x.operand) &&
      CONDITIONS[x.operand.text]
    )
      return `${code(true)} (${code(false)} ${CONDITIONS[x.operand.text]})`;
    return undefined;
  };
  return render(e);
}

/** Bare mentions of docs/*.md and src/*.ts in the comments become links (the page lives in docs/). */
function linked(text: string): string {
  return text
    .replace(/(?<![`/\w[])docs\/([\w/-]+\.md)/g, "[docs/$1]($1)")
    .replace(/(?<![`/\w[])((?:src|scripts)\/[\w/.-]+\.(?:ts|mjs))\b/g, "[$1](../$1)");
}

const cell = (s: string) => s.replace(/\|/g, "\\|");

/** The introduction and the variables of the server, read from the text of src/config.ts. */
export function readConfigSource(source: string, readersSource = ""): { intro: string[]; variables: Variable[]; direct: string[] } {
  const sf = ts.createSourceFile(CONFIG_SOURCE, source, ts.ScriptTarget.Latest, true);
  const readersSf = ts.createSourceFile(CONFIG_READERS_SOURCE, readersSource, ts.ScriptTarget.Latest, true);
  // the leading comment but its first paragraph (which says what the file is)
  const header: string[] = [];
  for (const line of source.split("\n")) {
    if (!line.startsWith("//")) break;
    header.push(line.replace(/^\/\/ ?/, ""));
  }
  const intro = header.slice(header.indexOf("") + 1).map(linked);

  const readers = new Map<string, ts.FunctionDeclaration>();
  const consts = new Map<string, ts.Expression>();
  let iface: ts.InterfaceDeclaration | undefined;
  let limits: ts.InterfaceDeclaration | undefined;
  let loadConfig: ts.FunctionDeclaration | undefined;
  for (const st of [...readersSf.statements, ...sf.statements]) {
    if (ts.isFunctionDeclaration(st) && st.name && st.body) {
      if (st.name.text === "loadConfig") loadConfig = st;
      else if (st.parameters[0]?.name.getText() === "r") readers.set(st.name.text, st);
    }
    if (ts.isVariableStatement(st))
      for (const d of st.declarationList.declarations) if (ts.isIdentifier(d.name) && d.initializer) consts.set(d.name.text, d.initializer);
    if (ts.isInterfaceDeclaration(st) && st.name.text === "Config") iface = st;
    if (ts.isInterfaceDeclaration(st) && st.name.text === "Limits") limits = st;
  }
  if (!iface || !limits || !loadConfig?.body) return fail(`${CONFIG_SOURCE} has no interface Config, Limits or function loadConfig`);

  const envParam = loadConfig.parameters[0].name.getText();
  const locals = new Map<string, ts.Expression>();
  const direct = new Set<string>();
  const visitBody = (n: ts.Node) => {
    if (ts.isVariableDeclaration(n) && ts.isIdentifier(n.name) && n.initializer) locals.set(n.name.text, n.initializer);
    if (ts.isPropertyAccessExpression(n) && n.expression.getText() === envParam) direct.add(n.name.text);
    ts.forEachChild(n, visitBody);
  };
  visitBody(loadConfig.body);
  const object = locals.get("config");
  if (!object || !ts.isObjectLiteralExpression(object)) return fail("loadConfig builds no `const config = { ... }`");

  interface Read {
    variable: string;
    reader: string;
    call: ts.CallExpression;
    dflt?: ts.Expression;
  }
  const readCall = (n: ts.Node): Read | undefined => {
    if (!ts.isCallExpression(n) || !ts.isIdentifier(n.expression) || !readers.has(n.expression.text)) return undefined;
    const [r, name] = n.arguments;
    if (r?.getText() !== "r" || !name || !ts.isStringLiteral(name)) return undefined;
    const decl = readers.get(n.expression.text) as ts.FunctionDeclaration;
    const at = decl.parameters.findIndex((p) => p.name.getText() === "dflt");
    return { variable: name.text, reader: n.expression.text, call: n, dflt: at >= 0 ? n.arguments[at] : undefined };
  };
  const readOf = (e: ts.Expression) => readCall(e)?.variable;
  // The reads of a field's expression; a local is followed where it is the whole expression or the left of `??`.
  const readsOf = (e: ts.Expression): Read[] => {
    const found: Read[] = [];
    const visit = (n: ts.Node, fallback?: ts.Expression, follow = false) => {
      if (ts.isParenthesizedExpression(n)) return visit(n.expression, fallback, follow);
      if (follow && ts.isIdentifier(n) && locals.has(n.text)) return visit(locals.get(n.text) as ts.Expression, fallback);
      if (ts.isBinaryExpression(n) && n.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken) {
        visit(n.left, n.right, true);
        return visit(n.right);
      }
      const read = readCall(n);
      if (read) return void found.push({ ...read, dflt: read.dflt ?? fallback });
      ts.forEachChild(n, (c) => visit(c));
    };
    visit(e, undefined, true);
    return found;
  };

  const fields = new Map<string, ts.Expression>();
  for (const p of object.properties) {
    if (ts.isPropertyAssignment(p)) fields.set(p.name.getText(), p.initializer);
    else if (ts.isShorthandPropertyAssignment(p) && locals.has(p.name.text))
      fields.set(p.name.text, locals.get(p.name.text) as ts.Expression);
  }

  const variables: Variable[] = [];
  // Config's own fields, then those of the limits it extends
  for (const member of [...iface.members, ...limits.members]) {
    if (!ts.isPropertySignature(member)) continue;
    const field = member.name.getText();
    const expr = fields.get(field);
    const reads = expr ? readsOf(expr) : [];
    if (!reads.length) continue;
    const comment = docCommentOf(source, member);
    const lines = comment ? docLines(comment) : [];
    const tagAt = lines.findIndex((l) => l.startsWith("@default"));
    const tag =
      tagAt >= 0
        ? lines
            .slice(tagAt)
            .join(" ")
            .replace(/^@default\s*/, "")
        : undefined;
    const text = (tagAt >= 0 ? lines.slice(0, tagAt) : lines).join(" ").replace(/\s+/g, " ").trim();
    for (const read of reads) {
      if (!text.includes(code(read.variable)))
        fail(`the doc comment of Config.${field} (${CONFIG_SOURCE}) must name ${code(read.variable)}, the variable it is read from`);
      const describe = READERS[read.reader] ?? fail(`no description of the reading function ${read.reader}: add it to READERS`);
      const decl = readers.get(read.reader) as ts.FunctionDeclaration;
      const call: Call = {
        node: read.call,
        arg: (i) => {
          const given = read.call.arguments[i] ?? decl.parameters[i]?.initializer;
          return given === undefined ? undefined : evaluate(given, consts);
        },
        constant: (name) => evaluate(consts.get(name) ?? fail(`${CONFIG_SOURCE} has no constant ${name}`), consts),
      };
      const computed = read.dflt && renderDefault(read.dflt, locals, readOf);
      if (computed && tag !== undefined)
        fail(`Config.${field}: the code gives ${read.variable}'s default (${computed}); drop the @default line of its comment`);
      if (read.dflt && !computed && tag === undefined)
        fail(`Config.${field}: ${read.variable}'s default is computed (\`${read.dflt.getText()}\`): describe it with a @default line`);
      const meaning = text.startsWith(`${code(read.variable)}: `) ? text.slice(read.variable.length + 4) : text;
      variables.push({
        name: read.variable,
        field,
        dflt: computed ?? tag ?? "—",
        accepts: describe(call),
        meaning: linked(meaning.charAt(0).toUpperCase() + meaning.slice(1)),
      });
    }
  }
  return { intro, variables, direct: [...direct].sort() };
}

/** The variables package.json's start script reads itself, with their defaults there. */
export function npmStartVariables(packageJson: string): { name: string; dflt: string; meaning: string }[] {
  const start: string = JSON.parse(packageJson).scripts.start;
  const found = [...start.matchAll(/\$\{([A-Z_][A-Z0-9_]*):-([^}]*)\}/g)].map(([, name, dflt]) => ({
    name,
    dflt: code(dflt),
    meaning: linked(
      NPM_START_VARIABLES[name] ?? fail(`package.json's start script reads ${name}: say what it means in NPM_START_VARIABLES`),
    ),
  }));
  for (const name of Object.keys(NPM_START_VARIABLES))
    if (!found.some((v) => v.name === name)) fail(`NPM_START_VARIABLES lists ${name}, which package.json's start script does not read`);
  return found;
}

/** docs/configuration.md as src/config.ts and package.json make it. */
export function configurationDoc(
  source = readFileSync(path.join(root, CONFIG_SOURCE), "utf8"),
  packageJson = readFileSync(path.join(root, "package.json"), "utf8"),
  readersSource = readFileSync(path.join(root, CONFIG_READERS_SOURCE), "utf8"),
): string {
  const { intro, variables, direct } = readConfigSource(source, readersSource);
  const all = variables.map((v) => v.meaning).join(" ") + intro.join(" ");
  for (const name of direct)
    if (!all.includes(code(name)) && !all.includes(`\`${name}=`)) fail(`loadConfig reads env.${name}: name it in a doc comment`);
  const out = [
    "<!-- Generated by scripts/build/docs-config.ts from src/config.ts and package.json (`make generate`). Do not edit:",
    "     the text is the comments of src/config.ts, the defaults are loadConfig's. -->",
    "# Configuration (environment)",
    "",
    "Every environment variable the server reads is parsed and checked once, at start, by `loadConfig`",
    "([src/config.ts](../src/config.ts)).",
    "",
    ...intro,
    "",
    SERVER_HEADING,
    "",
    `Read by \`loadConfig\` ([src/config.ts](../src/config.ts)), in the order of the \`Config\` interface.`,
    "",
    "| Variable | Default | Takes | Meaning |",
    "|---|---|---|---|",
    ...variables.map((v) => `| ${code(v.name)} | ${cell(v.dflt)} | ${cell(v.accepts)} | ${cell(v.meaning)} |`),
    "",
    NPM_START_HEADING,
    "",
    "The `start` script of package.json reads these itself (the server does not): `npm start` passes them to node",
    "and glibc. The measuring scripts start the server the same way",
    "([scripts/measure/production-server.ts](../scripts/measure/production-server.ts)).",
    "",
    "| Variable | Default | Meaning |",
    "|---|---|---|",
    ...npmStartVariables(packageJson).map((v) => `| ${code(v.name)} | ${cell(v.dflt)} | ${cell(v.meaning)} |`),
    "",
  ];
  return out.join("\n");
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(path.join(root, CONFIG_DOC), configurationDoc());
  console.log(`docs-config: wrote ${CONFIG_DOC}`);
}
