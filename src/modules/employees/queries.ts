// The employees area's raw SQL: the directory list and profile read (hot paths, on the pool without the
// ORM), the code counter, the reporting-line lock and cycle check. The list uses exactly its indexes
// (prisma/schema/employees.prisma; EXPLAIN ANALYZE on 100 000 employees a tenant): partial indexes on
// live rows, `search` on a pg_trgm GIN index led by tenant_id, `department` along its name index, totals
// from employee_department_counts (a trigger) or an index-only count. scripts/measure/bench-sql.ts sends
// the same statements.
import type { Employee, EmployeeExit, ExitChecklistItem, Prisma } from "../../../generated/prisma/client.ts";
import { execute, join, query, read, readPrepared, type Sql, sql, tenant } from "../../db/sql.ts";
import { currentTenantId, type db, type ScopedTx } from "../../db/tenancy.ts";
import { lock } from "../../db/primitives.ts";
import type { Page } from "../../platform/use-case.ts";
import { type ScannedKey, type Walk, type WalkKey, walkAnd, walkKey, walkLimit, walkOrder } from "../../db/keyset.ts";
import { RECORD_FIELDS } from "./fields.ts";
import type { ExitWithChecklist } from "./views.ts";

type Client = ScopedTx | typeof db;

// ───────────────────────────── the directory list ─────────────────────────────

export type DirectorySort =
  | "name"
  | "-name"
  | "employee_code"
  | "-employee_code"
  | "joining_date"
  | "-joining_date"
  | "created_at"
  | "-created_at";

const ORDER: Record<DirectorySort, Sql> = {
  name: sql`last_name, first_name, id`,
  "-name": sql`last_name DESC, first_name DESC, id DESC`,
  employee_code: sql`employee_code, id`,
  "-employee_code": sql`employee_code DESC, id DESC`,
  joining_date: sql`joining_date, id`,
  "-joining_date": sql`joining_date DESC, id DESC`,
  created_at: sql`created_at, id`,
  "-created_at": sql`created_at DESC, id DESC`,
};

const COLUMNS = sql`id, employee_code, first_name, last_name, email::text AS email, phone, department, designation,
  to_char(joining_date, 'YYYY-MM-DD') AS joining_date, status, reports_to, branch_id, work_location_id`;

/** What every sort order of ORDER reads. */
const SORT_KEYS = sql`id, first_name, last_name, employee_code, joining_date, created_at`;
const E_COLUMNS = sql`e.id, e.employee_code, e.first_name, e.last_name, e.email::text AS email, e.phone, e.department, e.designation,
  to_char(e.joining_date, 'YYYY-MM-DD') AS joining_date, e.status, e.reports_to, e.branch_id, e.work_location_id`;

/** A row of the list (the directory projection's columns, dates as YYYY-MM-DD). */
export interface DirectoryRow {
  id: string;
  employee_code: string;
  first_name: string;
  last_name: string;
  email: string;
  phone: string | null;
  department: string;
  designation: string;
  joining_date: string;
  status: string;
  reports_to: string | null;
  branch_id: string | null;
  work_location_id: string | null;
}

export interface DirectoryFilter {
  department?: string;
  status?: string;
  reports_to?: string;
  /** A LIKE pattern on search_text (containsPattern). */
  pattern?: string;
  sort: DirectorySort;
}

/** `%term%` for LIKE, with the term lower-cased (as search_text is) and its wildcards escaped. */
export function containsPattern(term: string): string {
  return `%${term
    .trim()
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The list's conditions after the tenant's: `deleted_at IS NULL AND …`. */
function liveAnd(f: DirectoryFilter): Sql {
  const conds = [sql`deleted_at IS NULL`];
  if (f.department !== undefined) conds.push(sql`department = ${f.department}`);
  if (f.status !== undefined) conds.push(sql`status = ${f.status}`);
  if (f.reports_to !== undefined) conds.push(sql`reports_to = ${f.reports_to}::uuid`);
  if (f.pattern !== undefined) conds.push(sql`search_text LIKE ${f.pattern}`);
  return join(conds, " AND ");
}

/** The total of the list: from employee_department_counts (plain list, one department) or an index-only count. */
export async function directoryTotal(f: DirectoryFilter): Promise<number> {
  // Totals of the plain list and of a department alone are kept by a trigger
  // (employee_department_counts); other filters count their index entries.
  const counted = f.status === undefined && f.reports_to === undefined && f.pattern === undefined;
  const [{ total }] = !counted
    ? await read<{ total: number }>(sql`SELECT count(*)::int AS total FROM employees WHERE tenant_id = ${tenant}::uuid AND ${liveAnd(f)}`)
    : f.department !== undefined
      ? await read<{ total: number }>(
          sql`SELECT coalesce(sum(live_count), 0)::int AS total FROM employee_department_counts
            WHERE tenant_id = ${tenant}::uuid AND department = ${f.department}`,
        )
      : await read<{ total: number }>(
          sql`SELECT coalesce(sum(live_count), 0)::int AS total FROM employee_department_counts WHERE tenant_id = ${tenant}::uuid`,
        );
  return total;
}

/** A page of the list without a search: a walk of a name-ordered partial index. */
export function directoryPage(f: DirectoryFilter, page: Page): Promise<DirectoryRow[]> {
  return read<DirectoryRow>(
    sql`SELECT ${COLUMNS} FROM employees WHERE tenant_id = ${tenant}::uuid
      AND ${liveAnd(f)} ORDER BY ${ORDER[f.sort]} LIMIT ${page.limit} OFFSET ${page.skip}`,
  );
}

/**
 * A page of a search and its total from one pass over the materialized matches: not materialized, the
 * planner walks the whole name index for `ORDER BY name LIMIT 20` (~100x slower for a clustered surname).
 * Only sort keys are sorted; the page's rows are then read by id.
 */
export function directorySearchPage(f: DirectoryFilter, page: Page): Promise<(DirectoryRow & { total: number })[]> {
  const order = ORDER[f.sort];
  return read<DirectoryRow & { total: number }>(sql`
      WITH matches AS MATERIALIZED (SELECT ${SORT_KEYS} FROM employees WHERE tenant_id = ${tenant}::uuid AND ${liveAnd(f)}),
      top AS (SELECT ${SORT_KEYS}, count(*) OVER ()::int AS total FROM matches ORDER BY ${order} LIMIT ${page.limit} OFFSET ${page.skip}),
      page AS (SELECT id, total, row_number() OVER (ORDER BY ${order}) AS n FROM top)
      SELECT ${E_COLUMNS}, page.total FROM page JOIN employees e ON e.tenant_id = ${tenant}::uuid AND e.id = page.id ORDER BY page.n`);
}

/** A page of a walk in the order of change (src/db/keyset.ts) along employees_change_idx: a deep page costs what the first does. */
export function directoryWalk(f: DirectoryFilter, w: Walk): Promise<(DirectoryRow & { walk_xid: string; deleted_at: Date | null })[]> {
  const conds = [walkAnd(w, { softDeleted: true })];
  if (f.department !== undefined) conds.push(sql`department = ${f.department}`);
  if (f.status !== undefined) conds.push(sql`status = ${f.status}`);
  if (f.reports_to !== undefined) conds.push(sql`reports_to = ${f.reports_to}::uuid`);
  if (f.pattern !== undefined) conds.push(sql`search_text LIKE ${f.pattern}`);
  return read(sql`SELECT ${COLUMNS}, deleted_at, ${walkKey()} FROM employees WHERE tenant_id = ${tenant}::uuid
      AND ${join(conds, " AND ")} ORDER BY ${walkOrder()} LIMIT ${walkLimit(w)}`);
}

// ───────────────────────────── the profile read ─────────────────────────────

/**
 * Every column by name, not `e.*`: a prepared `*` would change its result type under a running server when
 * a migration adds a column. Typed by the generated field list, so a new column must be added here.
 */
const EMPLOYEE_COLUMN: Record<Prisma.EmployeeScalarFieldEnum, Sql> = {
  tenant_id: sql`e."tenant_id"`,
  id: sql`e."id"`,
  employee_code: sql`e."employee_code"`,
  first_name: sql`e."first_name"`,
  last_name: sql`e."last_name"`,
  email: sql`e."email"`,
  phone: sql`e."phone"`,
  department: sql`e."department"`,
  designation: sql`e."designation"`,
  joining_date: sql`e."joining_date"`,
  date_of_birth: sql`e."date_of_birth"`,
  gender: sql`e."gender"`,
  employment_type: sql`e."employment_type"`,
  status: sql`e."status"`,
  reports_to: sql`e."reports_to"`,
  branch_id: sql`e."branch_id"`,
  work_location_id: sql`e."work_location_id"`,
  bank_name: sql`e."bank_name"`,
  bank_account_number: sql`e."bank_account_number"`,
  bank_ifsc: sql`e."bank_ifsc"`,
  bank_iban: sql`e."bank_iban"`,
  bank_routing_code: sql`e."bank_routing_code"`,
  labour_card_number: sql`e."labour_card_number"`,
  pan_number: sql`e."pan_number"`,
  uan: sql`e."uan"`,
  esi_number: sql`e."esi_number"`,
  state: sql`e."state"`,
  search_text: sql`e."search_text"`,
  created_at: sql`e."created_at"`,
  updated_at: sql`e."updated_at"`,
  deleted_at: sql`e."deleted_at"`,
  changed_at: sql`e."changed_at"`,
};
const EMPLOYEE_COLUMNS = join(Object.values(EMPLOYEE_COLUMN));

export type EmployeeWithUser = Employee & { user_id: string | null; exit: ExitWithChecklist | null };

/** The exit and its checklist as the profile statement's JSON column gives them: dates and times as strings. */
type ExitRow = Omit<EmployeeExit, "resignation_date" | "last_working_day" | "completed_at" | "created_at" | "updated_at"> & {
  resignation_date: string;
  last_working_day: string;
  completed_at: string | null;
  created_at: string;
  updated_at: string;
  checklist: (Omit<ExitChecklistItem, "completed_at"> & { completed_at: string | null })[];
};

const at = (v: string | null) => (v === null ? null : new Date(v));
/** A `date` of PostgreSQL's JSON (`2026-11-29`) as Prisma gives it: midnight UTC. */
const day = (v: string) => new Date(`${v}T00:00:00Z`);

/**
 * The exit (with its checklist, in order) of an employee on notice or exited, as a JSON column of
 * the profile statement: the profile is read in one round trip whatever the employee's status.
 */
const EXIT_JSON = sql`(SELECT json_build_object('tenant_id', x.tenant_id, 'id', x.id, 'employee_id', x.employee_id,
      'resignation_date', x.resignation_date, 'last_working_day', x.last_working_day, 'reason', x.reason, 'status', x.status,
      'submitted_by', x.submitted_by, 'completed_at', x.completed_at, 'completed_by', x.completed_by,
      'override_reason', x.override_reason, 'created_at', x.created_at, 'updated_at', x.updated_at,
      'checklist', (SELECT coalesce(json_agg(json_build_object('tenant_id', c.tenant_id, 'id', c.id, 'exit_id', c.exit_id,
        'item', c.item, 'title', c.title, 'position', c.position, 'status', c.status, 'completed_at', c.completed_at,
        'completed_by', c.completed_by, 'notes', c.notes, 'reference', c.reference) ORDER BY c.position), '[]'::json)
        FROM exit_checklist_items c WHERE c.tenant_id = ${tenant}::uuid AND c.exit_id = x.id))
     FROM employee_exits x WHERE x.tenant_id = ${tenant}::uuid AND x.employee_id = e.id AND e.status IN ('on_notice', 'exited'))`;

function exitOfRow(x: ExitRow | null): ExitWithChecklist | null {
  if (!x) return null;
  return {
    ...x,
    resignation_date: day(x.resignation_date),
    last_working_day: day(x.last_working_day),
    completed_at: at(x.completed_at),
    created_at: new Date(x.created_at),
    updated_at: new Date(x.updated_at),
    checklist: x.checklist.map((c) => ({ ...c, completed_at: at(c.completed_at) })),
  };
}

/** The live employee, its member account and (on notice or exited) its exit in one prepared statement: a hot path. */
export async function employeeWithUser(id: string): Promise<EmployeeWithUser | undefined> {
  const [row] = await readPrepared<Omit<EmployeeWithUser, "exit"> & { exit: ExitRow | null }>(sql`SELECT ${EMPLOYEE_COLUMNS},
      (SELECT m.user_id FROM memberships m WHERE m.tenant_id = e.tenant_id AND m.employee_id = e.id ORDER BY m.created_at LIMIT 1)
        AS user_id, ${EXIT_JSON} AS exit
       FROM employees e WHERE e.tenant_id = ${tenant}::uuid AND e.id = ${id}::uuid AND e.deleted_at IS NULL`);
  return row && { ...row, exit: exitOfRow(row.exit) };
}

// ───────────────────────────── writes' helpers ─────────────────────────────

/** Draws the tenant's next code number; inside a transaction the counter row stays locked until it ends. */
export async function drawCodeNumber(client: Client): Promise<number> {
  const [{ last_value }] = await query<{ last_value: number }>(
    sql`INSERT INTO employee_code_counters (tenant_id, last_value) VALUES (${tenant}::uuid, 1)
      ON CONFLICT (tenant_id) DO UPDATE SET last_value = employee_code_counters.last_value + 1
      RETURNING last_value`,
    client,
  );
  return last_value;
}

/** Draws `n` consecutive code numbers at once (bulk imports): the last of them. */
export async function drawCodeNumbers(client: Client, n: number): Promise<number> {
  const [{ last_value }] = await query<{ last_value: number }>(
    sql`INSERT INTO employee_code_counters (tenant_id, last_value) VALUES (${tenant}::uuid, ${n}::int)
      ON CONFLICT (tenant_id) DO UPDATE SET last_value = employee_code_counters.last_value + ${n}::int
      RETURNING last_value`,
    client,
  );
  return last_value;
}

/** The columns of an employee that a create writes (bulk inserts; the others take their defaults). */
export const INSERT_COLUMNS = ["id", ...RECORD_FIELDS, "search_text"] as const;

/**
 * Inserts many employees in one statement, the rows as one JSON parameter (`jsonb_to_recordset`): the
 * ORM's multi-row INSERT binds ~30 parameters a row and cost ~1 s per 1 000 rows on a loaded machine.
 */
export async function insertEmployees(tx: ScopedTx, rows: Record<(typeof INSERT_COLUMNS)[number], unknown>[]): Promise<void> {
  await execute(
    sql`INSERT INTO employees (tenant_id, id, employee_code, first_name, last_name, email, phone, department, designation,
        joining_date, date_of_birth, gender, employment_type, status, reports_to, branch_id, work_location_id, bank_name,
        bank_account_number, bank_ifsc, bank_iban, bank_routing_code, labour_card_number, pan_number, uan, esi_number, state, search_text)
      SELECT ${tenant}::uuid, x.id, x.employee_code, x.first_name, x.last_name, x.email, x.phone, x.department, x.designation,
        x.joining_date, x.date_of_birth, x.gender, x.employment_type, x.status, x.reports_to, x.branch_id, x.work_location_id, x.bank_name,
        x.bank_account_number, x.bank_ifsc, x.bank_iban, x.bank_routing_code, x.labour_card_number, x.pan_number, x.uan, x.esi_number,
        x.state, x.search_text
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(id uuid, employee_code text, first_name text, last_name text,
        email citext, phone text, department text, designation text, joining_date date, date_of_birth date, gender text,
        employment_type text, status text, reports_to uuid, branch_id uuid, work_location_id uuid, bank_name text,
        bank_account_number text, bank_ifsc text, bank_iban text, bank_routing_code text, labour_card_number text, pan_number text,
        uan text, esi_number text, state text, search_text text)`,
    tx,
  );
}

/** A batch of an export: live employees after `after` in id order, on the pool (the ORM spent ~60 ms a batch mapping rows). */
export async function exportBatch(
  filter: { department?: string; status?: string; reports_to?: string; updated_since?: string; id?: string },
  after: string | null,
  limit: number,
): Promise<Record<string, unknown>[]> {
  const conditions: Sql[] = [sql`deleted_at IS NULL`];
  if (after) conditions.push(sql`id > ${after}::uuid`);
  if (filter.department) conditions.push(sql`department = ${filter.department}`);
  if (filter.status) conditions.push(sql`status = ${filter.status}`);
  if (filter.reports_to) conditions.push(sql`reports_to = ${filter.reports_to}::uuid`);
  if (filter.updated_since) conditions.push(sql`changed_at >= ${filter.updated_since}::timestamptz`);
  if (filter.id) conditions.push(sql`id = ${filter.id}::uuid`);
  return read<Record<string, unknown>>(
    sql`SELECT id, employee_code, first_name, last_name, email::text AS email, phone, department, designation, joining_date,
        date_of_birth, gender, employment_type, reports_to, branch_id, work_location_id, bank_name, bank_account_number, bank_ifsc,
        bank_iban, bank_routing_code, labour_card_number, pan_number, uan, esi_number, state, status, created_at, updated_at
      FROM employees WHERE tenant_id = ${tenant}::uuid AND ${join(conditions, " AND ")} ORDER BY id LIMIT ${limit}::int`,
  );
}

/** Serialises changes of reporting lines in a tenant so two concurrent updates cannot build a cycle. */
export function lockReportingLines(tx: ScopedTx): Promise<void> {
  return lock(tx, { kind: "reporting-lines", tenantId: currentTenantId() });
}

/** Whether `employeeId` is `managerId` or one of the managers above them (a cycle if made their manager). */
export async function isAboveInChain(tx: ScopedTx, managerId: string, employeeId: string): Promise<boolean> {
  const cycle = await query<{ id: string }>(
    sql`
    WITH RECURSIVE chain(id, reports_to) AS (
      SELECT id, reports_to FROM employees WHERE tenant_id = ${tenant}::uuid AND id = ${managerId}::uuid
      UNION
      SELECT e.id, e.reports_to FROM employees e JOIN chain c ON e.tenant_id = ${tenant}::uuid AND e.id = c.reports_to
    )
    SELECT id FROM chain WHERE id = ${employeeId}::uuid LIMIT 1`,
    tx,
  );
  return cycle.length > 0;
}

/** The next `n` keys of a walk of an employee's activity log (src/db/keyset.ts walkPage; the list's filters are applied to them). */
export function activityKeys(w: Walk, after: WalkKey | null, n: number): Promise<ScannedKey[]> {
  return read<ScannedKey>(sql`SELECT id, ${walkKey()} FROM audit_logs
      WHERE tenant_id = ${tenant}::uuid AND ${walkAnd({ ...w, after }, { softDeleted: false })} ORDER BY ${walkOrder()} LIMIT ${n}`);
}
