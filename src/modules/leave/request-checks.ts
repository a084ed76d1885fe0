// The rules a leave request is held to: those of the request and type before the transaction, and those
// against the employee's other requests under the employee's lock.
import type { LeaveType } from "../../../generated/prisma/client.ts";
import { db, type ScopedTx } from "../../db/tenancy.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { addDays, type DateString, daysBetween, parseDate, toDateString } from "../../lib/dates.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import { isHr } from "../shared/access.ts";
import { loadEmployee, targetEmployee } from "../shared/people.ts";
import { loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";
import { type Decimal, dayString, fromHalves } from "./days.ts";
import { availability, minimumBalance } from "./ledger-balance.ts";
import type { OffCalendar } from "./off-days.ts";
import { periodFor } from "./periods.ts";
import { typeApplies } from "./policy-match.ts";
import type { ActiveRequest } from "./request-counting.ts";
import { ACTIVE, describeRange } from "./request-filters.ts";
import { consecutiveHalves } from "./workdays.ts";
import { overlaps } from "./calendar.ts";

type Body = RequestBody<"createLeaveRequest">;
/** A request's dates and half days. */
export interface RequestedDays {
  from: DateString;
  to: DateString;
  half_day_start: boolean;
  half_day_end: boolean;
}

/**
 * What a submission is checked against before its transaction: the employee, the leave type and
 * the period, with every rule that does not depend on the employee's other requests (400/404/409).
 */
export async function submissionFacts(auth: AuthContext, body: Body) {
  const employeeId = targetEmployee(auth, body.employee_id);
  if (body.to_date < body.from_date) throw invalidField("body.to_date", "must not be before from_date");
  if (body.from_date === body.to_date && body.half_day_start && body.half_day_end)
    throw invalidField("body.half_day_end", "cannot be combined with half_day_start on a one-day request");
  const emp = await loadEmployee(employeeId);
  if (body.from_date < toDateString(emp.joining_date))
    throw conflict(`The employee joins on ${toDateString(emp.joining_date)}; leave cannot start before that`);
  if (emp.status === "exited") throw conflict("The employee has exited");
  const type = await db.leaveType.findFirst({ where: { id: body.leave_type_id } });
  if (!type) throw notFound("Leave type");
  if (!type.active) throw conflict(`${type.name} is no longer in use`);
  if (!typeApplies(type, emp)) throw conflict(`${type.name} does not apply to this employee`);
  if ((body.half_day_start || body.half_day_end) && !type.allow_half_day) throw conflict(`${type.name} cannot be taken in half days`);
  if (body.attachment_file_id) {
    const f = await db.storedFile.findFirst({
      where: { id: body.attachment_file_id, ...(isHr(auth) ? {} : { uploaded_by: auth.userId }) },
      select: { id: true },
    });
    if (!f) throw notFound("File");
  }
  const period = await periodFor(db, body.from_date, body.to_date);
  const today = tenantToday(await loadAttendanceSettings());
  const selfService = !isHr(auth);
  if (selfService && type.min_notice_days > 0 && daysBetween(today, body.from_date) < type.min_notice_days)
    throw conflict(
      `${type.name} needs ${type.min_notice_days} days' notice: ` +
        `apply by ${addDays(body.from_date, -type.min_notice_days)} for leave from ${body.from_date}`,
    );
  return { employeeId, emp, type, period, today };
}

/** 409 when the dates overlap another active leave request (`around`) or work-from-home request of the employee. */
export async function assertNoOverlap(tx: ScopedTx, employeeId: string, req: RequestedDays, around: ActiveRequest[]): Promise<void> {
  const clash = around.find((r) => overlaps(r.from, r.to, req.from, req.to));
  if (clash) throw conflict(`The dates overlap the ${clash.status} leave request from ${describeRange(clash.from, clash.to)}`);
  const wfh = await tx.wfhRequest.findFirst({
    where: {
      employee_id: employeeId,
      status: { in: ACTIVE },
      from_date: { lte: parseDate(req.to) },
      to_date: { gte: parseDate(req.from) },
    },
  });
  if (wfh)
    throw conflict(
      `The dates overlap a ${wfh.status} work-from-home request ` +
        `from ${describeRange(toDateString(wfh.from_date), toDateString(wfh.to_date))}`,
    );
}

/** 409 when the request makes more consecutive days of its type (with the employee's others) than the type allows. */
export function assertConsecutiveAllowed(
  type: LeaveType,
  req: RequestedDays,
  halves: number,
  around: ActiveRequest[],
  cal: OffCalendar,
): void {
  if (!type.max_consecutive_days) return;
  const sameType = around
    .filter((r) => r.leave_type_id === type.id)
    .map((r) => ({ from: r.from, to: r.to, halves: r.days.times(2).toNumber() }));
  const chain = consecutiveHalves({ from: req.from, to: req.to, halves }, sameType, cal.isOff);
  if (chain > type.max_consecutive_days * 2)
    throw conflict(
      `${type.name} allows at most ${type.max_consecutive_days} consecutive days; ` + `this makes ${dayString(fromHalves(chain))} in a row`,
    );
}

/**
 * 409 when a paid type's balance cannot pay `n` days: available as of the leave's first day (days
 * expiring before it cannot pay for it), net of pending reservations, down to the type's minimum.
 */
export async function assertBalance(
  tx: ScopedTx,
  type: LeaveType,
  account: { employee_id: string; leave_type_id: string; period_id: string },
  n: Decimal,
  firstDay: DateString,
  today: DateString,
): Promise<void> {
  const min = minimumBalance(type);
  if (!min) return;
  const { available } = await availability(tx, account, firstDay, today);
  if (available.minus(n).lt(min))
    throw conflict(
      `Insufficient ${type.name} balance: ${dayString(available)} days available` +
        `${min.isNegative() ? ` (may go down to ${dayString(min)})` : ""}, ${dayString(n)} requested`,
    );
}
