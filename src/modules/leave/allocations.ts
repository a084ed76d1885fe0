// Allocations (bulk by policy or individual, prorated, idempotent, with carry-forward), the
// accrual postings they schedule, balances computed from the ledger, the ledger itself and manual
// adjustments.
import { Prisma } from "../../../generated/prisma/client.ts";
import { audit } from "../../audit.ts";
import { currentTenantId, db, type ScopedTx, tenantPreparedRead, tenantTx } from "../../db/tenancy.ts";
import { created, pageOf, paginated, sendPaginatedJson } from "../../http/envelope.ts";
import { badRequest, conflict, invalidField, notFound } from "../../http/errors.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { addDays, type DateString, parseDate, toDateString } from "../../lib/dates.ts";
import { loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";
import { employeeFilter, employeeScopeSql, loadEmployee, visibleEmployees } from "../shared/people.ts";
import { type AccrualDay, type AccrualMode, accrualSchedule, effectiveFrom, prorate } from "./accrual.ts";
import { Decimal, days, dayString } from "./days.ts";
import { allocationJson, ledgerJson } from "./json.ts";
import { notifyEmployee } from "../shared/notices.ts";
import { applicablePolicy, loadActivePolicies, typeApplies } from "./policies.ts";
import { currentPeriod, ledgerSum, minimumBalance, type NewEntry, type PeriodRow, postEntries } from "./store.ts";
import { lockEmployees, lockTenantLeave } from "../shared/people.ts";
import { isHr } from "../shared/access.ts";

const CHUNK = 2000;
const LIST_CAP = 500;

async function inChunks<T>(rows: T[], fn: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += CHUNK) await fn(rows.slice(i, i + CHUNK));
}

async function resolvePeriod(c: ScopedTx | typeof db, id?: string): Promise<PeriodRow> {
  if (id) {
    const p = await c.leavePeriod.findFirst({ where: { id } });
    if (!p) throw notFound("Leave period");
    return p;
  }
  const p = await currentPeriod(c);
  if (!p) throw notFound("Current leave period");
  return p;
}

// ───────────────────────────── allocation ─────────────────────────────

interface Emp {
  id: string;
  joining_date: Date;
  department: string;
  designation: string;
  gender: string | null;
  employment_type: string;
}
const empSelect = { id: true, joining_date: true, department: true, designation: true, gender: true, employment_type: true } as const;

interface LeaveTypeRow {
  id: string;
  active: boolean;
  carry_forward: boolean;
  carry_forward_max_days: Prisma.Decimal | null;
  carry_forward_expiry_days: number | null;
  applicable_genders: string[];
  applicable_employment_types: string[];
}

interface Want {
  emp: Emp;
  type: LeaveTypeRow;
  policyId: string | null;
  /** Explicit entitlement (not prorated), or the annual quota to prorate. */
  days?: Decimal;
  quota?: Decimal;
  accrual: AccrualMode;
  accrualDay: AccrualDay;
}
interface Skip {
  employee_id: string;
  leave_type_id: string | null;
  reason: string;
}

/** Ledger postings of one allocation that are due by `today` (accruals) plus its carry-forward. */
export function allocationPostings(
  a: { id: string; employee_id: string; leave_type_id: string; period_id: string; days: Decimal.Value | { toString(): string }; accrual: string; accrual_day: string },
  period: { start_date: DateString; end_date: DateString },
  joiningDate: DateString,
  today: DateString,
  createdBy: string | null,
): NewEntry[] {
  const schedule = accrualSchedule({ mode: a.accrual as AccrualMode, accrualDay: a.accrual_day as AccrualDay, periodStart: period.start_date, periodEnd: period.end_date, joiningDate, entitlement: a.days });
  const base = { employee_id: a.employee_id, leave_type_id: a.leave_type_id, period_id: a.period_id, reference_type: "leave_allocation", reference_id: a.id, created_by: createdBy };
  return schedule
    .filter((s) => a.accrual === "upfront" || s.date <= today)
    .map((s) =>
      a.accrual === "upfront"
        ? { ...base, entry_type: "allocation" as const, days: s.days, effective_date: s.date, dedupe_key: `allocation:${a.id}` }
        : { ...base, entry_type: "accrual" as const, days: s.days, effective_date: s.date, dedupe_key: `accrual:${a.id}:${s.seq}`, reason: `${a.accrual} accrual` },
    );
}

async function previousPeriod(tx: ScopedTx, p: PeriodRow): Promise<PeriodRow | null> {
  return tx.leavePeriod.findFirst({ where: { end_date: { lt: p.start_date } }, orderBy: { end_date: "desc" } });
}

/** Unused balance (ledger − pending) of the previous period per employee:type, for carry-forward. */
async function unusedBalances(tx: ScopedTx, prev: PeriodRow, employeeIds: string[], typeIds: string[]): Promise<Map<string, Decimal>> {
  const out = new Map<string, Decimal>();
  if (!employeeIds.length || !typeIds.length) return out;
  const where = { period_id: prev.id, employee_id: { in: employeeIds }, leave_type_id: { in: typeIds } };
  const [ledger, pendingReq, pendingEnc] = await Promise.all([
    tx.leaveLedgerEntry.groupBy({ by: ["employee_id", "leave_type_id"], where, _sum: { days: true } }),
    tx.leaveRequest.groupBy({ by: ["employee_id", "leave_type_id"], where: { ...where, status: "pending" }, _sum: { days: true } }),
    tx.leaveEncashment.groupBy({ by: ["employee_id", "leave_type_id"], where: { ...where, status: "pending" }, _sum: { days: true } }),
  ]);
  for (const r of ledger) out.set(`${r.employee_id}:${r.leave_type_id}`, days(r._sum.days));
  for (const r of [...pendingReq, ...pendingEnc]) {
    const k = `${r.employee_id}:${r.leave_type_id}`;
    out.set(k, (out.get(k) ?? new Decimal(0)).minus(days(r._sum.days)));
  }
  return out;
}

interface AllocationRow {
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
interface MadeAllocation {
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
function insertAllocations(tx: ScopedTx, rows: AllocationRow[]): Promise<MadeAllocation[]> {
  return tx.$queryRaw<MadeAllocation[]>`
    INSERT INTO leave_allocations (tenant_id, employee_id, leave_type_id, period_id, policy_id, days, accrual, accrual_day, effective_from, carried_forward, carry_forward_expires_on, notes, created_by)
    SELECT ${currentTenantId()}::uuid, x.employee_id, x.leave_type_id, x.period_id, x.policy_id, x.days, x.accrual, x.accrual_day, x.effective_from, x.carried_forward, x.carry_forward_expires_on, x.notes, x.created_by
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(employee_id uuid, leave_type_id uuid, period_id uuid, policy_id uuid, days numeric, accrual text, accrual_day text,
                                                             effective_from date, carried_forward numeric, carry_forward_expires_on date, notes text, created_by uuid)
    ON CONFLICT (tenant_id, employee_id, leave_type_id, period_id) DO NOTHING
    RETURNING id::text, employee_id::text, leave_type_id::text, period_id::text, days::text, accrual, accrual_day, carried_forward::text, carry_forward_expires_on::text`;
}

async function allocate(tx: ScopedTx, period: PeriodRow, wants: Want[], createdBy: string, notes: string | null, today: DateString) {
  const start = toDateString(period.start_date);
  const end = toDateString(period.end_date);
  const skipped: Skip[] = [];
  const rows: AllocationRow[] = [];
  const prev = await previousPeriod(tx, period);
  const carryTypes = [...new Set(wants.filter((w) => w.type.carry_forward).map((w) => w.type.id))];
  const unused = prev ? await unusedBalances(tx, prev, [...new Set(wants.map((w) => w.emp.id))], carryTypes) : new Map<string, Decimal>();
  for (const w of wants) {
    const joining = toDateString(w.emp.joining_date);
    if (joining > end) {
      skipped.push({ employee_id: w.emp.id, leave_type_id: w.type.id, reason: "joins after the period" });
      continue;
    }
    const entitlement = w.days ?? prorate(w.quota ?? 0, start, end, joining);
    let carried = new Decimal(0);
    let expires: DateString | null = null;
    if (prev && w.type.carry_forward) {
      const left = Decimal.max(0, unused.get(`${w.emp.id}:${w.type.id}`) ?? 0);
      carried = w.type.carry_forward_max_days ? Decimal.min(left, days(w.type.carry_forward_max_days)) : left;
      if (carried.gt(0) && w.type.carry_forward_expiry_days) expires = addDays(start, w.type.carry_forward_expiry_days - 1);
    }
    rows.push({
      employee_id: w.emp.id,
      leave_type_id: w.type.id,
      period_id: period.id,
      policy_id: w.policyId,
      days: entitlement.toString(),
      accrual: w.accrual,
      accrual_day: w.accrualDay,
      effective_from: effectiveFrom(start, joining),
      carried_forward: carried.toString(),
      carry_forward_expires_on: expires,
      notes,
      created_by: createdBy,
    });
  }
  const made: MadeAllocation[] = [];
  await inChunks(rows, async (chunk) => made.push(...(await insertAllocations(tx, chunk))));
  const madeKeys = new Set(made.map((a) => `${a.employee_id}:${a.leave_type_id}`));
  for (const r of rows) if (!madeKeys.has(`${r.employee_id}:${r.leave_type_id}`)) skipped.push({ employee_id: r.employee_id, leave_type_id: r.leave_type_id, reason: "already allocated for this period" });
  const joinings = new Map(wants.map((w) => [w.emp.id, toDateString(w.emp.joining_date)]));
  const entries: NewEntry[] = [];
  for (const a of made) {
    entries.push(...allocationPostings(a, { start_date: start, end_date: end }, joinings.get(a.employee_id)!, today, createdBy));
    const carried = days(a.carried_forward);
    if (prev && carried.gt(0)) {
      const base = { employee_id: a.employee_id, leave_type_id: a.leave_type_id, entry_type: "carry_forward" as const, reference_type: "leave_allocation", reference_id: a.id, created_by: createdBy };
      entries.push({ ...base, period_id: period.id, days: carried, effective_date: start, expires_on: a.carry_forward_expires_on, dedupe_key: `carry-in:${a.id}`, reason: `carried forward from ${prev.name}` });
      entries.push({ ...base, period_id: prev.id, days: carried.negated(), effective_date: toDateString(prev.end_date), dedupe_key: `carry-out:${a.id}`, reason: `carried forward to ${period.name}` });
    }
  }
  await inChunks(entries, (chunk) => postEntries(tx, chunk));
  return { made, skipped };
}

async function creditedByAllocation(ids: string[]): Promise<Map<string, Decimal>> {
  const rows = ids.length
    ? await db.leaveLedgerEntry.groupBy({ by: ["reference_id"], where: { reference_id: { in: ids }, entry_type: { in: ["allocation", "accrual"] } }, _sum: { days: true } })
    : [];
  return new Map(rows.map((r) => [r.reference_id as string, days(r._sum.days)]));
}

const allocationInclude = { employee: { select: { first_name: true, last_name: true, employee_code: true } }, leave_type: { select: { code: true } } } as const;

// ───────────────────────────── balances ─────────────────────────────

export const allocationHandlers = {
  async listLeaveAllocations({ query, auth }) {
    const page = pageOf(query);
    const [period, scope] = await Promise.all([resolvePeriod(db, query.period_id), visibleEmployees(auth)]);
    const where: Prisma.LeaveAllocationWhereInput = { period_id: period.id, ...employeeFilter(scope, query.employee_id), ...(query.leave_type_id ? { leave_type_id: query.leave_type_id } : {}) };
    const [rows, total] = await Promise.all([
      db.leaveAllocation.findMany({ where, include: allocationInclude, orderBy: [{ employee: { employee_code: "asc" } }, { leave_type: { code: "asc" } }], skip: page.skip, take: page.limit }),
      db.leaveAllocation.count({ where }),
    ]);
    const credited = await creditedByAllocation(rows.map((r) => r.id));
    return paginated(
      rows.map((r) => allocationJson(r, credited.get(r.id) ?? 0)),
      page,
      total,
    );
  },

  async createLeaveAllocations({ body, auth }) {
    if (body.leave_type_id && !body.employee_id) throw invalidField("body.leave_type_id", "needs employee_id");
    if (body.days !== undefined && !body.leave_type_id) throw invalidField("body.days", "needs leave_type_id");
    if (body.days !== undefined && body.policy_id) throw invalidField("body.days", "cannot be combined with policy_id");
    if ((body.accrual || body.accrual_day) && body.days === undefined) throw invalidField("body.accrual", "and accrual_day are only for an explicit number of days");
    if (!body.policy_id && !body.employee_id) throw badRequest("Give policy_id (bulk) or employee_id (individual)", [{ path: "body", message: "needs policy_id or employee_id" }]);
    const period = await resolvePeriod(db, body.period_id);
    const today = tenantToday(await loadAttendanceSettings());
    const types = new Map((await db.leaveType.findMany()).map((t) => [t.id, t]));
    const policies = await loadActivePolicies(db);
    let named = null as (typeof policies)[number] | null;
    if (body.policy_id) {
      const p = await db.leavePolicy.findFirst({ where: { id: body.policy_id } });
      if (!p) throw notFound("Leave policy");
      if (!p.active) throw conflict("The policy is inactive");
      named = policies.find((x) => x.id === p.id)!;
    }
    const wants: Want[] = [];
    const skipped: Skip[] = [];
    const addItems = (emp: Emp, policy: (typeof policies)[number], onlyType?: string) => {
      const items = policy.items.filter((i) => !onlyType || i.leave_type_id === onlyType);
      for (const i of items) {
        const type = types.get(i.leave_type_id)!;
        if (!type.active) skipped.push({ employee_id: emp.id, leave_type_id: type.id, reason: "leave type is inactive" });
        else if (!typeApplies(type, emp)) skipped.push({ employee_id: emp.id, leave_type_id: type.id, reason: "leave type does not apply to the employee" });
        else wants.push({ emp, type, policyId: policy.id, quota: days(i.annual_quota), accrual: i.accrual as AccrualMode, accrualDay: i.accrual_day as AccrualDay });
      }
      return items.length;
    };
    if (!body.employee_id) {
      const emps = await db.employee.findMany({ where: { deleted_at: null, status: { not: "exited" }, joining_date: { lte: period.end_date } }, select: empSelect });
      for (const e of emps) if (applicablePolicy(policies, e)?.id === named!.id) addItems(e, named!);
    } else {
      await loadEmployee(body.employee_id);
      const emp = (await db.employee.findFirst({ where: { id: body.employee_id }, select: { ...empSelect, status: true } }))!;
      if (emp.status === "exited") throw conflict("The employee has exited");
      if (toDateString(emp.joining_date) > toDateString(period.end_date)) throw conflict("The employee joins after the end of the period");
      if (body.leave_type_id && !types.has(body.leave_type_id)) throw notFound("Leave type");
      if (body.days !== undefined) {
        const type = types.get(body.leave_type_id!)!;
        if (!type.active) throw conflict("The leave type is inactive");
        if (!typeApplies(type, emp)) throw conflict("The leave type does not apply to this employee");
        wants.push({ emp, type, policyId: null, days: days(body.days), accrual: body.accrual ?? "upfront", accrualDay: body.accrual_day ?? "first_day" });
      } else {
        const policy = named ?? applicablePolicy(policies, emp);
        if (!policy) throw conflict("No active leave policy applies to this employee; name policy_id or give days");
        if (!addItems(emp, policy, body.leave_type_id)) throw conflict("The policy has no quota for this leave type; give days instead");
        if (body.leave_type_id && !wants.length) throw conflict(skipped[0]?.reason ? `Cannot allocate: ${skipped[0].reason}` : "Cannot allocate this leave type");
      }
    }
    const result = await tenantTx(
      async (tx) => {
        await lockTenantLeave(tx);
        const r = await allocate(tx, period, wants, auth.userId, body.notes ?? null, today);
        await audit(
          {
            action: "leave_allocation.created",
            entity_type: body.employee_id ? "employee" : "leave_policy",
            entity_id: body.employee_id ?? body.policy_id ?? null,
            changes: { period_id: period.id, policy_id: body.policy_id ?? null, leave_type_id: body.leave_type_id ?? null, days: body.days ?? null, created: r.made.length, skipped: r.skipped.length + skipped.length },
          },
          tx,
        );
        return r;
      },
      { timeout: 300_000 },
    );
    const shown = result.made.slice(0, LIST_CAP);
    const rows = await db.leaveAllocation.findMany({ where: { id: { in: shown.map((a) => a.id) } }, include: allocationInclude, orderBy: [{ employee: { employee_code: "asc" } }, { leave_type: { code: "asc" } }] });
    const credited = await creditedByAllocation(rows.map((r) => r.id));
    const allSkipped = [...skipped, ...result.skipped];
    return created(
      { created_count: result.made.length, skipped_count: allSkipped.length, allocations: rows.map((r) => allocationJson(r, credited.get(r.id) ?? 0)), skipped: allSkipped.slice(0, LIST_CAP) },
      `${result.made.length} allocations created, ${allSkipped.length} skipped`,
    );
  },

  async listLeaveBalances({ query, auth, res }) {
    const page = pageOf(query);
    const tenant = currentTenantId();
    // One statement: the period, the page of employees in the caller's scope and their count, and
    // per employee (LATERAL, so each lookup uses the (tenant_id, employee_id, ...) indexes whatever
    // the planner estimates) the ledger sums per type and bucket and the pending reservations.
    // PostgreSQL writes the rows as JSON in their final form: sums of DECIMAL(6,1) print with one
    // decimal place ("12.0"), the DayCount form.
    const empFilter = Prisma.sql`e.tenant_id = ${tenant}::uuid AND e.deleted_at IS NULL AND ${employeeScopeSql(auth)}
      ${query.employee_id ? Prisma.sql`AND e.id = ${query.employee_id}::uuid` : Prisma.empty}`;
    // every live employee of the company: the total is the kept count (employee_department_counts,
    // maintained by a trigger) instead of counting the employees on every page
    const wholeCompany = isHr(auth) && !query.employee_id;
    const periodSql = query.period_id ? Prisma.sql`id = ${query.period_id}::uuid` : Prisma.sql`is_current`;
    const typeFilter = (alias: string) => (query.leave_type_id ? Prisma.sql`AND ${Prisma.raw(alias)}.leave_type_id = ${query.leave_type_id}::uuid` : Prisma.empty);
    const [r] = await tenantPreparedRead<{ period_id: string | null; total: number; rows: string }>(Prisma.sql`
      WITH per AS (
        SELECT id FROM leave_periods WHERE tenant_id = ${tenant}::uuid AND ${periodSql} LIMIT 1
      ), emp AS (
        SELECT e.id, e.first_name, e.last_name, e.employee_code FROM employees e WHERE ${empFilter}
         ORDER BY e.employee_code LIMIT ${page.limit} OFFSET ${page.skip}
      )
      SELECT (SELECT id::text FROM per) AS period_id,
             ${wholeCompany ? Prisma.sql`(SELECT coalesce(sum(live_count), 0)::int FROM employee_department_counts WHERE tenant_id = ${tenant}::uuid)` : Prisma.sql`(SELECT count(*)::int FROM employees e WHERE ${empFilter})`} AS total,
             (SELECT coalesce(json_agg(json_build_object(
                 'employee_id', emp.id, 'employee_name', btrim(emp.first_name || ' ' || emp.last_name), 'employee_code', emp.employee_code,
                 'leave_type_id', t.id, 'leave_type_code', t.code, 'leave_type_name', t.name, 'is_paid', t.is_paid, 'period_id', (SELECT id FROM per),
                 'allocated', coalesce(a.allocated, 0.0)::text, 'carried', coalesce(a.carried, 0.0)::text, 'accrued', coalesce(a.accrued, 0.0)::text,
                 'comp_off', coalesce(a.comp_off, 0.0)::text, 'adjusted', coalesce(a.adjusted, 0.0)::text, 'expired', coalesce(-a.expired, 0.0)::text,
                 'taken', coalesce(-a.taken, 0.0)::text, 'pending', coalesce(a.pending, 0.0)::text, 'encashed', coalesce(-a.encashed, 0.0)::text,
                 'available', (coalesce(a.ledger, 0.0) - coalesce(a.pending, 0.0))::text
               ) ORDER BY emp.employee_code, t.code), '[]')::text
          FROM emp
          CROSS JOIN LATERAL (
            SELECT u.leave_type_id,
                   sum(u.days) FILTER (WHERE u.kind = 'allocation') AS allocated,
                   sum(u.days) FILTER (WHERE u.kind = 'carry_forward') AS carried,
                   sum(u.days) FILTER (WHERE u.kind = 'accrual') AS accrued,
                   sum(u.days) FILTER (WHERE u.kind = 'comp_off') AS comp_off,
                   sum(u.days) FILTER (WHERE u.kind = 'adjustment') AS adjusted,
                   sum(u.days) FILTER (WHERE u.kind = 'expiry') AS expired,
                   sum(u.days) FILTER (WHERE u.kind IN ('taken', 'cancelled')) AS taken,
                   sum(u.days) FILTER (WHERE u.kind = 'encashed') AS encashed,
                   sum(u.days) FILTER (WHERE u.kind <> 'pending') AS ledger,
                   sum(u.days) FILTER (WHERE u.kind = 'pending') AS pending
              FROM (
                SELECT l.leave_type_id, l.entry_type AS kind, l.days FROM leave_ledger_entries l
                 WHERE l.tenant_id = ${tenant}::uuid AND l.employee_id = emp.id AND l.period_id = (SELECT id FROM per) ${typeFilter("l")}
                UNION ALL
                SELECT q.leave_type_id, 'pending', q.days FROM leave_requests q
                 WHERE q.tenant_id = ${tenant}::uuid AND q.employee_id = emp.id AND q.period_id = (SELECT id FROM per) AND q.status = 'pending' ${typeFilter("q")}
                UNION ALL
                SELECT x.leave_type_id, 'pending', x.days FROM leave_encashments x
                 WHERE x.tenant_id = ${tenant}::uuid AND x.employee_id = emp.id AND x.period_id = (SELECT id FROM per) AND x.status = 'pending' ${typeFilter("x")}
              ) u
             GROUP BY u.leave_type_id
          ) a
          JOIN leave_types t ON t.tenant_id = ${tenant}::uuid AND t.id = a.leave_type_id) AS rows`);
    if (!r.period_id) throw notFound(query.period_id ? "Leave period" : "Current leave period");
    return sendPaginatedJson(res, r.rows, page, r.total);
  },

  async listLeaveLedger({ query, auth }) {
    const page = pageOf(query);
    const [period, scope] = await Promise.all([resolvePeriod(db, query.period_id), visibleEmployees(auth)]);
    const where: Prisma.LeaveLedgerEntryWhereInput = {
      period_id: period.id,
      ...employeeFilter(scope, query.employee_id),
      ...(query.leave_type_id ? { leave_type_id: query.leave_type_id } : {}),
      ...(query.entry_type ? { entry_type: query.entry_type } : {}),
    };
    const [rows, total] = await Promise.all([
      db.leaveLedgerEntry.findMany({ where, orderBy: [{ effective_date: "asc" }, { created_at: "asc" }, { id: "asc" }], skip: page.skip, take: page.limit }),
      db.leaveLedgerEntry.count({ where }),
    ]);
    return paginated(rows.map(ledgerJson), page, total);
  },

  async createLeaveAdjustment({ body, auth }) {
    const amount = days(body.days);
    if (amount.isZero()) throw invalidField("body.days", "must not be zero");
    await loadEmployee(body.employee_id);
    const type = await db.leaveType.findFirst({ where: { id: body.leave_type_id } });
    if (!type) throw notFound("Leave type");
    const period = await resolvePeriod(db, body.period_id);
    const today = tenantToday(await loadAttendanceSettings());
    const entry = await tenantTx(async (tx) => {
      await lockEmployees(tx, [body.employee_id]);
      const account = { employee_id: body.employee_id, leave_type_id: type.id, period_id: period.id };
      const min = minimumBalance(type);
      if (amount.isNegative() && min) {
        const after = (await ledgerSum(tx, account)).plus(amount);
        if (after.lt(min)) throw conflict(`The adjustment would take the balance to ${dayString(after)}, below the allowed ${dayString(min)}`);
      }
      const row = await tx.leaveLedgerEntry.create({
        data: { ...account, entry_type: "adjustment", days: new Prisma.Decimal(amount.toString()), effective_date: parseDate(today), reason: body.reason, created_by: auth.userId } as any,
      });
      await audit({ action: "leave_balance.adjusted", entity_type: "employee", entity_id: body.employee_id, changes: { leave_type_id: type.id, period_id: period.id, days: dayString(amount), reason: body.reason } }, tx);
      await notifyEmployee(tx, body.employee_id, { kind: "leave.adjusted", title: `Your ${type.name} balance was adjusted by ${dayString(amount)} days`, body: body.reason });
      return row;
    });
    return created(ledgerJson(entry), "Balance adjusted");
  },
} satisfies Partial<AreaHandlers<"leave">>;

