// The attendance area's raw SQL (src/db/sql.ts).
import { query, readPrepared, sql, tenant } from "../../db/sql.ts";
import type { ScopedTx } from "../../db/tenancy.ts";
import type { Page } from "../../platform/use-case.ts";
import type { AuthContext } from "../../platform/use-case.ts";
import type { DateString } from "../../lib/dates.ts";
import { employeeScopeSql } from "../shared/queries.ts";
import type { S } from "./json.ts";

export interface DayViewEmployee {
  id: string;
  name: string;
  joining_date: DateString;
  branch_id: string | null;
  work_location_id: string | null;
}

export interface DayViewRecord {
  id: string;
  employee_id: string;
  date: DateString;
  check_in: string | null;
  check_out: string | null;
  worked_hours: string | null;
  status: S["AttendanceDay"]["status"];
  late: boolean;
  early_exit: boolean;
  source: S["AttendanceDay"]["source"];
}

/** What the day view needs of the tenant's working-time settings (shared/work-settings.ts effectiveWeeklyOffs). */
export interface DayViewSettings {
  timezone: string;
  company_weekly_offs: number[];
  use_company_weekly_offs: boolean | null;
  weekly_offs: number[] | null;
}

const SETTINGS = sql`t.timezone, t.weekly_offs AS company_weekly_offs,
  (SELECT s.use_company_weekly_offs FROM attendance_settings s WHERE s.tenant_id = ${tenant}::uuid) AS use_company_weekly_offs,
  (SELECT s.weekly_offs FROM attendance_settings s WHERE s.tenant_id = ${tenant}::uuid) AS weekly_offs`;

/** The tenant's time zone and weekly offs, for a day view whose range depends on the tenant's today. */
export async function dayViewSettings(): Promise<DayViewSettings> {
  const [r] = await readPrepared<DayViewSettings>(sql`SELECT ${SETTINGS} FROM tenants t WHERE t.id = ${tenant}::uuid`);
  return r;
}

/** The day view's one prepared statement (a measured hot path): settings, the page of employees, count and records, as JSON. */
export async function dayViewPage(
  auth: AuthContext,
  opts: { employeeId?: string; from: DateString; to: DateString; page: Page },
): Promise<{ total: number; settings: DayViewSettings; employees: DayViewEmployee[]; records: DayViewRecord[] }> {
  const { from, to, page } = opts;
  const which = opts.employeeId ? sql`AND e.id = ${opts.employeeId}::uuid` : sql`AND e.joining_date <= ${to}::date`;
  const total = opts.employeeId
    ? sql`1`
    : sql`(SELECT count(*)::int FROM employees e WHERE e.tenant_id = ${tenant}::uuid AND e.deleted_at IS NULL
        AND ${employeeScopeSql(auth)} ${which})`;
  const [r] = await readPrepared<DayViewSettings & { total: number; data: string }>(sql`
    WITH emp AS (
      SELECT e.id, e.first_name, e.last_name, e.joining_date, e.branch_id, e.work_location_id, e.employee_code FROM employees e
       WHERE e.tenant_id = ${tenant}::uuid AND e.deleted_at IS NULL AND ${employeeScopeSql(auth)} ${which}
       ORDER BY e.employee_code LIMIT ${page.limit} OFFSET ${page.skip}
    )
    SELECT ${total} AS total, ${SETTINGS},
           json_build_object(
             'employees', (SELECT coalesce(json_agg(json_build_object('id', id, 'name',
               btrim(first_name || ' ' || last_name), 'joining_date', joining_date,
                             'branch_id', branch_id, 'work_location_id', work_location_id) ORDER BY employee_code), '[]') FROM emp),
             'records', (SELECT coalesce(json_agg(json_build_object('id', a.id, 'employee_id', a.employee_id, 'date', a.date,
                             'check_in', to_char(a.check_in AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                             'check_out', to_char(a.check_out AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
                             'worked_hours', a.worked_hours::text, 'status', a.status, 'late', a.late, 'early_exit', a.early_exit,
                             'source', a.source)), '[]')
                           FROM attendance_records a WHERE a.tenant_id = ${tenant}::uuid AND a.employee_id
                             = ANY(ARRAY(SELECT id FROM emp)) AND a.date BETWEEN ${from}::date AND ${to}::date)
           )::text AS data
      FROM tenants t WHERE t.id = ${tenant}::uuid`);
  const d = JSON.parse(r.data) as { employees: DayViewEmployee[]; records: DayViewRecord[] };
  const settings = {
    timezone: r.timezone,
    company_weekly_offs: r.company_weekly_offs,
    use_company_weekly_offs: r.use_company_weekly_offs,
    weekly_offs: r.weekly_offs,
  };
  return { total: r.total, settings, employees: d.employees, records: d.records };
}

/** An imported day's record as written (`check_in`/`check_out` ISO instants, `worked_hours` exact text). */
export interface ImportedRecord {
  employee_id: string;
  date: DateString;
  check_in: string | null;
  check_out: string | null;
  worked_hours: string | null;
  status: string;
  late: boolean;
  early_exit: boolean;
  notes: string | null;
}

/** Creates or replaces the records of these (employee, date) pairs in one statement; each record's id and whether created. */
export function upsertImportedRecords(
  tx: ScopedTx,
  records: readonly ImportedRecord[],
): Promise<{ id: string; employee_id: string; date: string; created: boolean }[]> {
  return query(
    sql`INSERT INTO attendance_records AS a (tenant_id, employee_id, date, check_in, check_out, worked_hours, status, late, early_exit,
                                             source, notes)
        SELECT ${tenant}::uuid, x.employee_id, x.date, x.check_in, x.check_out, x.worked_hours, x.status, x.late, x.early_exit, 'import',
               x.notes
          FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS x(employee_id uuid, date date, check_in timestamptz,
               check_out timestamptz, worked_hours numeric, status text, late boolean, early_exit boolean, notes text)
        ON CONFLICT (tenant_id, employee_id, date) DO UPDATE
           SET check_in = EXCLUDED.check_in, check_out = EXCLUDED.check_out, worked_hours = EXCLUDED.worked_hours,
               status = EXCLUDED.status, late = EXCLUDED.late, early_exit = EXCLUDED.early_exit, source = EXCLUDED.source,
               notes = EXCLUDED.notes, updated_at = now()
         WHERE a.tenant_id = ${tenant}::uuid
        RETURNING a.id::text AS id, a.employee_id::text AS employee_id, a.date::text AS date, (a.xmax = 0) AS created`,
    tx,
  );
}
