// Allocations: a period's entitlements, prorated for joiners, allocated once per employee/type/period,
// with carry-forward and the ledger postings they schedule (accruals posted when due by jobs.ts).
import type { Prisma } from "../../../generated/prisma/client.ts";
import { audit } from "../../platform/audit.ts";
import { db, tenantTx } from "../../db/tenancy.ts";
import { pageOf } from "../../platform/use-case.ts";
import type { AuthContext, QueryParams, RequestBody } from "../../platform/use-case.ts";
import { selfDecision } from "../shared/access.ts";
import { employeeFilter, lockTenantLeave, visibleEmployees } from "../shared/people.ts";
import { loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";
import { type Decimal, days } from "./days.ts";
import { allocationJson, type Listing } from "./json.ts";
import { namedOrCurrentPeriod } from "./periods.ts";
import { type Skip, allocate } from "./allocate.ts";
import { checkAllocationBody, wantedAllocations } from "./allocation-wants.ts";

type AllocationJson = ReturnType<typeof allocationJson>;

const LIST_CAP = 500;

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

/** Allocates a period in bulk from policies or for one employee; what cannot be allocated is skipped with a reason. */
export async function allocateLeave(auth: AuthContext, body: RequestBody<"createLeaveAllocations">): Promise<AllocationOutcome> {
  checkAllocationBody(body);
  const period = await namedOrCurrentPeriod(db, body.period_id);
  const today = tenantToday(await loadAttendanceSettings());
  const { wants, skipped, self } = await wantedAllocations(auth, body, period);
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
