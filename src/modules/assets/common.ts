// Assets: shared rules and helpers - who manages assets, the company's "today", row locks,
// names of people, and who gets told about what.
import { activeTenant } from "../../db/central.ts";
import type { ScopedTx } from "../../db/tenancy.ts";
import { invalidField } from "../../platform/errors.ts";
import { parseDate, toDateString, todayIn, type DateString } from "../../lib/dates.ts";
import { money } from "../../lib/money.ts";
import type { components } from "../../../generated/api-types.ts";
import { hrMemberIds, userNames } from "../shared/access.ts";
import { type LockedAsset, lockAssetRow } from "./queries.ts";

export type AssetStatus = components["schemas"]["AssetStatus"];
export type AssetCondition = components["schemas"]["AssetCondition"];
export type DamageSeverity = components["schemas"]["AssetDamageSeverity"];
export type DamageStatus = components["schemas"]["AssetDamageReportStatus"];
export type ReturnRequestStatus = components["schemas"]["AssetReturnRequestStatus"];

/** Owner, admin and hr manage assets; managers and employees act on what they hold. */

/** Today in the company's time zone. */
export async function companyToday(): Promise<DateString> {
  const t = await activeTenant({ timezone: true });
  return todayIn(t.timezone);
}

export function employeeName(e: { first_name: string; last_name: string }): string {
  return `${e.first_name} ${e.last_name}`.trim();
}

export { userNames };

/** 400 unless each given `YYYY-MM-DD` is a real day (the document's `format: date` lets 2026-02-30 through). */
export function checkCalendarDates(fields: Record<string, string | null | undefined>): void {
  for (const [path, v] of Object.entries(fields)) {
    if (v === undefined || v === null) continue;
    const d = parseDate(v);
    if (Number.isNaN(d.getTime()) || toDateString(d) !== v) throw invalidField(path, "is not a valid calendar date");
  }
}

/** A non-negative money amount from the body, or a 400 naming the field. */
export function amount(path: string, v: string | null | undefined): string | null | undefined {
  if (v === undefined || v === null) return v;
  if (money(v).isNegative()) throw invalidField(path, "must not be negative");
  return v;
}

export type { LockedAsset };

/** Locks the asset row for the transaction, so two moves never act on the same state; deleted ones skipped unless `withDeleted`. */
export async function lockAsset(tx: ScopedTx, id: string, withDeleted = false): Promise<LockedAsset | null> {
  const row = await lockAssetRow(tx, id);
  if (!row || (row.deleted_at && !withDeleted)) return null;
  return row;
}

/** Users linked to an employee record in this company (their memberships), with e-mail addresses. */
export async function usersOfEmployee(tx: ScopedTx, employeeId: string): Promise<{ userId: string; email: string | null }[]> {
  const ms = await tx.membership.findMany({ where: { employee_id: employeeId }, select: { user_id: true } });
  const names = await userNames(ms.map((m) => m.user_id));
  return ms.map((m) => ({ userId: m.user_id, email: names.get(m.user_id)?.email ?? null }));
}

/** Owner, admin and hr members of the company other than `except`. */
export async function assetManagers(tx: ScopedTx, except: string): Promise<string[]> {
  return hrMemberIds(tx, except);
}
