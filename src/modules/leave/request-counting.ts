// Counting a leave request's days on the employee's calendar next to their other active requests
// (the sandwich rule charges the weekly offs and holidays bridging two requests), and recounting the
// later neighbours when a request stops being active.
import { audit } from "../../platform/audit.ts";
import { type ScopedTx, byId } from "../../db/tenancy.ts";
import { addDays, type DateString, parseDate, toDateString } from "../../lib/dates.ts";
import { notifyEmployee } from "../shared/notices.ts";
import { type Decimal, days, dayString, fromHalves } from "./days.ts";
import { postEntries } from "./ledger.ts";
import { employeeCalendar, type OffCalendar } from "./off-days.ts";
import { ACTIVE } from "./request-filters.ts";
import { countLeaveDays } from "./workdays.ts";

export const MARGIN = 40;

export interface ActiveRequest {
  id: string;
  leave_type_id: string;
  from: DateString;
  to: DateString;
  half_day_start: boolean;
  half_day_end: boolean;
  days: Decimal;
  status: string;
  created_at: Date;
}

export async function activeAround(tx: ScopedTx, employeeId: string, from: DateString, to: DateString): Promise<ActiveRequest[]> {
  const rows = await tx.leaveRequest.findMany({
    where: {
      employee_id: employeeId,
      status: { in: ACTIVE },
      from_date: { lte: parseDate(addDays(to, MARGIN)) },
      to_date: { gte: parseDate(addDays(from, -MARGIN)) },
    },
    select: {
      id: true,
      leave_type_id: true,
      from_date: true,
      to_date: true,
      half_day_start: true,
      half_day_end: true,
      days: true,
      status: true,
      created_at: true,
    },
  });
  return rows.map((r) => ({ ...r, from: toDateString(r.from_date), to: toDateString(r.to_date), days: days(r.days) }));
}

export const covers = (reqs: ActiveRequest[]) => (d: DateString) => reqs.some((r) => r.from <= d && d <= r.to);

export function count(
  r: { from: DateString; to: DateString; half_day_start: boolean; half_day_end: boolean },
  sandwich: boolean,
  cal: OffCalendar,
  earlier: ActiveRequest[],
) {
  return countLeaveDays({
    from: r.from,
    to: r.to,
    halfDayStart: r.half_day_start,
    halfDayEnd: r.half_day_end,
    isOff: cal.isOff,
    sandwich,
    coveredByEarlier: covers(earlier),
  });
}

/**
 * After `removed` stopped being active: requests of the employee submitted after it that use the
 * sandwich rule are counted again (they may have been charged a bridge to it). Approved ones get
 * the difference in the ledger.
 */
export async function recountNeighbours(
  tx: ScopedTx,
  removed: { id: string; employee_id: string; from_date: Date; to_date: Date; created_at: Date },
  emp: { branch_id: string | null; work_location_id: string | null },
  userId: string,
) {
  const from = toDateString(removed.from_date);
  const to = toDateString(removed.to_date);
  const around = await activeAround(tx, removed.employee_id, addDays(from, -MARGIN), addDays(to, MARGIN));
  const later = around.filter((r) => r.created_at > removed.created_at);
  if (!later.length) return;
  const types = new Map(
    (await tx.leaveType.findMany({ where: { id: { in: [...new Set(later.map((r) => r.leave_type_id))] } } })).map((t) => [t.id, t]),
  );
  const cal = await employeeCalendar(tx, emp, addDays(from, -2 * MARGIN), addDays(to, 2 * MARGIN));
  for (const n of later) {
    const type = types.get(n.leave_type_id)!;
    if (!type.sandwich_rule) continue;
    const fresh = fromHalves(
      count(
        n,
        true,
        cal,
        around.filter((r) => r.created_at < n.created_at),
      ).halves,
    );
    if (fresh.eq(n.days)) continue;
    const delta = fresh.minus(n.days);
    await tx.leaveRequest.update({ where: byId(n.id), data: { days: fresh.toString() } });
    if (n.status === "approved")
      await postEntries(tx, [
        {
          employee_id: removed.employee_id,
          leave_type_id: n.leave_type_id,
          period_id: (await tx.leaveRequest.findFirstOrThrow({ where: { id: n.id }, select: { period_id: true } })).period_id,
          entry_type: delta.gt(0) ? "taken" : "cancelled",
          days: delta.negated(),
          effective_date: n.from,
          reference_type: "leave_request",
          reference_id: n.id,
          reason: "recounted (sandwich rule) after a neighbouring request was withdrawn",
          created_by: userId,
        },
      ]);
    await audit(
      {
        action: "leave_request.recounted",
        entity_type: "leave_request",
        entity_id: n.id,
        changes: { days: { from: dayString(n.days), to: dayString(fresh) }, because_of: removed.id },
      },
      tx,
    );
    await notifyEmployee(tx, removed.employee_id, {
      kind: "leave.recounted",
      title: `Your leave from ${n.from} to ${n.to} now counts ${dayString(fresh)} days`,
      body: "A neighbouring request was withdrawn, so the weekly offs/holidays between them no longer count.",
    });
  }
}
