// Leave encashment through the shared approval flow: a request reserves the days, approval takes them
// from the ledger for payroll to price and pay; cancellable until payroll has priced it.
import type { components } from "../../../generated/api-types.ts";
import type { Prisma } from "../../../generated/prisma/client.ts";
import { db, byId } from "../../db/tenancy.ts";
import { pageOf } from "../../platform/use-case.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, QueryParams, RequestBody } from "../../platform/use-case.ts";
import { cancel, decide, submit } from "../shared/approvals.ts";
import { assertVisible, employeeFilter, loadEmployee, lockEmployees, targetEmployee, visibleEmployees } from "../shared/people.ts";
import { loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";
import { Decimal, days, dayString } from "./days.ts";
import { employeeName, encashmentJson, type Listing } from "./json.ts";
import { availability } from "./ledger-balance.ts";
import { postEntries } from "./ledger.ts";
import { currentPeriod } from "./periods.ts";
import { ACTIVE, listFilters } from "./request-filters.ts";

type EncashmentJson = components["schemas"]["LeaveEncashment"];

const include = { ...employeeName, leave_type: { select: { name: true } } } as const;
const today = async () => tenantToday(await loadAttendanceSettings());

async function visibleEncashment(auth: AuthContext, id: string) {
  const r = await db.leaveEncashment.findFirst({ where: { id }, include });
  if (!r) throw notFound("Encashment");
  await assertVisible(auth, r.employee_id, "Encashment");
  return r;
}

export async function encashmentPage(auth: AuthContext, query: QueryParams<"listLeaveEncashments">): Promise<Listing<EncashmentJson>> {
  const page = pageOf(query);
  const where: Prisma.LeaveEncashmentWhereInput = {
    ...employeeFilter(await visibleEmployees(auth), query.employee_id),
    ...listFilters(query, { createdIn: (await loadAttendanceSettings()).timezone }),
  };
  const [rows, total] = await Promise.all([
    db.leaveEncashment.findMany({ where, include, orderBy: [{ created_at: "desc" }], skip: page.skip, take: page.limit }),
    db.leaveEncashment.count({ where }),
  ]);
  return { rows: rows.map(encashmentJson), page, total };
}

/** A request to encash days: within the type's per-period maximum, leaving its minimum balance (the balances page's availability). */
export async function requestEncashment(auth: AuthContext, body: RequestBody<"createLeaveEncashment">): Promise<EncashmentJson> {
  const employeeId = targetEmployee(auth, body.employee_id);
  const n = days(body.days);
  if (!n.gt(0)) throw invalidField("body.days", "must be more than 0");
  const emp = await loadEmployee(employeeId);
  const type = await db.leaveType.findFirst({ where: { id: body.leave_type_id } });
  if (!type) throw notFound("Leave type");
  if (!type.encashable || !type.active) throw conflict(`${type.name} cannot be encashed`);
  const period = body.period_id ? await db.leavePeriod.findFirst({ where: { id: body.period_id } }) : await currentPeriod(db);
  if (!period) throw body.period_id ? notFound("Leave period") : conflict("There is no current leave period");
  const now = await today();
  const account = { employee_id: employeeId, leave_type_id: type.id, period_id: period.id };
  const row = await submit({
    entity: "leave_encashment",
    employee: emp,
    async create(tx) {
      await lockEmployees(tx, [employeeId]);
      if (type.encashment_max_days) {
        const used = await tx.leaveEncashment.aggregate({ where: { ...account, status: { in: ACTIVE } }, _sum: { days: true } });
        const total = days(used._sum.days).plus(n);
        if (total.gt(days(type.encashment_max_days)))
          throw conflict(
            `At most ${dayString(type.encashment_max_days)} days of ${type.name} can be encashed ` +
              `per period (${dayString(days(used._sum.days))} already requested or encashed)`,
          );
      }
      const keep = days(type.encashment_min_balance);
      const { available } = await availability(tx, account, now, now);
      if (available.minus(n).lt(keep))
        throw conflict(
          `${dayString(available)} days of ${type.name} are available and ${dayString(keep)} must remain: ` +
            `at most ${dayString(Decimal.max(0, available.minus(keep)))} can be encashed`,
        );
      return tx.leaveEncashment.create({
        data: { ...account, days: n.toString(), reason: body.reason ?? null, requested_by: auth.userId },
        include,
      });
    },
    changes: () => ({ employee_id: employeeId, leave_type: type.code, days: dayString(n) }),
    employeeNotice: () => ({ kind: "encashment.submitted", title: `Encashment of ${dayString(n)} days of ${type.name} requested` }),
    // hr decides encashments: no manager is asked
  });
  return encashmentJson(row);
}

export async function encashmentById(auth: AuthContext, id: string): Promise<EncashmentJson> {
  return encashmentJson(await visibleEncashment(auth, id));
}

/** Approve (hr only; the balance is checked again and the days leave the ledger) or reject. */
export async function decideEncashment(
  auth: AuthContext,
  id: string,
  decision: RequestBody<"updateLeaveEncashment">,
): Promise<EncashmentJson> {
  const r = await visibleEncashment(auth, id);
  const employee = await loadEmployee(r.employee_id);
  const now = await today();
  const row = await decide(
    auth,
    {
      entity: "leave_encashment",
      employee,
      managerMayDecide: false,
      notPending: (status) => `The encashment is already ${status}`,
      async lock(tx) {
        await lockEmployees(tx, [r.employee_id]);
        return tx.leaveEncashment.findFirstOrThrow({ where: { id: r.id } });
      },
      async apply(tx, cur, status) {
        if (status !== "approved") return;
        const account = { employee_id: cur.employee_id, leave_type_id: cur.leave_type_id, period_id: cur.period_id };
        const n = days(cur.days);
        const type = await tx.leaveType.findFirstOrThrow({ where: { id: cur.leave_type_id } });
        const keep = days(type.encashment_min_balance);
        const { available } = await availability(tx, account, now, now, { encashmentId: cur.id });
        if (available.minus(n).lt(keep))
          throw conflict(
            `Only ${dayString(available)} days are available and ${dayString(keep)} must remain: the encashment can no longer be approved`,
          );
        await postEntries(tx, [
          {
            ...account,
            entry_type: "encashed",
            days: n.negated(),
            effective_date: now,
            reference_type: "leave_encashment",
            reference_id: cur.id,
            dedupe_key: `encashed:${cur.id}`,
            created_by: auth.userId,
          },
        ]);
      },
      save: (tx, _cur, columns) => tx.leaveEncashment.update({ where: byId(r.id), data: columns, include }),
      notice: (cur, status, comment) => ({
        kind: `encashment.${status}`,
        title: `Your encashment of ${dayString(cur.days)} days was ${status}`,
        body: status === "approved" ? "The amount will be priced and paid with payroll." : (comment ?? undefined),
      }),
    },
    decision,
  );
  return encashmentJson(row);
}

/** Cancel (hr for an approved one, until payroll has priced it): the days come back to the balance. */
export async function withdrawEncashment(auth: AuthContext, id: string): Promise<EncashmentJson> {
  const r = await visibleEncashment(auth, id);
  const emp = await loadEmployee(r.employee_id);
  const now = await today();
  const row = await cancel(auth, {
    entity: "leave_encashment",
    async lock(tx) {
      await lockEmployees(tx, [r.employee_id]);
      return tx.leaveEncashment.findFirstOrThrow({ where: { id: r.id } });
    },
    allow: { employee: emp, started: () => true, approvedBySelf: false },
    async apply(tx, cur) {
      if (cur.status !== "approved") return;
      if (cur.amount !== null) throw conflict("Payroll has already priced this encashment; it cannot be cancelled");
      await postEntries(tx, [
        {
          employee_id: cur.employee_id,
          leave_type_id: cur.leave_type_id,
          period_id: cur.period_id,
          entry_type: "encashed",
          days: days(cur.days),
          effective_date: now,
          reference_type: "leave_encashment",
          reference_id: cur.id,
          dedupe_key: `encashment_reversal:${cur.id}`,
          reason: "encashment cancelled",
          created_by: auth.userId,
        },
      ]);
    },
    save: (tx, _cur, columns) => tx.leaveEncashment.update({ where: byId(r.id), data: columns, include }),
    notice: (cur) => ({ kind: "encashment.cancelled", title: `Your encashment of ${dayString(cur.days)} days was cancelled` }),
  });
  return encashmentJson(row);
}
