// `make check-sql` (part of `make test`): raw SQL cannot forget the tenant.
//
// Rules, checked on the TypeScript syntax tree of every file under src/:
//   1. In the areas (src/modules), raw SQL is written only with the `sql` tag of src/db/sql.ts
//      (which binds the active tenant at run time), and only in query files: `queries.ts` or
//      `queries/*.ts` of an area. The lower-level entries - `$queryRaw`, `$executeRaw`, their
//      `Unsafe` forms, `Prisma.sql`/`raw`/`join`/`empty`, the pool - are not used there at all.
//   2. Every statement (a `sql` template anywhere in src/, or a `$queryRaw`/`$executeRaw`
//      template outside the areas) that names a tenant-owned table filters each such table by the
//      tenant in the same template: `<alias>.tenant_id = ${tenant}` (or `tenant_id = ${tenant}`
//      when the table has no alias), or `<alias>.tenant_id = <other>.tenant_id` where <other> is
//      filtered; an INSERT passes `${tenant}`. Platform code that works across tenants on purpose
//      (the job queue's sweeps, sign-in) marks the statement with a `// cross-tenant: <why>`
//      comment on one of the three lines above it.
//   3. A statement of an area names only its own area's tables, the employee record
//      (`employees`, `employee_department_counts`) and the platform's tables; other areas' data is
//      read through their public face (index.ts).
//   4. `lockRows(tx, "<table>", …)`/`lockRow(…)` name a tenant-owned table.
//   5. Through the ORM as well, an area writes (create, update, upsert, delete and their *Many
//      forms) only its own area's models, the employee record and the platform's models: a write to
//      another area's data goes through that area's public face (index.ts), where its rules live.
// Tenant-owned tables and their areas come from prisma/schema/<area>.prisma (models with a
// `tenant_id` field; the table is the model's @@map).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

const root = path.resolve(import.meta.dirname, "../..");
const TENANT = "\u0000TENANT\u0000";
const OTHER = "\u0000X\u0000";

// ─── tables ───
interface Table {
  name: string;
  schema: string;
  tenantOwned: boolean;
  /** the Prisma model's name as the client spells it (`leaveEncashment`) */
  model: string;
}
function loadTables(): Map<string, Table> {
  const tables = new Map<string, Table>();
  const dir = path.join(root, "prisma/schema");
  for (const file of readdirSync(dir).filter((f) => f.endsWith(".prisma"))) {
    const schema = file.replace(/\.prisma$/, "");
    const text = readFileSync(path.join(dir, file), "utf8");
    for (const m of text.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
      const body = m[2];
      const name = /@@map\("([^"]+)"\)/.exec(body)?.[1] ?? m[1];
      const model = m[1][0].toLowerCase() + m[1].slice(1);
      tables.set(name, { name, schema, tenantOwned: /^\s*tenant_id\s+String/m.test(body), model });
    }
  }
  return tables;
}

/** Schema files whose tables every area may name (the platform and the employee record). */
const SHARED_SCHEMAS = new Set(["base", "platform"]);
const SHARED_TABLES = new Set(["employees", "employee_department_counts"]);
/** The schema file of each area's own tables. */
const AREA_SCHEMA: Record<string, string> = {
  leave: "leave",
  attendance: "attendance",
  payroll: "payroll",
  recruitment: "recruitment",
  assets: "assets",
  helpdesk: "helpdesk",
  employees: "employees",
  organization: "employees",
  integrations: "integrations",
  bulk: "bulk",
  privacy: "privacy",
};

/** The ORM's writing methods (rule 5). */
const ORM_WRITES = new Set([
  "create",
  "createMany",
  "createManyAndReturn",
  "update",
  "updateMany",
  "updateManyAndReturn",
  "upsert",
  "delete",
  "deleteMany",
]);

/** Whether an area's code may name (rule 3) or write (rule 5) the table. */
function mayName(table: Table, area: string): boolean {
  return SHARED_SCHEMAS.has(table.schema) || SHARED_TABLES.has(table.name) || table.schema === (AREA_SCHEMA[area] ?? "platform");
}

// ─── files ───
function walk(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir)) {
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (p.endsWith(".ts")) out.push(p);
  }
  return out;
}

const rel = (p: string) => path.relative(root, p).split(path.sep).join("/");
const areaOf = (file: string) => /^src\/modules\/([^/]+)\//.exec(file)?.[1];
const isQueryFile = (file: string) => /^src\/modules\/[^/]+\/(queries\.ts|queries\/[^/]+\.ts)$/.test(file);

export interface Problem {
  file: string;
  line: number;
  message: string;
}

const FORBIDDEN_IN_AREAS = [
  "$queryRaw",
  "$executeRaw",
  "$queryRawUnsafe",
  "$executeRawUnsafe",
  "tenantRead",
  "tenantSqlRead",
  "tenantPreparedRead",
  "getPool",
  "getBaseClient",
];
const FORBIDDEN_PRISMA = new Set(["sql", "raw", "join", "empty"]);
const SQL_KEYWORDS = new Set(
  (
    "where on using join left right inner full outer cross natural set values select group order " +
    "limit offset returning as lateral and or not union except intersect having window for with"
  ).split(" "),
);

/** The text of a template with `${tenant}` as TENANT and every other interpolation as OTHER. */
function templateText(t: ts.TemplateLiteral, sf: ts.SourceFile): string {
  if (ts.isNoSubstitutionTemplateLiteral(t)) return t.text;
  let s = t.head.text;
  for (const span of t.templateSpans) {
    s += span.expression.getText(sf).trim() === "tenant" ? TENANT : OTHER;
    s += span.literal.text;
  }
  return s;
}

/** Problems of one statement's text (rules 2 and 3). */
export function checkStatement(text: string, tables: Map<string, Table>, area: string | undefined): string[] {
  const problems: string[] = [];
  const sqlText = text.replace(/--[^\n]*/g, " ").replace(/'(?:[^']|'')*'/g, "''");
  const refs: { table: Table; alias: string | undefined; insert: boolean }[] = [];
  for (const m of sqlText.matchAll(/\b(from|join|update|into)\s+([a-z_][a-z0-9_]*)(?:\s+(?:as\s+)?([a-z_][a-z0-9_]*))?/gi)) {
    const table = tables.get(m[2]);
    if (!table) continue;
    const alias = m[3] && !SQL_KEYWORDS.has(m[3].toLowerCase()) ? m[3] : undefined;
    refs.push({ table, alias, insert: m[1].toLowerCase() === "into" });
  }
  if (!refs.length) return problems;
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const filtered = new Set<string>();
  const T = esc(TENANT);
  for (const r of refs) {
    const key = r.alias ?? r.table.name;
    const direct = r.alias
      ? new RegExp(`\\b${esc(r.alias)}\\.tenant_id\\s*=\\s*${T}|${T}(?:::uuid)?\\s*=\\s*${esc(r.alias)}\\.tenant_id\\b`)
      : new RegExp(`(?<![.\\w])tenant_id\\s*=\\s*${T}|${T}(?:::uuid)?\\s*=\\s*tenant_id\\b`);
    if (direct.test(sqlText) || (r.insert && sqlText.includes(TENANT))) filtered.add(key);
  }
  // joined on another filtered alias's tenant_id
  for (let changed = true; changed; ) {
    changed = false;
    for (const m of sqlText.matchAll(/\b([a-z_][a-z0-9_]*)\.tenant_id\s*=\s*([a-z_][a-z0-9_]*)\.tenant_id\b/gi)) {
      const [a, b] = [m[1], m[2]];
      for (const [x, y] of [
        [a, b],
        [b, a],
      ])
        if (filtered.has(x) && !filtered.has(y)) {
          filtered.add(y);
          changed = true;
        }
    }
  }
  for (const r of refs) {
    if (!r.table.tenantOwned) continue;
    const key = r.alias ?? r.table.name;
    if (!filtered.has(key))
      problems.push(
        `${r.table.name}${r.alias ? ` (${r.alias})` : ""} is not filtered by the tenant: ` +
          `add ${r.alias ? `${r.alias}.` : ""}tenant_id = \${tenant}`,
      );
    if (area) {
      if (!mayName(r.table, area))
        problems.push(`${r.table.name} belongs to the ${r.table.schema} area: read it through that area's index.ts`);
    }
  }
  return problems;
}

function crossTenantMarked(sf: ts.SourceFile, node: ts.Node): boolean {
  const line = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
  const lines = sf.text.split("\n");
  for (let l = Math.max(0, line - 3); l <= line; l++) if (/\/\/\s*cross-tenant:/.test(lines[l])) return true;
  return false;
}

export function checkFile(file: string, source: string, tables: Map<string, Table>): Problem[] {
  const problems: Problem[] = [];
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true);
  const area = areaOf(file);
  const at = (node: ts.Node, message: string) =>
    problems.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, message });
  const visit = (node: ts.Node) => {
    if (area && ts.isPropertyAccessExpression(node)) {
      const name = node.name.text;
      if (FORBIDDEN_IN_AREAS.includes(name)) at(node, `${name}: areas write raw SQL with src/db/sql.ts, in their query files`);
      if (ts.isIdentifier(node.expression) && node.expression.text === "Prisma" && FORBIDDEN_PRISMA.has(name))
        at(node, `Prisma.${name}: areas write raw SQL with src/db/sql.ts, in their query files`);
    }
    if (area && ts.isIdentifier(node) && FORBIDDEN_IN_AREAS.includes(node.text) && ts.isImportSpecifier(node.parent))
      at(node, `${node.text}: not for areas (src/db/sql.ts)`);
    if (ts.isTaggedTemplateExpression(node)) {
      const tag = node.tag.getText(sf);
      const isSql = tag === "sql";
      const isPrismaRaw = /\$(queryRaw|executeRaw)$/.test(tag);
      if (isSql || isPrismaRaw) {
        if (area && isSql && !isQueryFile(file)) at(node, "raw SQL belongs in the area's query file (queries.ts or queries/*.ts)");
        if (!(isPrismaRaw && area)) {
          const text = templateText(node.template, sf);
          const found = checkStatement(text, tables, area);
          if (found.length && !(!area && crossTenantMarked(sf, node))) for (const m of found) at(node, m);
        }
      }
    }
    if (area && ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && ORM_WRITES.has(node.expression.name.text)) {
      const target = node.expression.expression;
      if (ts.isPropertyAccessExpression(target)) {
        const table = [...tables.values()].find((t) => t.model === target.name.text);
        if (table && !mayName(table, area))
          at(
            node,
            `${table.model}.${node.expression.name.text}: ${table.name} belongs to another area; write it through that area's index.ts`,
          );
      }
    }
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      (node.expression.text === "lockRows" || node.expression.text === "lockRow")
    ) {
      const t = node.arguments[1];
      if (!t || !ts.isStringLiteral(t)) at(node, `${node.expression.text}: name the table as a string literal`);
      else if (!tables.get(t.text)?.tenantOwned) at(node, `${node.expression.text}: ${t.text} is not a tenant-owned table`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return problems;
}

export function checkSql(): { problems: Problem[]; statements: number } {
  const tables = loadTables();
  const problems: Problem[] = [];
  let statements = 0;
  for (const abs of walk(path.join(root, "src"))) {
    const file = rel(abs);
    if (file === "src/db/sql.ts") continue; // the entry itself (lockRows builds its statement from a checked name)
    const source = readFileSync(abs, "utf8");
    statements += (source.match(/\bsql`|\$(queryRaw|executeRaw)`/g) ?? []).length;
    problems.push(...checkFile(file, source, tables));
  }
  return { problems, statements };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { problems, statements } = checkSql();
  if (problems.length) {
    for (const p of problems) console.error(`${p.file}:${p.line}: ${p.message}`);
    console.error(`check-sql: ${problems.length} problem(s)`);
    process.exit(1);
  }
  console.log(
    `check-sql: ${statements} raw statements, each filters every tenant-owned ` +
      `table by the tenant; raw SQL of the areas only in their query files`,
  );
}
