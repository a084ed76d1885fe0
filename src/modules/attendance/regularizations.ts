// Attendance corrections: a request to set a past day's punches, through the shared approval flow
// (src/modules/shared/approvals.ts); an approval rewrites the day's record.
import type { Prisma } from "../../../generated/prisma/client.ts";
import { audit } from "../../platform/audit.ts";
import { db, tenantTx, byId } from "../../db/tenancy.ts";
import type { Page } from "../../platform/use-case.ts";
import { badRequest, conflict, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, QueryParams, RequestBody } from "../../platform/use-case.ts";
import { parseDate, toDateString } from "../../lib/dates.ts";
import { employeeName } from "../leave/index.ts";
import { cancel, decide, submit } from "../shared/approvals.ts";
import {
  assertCanCancel,
  assertVisible,
  employeeFilter,
  fullName,
  loadEmployee,
  lockEmployees,
  targetEmployee,
  visibleEmployees,
} from "../shared/people.ts";
import { type EffectiveAttendanceSettings, loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";
import { iso, regularizationJson, type S } from "./json.ts";
import { checkPunches, writePunches } from "./punches.ts";

type Regularization = S["AttendanceRegularization"];

async function visibleRegularization(auth: AuthContext, id: string) {
  const r = await db.attendanceRegularization.findFirst({ where: { id }, include: employeeName });
  if (!r) throw notFound("Regularization request");
  await assertVisible(auth, r.employee_id, "Regularization request");
  return r;
}

/** A page of the requests the caller may see (their own, their reports', or everyone's for hr), newest day first. */
export async function regularizationPage(
  auth: AuthContext,
  q: QueryParams<"listAttendanceRegularizations">,
  page: Page,
): Promise<{ rows: Regularization[]; total: number }> {
  const where: Prisma.AttendanceRegularizationWhereInput = {
    ...employeeFilter(await visibleEmployees(auth), q.employee_id),
    ...(q.status ? { status: q.status } : {}),
    ...(q.from_date || q.to_date
      ? { date: { ...(q.from_date ? { gte: parseDate(q.from_date) } : {}), ...(q.to_date ? { lte: parseDate(q.to_date) } : {}) } }
      : {}),
  };
  const [rows, total] = await Promise.all([
    db.attendanceRegularization.findMany({
      where,
      include: employeeName,
      orderBy: [{ date: "desc" }, { created_at: "desc" }],
      skip: page.skip,
      take: page.limit,
    }),
    db.attendanceRegularization.count({ where }),
  ]);
  return { rows: rows.map(regularizationJson), total };
}

/** One request the caller may see. */
export async function regularizationById(auth: AuthContext, id: string): Promise<Regularization> {
  return regularizationJson(await visibleRegularization(auth, id));
}

/** Files a correction of a past (or today's) day: punches that fit the day, one pending request per day. */
export async function submitRegularization(
  auth: AuthContext,
  input: RequestBody<"createAttendanceRegularization">,
): Promise<Regularization> {
  const employeeId = targetEmployee(auth, input.employee_id);
  const settings = await loadAttendanceSettings();
  if (input.date > tenantToday(settings)) throw invalidField("body.date", "must not be in the future");
  checkPunches(input.date, new Date(input.check_in), input.check_out ? new Date(input.check_out) : null, settings.timezone);
  const emp = await loadEmployee(employeeId);
  const row = await submit({
    entity: "attendance_regularization",
    employee: emp,
    async create(tx) {
      await lockEmployees(tx, [employeeId]);
      const dup = await tx.attendanceRegularization.findFirst({
        where: { employee_id: employeeId, date: parseDate(input.date), status: "pending" },
      });
      if (dup) throw conflict(`A pending regularization for ${input.date} exists already; edit it instead`);
      return tx.attendanceRegularization.create({
        data: {
          employee_id: employeeId,
          date: parseDate(input.date),
          check_in: new Date(input.check_in),
          check_out: input.check_out ? new Date(input.check_out) : null,
          reason: input.reason,
          requested_by: auth.userId,
        },
        include: employeeName,
      });
    },
    changes: () => ({ employee_id: employeeId, date: input.date, check_in: input.check_in, check_out: input.check_out ?? null }),
    employeeNotice: () => ({ kind: "regularization.submitted", title: `Attendance correction for ${input.date} submitted` }),
    managerNotice: () => ({
      kind: "regularization.approval_needed",
      title: `${fullName(emp)} asks to correct attendance of ${input.date}`,
      body: input.reason,
    }),
  });
  return regularizationJson(row);
}

export type RegularizationChange = RequestBody<"updateAttendanceRegularization">;

/** An edit of a pending request by its filer, or a decision - not both; the request and what happened to it. */
export async function reviseRegularization(
  auth: AuthContext,
  id: string,
  change: RegularizationChange,
): Promise<{ regularization: Regularization; outcome: "updated" | "approved" | "rejected" }> {
  const r = await visibleRegularization(auth, id);
  const editing = change.check_in !== undefined || change.check_out !== undefined || change.reason !== undefined;
  if (editing && (change.status !== undefined || change.comment !== undefined))
    throw badRequest("Either decide (status, comment) or edit (check_in, check_out, reason), not both", [
      { path: "body", message: "mixes a decision and an edit" },
    ]);
  if (!editing && change.status === undefined) throw invalidField("body.status", "is required with comment");
  const settings = await loadAttendanceSettings();
  if (editing) return { regularization: await editRegularization(auth, r, change, settings), outcome: "updated" };
  const status = change.status!;
  return { regularization: await decideRegularization(auth, r, status, change.comment, settings), outcome: status };
}

type Row = Awaited<ReturnType<typeof visibleRegularization>>;

async function editRegularization(
  auth: AuthContext,
  r: Row,
  change: RegularizationChange,
  settings: EffectiveAttendanceSettings,
): Promise<Regularization> {
  const date = toDateString(r.date);
  if (r.requested_by !== auth.userId) throw conflict("Only the person who filed the request can edit it");
  const checkIn = change.check_in ? new Date(change.check_in) : r.check_in;
  const checkOut = change.check_out !== undefined ? (change.check_out ? new Date(change.check_out) : null) : r.check_out;
  checkPunches(date, checkIn, checkOut, settings.timezone);
  const row = await tenantTx(async (tx) => {
    await lockEmployees(tx, [r.employee_id]);
    const cur = await tx.attendanceRegularization.findFirstOrThrow({ where: { id: r.id } });
    if (cur.status !== "pending") throw conflict(`The request is already ${cur.status}`);
    const u = await tx.attendanceRegularization.update({
      where: byId(r.id),
      data: { check_in: checkIn, check_out: checkOut, ...(change.reason ? { reason: change.reason } : {}) },
      include: employeeName,
    });
    await audit(
      {
        action: "attendance_regularization.updated",
        entity_type: "attendance_regularization",
        entity_id: r.id,
        changes: { check_in: { from: iso(cur.check_in), to: iso(checkIn) }, check_out: { from: iso(cur.check_out), to: iso(checkOut) } },
      },
      tx,
    );
    return u;
  });
  return regularizationJson(row);
}

/** Approve or reject (manager or hr, never the employee): an approval rewrites the day's record, audited with what it was. */
async function decideRegularization(
  auth: AuthContext,
  r: Row,
  status: "approved" | "rejected",
  comment: string | null | undefined,
  settings: EffectiveAttendanceSettings,
): Promise<Regularization> {
  const date = toDateString(r.date);
  let previous: { check_in: string | null; check_out: string | null; status: string } | undefined;
  const row = await decide(
    auth,
    {
      entity: "attendance_regularization",
      events: { approved: "attendance_regularization.approved", rejected: "attendance_regularization.rejected" },
      employee: await loadEmployee(r.employee_id),
      async lock(tx) {
        await lockEmployees(tx, [r.employee_id]);
        return tx.attendanceRegularization.findFirstOrThrow({ where: { id: r.id } });
      },
      async apply(tx, cur, decision) {
        if (decision !== "approved") return;
        const before = await tx.attendanceRecord.findFirst({ where: { employee_id: cur.employee_id, date: cur.date } });
        previous = before ? { check_in: iso(before.check_in), check_out: iso(before.check_out), status: before.status } : undefined;
        const after = await writePunches(tx, cur.employee_id, date, cur.check_in, cur.check_out, settings, "regularization");
        await audit(
          {
            action: "attendance.regularized",
            entity_type: "attendance_record",
            entity_id: after.id,
            changes: {
              date,
              check_in: { from: previous?.check_in ?? null, to: iso(after.check_in) },
              check_out: { from: previous?.check_out ?? null, to: iso(after.check_out) },
              status: { from: before?.status ?? null, to: after.status },
              regularization_id: cur.id,
            },
          },
          tx,
        );
      },
      extra: () => (previous ? { previous } : {}),
      save: (tx, _cur, columns) => tx.attendanceRegularization.update({ where: byId(r.id), data: columns, include: employeeName }),
      notice: (_cur, decision, comment) => ({
        kind: `regularization.${decision}`,
        title: `Your attendance correction for ${date} was ${decision}`,
        body: comment ?? undefined,
      }),
    },
    { status, comment },
  );
  return regularizationJson(row);
}

/** Withdraws a pending request (the employee, their manager or hr); an approved one has changed the record and stays. */
export async function withdrawRegularization(auth: AuthContext, id: string): Promise<Regularization> {
  const r = await visibleRegularization(auth, id);
  const emp = await loadEmployee(r.employee_id);
  const row = await cancel(auth, {
    entity: "attendance_regularization",
    async lock(tx) {
      await lockEmployees(tx, [r.employee_id]);
      return tx.attendanceRegularization.findFirstOrThrow({ where: { id: r.id } });
    },
    allow: (cur) => {
      if (cur.status !== "pending") throw conflict(`A ${cur.status} request cannot be cancelled`);
      assertCanCancel(auth, emp, cur.status, { started: false, approvedBySelf: false });
    },
    save: (tx, _cur, columns) => tx.attendanceRegularization.update({ where: byId(r.id), data: columns, include: employeeName }),
    notice: (cur) => ({
      kind: "regularization.cancelled",
      title: `Your attendance correction for ${toDateString(cur.date)} was cancelled`,
    }),
  });
  return regularizationJson(row);
}
