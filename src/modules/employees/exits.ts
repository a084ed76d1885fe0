// Resignation and exit: `on_notice` with a checklist ticked by its owners; the job
// `employees.complete-exits` marks `exited` once the last day has passed and every item is done, or hr
// completes it with a reason (completeExit).
import { audit } from "../../platform/audit.ts";
import { tenantPage } from "../../db/central.ts";
import { lockRow } from "../../db/sql.ts";
import { db, type ScopedTx, tenantTx, withTenant, byId } from "../../db/tenancy.ts";
import { conflict, forbidden, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { parseDate, toDateString, todayIn } from "../../lib/dates.ts";
import { logger } from "../../log.ts";
import { notify } from "../../platform/notify.ts";
import { assertNotOwnRecord, isHr, OWN_RECORD, selfDecision } from "../shared/access.ts";
import { loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";
import { loadLiveEmployee, loadSelfOrPrivileged } from "./access.ts";
import { lockReportingLines } from "./queries.ts";
import { CHECKLIST_ITEMS, CHECKLIST_TITLES, checklistOwner, exitJson } from "./views.ts";
import * as clock from "../../lib/clock.ts";
import { LAST_OWNER_EXIT, accessToEnd, endAccess } from "./exit-access.ts";

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
    await tx.employee.update({ where: byId(employeeId), data: { status: "on_notice" } });
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

export type ChecklistItemInput = RequestBody<"updateExitChecklistItem">;

/** The employee's exit with its checklist locked (the exit row), or null. */
async function lockedExit(tx: ScopedTx, employeeId: string) {
  const x = await tx.employeeExit.findFirst({ where: { employee_id: employeeId }, select: { id: true } });
  if (!x || !(await lockRow(tx, "employee_exits", x.id))) return null;
  return tx.employeeExit.findFirstOrThrow({ where: { id: x.id }, include: { checklist: true } });
}

/**
 * Ticks or unticks one item of an exit checklist. hr/admin/owner: any item but a final_settlement
 * that a final settlement owns (`reference`); the direct manager: knowledge_transfer of their
 * reports. Nobody changes their own exit's items but the owner. Audited in the employee's log.
 */
export async function tickChecklistItem(auth: AuthContext, employeeId: string, itemId: string, input: ChecklistItemInput) {
  const e = await loadLiveEmployee(employeeId);
  const hr = isHr(auth);
  const manager = !hr && auth.role === "manager" && Boolean(auth.employeeId) && e.reports_to === auth.employeeId;
  if (!hr && !manager) throw notFound("Employee");
  const self = assertNotOwnRecord(auth, employeeId, `You cannot tick your own exit checklist: ${OWN_RECORD}`);
  const exit = await tenantTx(async (tx) => {
    const x = await lockedExit(tx, employeeId);
    const item = x?.checklist.find((c) => c.id === itemId);
    if (!x || !item) throw notFound("Checklist item");
    const owner = checklistOwner(item);
    if (owner === "payroll") throw conflict(`${item.title} is completed by processing the final settlement ${item.reference}, not by hand`);
    if (owner === "hr" && !hr) throw forbidden(`Only hr, admin or the owner may change "${item.title}"`);
    if (x.status === "completed") throw conflict("The exit is completed; its checklist is closed");
    const notes = input.notes === undefined ? item.notes : input.notes === null ? null : input.notes.trim() || null;
    if (item.status === input.status && notes === item.notes) return x; // nothing changes: no entry
    const done = input.status === "done";
    const keep = item.status === input.status;
    await tx.exitChecklistItem.update({
      where: byId(item.id),
      data: {
        status: input.status,
        notes,
        completed_at: done ? (keep ? item.completed_at : clock.now()) : null,
        completed_by: done ? (keep ? item.completed_by : auth.userId) : null,
      },
    });
    await audit(
      {
        action: "exit_checklist.item_updated",
        entity_type: "employee",
        entity_id: employeeId,
        changes: {
          item: item.item,
          status: { from: item.status, to: input.status },
          ...(notes !== item.notes ? { notes: { from: item.notes, to: notes } } : {}),
          ...selfDecision(self),
        },
      },
      tx,
    );
    return tx.employeeExit.findFirstOrThrow({ where: { id: x.id }, include: { checklist: true } });
  });
  return exitJson(exit);
}

/** hr completes an exit after the last working day; with pending items only with a recorded reason. */
export async function completeExitNow(auth: AuthContext, employeeId: string, input: RequestBody<"completeExit">) {
  await loadLiveEmployee(employeeId);
  // completing an exit (past pending items, with a reason) is hr's decision about the employee:
  // never on one's own record (the person's, whatever the current link), except by the owner
  const self = assertNotOwnRecord(auth, employeeId, `You cannot complete your own exit: ${OWN_RECORD}`);
  const today = tenantToday(await loadAttendanceSettings());
  const exit = await tenantTx(async (tx) => {
    // the reports' manager changes with the exit (endAccess): the lock of every reporting line
    // first, as changeEmployee takes it, before any employee row
    await lockReportingLines(tx);
    const x = await lockedExit(tx, employeeId);
    if (!x) throw conflict("The employee has not resigned: there is no exit to complete");
    if (x.status === "completed") throw conflict("The exit is already completed");
    const lwd = toDateString(x.last_working_day);
    if (lwd >= today) throw conflict(`The exit can be completed after the last working day (${lwd})`);
    const pending = [...x.checklist].sort((a, b) => a.position - b.position).filter((c) => c.status !== "done");
    const reason = pending.length ? input.override_reason?.trim() || null : null;
    if (pending.length && !reason)
      throw conflict(
        `Checklist items are still pending (${pending.map((c) => c.item).join(", ")}): ` +
          "tick them, or give override_reason to complete the exit without them",
      );
    const access = await accessToEnd(tx, employeeId);
    if (access.lastOwner) throw conflict(LAST_OWNER_EXIT);
    await tx.employeeExit.update({
      where: byId(x.id),
      data: { status: "completed", completed_at: clock.now(), completed_by: auth.userId, override_reason: reason },
    });
    const e = await tx.employee.findFirstOrThrow({ where: { id: employeeId }, select: { status: true, reports_to: true } });
    await tx.employee.update({ where: byId(employeeId), data: { status: "exited" } });
    await audit(
      {
        action: "employee.exited",
        event: "employee.exited",
        entity_type: "employee",
        entity_id: employeeId,
        changes: {
          status: { from: e.status, to: "exited" },
          ...(reason ? { override_reason: reason, pending_items: pending.map((c) => c.item) } : {}),
          ...selfDecision(self),
        },
      },
      tx,
    );
    await endAccess(tx, employeeId, e.reports_to, access.members);
    return tx.employeeExit.findFirstOrThrow({ where: { id: x.id }, include: { checklist: true } });
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
      // only with the whole checklist done (the exit row is locked); reporting lines first, as completeExitNow
      await lockReportingLines(tx);
      if (!(await lockRow(tx, "employee_exits", x.id))) return false;
      if (await tx.exitChecklistItem.count({ where: { exit_id: x.id, status: { not: "done" } } })) return false;
      // The company's last owner keeps the exit open until someone else is owner (logged).
      const access = await accessToEnd(tx, x.employee_id);
      if (access.lastOwner) {
        logger.warn({ employee_id: x.employee_id }, "exit not completed: the employee is the company's last owner");
        return false;
      }
      // Claim it: a concurrent run of the job (another process) finds nothing left to do.
      const claimed = await tx.employeeExit.updateMany({
        where: { id: x.id, status: "in_progress" },
        data: { status: "completed", completed_at: clock.now() },
      });
      if (claimed.count !== 1) return false;
      const e = await tx.employee.findFirstOrThrow({ where: { id: x.employee_id }, select: { status: true, reports_to: true } });
      await tx.employee.update({ where: byId(x.employee_id), data: { status: "exited" } });
      await audit(
        {
          action: "employee.exited",
          event: "employee.exited",
          entity_type: "employee",
          entity_id: x.employee_id,
          changes: { status: { from: e.status, to: "exited" } },
        },
        tx,
      );
      await endAccess(tx, x.employee_id, e.reports_to, access.members);
      return true;
    });
    if (completed) done++;
  }
  return done;
}

/** The scheduled job: marks `exited` whoever's last working day has passed in the tenant's time zone. Safe to rerun. */
export async function completeDueExits(now = clock.now()): Promise<number> {
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
