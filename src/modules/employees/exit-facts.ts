// An employee's exit as payroll's final settlement reads and completes it (through index.ts).
import { audit } from "../../platform/audit.ts";
import { type ScopedTx, byId } from "../../db/tenancy.ts";
import { conflict } from "../../platform/errors.ts";
import { type DateString, toDateString } from "../../lib/dates.ts";
import * as clock from "../../lib/clock.ts";

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

/** A final settlement takes the exit's final_settlement item: 409 when it was ticked by hand (untick it first). */
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
