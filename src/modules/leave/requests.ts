// Leave requests, through the shared approval flow (src/modules/shared/approvals.ts); the rules a request
// is held to: request-checks.ts.
import type { components } from "../../../generated/api-types.ts";
import type { Prisma } from "../../../generated/prisma/client.ts";
import { db, byId } from "../../db/tenancy.ts";
import { pageOf } from "../../platform/use-case.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, QueryParams, RequestBody } from "../../platform/use-case.ts";
import { type DateString, parseDate, toDateString } from "../../lib/dates.ts";
import { cancel, decide, submit } from "../shared/approvals.ts";
import { assertVisible, employeeFilter, fullName, loadEmployee, lockEmployees, visibleEmployees } from "../shared/people.ts";
import { loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";
import { type DayValue, days, dayString, fromHalves } from "./days.ts";
import { employeeName, leaveRequestJson, type Listing } from "./json.ts";
import type { Listing as PageOrWalk } from "../../platform/use-case.ts";
import { type Walk, walkPage } from "../../db/keyset.ts";
import { leaveRequestKeys } from "./queries.ts";
import { availability, minimumBalance } from "./ledger-balance.ts";
import { postEntries } from "./ledger.ts";
import { employeeCalendar } from "./off-days.ts";
import { describeRange } from "./request-filters.ts";
import { activeAround, count, recountNeighbours } from "./request-counting.ts";
import { assertBalance, assertConsecutiveAllowed, assertNoOverlap, submissionFacts } from "./request-checks.ts";

type LeaveRequestJson = components["schemas"]["LeaveRequest"];
type Decision = RequestBody<"updateLeaveRequest">;

const include = { ...employeeName, leave_type: { select: { name: true } } } as const;

async function loadVisible(auth: AuthContext, id: string) {
  const r = await db.leaveRequest.findFirst({ where: { id }, include });
  if (!r) throw notFound("Leave request");
  await assertVisible(auth, r.employee_id, "Leave request");
  return r;
}

/** The leave requests list: a page by number, or a page of a walk in the order of change (docs/integrations-sync.md). */
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
 * A pending leave request (the caller's, or by hr another's): the type's rules, no overlap, days counted
 * on the employee's calendar, and a paid type's balance, all under the employee's lock so parallel
 * requests cannot overdraw.
 */
// size: one declaration for the shared approval flow (row under the lock, audit, two notices); the rules are in request-checks.ts
export async function submitLeaveRequest(auth: AuthContext, body: RequestBody<"createLeaveRequest">): Promise<LeaveRequestJson> {
  const { employeeId, emp, type, period, today } = await submissionFacts(auth, body);
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
    event: "leave_request.created",
    employee: emp,
    async create(tx) {
      await lockEmployees(tx, [employeeId]);
      const around = await activeAround(tx, employeeId, req.from, req.to);
      await assertNoOverlap(tx, employeeId, req, around);
      const cal = await employeeCalendar(tx, emp, req.from, req.to);
      const counted = count(req, type.sandwich_rule, cal, around);
      if (counted.halves === 0) throw conflict("The dates contain no working day (only weekly offs and holidays)");
      sandwiched = counted.sandwiched;
      const n = fromHalves(counted.halves);
      assertConsecutiveAllowed(type, req, counted.halves, around, cal);
      if (type.attachment_required_above_days !== null && n.gt(type.attachment_required_above_days) && !body.attachment_file_id)
        throw invalidField(
          "body.attachment_file_id",
          `is required for more than ${type.attachment_required_above_days} days of ${type.name}`,
        );
      const account = { employee_id: employeeId, leave_type_id: type.id, period_id: period.id };
      await assertBalance(tx, type, account, n, req.from, today);
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
      events: { approved: "leave_request.approved", rejected: "leave_request.rejected" },
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
    event: "leave_request.cancelled",
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
