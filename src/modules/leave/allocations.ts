// Allocations: entitlements of a period, in bulk from a policy or for one employee (from a policy
// or an explicit number of days), prorated for joiners, idempotent (an employee/type/period is
// allocated once), with carry-forward of the previous period's unused days, and the ledger
// postings they schedule (up front, or accrual parts posted when due by jobs.ts).
import type { Prisma } from "../../../generated/prisma/client.ts";
import { audit } from "../../platform/audit.ts";
import { db, type ScopedTx, tenantTx } from "../../db/tenancy.ts";
import { pageOf } from "../../http/envelope.ts";
import { badRequest, conflict, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, QueryParams, RequestBody } from "../../http/types.ts";
import { addDays, type DateString, toDateString } from "../../lib/dates.ts";
import { assertNotOwnRecord, OWN_RECORD, selfDecision } from "../shared/access.ts";
import { employeeFilter, loadEmployee, lockTenantLeave, visibleEmployees } from "../shared/people.ts";
import { loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";
import { type AccrualDay, type AccrualMode, accrualSchedule, effectiveFrom, prorate } from "./accrual.ts";
import { Decimal, days } from "./days.ts";
import { allocationJson, type Listing } from "./json.ts";
import { accountKey, lapsedDays, type NewEntry, openLapses, postEntries } from "./ledger.ts";
import { namedOrCurrentPeriod, type PeriodRow } from "./periods.ts";
import { applicablePolicy, loadActivePolicies, typeApplies } from "./policy-match.ts";
import { type AllocationRow, insertAllocations, type MadeAllocation } from "./queries.ts";
import * as clock from "../../lib/clock.ts";

type AllocationJson = ReturnType<typeof allocationJson>;

const CHUNK = 2000;
const LIST_CAP = 500;

async function inChunks<T>(rows: T[], fn: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += CHUNK) await fn(rows.slice(i, i + CHUNK));
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
  encash_carry_forward_excess?: boolean;
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
export interface Skip {
  employee_id: string;
  leave_type_id: string | null;
  reason: string;
}

/** Ledger postings of one allocation that are due by `today` (accruals) plus its carry-forward. */
export function allocationPostings(
  a: {
    id: string;
    employee_id: string;
    leave_type_id: string;
    period_id: string;
    days: Decimal.Value | { toString(): string };
    accrual: string;
    accrual_day: string;
  },
  period: { start_date: DateString; end_date: DateString },
  joiningDate: DateString,
  today: DateString,
  createdBy: string | null,
): NewEntry[] {
  const schedule = accrualSchedule({
    mode: a.accrual as AccrualMode,
    accrualDay: a.accrual_day as AccrualDay,
    periodStart: period.start_date,
    periodEnd: period.end_date,
    joiningDate,
    entitlement: a.days,
  });
  const base = {
    employee_id: a.employee_id,
    leave_type_id: a.leave_type_id,
    period_id: a.period_id,
    reference_type: "leave_allocation" as const,
    reference_id: a.id,
    created_by: createdBy,
  };
  return schedule
    .filter((s) => a.accrual === "upfront" || s.date <= today)
    .map((s) =>
      a.accrual === "upfront"
        ? { ...base, entry_type: "allocation" as const, days: s.days, effective_date: s.date, dedupe_key: `allocation:${a.id}` }
        : {
            ...base,
            entry_type: "accrual" as const,
            days: s.days,
            effective_date: s.date,
            dedupe_key: `accrual:${a.id}:${s.seq}`,
            reason: `${a.accrual} accrual`,
          },
    );
}

async function previousPeriod(tx: ScopedTx, p: PeriodRow): Promise<PeriodRow | null> {
  return tx.leavePeriod.findFirst({ where: { end_date: { lt: p.start_date } }, orderBy: { end_date: "desc" } });
}

/**
 * Unused balance of the previous period per employee:type, for carry-forward: its availability
 * (ledger − pending − expired; ledger.ts) as of the day after the period ends.
 */
async function unusedBalances(
  tx: ScopedTx,
  prev: PeriodRow,
  employeeIds: string[],
  typeIds: string[],
  today: DateString,
): Promise<Map<string, Decimal>> {
  const out = new Map<string, Decimal>();
  if (!employeeIds.length || !typeIds.length) return out;
  const where = { period_id: prev.id, employee_id: { in: employeeIds }, leave_type_id: { in: typeIds } };
  // one after the other: an interactive transaction runs one query at a time
  const ledger = await tx.leaveLedgerEntry.groupBy({ by: ["employee_id", "leave_type_id"], where, _sum: { days: true } });
  const pendingReq = await tx.leaveRequest.groupBy({
    by: ["employee_id", "leave_type_id"],
    where: { ...where, status: "pending" },
    _sum: { days: true },
  });
  const pendingEnc = await tx.leaveEncashment.groupBy({
    by: ["employee_id", "leave_type_id"],
    where: { ...where, status: "pending" },
    _sum: { days: true },
  });
  for (const r of ledger) out.set(`${r.employee_id}:${r.leave_type_id}`, days(r._sum.days));
  for (const r of [...pendingReq, ...pendingEnc]) {
    const k = `${r.employee_id}:${r.leave_type_id}`;
    out.set(k, (out.get(k) ?? new Decimal(0)).minus(days(r._sum.days)));
  }
  const accounts = ledger.map((r) => ({ employee_id: r.employee_id, leave_type_id: r.leave_type_id, period_id: prev.id }));
  const lapses = await openLapses(tx, accounts, addDays(toDateString(prev.end_date), 1), today);
  for (const a of accounts) {
    const lapsed = lapsedDays(lapses.get(accountKey(a)));
    const k = `${a.employee_id}:${a.leave_type_id}`;
    if (!lapsed.isZero()) out.set(k, (out.get(k) ?? new Decimal(0)).minus(lapsed));
  }
  return out;
}

async function allocate(tx: ScopedTx, period: PeriodRow, wants: Want[], createdBy: string, notes: string | null, today: DateString) {
  const start = toDateString(period.start_date);
  const end = toDateString(period.end_date);
  const skipped: Skip[] = [];
  const rows: AllocationRow[] = [];
  /** employee:type → the days above the carry-forward cap encashed at the close of the previous period (OSH Code s.32). */
  const excess = new Map<string, Decimal>();
  const prev = await previousPeriod(tx, period);
  const carryTypes = [...new Set(wants.filter((w) => w.type.carry_forward).map((w) => w.type.id))];
  const unused = prev
    ? await unusedBalances(tx, prev, [...new Set(wants.map((w) => w.emp.id))], carryTypes, today)
    : new Map<string, Decimal>();
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
      // OSH Code s.32: the cap is 30 days unless the type sets its own; the excess is encashed, not lost
      const cap = w.type.carry_forward_max_days
        ? days(w.type.carry_forward_max_days)
        : w.type.encash_carry_forward_excess
          ? new Decimal(OSH_CARRY_FORWARD_CAP)
          : null;
      carried = cap ? Decimal.min(left, cap) : left;
      if (w.type.encash_carry_forward_excess && left.gt(carried)) excess.set(`${w.emp.id}:${w.type.id}`, left.minus(carried));
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
  for (const r of rows)
    if (!madeKeys.has(`${r.employee_id}:${r.leave_type_id}`))
      skipped.push({ employee_id: r.employee_id, leave_type_id: r.leave_type_id, reason: "already allocated for this period" });
  const joinings = new Map(wants.map((w) => [w.emp.id, toDateString(w.emp.joining_date)]));
  const entries: NewEntry[] = [];
  for (const a of made) {
    entries.push(...allocationPostings(a, { start_date: start, end_date: end }, joinings.get(a.employee_id)!, today, createdBy));
    const carried = days(a.carried_forward);
    if (prev && carried.gt(0)) {
      const base = {
        employee_id: a.employee_id,
        leave_type_id: a.leave_type_id,
        entry_type: "carry_forward" as const,
        reference_type: "leave_allocation" as const,
        reference_id: a.id,
        created_by: createdBy,
      };
      entries.push({
        ...base,
        period_id: period.id,
        days: carried,
        effective_date: start,
        expires_on: a.carry_forward_expires_on,
        dedupe_key: `carry-in:${a.id}`,
        reason: `carried forward from ${prev.name}`,
      });
      entries.push({
        ...base,
        period_id: prev.id,
        days: carried.negated(),
        effective_date: toDateString(prev.end_date),
        dedupe_key: `carry-out:${a.id}`,
        reason: `carried forward to ${period.name}`,
      });
    }
  }
  await inChunks(entries, (chunk) => postEntries(tx, chunk));
  if (prev) await encashExcess(tx, prev, made, excess, createdBy);
  return { made, skipped };
}

/** The carry-forward cap of the OSH Code 2020 s.32 (in force from 2025-11-21), when a type sets none. */
export const OSH_CARRY_FORWARD_CAP = 30;

/**
 * OSH Code s.32: the unused days above the carry-forward cap are encashed at the end of the year.
 * For each allocation just made whose type says so (`encash_carry_forward_excess`), the excess is
 * recorded as an approved leave encashment of the closing period and debited from its balance
 * (on its last day), audited; the next payroll run pays it at the company's day rate (unpriced,
 * like any approved encashment). Made once: an allocation is made once per employee, type and period.
 */
async function encashExcess(
  tx: ScopedTx,
  prev: PeriodRow,
  made: MadeAllocation[],
  excess: Map<string, Decimal>,
  createdBy: string,
): Promise<void> {
  const now = clock.now();
  const closing = toDateString(prev.end_date);
  for (const a of made) {
    const n = excess.get(`${a.employee_id}:${a.leave_type_id}`);
    if (!n?.gt(0)) continue;
    const account = { employee_id: a.employee_id, leave_type_id: a.leave_type_id, period_id: prev.id };
    const reason = `OSH Code s.32: days above the carry-forward cap encashed at the close of ${prev.name}`;
    const row = await tx.leaveEncashment.create({
      data: {
        ...account,
        days: n.toString(),
        status: "approved",
        reason,
        requested_by: createdBy,
        decided_by: createdBy,
        decided_at: now,
      },
    });
    await postEntries(tx, [
      {
        ...account,
        entry_type: "encashed",
        days: n.negated(),
        effective_date: closing,
        reference_type: "leave_encashment",
        reference_id: row.id,
        reason,
        dedupe_key: `encashed:${row.id}`,
        created_by: createdBy,
      },
    ]);
    await audit(
      {
        action: "leave_encashment.carry_forward_excess",
        entity_type: "leave_encashment",
        entity_id: row.id,
        changes: { employee_id: a.employee_id, leave_type_id: a.leave_type_id, period: prev.name, days: n.toFixed(1), status: "approved" },
      },
      tx,
    );
  }
}

async function creditedByAllocation(ids: string[]): Promise<Map<string, Decimal>> {
  const rows = ids.length
    ? await db.leaveLedgerEntry.groupBy({
        by: ["reference_id"],
        where: { reference_id: { in: ids }, entry_type: { in: ["allocation", "accrual"] } },
        _sum: { days: true },
      })
    : [];
  return new Map(rows.map((r) => [r.reference_id as string, days(r._sum.days)]));
}

const allocationInclude = {
  employee: { select: { first_name: true, last_name: true, employee_code: true } },
  leave_type: { select: { code: true } },
} as const;

export async function allocationPage(auth: AuthContext, query: QueryParams<"listLeaveAllocations">): Promise<Listing<AllocationJson>> {
  const page = pageOf(query);
  const [period, scope] = await Promise.all([namedOrCurrentPeriod(db, query.period_id), visibleEmployees(auth)]);
  const where: Prisma.LeaveAllocationWhereInput = {
    period_id: period.id,
    ...employeeFilter(scope, query.employee_id),
    ...(query.leave_type_id ? { leave_type_id: query.leave_type_id } : {}),
  };
  const [rows, total] = await Promise.all([
    db.leaveAllocation.findMany({
      where,
      include: allocationInclude,
      orderBy: [{ employee: { employee_code: "asc" } }, { leave_type: { code: "asc" } }],
      skip: page.skip,
      take: page.limit,
    }),
    db.leaveAllocation.count({ where }),
  ]);
  const credited = await creditedByAllocation(rows.map((r) => r.id));
  return { rows: rows.map((r) => allocationJson(r, credited.get(r.id) ?? 0)), page, total };
}

export interface AllocationOutcome {
  created_count: number;
  skipped_count: number;
  allocations: AllocationJson[];
  skipped: Skip[];
}

/**
 * Allocates a period (the current one by default): every employee a policy applies to (bulk), or
 * one employee from their policy (optionally one of its types) or an explicit number of days.
 * Employees/types that cannot be allocated are skipped with a reason; the first LIST_CAP of each
 * list are returned.
 */
export async function allocateLeave(auth: AuthContext, body: RequestBody<"createLeaveAllocations">): Promise<AllocationOutcome> {
  if (body.leave_type_id && !body.employee_id) throw invalidField("body.leave_type_id", "needs employee_id");
  if (body.days !== undefined && !body.leave_type_id) throw invalidField("body.days", "needs leave_type_id");
  if (body.days !== undefined && body.policy_id) throw invalidField("body.days", "cannot be combined with policy_id");
  if ((body.accrual || body.accrual_day) && body.days === undefined)
    throw invalidField("body.accrual", "and accrual_day are only for an explicit number of days");
  if (!body.policy_id && !body.employee_id)
    throw badRequest("Give policy_id (bulk) or employee_id (individual)", [{ path: "body", message: "needs policy_id or employee_id" }]);
  const period = await namedOrCurrentPeriod(db, body.period_id);
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
  let self = false;
  const addItems = (emp: Emp, policy: (typeof policies)[number], onlyType?: string) => {
    const items = policy.items.filter((i) => !onlyType || i.leave_type_id === onlyType);
    for (const i of items) {
      const type = types.get(i.leave_type_id)!;
      if (!type.active) skipped.push({ employee_id: emp.id, leave_type_id: type.id, reason: "leave type is inactive" });
      else if (!typeApplies(type, emp))
        skipped.push({ employee_id: emp.id, leave_type_id: type.id, reason: "leave type does not apply to the employee" });
      else
        wants.push({
          emp,
          type,
          policyId: policy.id,
          quota: days(i.annual_quota),
          accrual: i.accrual as AccrualMode,
          accrualDay: i.accrual_day as AccrualDay,
        });
    }
    return items.length;
  };
  if (!body.employee_id) {
    const emps = await db.employee.findMany({
      where: { deleted_at: null, status: { not: "exited" }, joining_date: { lte: period.end_date } },
      select: empSelect,
    });
    for (const e of emps) if (applicablePolicy(policies, e)?.id === named!.id) addItems(e, named!);
  } else {
    await loadEmployee(body.employee_id);
    // a bulk allocation applies a policy to everyone it covers; an individual one is a decision on that record
    self = assertNotOwnRecord(auth, body.employee_id, `You cannot allocate leave to yourself: ${OWN_RECORD}`);
    const emp = (await db.employee.findFirst({ where: { id: body.employee_id }, select: { ...empSelect, status: true } }))!;
    if (emp.status === "exited") throw conflict("The employee has exited");
    if (toDateString(emp.joining_date) > toDateString(period.end_date)) throw conflict("The employee joins after the end of the period");
    if (body.leave_type_id && !types.has(body.leave_type_id)) throw notFound("Leave type");
    if (body.days !== undefined) {
      const type = types.get(body.leave_type_id!)!;
      if (!type.active) throw conflict("The leave type is inactive");
      if (!typeApplies(type, emp)) throw conflict("The leave type does not apply to this employee");
      wants.push({
        emp,
        type,
        policyId: null,
        days: days(body.days),
        accrual: body.accrual ?? "upfront",
        accrualDay: body.accrual_day ?? "first_day",
      });
    } else {
      const policy = named ?? applicablePolicy(policies, emp);
      if (!policy) throw conflict("No active leave policy applies to this employee; name policy_id or give days");
      if (!addItems(emp, policy, body.leave_type_id)) throw conflict("The policy has no quota for this leave type; give days instead");
      if (body.leave_type_id && !wants.length)
        throw conflict(skipped[0]?.reason ? `Cannot allocate: ${skipped[0].reason}` : "Cannot allocate this leave type");
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
          changes: {
            period_id: period.id,
            policy_id: body.policy_id ?? null,
            leave_type_id: body.leave_type_id ?? null,
            days: body.days ?? null,
            created: r.made.length,
            skipped: r.skipped.length + skipped.length,
            ...selfDecision(self),
          },
        },
        tx,
      );
      return r;
    },
    { timeout: 300_000 },
  );
  const shown = result.made.slice(0, LIST_CAP);
  const rows = await db.leaveAllocation.findMany({
    where: { id: { in: shown.map((a) => a.id) } },
    include: allocationInclude,
    orderBy: [{ employee: { employee_code: "asc" } }, { leave_type: { code: "asc" } }],
  });
  const credited = await creditedByAllocation(rows.map((r) => r.id));
  const allSkipped = [...skipped, ...result.skipped];
  return {
    created_count: result.made.length,
    skipped_count: allSkipped.length,
    allocations: rows.map((r) => allocationJson(r, credited.get(r.id) ?? 0)),
    skipped: allSkipped.slice(0, LIST_CAP),
  };
}
