// Leave requests: counting, every rule of the leave type, the balance check under the
// per-employee lock, approval/rejection, cancellation with ledger reversal, and the recount of a
// sandwich neighbour when a request goes away. Submit, decide and cancel run through the shared
// approval flow (src/modules/shared/approvals.ts).
import type { components } from "../../../generated/api-types.ts";
import type { Prisma } from "../../../generated/prisma/client.ts";
import { audit } from "../../platform/audit.ts";
import { db, type ScopedTx, byId } from "../../db/tenancy.ts";
import { pageOf } from "../../http/envelope.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, QueryParams, RequestBody } from "../../http/types.ts";
import { addDays, type DateString, daysBetween, parseDate, toDateString } from "../../lib/dates.ts";
import { isHr } from "../shared/access.ts";
import { cancel, decide, submit } from "../shared/approvals.ts";
import { notifyEmployee } from "../shared/notices.ts";
import {
  assertVisible,
  employeeFilter,
  fullName,
  loadEmployee,
  lockEmployees,
  targetEmployee,
  visibleEmployees,
} from "../shared/people.ts";
import { loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";
import { overlaps } from "./calendar.ts";
import { type Decimal, type DayValue, days, dayString, fromHalves } from "./days.ts";
import { employeeName, leaveRequestJson, type Listing } from "./json.ts";
import type { Listing as PageOrWalk } from "../../http/envelope.ts";
import { type Walk, walkPage } from "../../db/keyset.ts";
import { leaveRequestKeys } from "./queries.ts";
import { availability, minimumBalance, postEntries } from "./ledger.ts";
import { employeeCalendar, type OffCalendar } from "./off-days.ts";
import { periodFor } from "./periods.ts";
import { typeApplies } from "./policy-match.ts";
import { ACTIVE, describeRange } from "./request-filters.ts";
import { consecutiveHalves, countLeaveDays } from "./workdays.ts";

type LeaveRequestJson = components["schemas"]["LeaveRequest"];
type Decision = RequestBody<"updateLeaveRequest">;

const include = { ...employeeName, leave_type: { select: { name: true } } } as const;
const MARGIN = 40;

interface ActiveRequest {
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

async function activeAround(tx: ScopedTx, employeeId: string, from: DateString, to: DateString): Promise<ActiveRequest[]> {
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

const covers = (reqs: ActiveRequest[]) => (d: DateString) => reqs.some((r) => r.from <= d && d <= r.to);

function count(
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
async function recountNeighbours(
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

async function loadVisible(auth: AuthContext, id: string) {
  const r = await db.leaveRequest.findFirst({ where: { id }, include });
  if (!r) throw notFound("Leave request");
  await assertVisible(auth, r.employee_id, "Leave request");
  return r;
}

/** The leave requests list: a page by number, or a page of a walk in the order of change (issue 32). */
export async function leaveRequestList(
  auth: AuthContext,
  query: QueryParams<"listLeaveRequests">,
  walk: Walk | null,
): Promise<PageOrWalk<LeaveRequestJson>> {
  if (!walk) return leaveRequestPage(auth, query);
  const where = await leaveRequestFilter(auth, query);
  const { rows, last } = await walkPage(
    walk,
    (after, n) => leaveRequestKeys(walk, after, n),
    (ids) => db.leaveRequest.findMany({ where: { ...where, id: { in: ids } }, include }),
  );
  return { rows: rows.map(leaveRequestJson), walk, last };
}

async function leaveRequestFilter(auth: AuthContext, query: QueryParams<"listLeaveRequests">): Promise<Prisma.LeaveRequestWhereInput> {
  const scope = await visibleEmployees(auth);
  return {
    ...employeeFilter(scope, query.employee_id),
    ...(query.status ? { status: query.status } : {}),
    ...(query.leave_type_id ? { leave_type_id: query.leave_type_id } : {}),
    ...(query.from_date ? { to_date: { gte: parseDate(query.from_date) } } : {}),
    ...(query.to_date ? { from_date: { lte: parseDate(query.to_date) } } : {}),
  };
}

export async function leaveRequestPage(auth: AuthContext, query: QueryParams<"listLeaveRequests">): Promise<Listing<LeaveRequestJson>> {
  const page = pageOf(query);
  const where = await leaveRequestFilter(auth, query);
  const [rows, total] = await Promise.all([
    db.leaveRequest.findMany({
      where,
      include,
      orderBy: [{ from_date: "desc" }, { created_at: "desc" }],
      skip: page.skip,
      take: page.limit,
    }),
    db.leaveRequest.count({ where }),
  ]);
  return { rows: rows.map(leaveRequestJson), page, total };
}

/**
 * A leave request (pending), for the caller or - by hr - for another employee: the type's rules
 * (active, applies, half days, notice, attachment, consecutive days), no overlap with other leave
 * or work from home, days counted on the employee's calendar (sandwich rule), and - for a paid
 * type - enough balance net of pending reservations and days lapsing before the leave, all under
 * the employee's lock so that parallel requests cannot overdraw.
 */
export async function submitLeaveRequest(auth: AuthContext, body: RequestBody<"createLeaveRequest">): Promise<LeaveRequestJson> {
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
  const req = {
    from: body.from_date,
    to: body.to_date,
    half_day_start: Boolean(body.half_day_start),
    half_day_end: Boolean(body.half_day_end),
  };
  let sandwiched: DateString[] = [];
  const what = (n: DayValue) => `${dayString(n)} days of ${type.name} (${describeRange(req.from, req.to)})`;

  const row = await submit({
    entity: "leave_request",
    employee: emp,
    async create(tx) {
      await lockEmployees(tx, [employeeId]);
      const around = await activeAround(tx, employeeId, req.from, req.to);
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
      const cal = await employeeCalendar(tx, emp, req.from, req.to);
      const counted = count(req, type.sandwich_rule, cal, around);
      if (counted.halves === 0) throw conflict("The dates contain no working day (only weekly offs and holidays)");
      sandwiched = counted.sandwiched;
      const n = fromHalves(counted.halves);
      if (type.max_consecutive_days) {
        const sameType = around
          .filter((r) => r.leave_type_id === type.id)
          .map((r) => ({ from: r.from, to: r.to, halves: r.days.times(2).toNumber() }));
        const chain = consecutiveHalves({ from: req.from, to: req.to, halves: counted.halves }, sameType, cal.isOff);
        if (chain > type.max_consecutive_days * 2)
          throw conflict(
            `${type.name} allows at most ${type.max_consecutive_days} consecutive days; ` +
              `this makes ${dayString(fromHalves(chain))} in a row`,
          );
      }
      if (type.attachment_required_above_days !== null && n.gt(type.attachment_required_above_days) && !body.attachment_file_id)
        throw invalidField(
          "body.attachment_file_id",
          `is required for more than ${type.attachment_required_above_days} days of ${type.name}`,
        );
      const min = minimumBalance(type);
      if (min) {
        const account = { employee_id: employeeId, leave_type_id: type.id, period_id: period.id };
        // as of the leave's first day: days expiring before it cannot pay for it
        const { available } = await availability(tx, account, req.from, today);
        if (available.minus(n).lt(min))
          throw conflict(
            `Insufficient ${type.name} balance: ${dayString(available)} days available` +
              `${min.isNegative() ? ` (may go down to ${dayString(min)})` : ""}, ${dayString(n)} requested`,
          );
      }
      return tx.leaveRequest.create({
        data: {
          employee_id: employeeId,
          leave_type_id: type.id,
          period_id: period.id,
          from_date: parseDate(req.from),
          to_date: parseDate(req.to),
          half_day_start: req.half_day_start,
          half_day_end: req.half_day_end,
          days: n.toString(),
          reason: body.reason ?? null,
          attachment_file_id: body.attachment_file_id ?? null,
          requested_by: auth.userId,
        },
        include,
      });
    },
    changes: (r) => ({
      employee_id: employeeId,
      leave_type: type.code,
      from_date: req.from,
      to_date: req.to,
      days: dayString(r.days),
      sandwiched,
    }),
    employeeNotice: (r) => ({
      kind: "leave.submitted",
      title: `Leave request submitted: ${what(r.days)}`,
      body: "It is waiting for approval.",
    }),
    managerNotice: (r) => ({
      kind: "leave.approval_needed",
      title: `${fullName(emp)} requests ${what(r.days)}`,
      body: body.reason ?? undefined,
    }),
  });
  return leaveRequestJson(row);
}

export async function leaveRequestById(auth: AuthContext, id: string): Promise<LeaveRequestJson> {
  return leaveRequestJson(await loadVisible(auth, id));
}

/**
 * Approve or reject (the employee's manager or hr, never the employee): an approval checks the
 * balance again (net of days lapsing before the leave) and debits the ledger; a rejection lets
 * later requests that were charged a sandwich bridge to this one be recounted.
 */
export async function decideLeaveRequest(auth: AuthContext, id: string, decision: Decision): Promise<LeaveRequestJson> {
  const r = await loadVisible(auth, id);
  const emp = await loadEmployee(r.employee_id);
  const row = await decide(
    auth,
    {
      entity: "leave_request",
      employee: emp,
      async lock(tx) {
        await lockEmployees(tx, [r.employee_id]);
        const cur = await tx.leaveRequest.findFirstOrThrow({ where: { id: r.id } });
        return { ...cur, type: await tx.leaveType.findFirstOrThrow({ where: { id: cur.leave_type_id } }) };
      },
      async apply(tx, cur, status) {
        if (status !== "approved") return;
        const n = days(cur.days);
        const from = toDateString(cur.from_date);
        const min = minimumBalance(cur.type);
        const account = { employee_id: cur.employee_id, leave_type_id: cur.leave_type_id, period_id: cur.period_id };
        if (min) {
          // the availability of submission (as of the leave's first day), except that other pending
          // requests do not hold this one back: what the ledger holds net of what has expired by then
          const av = await availability(tx, account, from, tenantToday(await loadAttendanceSettings(tx)), { requestId: cur.id });
          const available = av.ledger.minus(av.lapsed);
          if (available.minus(n).lt(min))
            throw conflict(
              `Insufficient ${cur.type.name} balance to approve: ${dayString(available)} days left, ${dayString(n)} requested`,
            );
        }
        await postEntries(tx, [
          {
            ...account,
            entry_type: "taken",
            days: n.negated(),
            effective_date: from,
            reference_type: "leave_request",
            reference_id: cur.id,
            dedupe_key: `taken:${cur.id}`,
            created_by: auth.userId,
          },
        ]);
      },
      save: (tx, cur, columns) => tx.leaveRequest.update({ where: byId(cur.id), data: columns, include }),
      notice: (cur, status, comment) => ({
        kind: `leave.${status}`,
        title: `Your leave from ${describeRange(toDateString(cur.from_date), toDateString(cur.to_date))} was ${status}`,
        body: comment ?? `${dayString(cur.days)} days of ${cur.type.name}.`,
      }),
      after: (tx, cur, status) => (status === "rejected" ? recountNeighbours(tx, cur, emp, auth.userId) : Promise.resolve()),
    },
    decision,
  );
  return leaveRequestJson(row);
}

/**
 * Cancel (see assertCanCancel: the employee or manager only before an approved leave starts): an
 * approved leave's days go back to the balance, and later sandwich neighbours are recounted.
 */
export async function withdrawLeaveRequest(auth: AuthContext, id: string): Promise<LeaveRequestJson> {
  const r = await loadVisible(auth, id);
  const emp = await loadEmployee(r.employee_id);
  const today = tenantToday(await loadAttendanceSettings());
  const row = await cancel(auth, {
    entity: "leave_request",
    async lock(tx) {
      await lockEmployees(tx, [r.employee_id]);
      return tx.leaveRequest.findFirstOrThrow({ where: { id: r.id } });
    },
    allow: { employee: emp, started: (cur) => toDateString(cur.from_date) <= today, approvedBySelf: true },
    async apply(tx, cur) {
      if (cur.status !== "approved") return;
      const net = await tx.leaveLedgerEntry.aggregate({
        where: { reference_id: cur.id, entry_type: { in: ["taken", "cancelled"] } },
        _sum: { days: true },
      });
      const back = days(net._sum.days).negated();
      if (back.gt(0))
        await postEntries(tx, [
          {
            employee_id: cur.employee_id,
            leave_type_id: cur.leave_type_id,
            period_id: cur.period_id,
            entry_type: "cancelled",
            days: back,
            effective_date: toDateString(cur.from_date),
            reference_type: "leave_request",
            reference_id: cur.id,
            dedupe_key: `cancelled:${cur.id}`,
            reason: "leave cancelled",
            created_by: auth.userId,
          },
        ]);
    },
    save: (tx, cur, columns) => tx.leaveRequest.update({ where: byId(cur.id), data: columns, include }),
    notice: (cur) => ({
      kind: "leave.cancelled",
      title: `Your leave from ${describeRange(toDateString(cur.from_date), toDateString(cur.to_date))} was cancelled`,
      body: cur.status === "approved" ? `${dayString(cur.days)} days returned to your balance.` : undefined,
    }),
    after: (tx, cur) => recountNeighbours(tx, cur, emp, auth.userId),
  });
  return leaveRequestJson(row);
}
