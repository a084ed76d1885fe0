// Working on a holiday: approval credits compensatory days (valid comp_off_validity_days) to the ledger;
// cancelling takes back unused ones. Through the shared approval flow.
import type { components } from "../../../generated/api-types.ts";
import type { Prisma } from "../../../generated/prisma/client.ts";
import { db, byId } from "../../db/tenancy.ts";
import { pageOf } from "../../platform/use-case.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, QueryParams, RequestBody } from "../../platform/use-case.ts";
import { addDays, type DateString, parseDate, toDateString } from "../../lib/dates.ts";
import { cancel, decide, submit } from "../shared/approvals.ts";
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
import { Decimal, days, dayString } from "./days.ts";
import { employeeName, holidayWorkJson, type Listing } from "./json.ts";
import { availability } from "./ledger-balance.ts";
import { postEntries } from "./ledger.ts";
import { employeeCalendar } from "./off-days.ts";
import { periodFor } from "./periods.ts";
import { ACTIVE, listFilters } from "./request-filters.ts";

type HolidayWorkJson = components["schemas"]["WorkingOnHolidayRequest"];

async function visibleHolidayWork(auth: AuthContext, id: string) {
  const r = await db.holidayWorkRequest.findFirst({ where: { id }, include: employeeName });
  if (!r) throw notFound("Working-on-holiday request");
  await assertVisible(auth, r.employee_id, "Working-on-holiday request");
  return r;
}

/** The compensatory leave type named, else the only active one. */
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

export async function holidayWorkPage(
  auth: AuthContext,
  query: QueryParams<"listWorkingOnHolidayRequests">,
): Promise<Listing<HolidayWorkJson>> {
  const page = pageOf(query);
  const where: Prisma.HolidayWorkRequestWhereInput = {
    ...employeeFilter(await visibleEmployees(auth), query.employee_id),
    ...listFilters(query, "date"),
  };
  const [rows, total] = await Promise.all([
    db.holidayWorkRequest.findMany({
      where,
      include: employeeName,
      orderBy: [{ date: "desc" }, { created_at: "desc" }],
      skip: page.skip,
      take: page.limit,
    }),
    db.holidayWorkRequest.count({ where }),
  ]);
  return { rows: rows.map(holidayWorkJson), page, total };
}

/** A claim for a past day that is a weekly off or holiday of the employee (one active claim per day). */
export async function submitHolidayWorkClaim(
  auth: AuthContext,
  body: RequestBody<"createWorkingOnHolidayRequest">,
): Promise<HolidayWorkJson> {
  const employeeId = targetEmployee(auth, body.employee_id);
  if (body.date > tenantToday(await loadAttendanceSettings()))
    throw invalidField("body.date", "must not be in the future: compensatory leave is claimed for a day already worked");
  const emp = await loadEmployee(employeeId);
  const type = await compOffType(body.leave_type_id);
  await periodFor(db, body.date, body.date);
  let what = "a weekly off";
  const row = await submit({
    entity: "working_on_holiday",
    employee: emp,
    async create(tx) {
      await lockEmployees(tx, [employeeId]);
      const cal = await employeeCalendar(tx, emp, body.date, body.date);
      if (!cal.isOff(body.date)) throw conflict(`${body.date} is a working day for this employee, not a weekly off or holiday`);
      const dup = await tx.holidayWorkRequest.findFirst({
        where: { employee_id: employeeId, date: parseDate(body.date), status: { in: ACTIVE } },
      });
      if (dup) throw conflict(`A ${dup.status} claim for ${body.date} exists already`);
      what = cal.holidayName(body.date) ?? "a weekly off";
      return tx.holidayWorkRequest.create({
        data: {
          employee_id: employeeId,
          date: parseDate(body.date),
          half_day: Boolean(body.half_day),
          reason: body.reason,
          leave_type_id: type.id,
          requested_by: auth.userId,
        },
        include: employeeName,
      });
    },
    changes: () => ({ employee_id: employeeId, date: body.date, half_day: Boolean(body.half_day) }),
    employeeNotice: () => ({ kind: "comp_off.submitted", title: `Claim for working on ${body.date} (${what}) submitted` }),
    managerNotice: () => ({
      kind: "comp_off.approval_needed",
      title: `${fullName(emp)} worked on ${body.date} (${what}) and claims compensatory leave`,
      body: body.reason,
    }),
  });
  return holidayWorkJson(row);
}

export async function holidayWorkById(auth: AuthContext, id: string): Promise<HolidayWorkJson> {
  return holidayWorkJson(await visibleHolidayWork(auth, id));
}

/** Approve (credits 1 or 0.5 compensatory days, expiring after the type's validity) or reject. */
export async function decideHolidayWorkClaim(
  auth: AuthContext,
  id: string,
  decision: RequestBody<"updateWorkingOnHolidayRequest">,
): Promise<HolidayWorkJson> {
  const r = await visibleHolidayWork(auth, id);
  const date = toDateString(r.date);
  let credit: { days: Decimal; expires: DateString | null } | null = null;
  const row = await decide(
    auth,
    {
      entity: "working_on_holiday",
      employee: await loadEmployee(r.employee_id),
      async lock(tx) {
        await lockEmployees(tx, [r.employee_id]);
        return tx.holidayWorkRequest.findFirstOrThrow({ where: { id: r.id } });
      },
      async apply(tx, cur, status) {
        if (status !== "approved") return;
        const type = await tx.leaveType.findFirstOrThrow({ where: { id: cur.leave_type_id! } });
        const period = await periodFor(tx, date, date);
        const n = new Decimal(cur.half_day ? "0.5" : "1");
        const expires = type.comp_off_validity_days ? addDays(date, type.comp_off_validity_days - 1) : null;
        await postEntries(tx, [
          {
            employee_id: cur.employee_id,
            leave_type_id: type.id,
            period_id: period.id,
            entry_type: "comp_off",
            days: n,
            effective_date: date,
            expires_on: expires,
            reference_type: "working_on_holiday",
            reference_id: cur.id,
            dedupe_key: `comp_off:${cur.id}`,
            reason: `worked on ${date}`,
            created_by: auth.userId,
          },
        ]);
        credit = { days: n, expires };
      },
      extra: () =>
        credit ? { comp_off_days: credit.days.toString(), comp_off_expires_on: credit.expires ? parseDate(credit.expires) : null } : {},
      save: (tx, _cur, columns) => tx.holidayWorkRequest.update({ where: byId(r.id), data: columns, include: employeeName }),
      notice: (_cur, status, comment) => ({
        kind: `comp_off.${status}`,
        title: `Your claim for working on ${date} was ${status}`,
        body:
          status === "approved" && credit
            ? `${dayString(credit.days)} day(s) of compensatory leave credited${credit.expires ? `, usable until ${credit.expires}` : ""}.`
            : (comment ?? undefined),
      }),
    },
    decision,
  );
  return holidayWorkJson(row);
}

/** Cancel (hr for an approved claim): the credited days are taken back unless used or lapsed. */
export async function withdrawHolidayWorkClaim(auth: AuthContext, id: string): Promise<HolidayWorkJson> {
  const r = await visibleHolidayWork(auth, id);
  const emp = await loadEmployee(r.employee_id);
  const row = await cancel(auth, {
    entity: "working_on_holiday",
    async lock(tx) {
      await lockEmployees(tx, [r.employee_id]);
      return tx.holidayWorkRequest.findFirstOrThrow({ where: { id: r.id } });
    },
    allow: { employee: emp, started: () => true, approvedBySelf: false },
    async apply(tx, cur) {
      if (cur.status !== "approved" || !cur.comp_off_days) return;
      const credit = await tx.leaveLedgerEntry.findFirstOrThrow({ where: { dedupe_key: `comp_off:${cur.id}` } });
      const account = { employee_id: cur.employee_id, leave_type_id: credit.leave_type_id, period_id: credit.period_id };
      const today = tenantToday(await loadAttendanceSettings(tx));
      const { available } = await availability(tx, account, today, today);
      const n = days(cur.comp_off_days);
      if (available.lt(n))
        throw conflict(
          `The compensatory leave has already been used or has lapsed (${dayString(available)} days available, ${dayString(n)} credited)`,
        );
      await postEntries(tx, [
        {
          ...account,
          entry_type: "comp_off",
          days: n.negated(),
          effective_date: toDateString(credit.effective_date),
          expires_on: credit.expires_on ? toDateString(credit.expires_on) : null,
          reference_type: "working_on_holiday",
          reference_id: cur.id,
          dedupe_key: `comp_off_reversal:${cur.id}`,
          reason: "claim cancelled",
          created_by: auth.userId,
        },
      ]);
    },
    save: (tx, _cur, columns) => tx.holidayWorkRequest.update({ where: byId(r.id), data: columns, include: employeeName }),
    notice: (cur) => ({ kind: "comp_off.cancelled", title: `Your claim for working on ${toDateString(cur.date)} was cancelled` }),
  });
  return holidayWorkJson(row);
}
