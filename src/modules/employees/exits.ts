// Resignation and exit: a resignation moves the employee to `on_notice` and opens the exit record
// with its checklist; the scheduled job `employees.complete-exits` marks them `exited` once their
// last working day has passed in the company's time zone.
import { audit } from "../../platform/audit.ts";
import { tenantPage } from "../../db/central.ts";
import { lockRow } from "../../db/sql.ts";
import { db, tenantTx, withTenant } from "../../db/tenancy.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../http/types.ts";
import { parseDate, toDateString, todayIn } from "../../lib/dates.ts";
import { logger } from "../../log.ts";
import { notify } from "../../platform/notify.ts";
import { loadSelfOrPrivileged } from "./access.ts";
import { CHECKLIST_ITEMS, CHECKLIST_TITLES, exitJson } from "./views.ts";

export type ResignationInput = RequestBody<"submitResignation">;

/** The employee's resignation (their own, or anyone's for hr): opens the exit process. */
export async function resign(auth: AuthContext, employeeId: string, input: ResignationInput) {
  await loadSelfOrPrivileged(auth, employeeId);
  if (input.last_working_day < input.resignation_date)
    throw invalidField("body.last_working_day", "must not be before the resignation date");
  const reason = input.reason.trim();
  const submittedBy = auth.userId;
  const exit = await tenantTx(async (tx) => {
    if (!(await lockRow(tx, "employees", employeeId, { live: true }))) throw notFound("Employee");
    const e = await tx.employee.findFirstOrThrow({ where: { id: employeeId } });
    if (input.resignation_date < toDateString(e.joining_date))
      throw invalidField("body.resignation_date", "must not be before the joining date");
    const existing = await tx.employeeExit.findFirst({ where: { employee_id: employeeId }, select: { id: true } });
    if (existing || e.status === "on_notice" || e.status === "exited")
      throw conflict(
        e.status === "exited" ? "The employee has already exited" : "A resignation has already been submitted for this employee",
      );
    const exit = await tx.employeeExit.create({
      data: {
        employee_id: employeeId,
        resignation_date: parseDate(input.resignation_date),
        last_working_day: parseDate(input.last_working_day),
        reason,
        submitted_by: submittedBy,
      },
    });
    await tx.exitChecklistItem.createMany({
      data: CHECKLIST_ITEMS.map((item, position) => ({ exit_id: exit.id, item, title: CHECKLIST_TITLES[item], position })),
    });
    await tx.employee.update({ where: { id: employeeId }, data: { status: "on_notice" } });
    await audit(
      {
        action: "employee.resigned",
        entity_type: "employee",
        entity_id: employeeId,
        changes: {
          status: { from: e.status, to: "on_notice" },
          resignation_date: { from: null, to: input.resignation_date },
          last_working_day: { from: null, to: input.last_working_day },
          reason: { from: null, to: reason },
        },
      },
      tx,
    );
    // Tell the manager (in-app), when their record is linked to a member account.
    if (e.reports_to) {
      const manager = await tx.membership.findFirst({ where: { employee_id: e.reports_to }, select: { user_id: true } });
      if (manager)
        await notify(tx, {
          userId: manager.user_id,
          kind: "employee.resigned",
          title: `${e.first_name} ${e.last_name} has resigned`,
          body: `Last working day: ${input.last_working_day}.`,
          link: `/api/employees/${employeeId}`,
        });
    }
    return tx.employeeExit.findFirstOrThrow({ where: { id: exit.id }, include: { checklist: true } });
  });
  return exitJson(exit);
}

export const COMPLETE_EXITS_JOB = "employees.complete-exits";

/** Completes the due exits of the active tenant: `today` is the tenant's date. Returns how many. */
export async function completeDueExitsOfTenant(today: string): Promise<number> {
  const due = await db.employeeExit.findMany({
    where: { status: "in_progress", last_working_day: { lt: parseDate(today) } },
    select: { id: true, employee_id: true },
  });
  let done = 0;
  for (const x of due) {
    const completed = await tenantTx(async (tx) => {
      // Claim it: a concurrent run of the job (another process) finds nothing left to do.
      const claimed = await tx.employeeExit.updateMany({
        where: { id: x.id, status: "in_progress" },
        data: { status: "completed", completed_at: new Date() },
      });
      if (claimed.count !== 1) return false;
      const e = await tx.employee.findFirstOrThrow({ where: { id: x.employee_id }, select: { status: true } });
      await tx.employee.update({ where: { id: x.employee_id }, data: { status: "exited" } });
      await audit(
        {
          action: "employee.exited",
          entity_type: "employee",
          entity_id: x.employee_id,
          changes: { status: { from: e.status, to: "exited" } },
        },
        tx,
      );
      return true;
    });
    if (completed) done++;
  }
  return done;
}

/**
 * The scheduled job: for every tenant, marks employees whose last working day has passed (in the
 * tenant's time zone) as `exited`. Safe to run often and from several processes.
 */
export async function completeDueExits(now = new Date()): Promise<number> {
  let total = 0;
  let failed = 0;
  let cursor: string | undefined;
  for (;;) {
    const tenants = await tenantPage(cursor, 500);
    if (!tenants.length) break;
    for (const t of tenants) {
      try {
        total += await withTenant(t.id, () => completeDueExitsOfTenant(todayIn(t.timezone, now)));
      } catch (err) {
        failed++;
        logger.error({ err: (err as Error).message, tenant_id: t.id }, "completing exits failed");
      }
    }
    cursor = tenants[tenants.length - 1].id;
  }
  if (total) logger.info({ exited: total }, "exits completed");
  // Let the queue retry the run (it is idempotent) when a tenant failed.
  if (failed) throw new Error(`completing exits failed for ${failed} tenant(s)`);
  return total;
}
