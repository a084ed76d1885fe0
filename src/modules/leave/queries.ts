// Raw SQL of the leave area (src/db/sql.ts); everything else goes through the scoped Prisma client.
import { type ScannedKey, type Walk, type WalkKey, walkAnd, walkKey, walkOrder } from "../../db/keyset.ts";
import { empty, execute, query, read, readGenericPlan, readPrepared, type Sql, sql, tenant } from "../../db/sql.ts";
import type { db, ScopedTx } from "../../db/tenancy.ts";
import type { DateString } from "../../lib/dates.ts";
import * as clock from "../../lib/clock.ts";

type Client = ScopedTx | typeof db;

export interface LedgerRow {
  employee_id: string;
  leave_type_id: string;
  period_id: string;
  entry_type: string;
  days: string;
  effective_date: DateString;
  expires_on: DateString | null;
  reference_type: string | null;
  reference_id: string | null;
  reason: string | null;
  dedupe_key: string | null;
  created_by: string | null;
}

/** Appends ledger entries in one INSERT, skipping an existing dedupe_key; returns the number written. */
export function insertLedgerEntries(c: Client, rows: LedgerRow[]): Promise<number> {
  return execute(
    sql`
    INSERT INTO leave_ledger_entries (tenant_id, employee_id, leave_type_id, period_id, entry_type,
      days, effective_date, expires_on, reference_type, reference_id, reason, dedupe_key, created_by)
    SELECT ${tenant}::uuid, x.employee_id, x.leave_type_id, x.period_id, x.entry_type, x.days,
      x.effective_date, x.expires_on, x.reference_type, x.reference_id, x.reason, x.dedupe_key, x.created_by
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(employee_id uuid, leave_type_id uuid,
        period_id uuid, entry_type text, days numeric, effective_date date, expires_on date,
                                                             reference_type text, reference_id uuid,
                                                               reason text, dedupe_key text, created_by uuid)
    ON CONFLICT (tenant_id, dedupe_key) DO NOTHING`,
    c,
  );
}

export interface AllocationRow {
  employee_id: string;
  leave_type_id: string;
  period_id: string;
  policy_id: string | null;
  days: string;
  accrual: string;
  accrual_day: string;
  effective_from: DateString;
  carried_forward: string;
  carry_forward_expires_on: DateString | null;
  notes: string | null;
  created_by: string;
}

export interface MadeAllocation {
  id: string;
  employee_id: string;
  leave_type_id: string;
  period_id: string;
  days: string;
  accrual: string;
  accrual_day: string;
  carried_forward: string;
  carry_forward_expires_on: DateString | null;
}

/** One set-based INSERT; rows for an employee/type/period allocated already are skipped (not returned). */
export function insertAllocations(tx: ScopedTx, rows: AllocationRow[]): Promise<MadeAllocation[]> {
  return query<MadeAllocation>(
    sql`
    INSERT INTO leave_allocations (tenant_id, employee_id, leave_type_id, period_id, policy_id, days,
      accrual, accrual_day, effective_from, carried_forward, carry_forward_expires_on, notes, created_by)
    SELECT ${tenant}::uuid, x.employee_id, x.leave_type_id, x.period_id, x.policy_id, x.days, x.accrual,
      x.accrual_day, x.effective_from, x.carried_forward, x.carry_forward_expires_on, x.notes, x.created_by
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(employee_id uuid,
        leave_type_id uuid, period_id uuid, policy_id uuid, days numeric, accrual text, accrual_day text,
                                                             effective_from date, carried_forward numeric,
                                                               carry_forward_expires_on date, notes text, created_by uuid)
    ON CONFLICT (tenant_id, employee_id, leave_type_id, period_id) DO NOTHING
    RETURNING id::text, employee_id::text, leave_type_id::text, period_id::text,
      days::text, accrual, accrual_day, carried_forward::text, carry_forward_expires_on::text`,
    tx,
  );
}

export interface BalancesPageInput {
  /** The caller's scope as a condition on the employees alias `e` (employeeScopeSql). */
  scope: Sql;
  employeeId?: string;
  /** The named period, else the current one. */
  periodId?: string;
  leaveTypeId?: string;
  /** Every live employee of the company: the total is the kept count instead of a count. */
  wholeCompany: boolean;
  limit: number;
  skip: number;
}

export interface BalancesPageResult {
  period_id: string | null;
  total: number;
  /** JSON text, one part per employee (several small strings, not one of hundreds of kB); final unless in `to_check`. */
  parts: string[];
  /** The tenant's today (in its time zone): the date the balances are as of. */
  as_of: DateString;
  /**
   * Accounts (`employee_id:leave_type_id`) the caller completes with ledger.ts: an expiring credit past its
   * expiry whose lapse the ledger may not hold as readers count it, or a balance below the type's minimum.
   */
  to_check: string[];
}

/**
 * The balances page's only query: per employee (LATERAL, so every lookup uses the (tenant_id, employee_id,
 * ...) keys and one generic plan suits every page: readGenericPlan) the period's rows of
 * leave_balance_totals, which the database keeps equal to the ledger's sums (migration
 * 20261127081556_leave_balance_totals); ledger entries are read only for expiring credits past their
 * date. PostgreSQL writes the rows as final JSON (`figures`: DECIMAL(10,1) as "12.0", the DayCount form).
 */
// size: one SQL statement that writes the page's rows as JSON (the comment above explains each part)
export async function balancesPage(i: BalancesPageInput): Promise<BalancesPageResult> {
  const empFilter = sql`e.deleted_at IS NULL AND ${i.scope}
      ${i.employeeId ? sql`AND e.id = ${i.employeeId}::uuid` : empty}`;
  // the total is the kept count (employee_department_counts, maintained by a trigger) when the
  // page is of every live employee, instead of counting the employees on every page
  const total = i.wholeCompany
    ? sql`(SELECT coalesce(sum(live_count), 0)::int FROM employee_department_counts WHERE tenant_id = ${tenant}::uuid)`
    : sql`(SELECT count(*)::int FROM employees e WHERE e.tenant_id = ${tenant}::uuid AND ${empFilter})`;
  const periodSql = i.periodId ? sql`id = ${i.periodId}::uuid` : sql`is_current`;
  const byType = (f: Sql) => (i.leaveTypeId ? f : empty);
  const rows = await readGenericPlan<Omit<BalancesPageResult, "parts"> & { part: string | null }>(sql`
      WITH day AS (
        SELECT (${clock.now().toISOString()}::timestamptz AT TIME ZONE t.timezone)::date AS today
          FROM tenants t WHERE t.id = ${tenant}::uuid
      ), per AS (
        SELECT id FROM leave_periods WHERE tenant_id = ${tenant}::uuid AND ${periodSql} LIMIT 1
      ), emp AS (
        SELECT e.id, e.employee_code,
               '{"employee_id":"' || e.id || '","employee_name":' || to_json(btrim(e.first_name || ' ' || e.last_name))::text
               || ',"employee_code":' || to_json(e.employee_code)::text AS head
          FROM employees e WHERE e.tenant_id = ${tenant}::uuid AND ${empFilter}
         ORDER BY e.employee_code LIMIT ${i.limit} OFFSET ${i.skip}
      ), typ AS MATERIALIZED (
        SELECT t.id, t.code,
               ',"leave_type_id":"' || t.id || '","leave_type_code":' || to_json(t.code::text)::text
               || ',"leave_type_name":' || to_json(t.name)::text || ',"is_paid":' || t.is_paid
               || ',"period_id":"' || (SELECT id FROM per) || '",' AS part,
               CASE WHEN NOT t.is_paid THEN NULL WHEN t.allow_negative_balance THEN -t.negative_balance_limit ELSE 0.0 END AS minimum
          FROM leave_types t WHERE t.tenant_id = ${tenant}::uuid ${byType(sql`AND t.id = ${i.leaveTypeId}::uuid`)}
      ), bal AS (
        SELECT emp.id AS employee_id, emp.employee_code, r.part, r.below, r.expiring
          FROM emp
          CROSS JOIN LATERAL (
            SELECT string_agg(emp.head || t.part || s.figures
                     || ',"minimum":' || coalesce('"' || t.minimum || '"', 'null') || ',"below_minimum_reason":null}',
                     ',' ORDER BY t.code) AS part,
                   array_agg(emp.id::text || ':' || t.id::text) FILTER (WHERE s.ledger - s.pending < t.minimum) AS below,
                   array_agg(t.id) FILTER (WHERE s.expiring > 0) AS expiring
              FROM leave_balance_totals s JOIN typ t ON t.id = s.leave_type_id
             WHERE s.tenant_id = ${tenant}::uuid AND s.employee_id = emp.id AND s.period_id = (SELECT id FROM per)
               AND (s.entries > 0 OR s.pendings > 0)
          ) r
      ), due AS (
        -- accounts with an expiring credit past its date whose lapse the ledger may not hold as readers
        -- count it (ledger.ts openLapses): not posted yet (dedupe key expiry:<id>), or a pending request
        -- dated on or before the expiry may use it, or a debit dated on or before it (or another credit)
        -- came after the last posting. Only carry-forward and comp-off entries carry an expiry date,
        -- and the ledger is read only for the accounts that have such entries (their totals' count)
        SELECT b.employee_id, c.leave_type_id
          FROM bal b
          CROSS JOIN LATERAL unnest(b.expiring) AS xt(leave_type_id)
          CROSS JOIN LATERAL (
            SELECT l.leave_type_id FROM leave_ledger_entries l
             WHERE l.tenant_id = ${tenant}::uuid AND l.employee_id = b.employee_id AND l.period_id = (SELECT id FROM per)
               AND l.leave_type_id = xt.leave_type_id
               AND l.entry_type IN ('carry_forward', 'comp_off') AND l.expires_on < (SELECT today FROM day)
               AND (NOT EXISTS (SELECT 1 FROM leave_ledger_entries x
                                 WHERE x.tenant_id = ${tenant}::uuid AND x.dedupe_key = 'expiry:' || l.id::text)
                    OR EXISTS (SELECT 1 FROM leave_requests q
                                WHERE q.tenant_id = ${tenant}::uuid AND q.employee_id = b.employee_id
                                  AND q.leave_type_id = l.leave_type_id
                                  AND q.period_id = l.period_id AND q.status = 'pending' AND q.from_date <= l.expires_on)
                    OR EXISTS (SELECT 1 FROM leave_ledger_entries d
                                WHERE d.tenant_id = ${tenant}::uuid AND d.employee_id = b.employee_id
                                  AND d.leave_type_id = l.leave_type_id AND d.period_id = l.period_id
                                  AND (d.expires_on IS NOT NULL OR d.entry_type IN ('taken', 'cancelled', 'encashed')
                                       AND d.effective_date <= l.expires_on)
                                  AND d.created_at > (SELECT max(x.created_at) FROM leave_ledger_entries x
                                                       WHERE x.tenant_id = ${tenant}::uuid AND x.employee_id = b.employee_id
                                                         AND x.reference_id = l.id AND x.entry_type = 'expiry')))
             OFFSET 0
          ) c
      )
      SELECT m.*, b.part FROM (
        SELECT (SELECT id::text FROM per) AS period_id, ${total} AS total, (SELECT today::text FROM day) AS as_of,
               ARRAY(SELECT unnest(b.below) FROM bal b
                     UNION SELECT d.employee_id::text || ':' || d.leave_type_id::text FROM due d) AS to_check
      ) m
      LEFT JOIN bal b ON b.part IS NOT NULL
      ORDER BY b.employee_code`);
  return {
    period_id: rows[0].period_id,
    total: rows[0].total,
    as_of: rows[0].as_of,
    to_check: rows[0].to_check,
    parts: rows.flatMap((r) => (r.part === null ? [] : [r.part])),
  };
}

export interface TimeOffRows {
  leaves: { id: string; employee_id: string; from: DateString; to: DateString; code: string }[];
  wfh: { id: string; employee_id: string; from: DateString; to: DateString }[];
  holidays: { date: DateString; name: string; branch_id: string | null; work_location_id: string | null }[];
}

/** Attendance's day view in one prepared statement (a measured hot path): approved leave, work from home and days-off holidays, as JSON. */
export async function timeOffRows(employeeIds: readonly string[], from: DateString, to: DateString): Promise<TimeOffRows> {
  const [r] = await readPrepared<{ data: string }>(sql`
    SELECT json_build_object(
      'leaves', (SELECT coalesce(json_agg(json_build_object('id', q.id, 'employee_id', q.employee_id, 'from', q.from_date,
                   'to', q.to_date, 'code', t.code) ORDER BY q.from_date, q.created_at, q.id), '[]')
                   FROM leave_requests q JOIN leave_types t ON t.tenant_id = q.tenant_id AND t.id = q.leave_type_id
                  WHERE q.tenant_id = ${tenant}::uuid AND q.employee_id = ANY(${[...employeeIds]}::uuid[]) AND q.status = 'approved'
                    AND q.from_date <= ${to}::date AND q.to_date >= ${from}::date),
      'wfh', (SELECT coalesce(json_agg(json_build_object('id', w.id, 'employee_id', w.employee_id, 'from', w.from_date,
                'to', w.to_date) ORDER BY w.from_date, w.created_at, w.id), '[]')
                FROM wfh_requests w
               WHERE w.tenant_id = ${tenant}::uuid AND w.employee_id = ANY(${[...employeeIds]}::uuid[]) AND w.status = 'approved'
                 AND w.from_date <= ${to}::date AND w.to_date >= ${from}::date),
      'holidays', (SELECT coalesce(json_agg(json_build_object('date', h.date, 'name', h.name, 'branch_id', h.branch_id,
                     'work_location_id', h.work_location_id) ORDER BY h.date, h.name), '[]')
                     FROM holidays h
                    WHERE h.tenant_id = ${tenant}::uuid AND h.date BETWEEN ${from}::date AND ${to}::date
                      AND NOT h.is_optional)
    )::text AS data`);
  return JSON.parse(r.data) as TimeOffRows;
}

/** The next `n` keys of a walk of the leave requests (src/db/keyset.ts walkPage; the list's filters are applied to them). */
export function leaveRequestKeys(w: Walk, after: WalkKey | null, n: number): Promise<ScannedKey[]> {
  return read<ScannedKey>(sql`SELECT id, ${walkKey()} FROM leave_requests
      WHERE tenant_id = ${tenant}::uuid AND ${walkAnd({ ...w, after }, { softDeleted: false })} ORDER BY ${walkOrder()} LIMIT ${n}`);
}

/** The next `n` keys of a walk of the leave ledger (src/db/keyset.ts walkPage; the list's filters are applied to them). */
export function ledgerKeys(w: Walk, after: WalkKey | null, n: number): Promise<ScannedKey[]> {
  return read<ScannedKey>(sql`SELECT id, ${walkKey()} FROM leave_ledger_entries
      WHERE tenant_id = ${tenant}::uuid AND ${walkAnd({ ...w, after }, { softDeleted: false })} ORDER BY ${walkOrder()} LIMIT ${n}`);
}

/** Which of the (employee, date) pairs fall within an approved work-from-home request, as `employee_id:date` keys. */
export async function approvedWfhPairs(client: Client, pairs: readonly { employee_id: string; date: DateString }[]): Promise<Set<string>> {
  if (!pairs.length) return new Set();
  const rows = await query<{ key: string }>(
    sql`SELECT DISTINCT k.employee_id::text || ':' || k.date::text AS key
          FROM unnest(${pairs.map((p) => p.employee_id)}::uuid[], ${pairs.map((p) => p.date)}::date[]) AS k(employee_id, date)
          JOIN wfh_requests w ON w.tenant_id = ${tenant}::uuid AND w.employee_id = k.employee_id AND w.status = 'approved'
           AND w.from_date <= k.date AND w.to_date >= k.date`,
    client,
  );
  return new Set(rows.map((r) => r.key));
}
