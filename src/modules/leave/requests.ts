// Leave requests: counting, every rule of the leave type, the balance check under the
// per-employee lock, approval/rejection, cancellation with ledger reversal, and the recount of a
// sandwich neighbour when a request goes away.
import type { Prisma } from "../../../generated/prisma/client.ts";
import { audit } from "../../audit.ts";
import { db, type ScopedTx, tenantTx } from "../../db/tenancy.ts";
import { created, ok, pageOf, paginated } from "../../http/envelope.ts";
import { conflict, invalidField, notFound } from "../../http/errors.ts";
import type { AreaHandlers, AuthContext } from "../../http/types.ts";
import { addDays, daysBetween, type DateString, parseDate, toDateString } from "../../lib/dates.ts";
import { loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";
import { assertCanCancel, assertCanDecide, assertVisible, employeeFilter, fullName, loadEmployee, targetEmployee, visibleEmployees } from "../shared/people.ts";
import { overlaps } from "./calendar.ts";
import { Decimal, days, dayString, fromHalves } from "./days.ts";
import { employeeName, leaveRequestJson } from "./json.ts";
import { notifyEmployee, notifyManager } from "../shared/notices.ts";
import { typeApplies } from "./policies.ts";
import { employeeCalendar, lapsingBefore, ledgerSum, minimumBalance, type OffCalendar, pendingDays, periodFor, postEntries } from "./store.ts";
import { lockEmployees } from "../shared/people.ts";
import { consecutiveHalves, countLeaveDays } from "./workdays.ts";
import { isHr } from "../shared/access.ts";

const include = { ...employeeName, leave_type: { select: { name: true } } } as const;
const ACTIVE = ["pending", "approved"];
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
    where: { employee_id: employeeId, status: { in: ACTIVE }, from_date: { lte: parseDate(addDays(to, MARGIN)) }, to_date: { gte: parseDate(addDays(from, -MARGIN)) } },
    select: { id: true, leave_type_id: true, from_date: true, to_date: true, half_day_start: true, half_day_end: true, days: true, status: true, created_at: true },
  });
  return rows.map((r) => ({ ...r, from: toDateString(r.from_date), to: toDateString(r.to_date), days: days(r.days) }));
}

const covers = (reqs: ActiveRequest[]) => (d: DateString) => reqs.some((r) => r.from <= d && d <= r.to);

function count(r: { from: DateString; to: DateString; half_day_start: boolean; half_day_end: boolean }, sandwich: boolean, cal: OffCalendar, earlier: ActiveRequest[]) {
  return countLeaveDays({ from: r.from, to: r.to, halfDayStart: r.half_day_start, halfDayEnd: r.half_day_end, isOff: cal.isOff, sandwich, coveredByEarlier: covers(earlier) });
}

/**
 * After `removed` stopped being active: requests of the employee submitted after it that use the
 * sandwich rule are counted again (they may have been charged a bridge to it). Approved ones get
 * the difference in the ledger.
 */
async function recountNeighbours(tx: ScopedTx, removed: { id: string; employee_id: string; from_date: Date; to_date: Date; created_at: Date }, emp: { branch_id: string | null; work_location_id: string | null }, userId: string) {
  const from = toDateString(removed.from_date);
  const to = toDateString(removed.to_date);
  const around = await activeAround(tx, removed.employee_id, addDays(from, -MARGIN), addDays(to, MARGIN));
  const later = around.filter((r) => r.created_at > removed.created_at);
  if (!later.length) return;
  const types = new Map((await tx.leaveType.findMany({ where: { id: { in: [...new Set(later.map((r) => r.leave_type_id))] } } })).map((t) => [t.id, t]));
  const cal = await employeeCalendar(tx, emp, addDays(from, -2 * MARGIN), addDays(to, 2 * MARGIN));
  for (const n of later) {
    const type = types.get(n.leave_type_id)!;
    if (!type.sandwich_rule) continue;
    const fresh = fromHalves(count(n, true, cal, around.filter((r) => r.created_at < n.created_at)).halves);
    if (fresh.eq(n.days)) continue;
    const delta = fresh.minus(n.days);
    await tx.leaveRequest.update({ where: { id: n.id }, data: { days: fresh.toString() } });
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
    await audit({ action: "leave_request.recounted", entity_type: "leave_request", entity_id: n.id, changes: { days: { from: dayString(n.days), to: dayString(fresh) }, because_of: removed.id } }, tx);
    await notifyEmployee(tx, removed.employee_id, { kind: "leave.recounted", title: `Your leave from ${n.from} to ${n.to} now counts ${dayString(fresh)} days`, body: "A neighbouring request was withdrawn, so the weekly offs/holidays between them no longer count." });
  }
}

async function loadVisible(auth: AuthContext, id: string) {
  const r = await db.leaveRequest.findFirst({ where: { id }, include });
  if (!r) throw notFound("Leave request");
  await assertVisible(auth, r.employee_id, "Leave request");
  return r;
}

const describeRange = (from: DateString, to: DateString) => (from === to ? from : `${from} to ${to}`);

export const requestHandlers = {
  async listLeaveRequests({ query, auth }) {
    const page = pageOf(query);
    const scope = await visibleEmployees(auth);
    const where: Prisma.LeaveRequestWhereInput = {
      ...employeeFilter(scope, query.employee_id),
      ...(query.status ? { status: query.status } : {}),
      ...(query.leave_type_id ? { leave_type_id: query.leave_type_id } : {}),
      ...(query.from_date ? { to_date: { gte: parseDate(query.from_date) } } : {}),
      ...(query.to_date ? { from_date: { lte: parseDate(query.to_date) } } : {}),
    };
    const [rows, total] = await Promise.all([
      db.leaveRequest.findMany({ where, include, orderBy: [{ from_date: "desc" }, { created_at: "desc" }], skip: page.skip, take: page.limit }),
      db.leaveRequest.count({ where }),
    ]);
    return paginated(rows.map(leaveRequestJson), page, total);
  },

  async createLeaveRequest({ body, auth }) {
    const employeeId = targetEmployee(auth, body.employee_id);
    if (body.to_date < body.from_date) throw invalidField("body.to_date", "must not be before from_date");
    if (body.from_date === body.to_date && body.half_day_start && body.half_day_end) throw invalidField("body.half_day_end", "cannot be combined with half_day_start on a one-day request");
    const emp = await loadEmployee(employeeId);
    if (body.from_date < toDateString(emp.joining_date)) throw conflict(`The employee joins on ${toDateString(emp.joining_date)}; leave cannot start before that`);
    if (emp.status === "exited") throw conflict("The employee has exited");
    const type = await db.leaveType.findFirst({ where: { id: body.leave_type_id } });
    if (!type) throw notFound("Leave type");
    if (!type.active) throw conflict(`${type.name} is no longer in use`);
    if (!typeApplies(type, emp)) throw conflict(`${type.name} does not apply to this employee`);
    if ((body.half_day_start || body.half_day_end) && !type.allow_half_day) throw conflict(`${type.name} cannot be taken in half days`);
    if (body.attachment_file_id) {
      const f = await db.storedFile.findFirst({ where: { id: body.attachment_file_id, ...(isHr(auth) ? {} : { uploaded_by: auth.userId }) }, select: { id: true } });
      if (!f) throw notFound("File");
    }
    const period = await periodFor(db, body.from_date, body.to_date);
    const today = tenantToday(await loadAttendanceSettings());
    const selfService = !isHr(auth);
    if (selfService && type.min_notice_days > 0 && daysBetween(today, body.from_date) < type.min_notice_days)
      throw conflict(`${type.name} needs ${type.min_notice_days} days' notice: apply by ${addDays(body.from_date, -type.min_notice_days)} for leave from ${body.from_date}`);
    const req = { from: body.from_date, to: body.to_date, half_day_start: Boolean(body.half_day_start), half_day_end: Boolean(body.half_day_end) };

    const row = await tenantTx(async (tx) => {
      await lockEmployees(tx, [employeeId]);
      const around = await activeAround(tx, employeeId, req.from, req.to);
      const clash = around.find((r) => overlaps(r.from, r.to, req.from, req.to));
      if (clash) throw conflict(`The dates overlap the ${clash.status} leave request from ${describeRange(clash.from, clash.to)}`);
      const wfh = await tx.wfhRequest.findFirst({ where: { employee_id: employeeId, status: { in: ACTIVE }, from_date: { lte: parseDate(req.to) }, to_date: { gte: parseDate(req.from) } } });
      if (wfh) throw conflict(`The dates overlap a ${wfh.status} work-from-home request from ${describeRange(toDateString(wfh.from_date), toDateString(wfh.to_date))}`);
      const cal = await employeeCalendar(tx, emp, req.from, req.to);
      const counted = count(req, type.sandwich_rule, cal, around);
      if (counted.halves === 0) throw conflict("The dates contain no working day (only weekly offs and holidays)");
      const n = fromHalves(counted.halves);
      if (type.max_consecutive_days) {
        const sameType = around.filter((r) => r.leave_type_id === type.id).map((r) => ({ from: r.from, to: r.to, halves: r.days.times(2).toNumber() }));
        const chain = consecutiveHalves({ from: req.from, to: req.to, halves: counted.halves }, sameType, cal.isOff);
        if (chain > type.max_consecutive_days * 2)
          throw conflict(`${type.name} allows at most ${type.max_consecutive_days} consecutive days; this makes ${dayString(fromHalves(chain))} in a row`);
      }
      if (type.attachment_required_above_days !== null && n.gt(type.attachment_required_above_days) && !body.attachment_file_id)
        throw invalidField("body.attachment_file_id", `is required for more than ${type.attachment_required_above_days} days of ${type.name}`);
      const min = minimumBalance(type);
      if (min) {
        const account = { employee_id: employeeId, leave_type_id: type.id, period_id: period.id };
        const [ledger, pending, lapsing] = await Promise.all([ledgerSum(tx, account), pendingDays(tx, account), lapsingBefore(tx, account, req.from, [{ date: req.from, days: n }])]);
        const available = ledger.minus(pending).minus(lapsing);
        if (available.minus(n).lt(min))
          throw conflict(`Insufficient ${type.name} balance: ${dayString(available)} days available${min.isNegative() ? ` (may go down to ${dayString(min)})` : ""}, ${dayString(n)} requested`);
      }
      const r = await tx.leaveRequest.create({
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
        } as any,
        include,
      });
      await audit({ action: "leave_request.created", entity_type: "leave_request", entity_id: r.id, changes: { employee_id: employeeId, leave_type: type.code, from_date: req.from, to_date: req.to, days: dayString(n), sandwiched: counted.sandwiched } }, tx);
      const what = `${dayString(n)} days of ${type.name} (${describeRange(req.from, req.to)})`;
      await notifyEmployee(tx, employeeId, { kind: "leave.submitted", title: `Leave request submitted: ${what}`, body: "It is waiting for approval." });
      await notifyManager(tx, emp, { kind: "leave.approval_needed", title: `${fullName(emp)} requests ${what}`, body: body.reason ?? undefined });
      return r;
    });
    return created(leaveRequestJson(row), "Leave request submitted");
  },

  async getLeaveRequest({ params, auth }) {
    return ok(leaveRequestJson(await loadVisible(auth, params.id)));
  },

  async updateLeaveRequest({ params, body, auth }) {
    const r = await loadVisible(auth, params.id);
    const emp = await loadEmployee(r.employee_id);
    assertCanDecide(auth, emp);
    const row = await tenantTx(async (tx) => {
      await lockEmployees(tx, [r.employee_id]);
      const cur = await tx.leaveRequest.findFirstOrThrow({ where: { id: r.id } });
      if (cur.status !== "pending") throw conflict(`The request is already ${cur.status}`);
      const type = await tx.leaveType.findFirstOrThrow({ where: { id: cur.leave_type_id } });
      const n = days(cur.days);
      const from = toDateString(cur.from_date);
      if (body.status === "approved") {
        const min = minimumBalance(type);
        const account = { employee_id: cur.employee_id, leave_type_id: cur.leave_type_id, period_id: cur.period_id };
        if (min) {
          const [ledger, lapsing] = await Promise.all([ledgerSum(tx, account), lapsingBefore(tx, account, from)]);
          const available = ledger.minus(lapsing);
          if (available.minus(n).lt(min)) throw conflict(`Insufficient ${type.name} balance to approve: ${dayString(available)} days left, ${dayString(n)} requested`);
        }
        await postEntries(tx, [{ ...account, entry_type: "taken", days: n.negated(), effective_date: from, reference_type: "leave_request", reference_id: cur.id, dedupe_key: `taken:${cur.id}`, created_by: auth.userId }]);
      }
      const updated = await tx.leaveRequest.update({
        where: { id: cur.id },
        data: { status: body.status, decided_by: auth.userId, decided_at: new Date(), decision_comment: body.comment ?? null },
        include,
      });
      await audit({ action: `leave_request.${body.status}`, entity_type: "leave_request", entity_id: cur.id, changes: { status: { from: "pending", to: body.status }, comment: body.comment ?? null } }, tx);
      await notifyEmployee(tx, cur.employee_id, {
        kind: `leave.${body.status}`,
        title: `Your leave from ${describeRange(from, toDateString(cur.to_date))} was ${body.status}`,
        body: body.comment ?? `${dayString(n)} days of ${type.name}.`,
      });
      if (body.status === "rejected") await recountNeighbours(tx, cur, emp, auth.userId);
      return updated;
    });
    return ok(leaveRequestJson(row), `Leave request ${body.status}`);
  },

  async cancelLeaveRequest({ params, auth }) {
    const r = await loadVisible(auth, params.id);
    const emp = await loadEmployee(r.employee_id);
    const today = tenantToday(await loadAttendanceSettings());
    const row = await tenantTx(async (tx) => {
      await lockEmployees(tx, [r.employee_id]);
      const cur = await tx.leaveRequest.findFirstOrThrow({ where: { id: r.id } });
      const from = toDateString(cur.from_date);
      assertCanCancel(auth, emp, cur.status, { started: from <= today, approvedBySelf: true });
      if (cur.status === "approved") {
        const net = await tx.leaveLedgerEntry.aggregate({ where: { reference_id: cur.id, entry_type: { in: ["taken", "cancelled"] } }, _sum: { days: true } });
        const back = days(net._sum.days).negated();
        if (back.gt(0))
          await postEntries(tx, [
            { employee_id: cur.employee_id, leave_type_id: cur.leave_type_id, period_id: cur.period_id, entry_type: "cancelled", days: back, effective_date: from, reference_type: "leave_request", reference_id: cur.id, dedupe_key: `cancelled:${cur.id}`, reason: "leave cancelled", created_by: auth.userId },
          ]);
      }
      const updated = await tx.leaveRequest.update({ where: { id: cur.id }, data: { status: "cancelled", cancelled_by: auth.userId, cancelled_at: new Date() }, include });
      await audit({ action: "leave_request.cancelled", entity_type: "leave_request", entity_id: cur.id, changes: { status: { from: cur.status, to: "cancelled" } } }, tx);
      await notifyEmployee(tx, cur.employee_id, { kind: "leave.cancelled", title: `Your leave from ${describeRange(from, toDateString(cur.to_date))} was cancelled`, body: cur.status === "approved" ? `${dayString(cur.days)} days returned to your balance.` : undefined });
      await recountNeighbours(tx, cur, emp, auth.userId);
      return updated;
    });
    return ok(leaveRequestJson(row), "Leave request cancelled");
  },
} satisfies Partial<AreaHandlers<"leave">>;
