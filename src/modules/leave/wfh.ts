// Work from home: a request for a range of days (at most MAX_WFH_DAYS, at least one working day,
// no overlap with other work from home or leave), decided by the manager or hr and cancellable
// like leave - through the shared approval flow. Attendance reads approved ranges.
import type { components } from "../../../generated/api-types.ts";
import type { Prisma } from "../../../generated/prisma/client.ts";
import { db, byId } from "../../db/tenancy.ts";
import { pageOf } from "../../platform/use-case.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, QueryParams, RequestBody } from "../../platform/use-case.ts";
import { type DateString, daysBetween, parseDate, toDateString } from "../../lib/dates.ts";
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
import { fromHalves } from "./days.ts";
import { employeeName, type Listing, wfhJson } from "./json.ts";
import { employeeCalendar } from "./off-days.ts";
import { ACTIVE, describeRange, listFilters } from "./request-filters.ts";
import { countLeaveDays } from "./workdays.ts";

type WfhJson = components["schemas"]["WfhRequest"];

const MAX_WFH_DAYS = 31;
const overlapWhere = (employeeId: string, from: DateString, to: DateString) => ({
  employee_id: employeeId,
  status: { in: ACTIVE },
  from_date: { lte: parseDate(to) },
  to_date: { gte: parseDate(from) },
});

async function visibleWfh(auth: AuthContext, id: string) {
  const r = await db.wfhRequest.findFirst({ where: { id }, include: employeeName });
  if (!r) throw notFound("Work-from-home request");
  await assertVisible(auth, r.employee_id, "Work-from-home request");
  return r;
}

const rangeOf = (r: { from_date: Date; to_date: Date }) => describeRange(toDateString(r.from_date), toDateString(r.to_date));

export async function wfhRequestPage(auth: AuthContext, query: QueryParams<"listWfhRequests">): Promise<Listing<WfhJson>> {
  const page = pageOf(query);
  const where: Prisma.WfhRequestWhereInput = {
    ...employeeFilter(await visibleEmployees(auth), query.employee_id),
    ...listFilters(query, "range"),
  };
  const [rows, total] = await Promise.all([
    db.wfhRequest.findMany({
      where,
      include: employeeName,
      orderBy: [{ from_date: "desc" }, { created_at: "desc" }],
      skip: page.skip,
      take: page.limit,
    }),
    db.wfhRequest.count({ where }),
  ]);
  return { rows: rows.map(wfhJson), page, total };
}

export async function submitWfhRequest(auth: AuthContext, body: RequestBody<"createWfhRequest">): Promise<WfhJson> {
  const employeeId = targetEmployee(auth, body.employee_id);
  if (body.to_date < body.from_date) throw invalidField("body.to_date", "must not be before from_date");
  if (daysBetween(body.from_date, body.to_date) + 1 > MAX_WFH_DAYS)
    throw invalidField("body.to_date", `makes the request longer than ${MAX_WFH_DAYS} days`);
  const emp = await loadEmployee(employeeId);
  const range = describeRange(body.from_date, body.to_date);
  const row = await submit({
    entity: "wfh_request",
    employee: emp,
    async create(tx) {
      await lockEmployees(tx, [employeeId]);
      const clash = await tx.wfhRequest.findFirst({ where: overlapWhere(employeeId, body.from_date, body.to_date) });
      if (clash) throw conflict(`The dates overlap the ${clash.status} work-from-home request from ${rangeOf(clash)}`);
      const leave = await tx.leaveRequest.findFirst({ where: overlapWhere(employeeId, body.from_date, body.to_date) });
      if (leave) throw conflict(`The dates overlap a ${leave.status} leave request from ${rangeOf(leave)}`);
      const cal = await employeeCalendar(tx, emp, body.from_date, body.to_date);
      const n = countLeaveDays({ from: body.from_date, to: body.to_date, isOff: cal.isOff, sandwich: false }).halves;
      if (!n) throw conflict("The dates contain no working day (only weekly offs and holidays)");
      return tx.wfhRequest.create({
        data: {
          employee_id: employeeId,
          from_date: parseDate(body.from_date),
          to_date: parseDate(body.to_date),
          days: fromHalves(n).toString(),
          reason: body.reason ?? null,
          requested_by: auth.userId,
        },
        include: employeeName,
      });
    },
    changes: () => ({ employee_id: employeeId, from_date: body.from_date, to_date: body.to_date }),
    employeeNotice: () => ({ kind: "wfh.submitted", title: `Work-from-home request submitted (${range})` }),
    managerNotice: () => ({ kind: "wfh.approval_needed", title: `${fullName(emp)} asks to work from home (${range})`, body: body.reason }),
  });
  return wfhJson(row);
}

export async function wfhRequestById(auth: AuthContext, id: string): Promise<WfhJson> {
  return wfhJson(await visibleWfh(auth, id));
}

export async function decideWfhRequest(auth: AuthContext, id: string, decision: RequestBody<"updateWfhRequest">): Promise<WfhJson> {
  const r = await visibleWfh(auth, id);
  const row = await decide(
    auth,
    {
      entity: "wfh_request",
      employee: await loadEmployee(r.employee_id),
      async lock(tx) {
        await lockEmployees(tx, [r.employee_id]);
        return tx.wfhRequest.findFirstOrThrow({ where: { id: r.id } });
      },
      save: (tx, _cur, columns) => tx.wfhRequest.update({ where: byId(r.id), data: columns, include: employeeName }),
      notice: (cur, status, comment) => ({
        kind: `wfh.${status}`,
        title: `Your work-from-home request (${rangeOf(cur)}) was ${status}`,
        body: comment ?? undefined,
      }),
    },
    decision,
  );
  return wfhJson(row);
}

/** Cancel: pending by the employee, manager or hr; approved by the employee or manager only before it starts. */
export async function withdrawWfhRequest(auth: AuthContext, id: string): Promise<WfhJson> {
  const r = await visibleWfh(auth, id);
  const emp = await loadEmployee(r.employee_id);
  const now = tenantToday(await loadAttendanceSettings());
  const row = await cancel(auth, {
    entity: "wfh_request",
    async lock(tx) {
      await lockEmployees(tx, [r.employee_id]);
      return tx.wfhRequest.findFirstOrThrow({ where: { id: r.id } });
    },
    allow: { employee: emp, started: (cur) => toDateString(cur.from_date) <= now, approvedBySelf: true },
    save: (tx, _cur, columns) => tx.wfhRequest.update({ where: byId(r.id), data: columns, include: employeeName }),
    notice: (cur) => ({ kind: "wfh.cancelled", title: `Your work-from-home request (${rangeOf(cur)}) was cancelled` }),
  });
  return wfhJson(row);
}
