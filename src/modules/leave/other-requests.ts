// Work from home, working on a holiday (compensatory leave) and leave encashment: each a request
// with the same approval flow as leave (pending → approved | rejected, DELETE cancels), audited
// and notified at every transition.
import type { Prisma } from "../../../generated/prisma/client.ts";
import { audit } from "../../audit.ts";
import { db, tenantTx } from "../../db/tenancy.ts";
import { created, ok, pageOf, paginated } from "../../http/envelope.ts";
import { conflict, invalidField, notFound } from "../../http/errors.ts";
import type { AreaHandlers, AuthContext } from "../../http/types.ts";
import { addDays, daysBetween, type DateString, parseDate, toDateString } from "../../lib/dates.ts";
import { loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";
import { assertCanCancel, assertCanDecide, assertVisible, employeeFilter, fullName, loadEmployee, targetEmployee, visibleEmployees } from "../shared/people.ts";
import { Decimal, days, dayString, fromHalves } from "./days.ts";
import { employeeName, encashmentJson, holidayWorkJson, wfhJson } from "./json.ts";
import { notifyEmployee, notifyManager } from "../shared/notices.ts";
import { currentPeriod, employeeCalendar, lapsingBefore, ledgerSum, pendingDays, periodFor, postEntries } from "./store.ts";
import { lockEmployees } from "../shared/people.ts";
import { countLeaveDays } from "./workdays.ts";

const ACTIVE = ["pending", "approved"];
const MAX_WFH_DAYS = 31;
const range = (from: DateString, to: DateString) => (from === to ? from : `${from} to ${to}`);
const overlapWhere = (employeeId: string, from: DateString, to: DateString) => ({ employee_id: employeeId, status: { in: ACTIVE }, from_date: { lte: parseDate(to) }, to_date: { gte: parseDate(from) } });
const decidedData = (auth: AuthContext, body: { status: "approved" | "rejected"; comment?: string }) => ({ status: body.status, decided_by: auth.userId, decided_at: new Date(), decision_comment: body.comment ?? null });
const cancelledData = (auth: AuthContext) => ({ status: "cancelled", cancelled_by: auth.userId, cancelled_at: new Date() });
const today = async () => tenantToday(await loadAttendanceSettings());

function filters(query: { status?: string; from_date?: string; to_date?: string }, dateField: "range" | "date" | "created") {
  const w: Record<string, unknown> = query.status ? { status: query.status } : {};
  if (dateField === "range") {
    if (query.from_date) w.to_date = { gte: parseDate(query.from_date) };
    if (query.to_date) w.from_date = { lte: parseDate(query.to_date) };
  } else if (query.from_date || query.to_date) {
    const field = dateField === "date" ? "date" : "created_at";
    const upper = dateField === "date" ? { lte: parseDate(query.to_date ?? "9999-12-31") } : { lt: parseDate(addDays(query.to_date ?? "9999-12-30", 1)) };
    w[field] = { ...(query.from_date ? { gte: parseDate(query.from_date) } : {}), ...(query.to_date ? upper : {}) };
  }
  return w;
}

// ───────────────────────────── work from home ─────────────────────────────

async function visibleWfh(auth: AuthContext, id: string) {
  const r = await db.wfhRequest.findFirst({ where: { id }, include: employeeName });
  if (!r) throw notFound("Work-from-home request");
  await assertVisible(auth, r.employee_id, "Work-from-home request");
  return r;
}

// ───────────────────────────── working on holiday ─────────────────────────────

async function visibleHolidayWork(auth: AuthContext, id: string) {
  const r = await db.holidayWorkRequest.findFirst({ where: { id }, include: employeeName });
  if (!r) throw notFound("Working-on-holiday request");
  await assertVisible(auth, r.employee_id, "Working-on-holiday request");
  return r;
}

async function compOffType(id?: string) {
  if (id) {
    const t = await db.leaveType.findFirst({ where: { id } });
    if (!t) throw notFound("Leave type");
    if (!t.is_compensatory || !t.active) throw conflict(`${t.name} is not an active compensatory leave type`);
    return t;
  }
  const all = await db.leaveType.findMany({ where: { is_compensatory: true, active: true } });
  if (!all.length) throw conflict("No compensatory leave type is configured; ask hr to create one (is_compensatory: true)");
  if (all.length > 1) throw conflict("Several compensatory leave types exist; name one with leave_type_id");
  return all[0];
}

// ───────────────────────────── encashment ─────────────────────────────

const encInclude = { ...employeeName, leave_type: { select: { name: true } } } as const;

async function visibleEncashment(auth: AuthContext, id: string) {
  const r = await db.leaveEncashment.findFirst({ where: { id }, include: encInclude });
  if (!r) throw notFound("Encashment");
  await assertVisible(auth, r.employee_id, "Encashment");
  return r;
}

export const otherRequestHandlers = {
  // ── work from home
  async listWfhRequests({ query, auth }) {
    const page = pageOf(query);
    const where: Prisma.WfhRequestWhereInput = { ...employeeFilter(await visibleEmployees(auth), query.employee_id), ...filters(query, "range") };
    const [rows, total] = await Promise.all([
      db.wfhRequest.findMany({ where, include: employeeName, orderBy: [{ from_date: "desc" }, { created_at: "desc" }], skip: page.skip, take: page.limit }),
      db.wfhRequest.count({ where }),
    ]);
    return paginated(rows.map(wfhJson), page, total);
  },

  async createWfhRequest({ body, auth }) {
    const employeeId = targetEmployee(auth, body.employee_id);
    if (body.to_date < body.from_date) throw invalidField("body.to_date", "must not be before from_date");
    if (daysBetween(body.from_date, body.to_date) + 1 > MAX_WFH_DAYS) throw invalidField("body.to_date", `makes the request longer than ${MAX_WFH_DAYS} days`);
    const emp = await loadEmployee(employeeId);
    const row = await tenantTx(async (tx) => {
      await lockEmployees(tx, [employeeId]);
      const clash = await tx.wfhRequest.findFirst({ where: overlapWhere(employeeId, body.from_date, body.to_date) });
      if (clash) throw conflict(`The dates overlap the ${clash.status} work-from-home request from ${range(toDateString(clash.from_date), toDateString(clash.to_date))}`);
      const leave = await tx.leaveRequest.findFirst({ where: overlapWhere(employeeId, body.from_date, body.to_date) });
      if (leave) throw conflict(`The dates overlap a ${leave.status} leave request from ${range(toDateString(leave.from_date), toDateString(leave.to_date))}`);
      const cal = await employeeCalendar(tx, emp, body.from_date, body.to_date);
      const n = countLeaveDays({ from: body.from_date, to: body.to_date, isOff: cal.isOff, sandwich: false }).halves;
      if (!n) throw conflict("The dates contain no working day (only weekly offs and holidays)");
      const r = await tx.wfhRequest.create({
        data: { employee_id: employeeId, from_date: parseDate(body.from_date), to_date: parseDate(body.to_date), days: fromHalves(n).toString(), reason: body.reason ?? null, requested_by: auth.userId } as any,
        include: employeeName,
      });
      await audit({ action: "wfh_request.created", entity_type: "wfh_request", entity_id: r.id, changes: { employee_id: employeeId, from_date: body.from_date, to_date: body.to_date } }, tx);
      await notifyEmployee(tx, employeeId, { kind: "wfh.submitted", title: `Work-from-home request submitted (${range(body.from_date, body.to_date)})` });
      await notifyManager(tx, emp, { kind: "wfh.approval_needed", title: `${fullName(emp)} asks to work from home (${range(body.from_date, body.to_date)})`, body: body.reason });
      return r;
    });
    return created(wfhJson(row), "Work-from-home request submitted");
  },

  async getWfhRequest({ params, auth }) {
    return ok(wfhJson(await visibleWfh(auth, params.id)));
  },

  async updateWfhRequest({ params, body, auth }) {
    const r = await visibleWfh(auth, params.id);
    assertCanDecide(auth, await loadEmployee(r.employee_id));
    const row = await tenantTx(async (tx) => {
      await lockEmployees(tx, [r.employee_id]);
      const cur = await tx.wfhRequest.findFirstOrThrow({ where: { id: r.id } });
      if (cur.status !== "pending") throw conflict(`The request is already ${cur.status}`);
      const u = await tx.wfhRequest.update({ where: { id: r.id }, data: decidedData(auth, body), include: employeeName });
      await audit({ action: `wfh_request.${body.status}`, entity_type: "wfh_request", entity_id: r.id, changes: { status: { from: "pending", to: body.status }, comment: body.comment ?? null } }, tx);
      await notifyEmployee(tx, r.employee_id, { kind: `wfh.${body.status}`, title: `Your work-from-home request (${range(toDateString(cur.from_date), toDateString(cur.to_date))}) was ${body.status}`, body: body.comment });
      return u;
    });
    return ok(wfhJson(row), `Work-from-home request ${body.status}`);
  },

  async cancelWfhRequest({ params, auth }) {
    const r = await visibleWfh(auth, params.id);
    const emp = await loadEmployee(r.employee_id);
    const now = await today();
    const row = await tenantTx(async (tx) => {
      await lockEmployees(tx, [r.employee_id]);
      const cur = await tx.wfhRequest.findFirstOrThrow({ where: { id: r.id } });
      assertCanCancel(auth, emp, cur.status, { started: toDateString(cur.from_date) <= now, approvedBySelf: true });
      const u = await tx.wfhRequest.update({ where: { id: r.id }, data: cancelledData(auth), include: employeeName });
      await audit({ action: "wfh_request.cancelled", entity_type: "wfh_request", entity_id: r.id, changes: { status: { from: cur.status, to: "cancelled" } } }, tx);
      await notifyEmployee(tx, r.employee_id, { kind: "wfh.cancelled", title: `Your work-from-home request (${range(toDateString(cur.from_date), toDateString(cur.to_date))}) was cancelled` });
      return u;
    });
    return ok(wfhJson(row), "Work-from-home request cancelled");
  },

  // ── working on holiday
  async listWorkingOnHolidayRequests({ query, auth }) {
    const page = pageOf(query);
    const where: Prisma.HolidayWorkRequestWhereInput = { ...employeeFilter(await visibleEmployees(auth), query.employee_id), ...filters(query, "date") };
    const [rows, total] = await Promise.all([
      db.holidayWorkRequest.findMany({ where, include: employeeName, orderBy: [{ date: "desc" }, { created_at: "desc" }], skip: page.skip, take: page.limit }),
      db.holidayWorkRequest.count({ where }),
    ]);
    return paginated(rows.map(holidayWorkJson), page, total);
  },

  async createWorkingOnHolidayRequest({ body, auth }) {
    const employeeId = targetEmployee(auth, body.employee_id);
    if (body.date > (await today())) throw invalidField("body.date", "must not be in the future: compensatory leave is claimed for a day already worked");
    const emp = await loadEmployee(employeeId);
    const type = await compOffType(body.leave_type_id);
    await periodFor(db, body.date, body.date);
    const row = await tenantTx(async (tx) => {
      await lockEmployees(tx, [employeeId]);
      const cal = await employeeCalendar(tx, emp, body.date, body.date);
      if (!cal.isOff(body.date)) throw conflict(`${body.date} is a working day for this employee, not a weekly off or holiday`);
      const dup = await tx.holidayWorkRequest.findFirst({ where: { employee_id: employeeId, date: parseDate(body.date), status: { in: ACTIVE } } });
      if (dup) throw conflict(`A ${dup.status} claim for ${body.date} exists already`);
      const r = await tx.holidayWorkRequest.create({
        data: { employee_id: employeeId, date: parseDate(body.date), half_day: Boolean(body.half_day), reason: body.reason, leave_type_id: type.id, requested_by: auth.userId } as any,
        include: employeeName,
      });
      const what = cal.holidayName(body.date) ?? "a weekly off";
      await audit({ action: "working_on_holiday.created", entity_type: "working_on_holiday", entity_id: r.id, changes: { employee_id: employeeId, date: body.date, half_day: Boolean(body.half_day) } }, tx);
      await notifyEmployee(tx, employeeId, { kind: "comp_off.submitted", title: `Claim for working on ${body.date} (${what}) submitted` });
      await notifyManager(tx, emp, { kind: "comp_off.approval_needed", title: `${fullName(emp)} worked on ${body.date} (${what}) and claims compensatory leave`, body: body.reason });
      return r;
    });
    return created(holidayWorkJson(row), "Claim submitted");
  },

  async getWorkingOnHolidayRequest({ params, auth }) {
    return ok(holidayWorkJson(await visibleHolidayWork(auth, params.id)));
  },

  async updateWorkingOnHolidayRequest({ params, body, auth }) {
    const r = await visibleHolidayWork(auth, params.id);
    assertCanDecide(auth, await loadEmployee(r.employee_id));
    const date = toDateString(r.date);
    const row = await tenantTx(async (tx) => {
      await lockEmployees(tx, [r.employee_id]);
      const cur = await tx.holidayWorkRequest.findFirstOrThrow({ where: { id: r.id } });
      if (cur.status !== "pending") throw conflict(`The request is already ${cur.status}`);
      let extra = {};
      if (body.status === "approved") {
        const type = await tx.leaveType.findFirstOrThrow({ where: { id: cur.leave_type_id! } });
        const period = await periodFor(tx, date, date);
        const n = new Decimal(cur.half_day ? "0.5" : "1");
        const expires = type.comp_off_validity_days ? addDays(date, type.comp_off_validity_days - 1) : null;
        await postEntries(tx, [
          { employee_id: cur.employee_id, leave_type_id: type.id, period_id: period.id, entry_type: "comp_off", days: n, effective_date: date, expires_on: expires, reference_type: "working_on_holiday", reference_id: cur.id, dedupe_key: `comp_off:${cur.id}`, reason: `worked on ${date}`, created_by: auth.userId },
        ]);
        extra = { comp_off_days: n.toString(), comp_off_expires_on: expires ? parseDate(expires) : null };
      }
      const u = await tx.holidayWorkRequest.update({ where: { id: r.id }, data: { ...decidedData(auth, body), ...extra }, include: employeeName });
      await audit({ action: `working_on_holiday.${body.status}`, entity_type: "working_on_holiday", entity_id: r.id, changes: { status: { from: "pending", to: body.status }, comment: body.comment ?? null } }, tx);
      await notifyEmployee(tx, r.employee_id, {
        kind: `comp_off.${body.status}`,
        title: `Your claim for working on ${date} was ${body.status}`,
        body: body.status === "approved" ? `${dayString(u.comp_off_days!)} day(s) of compensatory leave credited${u.comp_off_expires_on ? `, usable until ${toDateString(u.comp_off_expires_on)}` : ""}.` : body.comment,
      });
      return u;
    });
    return ok(holidayWorkJson(row), `Claim ${body.status}`);
  },

  async cancelWorkingOnHolidayRequest({ params, auth }) {
    const r = await visibleHolidayWork(auth, params.id);
    const emp = await loadEmployee(r.employee_id);
    const row = await tenantTx(async (tx) => {
      await lockEmployees(tx, [r.employee_id]);
      const cur = await tx.holidayWorkRequest.findFirstOrThrow({ where: { id: r.id } });
      assertCanCancel(auth, emp, cur.status, { started: true, approvedBySelf: false });
      if (cur.status === "approved" && cur.comp_off_days) {
        const credit = await tx.leaveLedgerEntry.findFirstOrThrow({ where: { dedupe_key: `comp_off:${cur.id}` } });
        const account = { employee_id: cur.employee_id, leave_type_id: credit.leave_type_id, period_id: credit.period_id };
        const available = (await ledgerSum(tx, account)).minus(await pendingDays(tx, account));
        const n = days(cur.comp_off_days);
        if (available.lt(n)) throw conflict(`The compensatory leave has already been used or has lapsed (${dayString(available)} days available, ${dayString(n)} credited)`);
        await postEntries(tx, [
          { ...account, entry_type: "comp_off", days: n.negated(), effective_date: toDateString(credit.effective_date), expires_on: credit.expires_on ? toDateString(credit.expires_on) : null, reference_type: "working_on_holiday", reference_id: cur.id, dedupe_key: `comp_off_reversal:${cur.id}`, reason: "claim cancelled", created_by: auth.userId },
        ]);
      }
      const u = await tx.holidayWorkRequest.update({ where: { id: r.id }, data: cancelledData(auth), include: employeeName });
      await audit({ action: "working_on_holiday.cancelled", entity_type: "working_on_holiday", entity_id: r.id, changes: { status: { from: cur.status, to: "cancelled" } } }, tx);
      await notifyEmployee(tx, r.employee_id, { kind: "comp_off.cancelled", title: `Your claim for working on ${toDateString(cur.date)} was cancelled` });
      return u;
    });
    return ok(holidayWorkJson(row), "Claim cancelled");
  },

  // ── encashment
  async listLeaveEncashments({ query, auth }) {
    const page = pageOf(query);
    const where: Prisma.LeaveEncashmentWhereInput = { ...employeeFilter(await visibleEmployees(auth), query.employee_id), ...filters(query, "created") };
    const [rows, total] = await Promise.all([
      db.leaveEncashment.findMany({ where, include: encInclude, orderBy: [{ created_at: "desc" }], skip: page.skip, take: page.limit }),
      db.leaveEncashment.count({ where }),
    ]);
    return paginated(rows.map(encashmentJson), page, total);
  },

  async createLeaveEncashment({ body, auth }) {
    const employeeId = targetEmployee(auth, body.employee_id);
    const n = days(body.days);
    if (!n.gt(0)) throw invalidField("body.days", "must be more than 0");
    await loadEmployee(employeeId);
    const type = await db.leaveType.findFirst({ where: { id: body.leave_type_id } });
    if (!type) throw notFound("Leave type");
    if (!type.encashable || !type.active) throw conflict(`${type.name} cannot be encashed`);
    const period = body.period_id ? await db.leavePeriod.findFirst({ where: { id: body.period_id } }) : await currentPeriod(db);
    if (!period) throw body.period_id ? notFound("Leave period") : conflict("There is no current leave period");
    const now = await today();
    const row = await tenantTx(async (tx) => {
      await lockEmployees(tx, [employeeId]);
      const account = { employee_id: employeeId, leave_type_id: type.id, period_id: period.id };
      if (type.encashment_max_days) {
        const used = await tx.leaveEncashment.aggregate({ where: { ...account, status: { in: ACTIVE } }, _sum: { days: true } });
        const total = days(used._sum.days).plus(n);
        if (total.gt(days(type.encashment_max_days))) throw conflict(`At most ${dayString(type.encashment_max_days!)} days of ${type.name} can be encashed per period (${dayString(days(used._sum.days))} already requested or encashed)`);
      }
      const keep = days(type.encashment_min_balance);
      const [ledger, pending, lapsing] = await Promise.all([ledgerSum(tx, account), pendingDays(tx, account), lapsingBefore(tx, account, addDays(now, 1))]);
      const available = ledger.minus(pending).minus(lapsing);
      if (available.minus(n).lt(keep)) throw conflict(`${dayString(available)} days of ${type.name} are available and ${dayString(keep)} must remain: at most ${dayString(Decimal.max(0, available.minus(keep)))} can be encashed`);
      const r = await tx.leaveEncashment.create({ data: { ...account, days: n.toString(), reason: body.reason ?? null, requested_by: auth.userId } as any, include: encInclude });
      await audit({ action: "leave_encashment.created", entity_type: "leave_encashment", entity_id: r.id, changes: { employee_id: employeeId, leave_type: type.code, days: dayString(n) } }, tx);
      await notifyEmployee(tx, employeeId, { kind: "encashment.submitted", title: `Encashment of ${dayString(n)} days of ${type.name} requested` });
      return r;
    });
    return created(encashmentJson(row), "Encashment requested");
  },

  async getLeaveEncashment({ params, auth }) {
    return ok(encashmentJson(await visibleEncashment(auth, params.id)));
  },

  async updateLeaveEncashment({ params, body, auth }) {
    const r = await visibleEncashment(auth, params.id);
    assertCanDecide(auth, await loadEmployee(r.employee_id), { manager: false });
    const now = await today();
    const row = await tenantTx(async (tx) => {
      await lockEmployees(tx, [r.employee_id]);
      const cur = await tx.leaveEncashment.findFirstOrThrow({ where: { id: r.id } });
      if (cur.status !== "pending") throw conflict(`The encashment is already ${cur.status}`);
      const account = { employee_id: cur.employee_id, leave_type_id: cur.leave_type_id, period_id: cur.period_id };
      const n = days(cur.days);
      if (body.status === "approved") {
        const type = await tx.leaveType.findFirstOrThrow({ where: { id: cur.leave_type_id } });
        const keep = days(type.encashment_min_balance);
        const [ledger, pending, lapsing] = await Promise.all([ledgerSum(tx, account), pendingDays(tx, account, { encashmentId: cur.id }), lapsingBefore(tx, account, addDays(now, 1))]);
        const available = ledger.minus(pending).minus(lapsing);
        if (available.minus(n).lt(keep)) throw conflict(`Only ${dayString(available)} days are available and ${dayString(keep)} must remain: the encashment can no longer be approved`);
        await postEntries(tx, [{ ...account, entry_type: "encashed", days: n.negated(), effective_date: now, reference_type: "leave_encashment", reference_id: cur.id, dedupe_key: `encashed:${cur.id}`, created_by: auth.userId }]);
      }
      const u = await tx.leaveEncashment.update({ where: { id: r.id }, data: decidedData(auth, body), include: encInclude });
      await audit({ action: `leave_encashment.${body.status}`, entity_type: "leave_encashment", entity_id: r.id, changes: { status: { from: "pending", to: body.status }, comment: body.comment ?? null } }, tx);
      await notifyEmployee(tx, r.employee_id, {
        kind: `encashment.${body.status}`,
        title: `Your encashment of ${dayString(n)} days was ${body.status}`,
        body: body.status === "approved" ? "The amount will be priced and paid with payroll." : body.comment,
      });
      return u;
    });
    return ok(encashmentJson(row), `Encashment ${body.status}`);
  },

  async cancelLeaveEncashment({ params, auth }) {
    const r = await visibleEncashment(auth, params.id);
    const emp = await loadEmployee(r.employee_id);
    const now = await today();
    const row = await tenantTx(async (tx) => {
      await lockEmployees(tx, [r.employee_id]);
      const cur = await tx.leaveEncashment.findFirstOrThrow({ where: { id: r.id } });
      assertCanCancel(auth, emp, cur.status, { started: true, approvedBySelf: false });
      if (cur.status === "approved") {
        if (cur.amount !== null) throw conflict("Payroll has already priced this encashment; it cannot be cancelled");
        await postEntries(tx, [
          { employee_id: cur.employee_id, leave_type_id: cur.leave_type_id, period_id: cur.period_id, entry_type: "encashed", days: days(cur.days), effective_date: now, reference_type: "leave_encashment", reference_id: cur.id, dedupe_key: `encashment_reversal:${cur.id}`, reason: "encashment cancelled", created_by: auth.userId },
        ]);
      }
      const u = await tx.leaveEncashment.update({ where: { id: r.id }, data: cancelledData(auth), include: encInclude });
      await audit({ action: "leave_encashment.cancelled", entity_type: "leave_encashment", entity_id: r.id, changes: { status: { from: cur.status, to: "cancelled" } } }, tx);
      await notifyEmployee(tx, r.employee_id, { kind: "encashment.cancelled", title: `Your encashment of ${dayString(cur.days)} days was cancelled` });
      return u;
    });
    return ok(encashmentJson(row), "Encashment cancelled");
  },
} satisfies Partial<AreaHandlers<"leave">>;

