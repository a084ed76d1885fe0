// Notices to an employee (and their manager) about their requests: in-app + email (through the
// outbox) to the employee's linked user - or email only when the employee has no user account -
// written in the caller's transaction.
import type { ScopedTx } from "../../db/tenancy.ts";
import { queueEmail } from "../../platform/mail/outbox.ts";
import { type NotificationKind, notify } from "../../platform/notify.ts";

export interface Notice {
  kind: NotificationKind;
  title: string;
  body?: string;
  link?: string;
}

export async function notifyEmployee(tx: ScopedTx, employeeId: string, n: Notice): Promise<void> {
  // one after the other: a transaction runs one query at a time
  const emp = await tx.employee.findFirst({ where: { id: employeeId }, select: { email: true } });
  const member = await tx.membership.findFirst({ where: { employee_id: employeeId }, select: { user_id: true } });
  if (member) await notify(tx, { userId: member.user_id, email: emp?.email ?? null, ...n });
  else if (emp?.email) await queueEmail(tx, { to: emp.email, subject: n.title, text: n.body ?? n.title });
}

/** Tells the employee's manager (if any) about a request waiting for them. */
export async function notifyManager(tx: ScopedTx, employee: { reports_to: string | null }, n: Notice): Promise<void> {
  if (employee.reports_to) await notifyEmployee(tx, employee.reports_to, n);
}
