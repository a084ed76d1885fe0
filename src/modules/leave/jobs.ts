// Scheduled leave postings (leave.accrue, leave.expire), safe to run any number of times: every posting
// carries a dedupe key.
import { tenantPage } from "../../db/central.ts";
import { db, tenantTx, withTenant } from "../../db/tenancy.ts";
import { addDays, type DateString, toDateString } from "../../lib/dates.ts";
import { logger } from "../../log.ts";
import { loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";
import { allocationPostings } from "./allocate.ts";
import { type NewEntry, postEntries, settleLapses } from "./ledger.ts";
import { lockEmployees } from "../shared/people.ts";

/** Runs `fn` for every tenant (a page of tenants at a time), on the tenant's own date unless `today` is given. */
async function eachTenant(fn: (today: DateString) => Promise<number>, today?: DateString): Promise<number> {
  let total = 0;
  for (let tenants = await tenantPage(undefined); tenants.length; tenants = await tenantPage(tenants[tenants.length - 1].id)) {
    for (const t of tenants) total += await withTenant(t.id, async () => fn(today ?? tenantToday(await loadAttendanceSettings())));
  }
  return total;
}

const ACCRUAL_PAGE = 2000;

/** Posts the accrual parts due by `today` (each tenant's own date by default). Returns the number posted. */
export async function runLeaveAccruals(opts: { today?: DateString } = {}): Promise<number> {
  return eachTenant(async (today) => {
    const page = (after: string | null) =>
      db.leaveAllocation.findMany({
        where: {
          ...(after ? { id: { gt: after } } : {}),
          accrual: { not: "upfront" },
          employee: { deleted_at: null, status: { not: "exited" } },
          period: { start_date: { lte: new Date(`${today}T00:00:00Z`) }, end_date: { gte: new Date(`${addDays(today, -400)}T00:00:00Z`) } },
        },
        include: { period: { select: { start_date: true, end_date: true } }, employee: { select: { joining_date: true } } },
        orderBy: { id: "asc" },
        take: ACCRUAL_PAGE,
      });
    let posted = 0;
    // a page of allocations at a time (keyset by id): memory stays that of a page, whatever the company's size
    for (let chunk = await page(null); chunk.length; chunk = await page(chunk[chunk.length - 1].id)) {
      const done = new Set(
        (
          await db.leaveLedgerEntry.findMany({
            where: { reference_id: { in: chunk.map((a) => a.id) }, entry_type: "accrual" },
            select: { dedupe_key: true },
          })
        ).map((e) => e.dedupe_key),
      );
      const entries: NewEntry[] = [];
      for (const a of chunk) {
        const period = { start_date: toDateString(a.period.start_date), end_date: toDateString(a.period.end_date) };
        for (const e of allocationPostings(a, period, toDateString(a.employee.joining_date), today, null))
          if (!done.has(e.dedupe_key!)) entries.push(e);
      }
      posted += await postEntries(db, entries);
    }
    return posted;
  }, opts.today);
}

/**
 * Posts the lapses openLapses already counts (so balances do not change when it runs); a credit a pending
 * request may still use waits for the decision. Returns the number posted.
 */
export async function runLeaveExpiries(opts: { today?: DateString } = {}): Promise<number> {
  return eachTenant(async (today) => {
    const accounts = await db.leaveLedgerEntry.findMany({
      where: { expires_on: { lt: new Date(`${today}T00:00:00Z`) } },
      distinct: ["employee_id", "leave_type_id", "period_id"],
      select: { employee_id: true, leave_type_id: true, period_id: true },
    });
    let posted = 0;
    for (const a of accounts)
      posted += await tenantTx(async (tx) => {
        await lockEmployees(tx, [a.employee_id]);
        return settleLapses(tx, [a], today, { job: true });
      });
    return posted;
  }, opts.today);
}

export async function accrualJob(): Promise<void> {
  const n = await runLeaveAccruals();
  if (n) logger.info({ posted: n }, "leave accruals posted");
}
export async function expiryJob(): Promise<void> {
  const n = await runLeaveExpiries();
  if (n) logger.info({ posted: n }, "leave expiries posted");
}
