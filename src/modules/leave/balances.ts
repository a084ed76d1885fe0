// Balances: the balances page (every type's buckets per employee, from the ledger and pending
// reservations), the ledger itself, and hr's manual adjustments.
import type { components } from "../../../generated/api-types.ts";
import type { Prisma } from "../../../generated/prisma/client.ts";
import { audit } from "../../platform/audit.ts";
import { db, tenantTx } from "../../db/tenancy.ts";
import { type Page, pageOf } from "../../platform/use-case.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import type { AuthContext, QueryParams, RequestBody } from "../../platform/use-case.ts";
import { type DateString, parseDate } from "../../lib/dates.ts";
import { assertNotOwnRecord, isHr, OWN_RECORD, selfDecision } from "../shared/access.ts";
import { notifyEmployee } from "../shared/notices.ts";
import { employeeFilter, loadEmployee, lockEmployees, visibleEmployees } from "../shared/people.ts";
import { employeeScopeSql } from "../shared/queries.ts";
import { loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";
import { days, dayString } from "./days.ts";
import { ledgerJson, type Listing } from "./json.ts";
import type { Listing as PageOrWalk } from "../../platform/use-case.ts";
import { type Walk, walkPage } from "../../db/keyset.ts";
import { availability, availableOf, belowMinimumReason, lapsedDays, minimumBalance } from "./ledger-balance.ts";
import { accountKey, openLapses } from "./ledger.ts";
import { namedOrCurrentPeriod } from "./periods.ts";
import { balancesPage, ledgerKeys } from "./queries.ts";

type LedgerJson = ReturnType<typeof ledgerJson>;

/**
 * A page of balances in the caller's scope as of today, as the JSON text PostgreSQL wrote (a hot path).
 * Rows with an expiring credit past its date, or below the type's minimum, are completed by ledger.ts's
 * one availability rule, so the page agrees with what requests and encashments are checked against.
 */
export async function balancePage(
  auth: AuthContext,
  query: QueryParams<"listLeaveBalances">,
): Promise<{ rowsJson: string[]; page: Page; total: number }> {
  const page = pageOf(query);
  const r = await balancesPage({
    scope: employeeScopeSql(auth),
    employeeId: query.employee_id,
    periodId: query.period_id,
    leaveTypeId: query.leave_type_id,
    wholeCompany: isHr(auth) && !query.employee_id,
    limit: page.limit,
    skip: page.skip,
  });
  if (!r.period_id) throw notFound(query.period_id ? "Leave period" : "Current leave period");
  const rowsJson = r.to_check.length ? [await completeRows(r.parts, new Set(r.to_check), r.as_of)] : r.parts;
  return { rowsJson, page, total: r.total };
}

type BalanceRow = components["schemas"]["LeaveBalance"];

/**
 * Completes the rows of the accounts in `check` (employee_id:leave_type_id): the lapses the ledger
 * does not hold as counted (as of `today`), and the reasons for balances below the minimum.
 */
async function completeRows(parts: string[], check: Set<string>, today: DateString): Promise<string> {
  const rows = JSON.parse(`[${parts.join(",")}]`) as BalanceRow[];
  const checked = rows.filter((row) => check.has(`${row.employee_id}:${row.leave_type_id}`));
  const lapses = await openLapses(db, checked, today, today);
  for (const row of checked) {
    const lapsed = lapsedDays(lapses.get(accountKey(row)));
    const pending = days(row.pending);
    const ledger = days(row.available).plus(pending);
    const available = availableOf(ledger, pending, lapsed);
    row.expired = dayString(days(row.expired).plus(lapsed));
    row.available = dayString(available);
    row.below_minimum_reason = belowMinimumReason({ ledger, pending, lapsed, available }, row.minimum === null ? null : days(row.minimum));
  }
  return JSON.stringify(rows).slice(1, -1);
}

/** The ledger list: a page by number, or a page of a walk in the order of change (docs/integrations-sync.md). */
export async function ledgerList(
  auth: AuthContext,
  query: QueryParams<"listLeaveLedger">,
  walk: Walk | null,
): Promise<PageOrWalk<LedgerJson>> {
  if (!walk) return ledgerPage(auth, query);
  const where = await ledgerFilter(auth, query);
  const { rows, last } = await walkPage(
    walk,
    (after, n) => ledgerKeys(walk, after, n),
    (ids) => db.leaveLedgerEntry.findMany({ where: { ...where, id: { in: ids } } }),
  );
  return { rows: rows.map(ledgerJson), walk, last };
}

async function ledgerFilter(auth: AuthContext, query: QueryParams<"listLeaveLedger">): Promise<Prisma.LeaveLedgerEntryWhereInput> {
  const [period, scope] = await Promise.all([namedOrCurrentPeriod(db, query.period_id), visibleEmployees(auth)]);
  return {
    period_id: period.id,
    ...employeeFilter(scope, query.employee_id),
    ...(query.leave_type_id ? { leave_type_id: query.leave_type_id } : {}),
    ...(query.entry_type ? { entry_type: query.entry_type } : {}),
  };
}

export async function ledgerPage(auth: AuthContext, query: QueryParams<"listLeaveLedger">): Promise<Listing<LedgerJson>> {
  const page = pageOf(query);
  const where = await ledgerFilter(auth, query);
  const [rows, total] = await Promise.all([
    db.leaveLedgerEntry.findMany({
      where,
      orderBy: [{ effective_date: "asc" }, { created_at: "asc" }, { id: "asc" }],
      skip: page.skip,
      take: page.limit,
    }),
    db.leaveLedgerEntry.count({ where }),
  ]);
  return { rows: rows.map(ledgerJson), page, total };
}

/** An adjustment entry (never taking a paid type below its lowest allowed balance); the employee is told. */
export async function adjustBalance(auth: AuthContext, body: RequestBody<"createLeaveAdjustment">): Promise<LedgerJson> {
  const amount = days(body.days);
  if (amount.isZero()) throw invalidField("body.days", "must not be zero");
  await loadEmployee(body.employee_id);
  const self = assertNotOwnRecord(auth, body.employee_id, `You cannot adjust your own leave balance: ${OWN_RECORD}`);
  const type = await db.leaveType.findFirst({ where: { id: body.leave_type_id } });
  if (!type) throw notFound("Leave type");
  const period = await namedOrCurrentPeriod(db, body.period_id);
  const today = tenantToday(await loadAttendanceSettings());
  const entry = await tenantTx(async (tx) => {
    await lockEmployees(tx, [body.employee_id]);
    const account = { employee_id: body.employee_id, leave_type_id: type.id, period_id: period.id };
    const min = minimumBalance(type);
    if (amount.isNegative() && min) {
      // the ledger net of what has expired by today; pending reservations may be overridden by hr
      // (the balance then says they cannot all be approved: belowMinimumReason)
      const av = await availability(tx, account, today, today);
      const after = av.ledger.minus(av.lapsed).plus(amount);
      if (after.lt(min))
        throw conflict(`The adjustment would take the balance to ${dayString(after)}, below the allowed ${dayString(min)}`);
    }
    const row = await tx.leaveLedgerEntry.create({
      data: {
        ...account,
        entry_type: "adjustment",
        days: amount.toString(),
        effective_date: parseDate(today),
        reason: body.reason,
        created_by: auth.userId,
      },
    });
    await audit(
      {
        action: "leave_balance.adjusted",
        entity_type: "employee",
        entity_id: body.employee_id,
        changes: { leave_type_id: type.id, period_id: period.id, days: dayString(amount), reason: body.reason, ...selfDecision(self) },
      },
      tx,
    );
    await notifyEmployee(tx, body.employee_id, {
      kind: "leave.adjusted",
      title: `Your ${type.name} balance was adjusted by ${dayString(amount)} days`,
      body: body.reason,
    });
    return row;
  });
  return ledgerJson(entry);
}
