// Resignation and exit: a resignation moves the employee to `on_notice` and opens the exit record
// with its checklist; the checklist's items are ticked by their owners (updateExitChecklistItem;
// final_settlement by processing the final settlement once one exists); the scheduled job
// `employees.complete-exits` marks them `exited` once their last working day has passed in the
// company's time zone and every item is done, and hr may complete an exit with pending items
// with a reason (completeExit).
import { audit } from "../../platform/audit.ts";
import { endSessionsInActiveTenant, tenantPage } from "../../db/central.ts";
import { lockRow } from "../../db/sql.ts";
import { db, type ScopedTx, tenantTx, withTenant, byId } from "../../db/tenancy.ts";
import { conflict, forbidden, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../http/types.ts";
import { type DateString, parseDate, toDateString, todayIn } from "../../lib/dates.ts";
import { logger } from "../../log.ts";
import { notify } from "../../platform/notify.ts";
import { assertNotOwnRecord, isHr, OWN_RECORD, selfDecision } from "../shared/access.ts";
import { loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";
import { loadLiveEmployee, loadSelfOrPrivileged } from "./access.ts";
import { releaseTicketsOf } from "../helpdesk/index.ts";
import { lockReportingLines } from "./queries.ts";
import { CHECKLIST_ITEMS, CHECKLIST_TITLES, checklistOwner, exitJson } from "./views.ts";
import * as clock from "../../lib/clock.ts";

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
export async function updateChecklistItem(auth: AuthContext, employeeId: string, itemId: string, input: ChecklistItemInput) {
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

/**
 * hr completes an exit now (after the last working day): without a reason only when every item is
 * done; with pending items the reason is required and recorded. The employee becomes `exited`.
 */
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

// ───────────── a completed exit ends access ─────────────

const LAST_OWNER_EXIT =
  "The employee is the company's last owner: make another member owner before completing their exit (it ends their access)";

interface MemberToEnd {
  id: string;
  user_id: string;
  role: string;
  employee_id: string | null;
}

/**
 * The memberships a completed exit of `employeeId` ends: the member linked to the record now, and
 * every member whose account was linked to it before and is linked to no record now (unlinking
 * before the exit does not keep the access; a member linked to another record since keeps theirs).
 * `lastOwner` when they include every owner of the company.
 */
async function accessToEnd(tx: ScopedTx, employeeId: string): Promise<{ members: MemberToEnd[]; lastOwner: boolean }> {
  const links = await tx.employeeUserLink.findMany({ where: { employee_id: employeeId }, select: { user_id: true } });
  const members = await tx.membership.findMany({
    where: { OR: [{ employee_id: employeeId }, { employee_id: null, user_id: { in: links.map((l) => l.user_id) } }] },
    select: { id: true, user_id: true, role: true, employee_id: true },
  });
  if (!members.some((m) => m.role === "owner")) return { members, lastOwner: false };
  const others = await tx.membership.count({ where: { role: "owner", id: { notIn: members.map((m) => m.id) } } });
  return { members, lastOwner: others === 0 };
}

/**
 * What a completed exit does beyond the record's status, in the exit's transaction:
 * - the person's membership ends (removed, audited `member.removed` with `reason: exit_completed`):
 *   their sessions in this company end at once (the session rows are deleted; the identity cache of
 *   every server process is dropped by the memberships trigger's NOTIFY), they no longer see the
 *   company at sign-in, helpdesk tickets assigned to them go back to the queue, and pending
 *   invitations linked to the record are revoked;
 * - their direct reports now report to the exited employee's own manager (or to nobody: hr then
 *   decides), audited on each report; their pending requests are therefore decided by that manager
 *   (or hr) from now on, and the new manager is told.
 * Re-hiring restores access explicitly: a new invitation (from the employee record) accepted by them.
 */
async function endAccess(tx: ScopedTx, employeeId: string, managerId: string | null, members: MemberToEnd[]): Promise<void> {
  for (const m of members) {
    await tx.membership.delete({ where: byId(m.id) });
    await endSessionsInActiveTenant(m.user_id, tx);
    await releaseTicketsOf(tx, m.user_id);
    await audit(
      {
        action: "member.removed",
        entity_type: "user",
        entity_id: m.user_id,
        changes: { role: m.role, employee_id: employeeId, reason: "exit_completed" },
      },
      tx,
    );
  }
  const revoked = await tx.invitation.updateMany({
    where: { employee_id: employeeId, accepted_at: null, revoked_at: null },
    data: { revoked_at: clock.now() },
  });
  if (revoked.count)
    await audit(
      { action: "employee.invitations_revoked", entity_type: "employee", entity_id: employeeId, changes: { revoked: revoked.count } },
      tx,
    );
  const reports = await tx.employee.findMany({
    where: { reports_to: employeeId, deleted_at: null },
    select: { id: true, first_name: true, last_name: true },
    orderBy: { id: "asc" },
  });
  if (!reports.length) return;
  const to = managerId && managerId !== employeeId ? managerId : null;
  await tx.employee.updateMany({ where: { id: { in: reports.map((r) => r.id) } }, data: { reports_to: to } });
  for (const r of reports)
    await audit(
      {
        action: "employee.updated",
        entity_type: "employee",
        entity_id: r.id,
        changes: { reports_to: { from: employeeId, to }, reason: "manager_exited" },
      },
      tx,
    );
  const manager = to ? await tx.membership.findFirst({ where: { employee_id: to }, select: { user_id: true } }) : null;
  if (manager)
    await notify(tx, {
      userId: manager.user_id,
      kind: "employee.reports_reassigned",
      title: `${reports.length} employee(s) now report to you`,
      body:
        `Their manager has left: ${reports.map((r) => `${r.first_name} ${r.last_name}`.trim()).join(", ")}. ` +
        "Their pending requests are yours to decide.",
      link: "/api/employees",
    });
}

// ───────────── for payroll's final settlement (through index.ts) ─────────────

export interface ExitFacts {
  id: string;
  employee_id: string;
  resignation_date: DateString;
  last_working_day: DateString;
  status: string;
}

/** The employee's exit (null when they have not resigned). */
export async function exitOfEmployee(client: Pick<ScopedTx, "employeeExit">, employeeId: string): Promise<ExitFacts | null> {
  const x = await client.employeeExit.findFirst({ where: { employee_id: employeeId } });
  if (!x) return null;
  return {
    id: x.id,
    employee_id: x.employee_id,
    resignation_date: toDateString(x.resignation_date),
    last_working_day: toDateString(x.last_working_day),
    status: x.status,
  };
}

/**
 * A final settlement now owns the exit's final_settlement item (`reference` = its number): 409
 * when the item was already ticked by hand (untick it first, or settle outside the system).
 */
export async function attachSettlementToChecklist(tx: ScopedTx, exitId: string, reference: string): Promise<void> {
  const item = await tx.exitChecklistItem.findFirst({ where: { exit_id: exitId, item: "final_settlement" } });
  if (!item) return;
  if (item.status === "done" && !item.reference)
    throw conflict("The exit checklist's final settlement is already marked done by hand; untick it to settle here");
  await tx.exitChecklistItem.update({ where: byId(item.id), data: { reference } });
}

/** Processing the settlement ticks the exit's final_settlement item (audited in the employee's log). */
export async function completeSettlementItem(tx: ScopedTx, exitId: string, employeeId: string, userId: string | null): Promise<void> {
  const item = await tx.exitChecklistItem.findFirst({ where: { exit_id: exitId, item: "final_settlement" } });
  if (!item || item.status === "done") return;
  await tx.exitChecklistItem.update({
    where: byId(item.id),
    data: { status: "done", completed_at: clock.now(), completed_by: userId, notes: item.notes ?? `Settled by ${item.reference}` },
  });
  await audit(
    {
      action: "exit_checklist.item_updated",
      entity_type: "employee",
      entity_id: employeeId,
      changes: { item: item.item, status: { from: item.status, to: "done" }, reference: item.reference },
    },
    tx,
  );
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
      // Only with the whole checklist done (an exit with pending items waits for them, or for hr's
      // completeExit); the exit row is locked, so an item unticked meanwhile is seen. The reporting
      // lines first (endAccess moves the reports), as completeExitNow.
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

/**
 * The scheduled job: for every tenant, marks employees whose last working day has passed (in the
 * tenant's time zone) as `exited`. Safe to run often and from several processes.
 */
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
