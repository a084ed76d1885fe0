// The one approval flow (submit → decide → cancel) of every request an employee submits and someone else
// decides. Each step is one transaction that locks the request and checks its state before its effects,
// so two approvals, or an approval and a cancellation, never both succeed; the area supplies a flow object.
import type { EventType } from "../../../generated/registry.ts";
import { audit } from "../../platform/audit.ts";
import { tenantTx, type ScopedTx } from "../../db/tenancy.ts";
import { conflict } from "../../platform/errors.ts";
import type { AuthContext } from "../../platform/use-case.ts";
import { type Notice, notifyEmployee, notifyManager } from "./notices.ts";
import { assertNotOwnRecord, isOwnRecord, OWN_RECORD, selfDecision } from "./access.ts";
import { assertCanCancel, assertCanDecide, OWN_REQUEST } from "./people.ts";
import * as clock from "../../lib/clock.ts";

export type Decision = "approved" | "rejected";

/** What every request row has. */
export interface RequestRow {
  id: string;
  employee_id: string;
  status: string;
}

/** The columns a decision writes (`decided_by`, `decided_at`, `decision_comment`). */
export interface DecisionColumns {
  status: Decision;
  decided_by: string;
  decided_at: Date;
  decision_comment: string | null;
}

/** The columns a cancellation writes. */
export interface CancelColumns {
  status: "cancelled";
  cancelled_by: string;
  cancelled_at: Date;
}

interface FlowBase<R extends RequestRow, Out> {
  /** Audit entity type and action prefix (`leave_request` → `leave_request.approved`). */
  entity: string;
  /** Locks what the step must hold for the rest of the transaction and returns the request as it is now. */
  lock(tx: ScopedTx): Promise<R>;
  /** Writes the new state; returns what the caller answers with. */
  save(tx: ScopedTx, current: R, columns: Record<string, unknown>): Promise<Out>;
}

export interface SubmitFlow<R extends RequestRow> {
  entity: string;
  /** The webhook event a submission raises, if any. */
  event?: EventType;
  /** The employee the request is for (their manager is told). */
  employee: { reports_to: string | null };
  /** Locks, checks the rules and inserts the request (status `pending`). */
  create(tx: ScopedTx): Promise<R>;
  /** The audit entry's changes. */
  changes(row: R): Record<string, unknown>;
  /** The notice to the employee's manager, if any (optional: a request only hr decides, such as an encashment, tells no manager). */
  managerNotice?(row: R): Notice;
  /** A notice to the employee too (a receipt when someone else filed it, for one). */
  employeeNotice?(row: R): Notice | null;
  /** Effects after the audit entry and the notices (notices to others: hr when no manager decides). */
  after?(tx: ScopedTx, row: R): Promise<void>;
}

/** Submit: create under the area's locks, audit (`<entity>.created`), tell the employee and their manager. */
export function submit<R extends RequestRow>(flow: SubmitFlow<R>): Promise<R> {
  return tenantTx(async (tx) => {
    const row = await flow.create(tx);
    await audit(
      { action: `${flow.entity}.created`, event: flow.event, entity_type: flow.entity, entity_id: row.id, changes: flow.changes(row) },
      tx,
    );
    const receipt = flow.employeeNotice?.(row);
    if (receipt) await notifyEmployee(tx, row.employee_id, receipt);
    if (flow.managerNotice) await notifyManager(tx, flow.employee, flow.managerNotice(row));
    await flow.after?.(tx, row);
    return row;
  });
}

export interface DecideFlow<R extends RequestRow, Out> extends FlowBase<R, Out> {
  /** The employee the request is for: never they, their manager (unless `managerMayDecide` is false) or hr/admin/owner. */
  employee: { id: string; reports_to: string | null };
  /** The webhook event each decision raises, if any. */
  events?: Partial<Record<Decision, EventType>>;
  managerMayDecide?: boolean;
  /** The 403 for a decision on one's own request (default OWN_REQUEST; the company's owner may: assertNotOwnRecord). */
  ownMessage?: string;
  /**
   * Who may decide, by a rule of the area's own, checked on the locked request after the pending
   * check - in place of the shared rule (assertCanDecide on `employee` before the transaction).
   */
  allow?(current: R): void;
  /** The 409 message for a request that is no longer pending. */
  notPending?(status: string): string;
  /** Effects of the decision before the new state is written (an approval's ledger entry). */
  apply?(tx: ScopedTx, current: R, status: Decision): Promise<void>;
  /** More columns written with the decision. */
  extra?(current: R, status: Decision): Record<string, unknown>;
  /** The notice to the employee (or null for none). */
  notice(current: R, status: Decision, comment: string | null): Notice | null;
  /** Effects after the new state is written (a rejected leave's neighbours recounted). */
  after?(tx: ScopedTx, current: R, status: Decision): Promise<void>;
}

/** Decide: who may, that it is still pending, effects, new state, audit, notice - in one transaction. */
export function decide<R extends RequestRow, Out>(
  auth: AuthContext,
  flow: DecideFlow<R, Out>,
  decision: { status: Decision; comment?: string | null },
): Promise<Out> {
  if (!flow.allow) assertCanDecide(auth, flow.employee, { manager: flow.managerMayDecide ?? true });
  const { status } = decision;
  const comment = decision.comment ?? null;
  return tenantTx(async (tx) => {
    const current = await flow.lock(tx);
    if (current.status !== "pending") throw conflict(flow.notPending?.(current.status) ?? `The request is already ${current.status}`);
    flow.allow?.(current);
    // the one rule for every flow, also those with a rule of their own (`allow`)
    const self = assertNotOwnRecord(auth, current.employee_id, flow.ownMessage ?? OWN_REQUEST);
    await flow.apply?.(tx, current, status);
    const columns: DecisionColumns = { status, decided_by: auth.userId, decided_at: clock.now(), decision_comment: comment };
    const out = await flow.save(tx, current, { ...columns, ...flow.extra?.(current, status) });
    await audit(
      {
        action: `${flow.entity}.${status}`,
        event: flow.events?.[status],
        entity_type: flow.entity,
        entity_id: current.id,
        changes: { status: { from: "pending", to: status }, comment, ...selfDecision(self) },
      },
      tx,
    );
    const notice = flow.notice(current, status, comment);
    if (notice) await notifyEmployee(tx, current.employee_id, notice);
    await flow.after?.(tx, current, status);
    return out;
  });
}

export interface CancelFlow<R extends RequestRow, Out> extends FlowBase<R, Out> {
  /** The webhook event a cancellation raises, if any. */
  event?: EventType;
  /**
   * Who may cancel in which state: the shared rule (assertCanCancel: pending by the employee, their
   * manager or hr; approved by hr, and by the employee or manager only when `approvedBySelf` and
   * not yet `started`), or a rule of the area's own.
   */
  allow:
    | { employee: { id: string; reports_to: string | null }; started(current: R): boolean; approvedBySelf: boolean }
    | ((current: R) => void);
  /** Effects before the new state is written (an approved leave's days back to the balance). */
  apply?(tx: ScopedTx, current: R): Promise<void>;
  /** The notice to the employee (or null for none). */
  notice(current: R): Notice | null;
  /** Effects after the new state is written. */
  after?(tx: ScopedTx, current: R): Promise<void>;
}

/** Cancel: who may in the current state, effects, new state, audit, notice - in one transaction. */
export function cancel<R extends RequestRow, Out>(auth: AuthContext, flow: CancelFlow<R, Out>): Promise<Out> {
  return tenantTx(async (tx) => {
    const current = await flow.lock(tx);
    let self = false;
    if (typeof flow.allow === "function") {
      flow.allow(current);
      // cancelling an approved request gives back pay or balance: not on one's own record (the owner may)
      if (current.status !== "pending")
        self = assertNotOwnRecord(auth, current.employee_id, `You cannot cancel your own ${current.status} request: ${OWN_RECORD}`);
    } else {
      const rule = { started: flow.allow.started(current), approvedBySelf: flow.allow.approvedBySelf };
      assertCanCancel(auth, flow.allow.employee, current.status, rule);
      // the owner cancelling their own approved request where its employee could not
      self =
        current.status === "approved" &&
        !(rule.approvedBySelf && !rule.started) &&
        auth.role === "owner" &&
        isOwnRecord(auth, current.employee_id);
    }
    await flow.apply?.(tx, current);
    const columns: CancelColumns = { status: "cancelled", cancelled_by: auth.userId, cancelled_at: clock.now() };
    const out = await flow.save(tx, current, { ...columns });
    await audit(
      {
        action: `${flow.entity}.cancelled`,
        event: flow.event,
        entity_type: flow.entity,
        entity_id: current.id,
        changes: { status: { from: current.status, to: "cancelled" }, ...selfDecision(self) },
      },
      tx,
    );
    const notice = flow.notice(current);
    if (notice) await notifyEmployee(tx, current.employee_id, notice);
    await flow.after?.(tx, current);
    return out;
  });
}
