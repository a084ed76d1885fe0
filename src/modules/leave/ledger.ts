// The leave ledger: postings, expiring credits and their lapse (balances: ledger-balance.ts). Every
// reservation or debit takes lockEmployees (src/modules/shared/people.ts) in its tenantTx first, so
// parallel requests and approvals can never overdraw.
import type { components } from "../../../generated/api-types.ts";
import type { db, ScopedTx } from "../../db/tenancy.ts";
import { addDays, type DateString, toDateString } from "../../lib/dates.ts";
import { Decimal, type DayValue, days } from "./days.ts";
import { computeLapses, type Debit, type ExpiringCredit } from "./lapse.ts";
import { insertLedgerEntries } from "./queries.ts";

export type Client = ScopedTx | typeof db;

export interface Account {
  employee_id: string;
  leave_type_id: string;
  period_id: string;
}

export const accountKey = (a: Account) => `${a.employee_id}:${a.leave_type_id}:${a.period_id}`;

type CreditRow = { id: string; entry_type: string; days: DayValue; expires_on: Date | null; reference_id: string | null };

interface Credit extends ExpiringCredit {
  entryId: string;
  /** Days of its lapse the ledger's expiry entries hold (positive: lapsed), and how many entries posted them. */
  posted: Decimal;
  postings: number;
}

/** Expiring credits among an account's entries (net of reversals), with the lapse posted for each so far. */
function creditsOf(rows: CreditRow[]): Credit[] {
  const posted = new Map<string, { days: Decimal; n: number }>();
  for (const r of rows) {
    if (r.entry_type !== "expiry" || !r.reference_id) continue;
    const cur = posted.get(r.reference_id) ?? { days: new Decimal(0), n: 0 };
    posted.set(r.reference_id, { days: cur.days.minus(days(r.days)), n: cur.n + 1 });
  }
  const byKey = new Map<string, Credit>();
  for (const r of rows) {
    if (r.entry_type === "expiry" || !r.expires_on) continue;
    const key = `${r.entry_type}:${r.reference_id}:${toDateString(r.expires_on)}`;
    const cur = byKey.get(key);
    if (cur) cur.days = days(cur.days).plus(days(r.days));
    else if (days(r.days).gt(0)) {
      const p = posted.get(r.id);
      const expiresOn = toDateString(r.expires_on);
      byKey.set(key, { key, entryId: r.id, days: days(r.days), expiresOn, posted: p?.days ?? new Decimal(0), postings: p?.n ?? 0 });
    }
  }
  // a credit reversed to nothing lapses nothing, but a lapse posted for it must still be given back
  return [...byKey.values()].filter((cr) => days(cr.days).gt(0) || cr.postings > 0);
}

/** What an expiring credit's lapse adds to its expiry entries in the ledger (openLapses). */
export interface OpenLapse {
  entryId: string;
  expiresOn: DateString;
  /**
   * The lapse by the date (days of the credit not used by its expiry date; nothing while the credit
   * is valid) less the lapse the ledger holds already: positive, a lapse not posted yet; negative,
   * days of a posted lapse that leave dated on or before the expiry uses after all.
   */
  days: Decimal;
  /** The lapse the ledger's expiry entries of the credit hold (positive), and how many entries posted it. */
  posted: Decimal;
  postings: number;
  /** A pending leave request dated on or before the expiry may still use the credit: the job waits for its decision. */
  undecided: boolean;
}

/** A date after every expiry: settling posted lapses counts every credit as expired. */
const END_OF_TIME: DateString = "9999-12-31";

/**
 * THE rule of expiry, for any number of accounts in a fixed number of queries: per account, the
 * lapses of expiring credits (carried-forward days, compensatory offs) beyond what the ledger's
 * expiry entries hold. A credit pays for leave dated on or before its expiry date (the
 * soonest-expiring first; computeLapses); consumption is the ledger's debits (taken, cancelled,
 * encashed, each on its date) plus, unless `reservations` is false, what is reserved: pending
 * leave requests on their first day, pending encashments on `today` (the date their approval would
 * post them). What is unused lapses from the day after the expiry date (`asOf` later than it):
 * the result is that lapse less the one posted (OpenLapse.days), and, for a credit still valid as
 * of `asOf` whose lapse has been posted (it expired before `today`), the posted lapse given back in
 * full: leave dated on or before the expiry may use it. Only accounts with such a credit are in the
 * result. The ledger's sum less these figures is therefore the same whatever the expiry job (or a
 * settlement, settleLapses) has posted: the figures are the same before and after it runs.
 */
// size: one reading of the ledger's credits and lapses per account; the doc comment above is its specification
export async function openLapses(
  c: Client,
  accounts: Account[],
  asOf: DateString,
  today: DateString,
  opts: { reservations?: boolean } = {},
): Promise<Map<string, OpenLapse[]>> {
  const out = new Map<string, OpenLapse[]>();
  if (!accounts.length) return out;
  const wanted = new Set(accounts.map(accountKey));
  const scope = (list: Account[]) => ({
    employee_id: { in: [...new Set(list.map((a) => a.employee_id))] },
    leave_type_id: { in: [...new Set(list.map((a) => a.leave_type_id))] },
    period_id: { in: [...new Set(list.map((a) => a.period_id))] },
  });
  const due = await c.leaveLedgerEntry.findMany({
    where: { ...scope(accounts), OR: [{ expires_on: { lt: new Date(`${asOf}T00:00:00Z`) } }, { entry_type: "expiry" }] },
    select: { employee_id: true, leave_type_id: true, period_id: true },
    distinct: ["employee_id", "leave_type_id", "period_id"],
  });
  const candidates = due.filter((r) => wanted.has(accountKey(r)));
  if (!candidates.length) return out;
  const where = scope(candidates);
  // one after the other: `c` may be an interactive transaction, which runs one query at a time
  const rows = await c.leaveLedgerEntry.findMany({
    where: { ...where, OR: [{ expires_on: { not: null } }, { entry_type: { in: ["expiry", "taken", "cancelled", "encashed"] } }] },
    select: {
      id: true,
      employee_id: true,
      leave_type_id: true,
      period_id: true,
      entry_type: true,
      days: true,
      effective_date: true,
      expires_on: true,
      reference_id: true,
    },
    orderBy: [{ created_at: "asc" }, { id: "asc" }],
  });
  const requests = await c.leaveRequest.findMany({
    where: { ...where, status: "pending" },
    select: { employee_id: true, leave_type_id: true, period_id: true, from_date: true, days: true },
  });
  const encashments = await c.leaveEncashment.findMany({
    where: { ...where, status: "pending" },
    select: { employee_id: true, leave_type_id: true, period_id: true, days: true },
  });
  const group = <T extends Account>(list: T[]) => {
    const m = new Map<string, T[]>();
    for (const r of list) {
      const k = accountKey(r);
      if (wanted.has(k)) (m.get(k) ?? m.set(k, []).get(k)!).push(r);
    }
    return m;
  };
  const rowsBy = group(rows);
  const requestsBy = group(requests);
  const encashmentsBy = group(encashments);
  for (const [key, list] of rowsBy) {
    const credits = creditsOf(list);
    // expired by the date; or valid on it, lapsed by today and posted: the lapse given back
    const relevant = credits.filter((cr) => cr.expiresOn < asOf || (cr.postings > 0 && cr.expiresOn < today));
    if (!relevant.length) continue;
    const pending: Debit[] = [
      ...(requestsBy.get(key) ?? []).map((p) => ({ date: toDateString(p.from_date), days: p.days })),
      ...(encashmentsBy.get(key) ?? []).map((p) => ({ date: today, days: p.days })),
    ];
    const debits: Debit[] = [
      ...list
        .filter((r) => r.entry_type === "taken" || r.entry_type === "cancelled" || r.entry_type === "encashed")
        .map((r) => ({ date: toDateString(r.effective_date), days: days(r.days).negated() })),
      ...(opts.reservations === false ? [] : pending),
    ];
    const lapses = computeLapses(
      credits.map((cr) => ({ key: cr.key, expiresOn: cr.expiresOn, days: Decimal.max(0, days(cr.days)) })),
      debits,
    );
    out.set(
      key,
      relevant.map((cr) => ({
        entryId: cr.entryId,
        expiresOn: cr.expiresOn,
        days: (cr.expiresOn < asOf ? (lapses.get(cr.key) ?? new Decimal(0)) : new Decimal(0)).minus(cr.posted),
        posted: cr.posted,
        postings: cr.postings,
        undecided: pending.some((p) => p.date <= cr.expiresOn),
      })),
    );
  }
  return out;
}

/**
 * Posts lapses so that the ledger holds what openLapses computes, in the caller's transaction (under
 * lockEmployees). The job posts every credit expired before `today` unless a pending request may still
 * use it; otherwise only already-posted lapses are settled (postEntries, at every debit), so readers'
 * figures never change. Dedupe keys `expiry:<entryId>`, then `expiry:<entryId>:<n>`. Returns entries written.
 */
export async function settleLapses(
  c: Client,
  accounts: Account[],
  today: DateString,
  opts: { job: boolean; createdBy?: string | null },
): Promise<number> {
  const lapses = await openLapses(c, accounts, opts.job ? today : END_OF_TIME, today, { reservations: false });
  const entries: NewEntry[] = [];
  for (const a of accounts) {
    for (const l of lapses.get(accountKey(a)) ?? []) {
      if (l.days.isZero() || (opts.job ? l.undecided || l.expiresOn >= today : l.postings === 0)) continue;
      entries.push({
        employee_id: a.employee_id,
        leave_type_id: a.leave_type_id,
        period_id: a.period_id,
        entry_type: "expiry",
        days: l.days.negated(),
        effective_date: addDays(l.expiresOn, 1),
        reference_type: "leave_ledger_entry",
        reference_id: l.entryId,
        dedupe_key: l.postings ? `expiry:${l.entryId}:${l.postings}` : `expiry:${l.entryId}`,
        reason: !l.postings
          ? `unused days expired on ${l.expiresOn}`
          : l.days.isNegative()
            ? `lapse of ${l.expiresOn} given back: leave dated on or before it uses the days`
            : `unused days expired on ${l.expiresOn} (recounted: leave dated on or before it no longer uses them)`,
        created_by: opts.createdBy ?? null,
      });
    }
  }
  return postEntries(c, entries);
}

export interface NewEntry {
  employee_id: string;
  leave_type_id: string;
  period_id: string;
  entry_type: "allocation" | "accrual" | "carry_forward" | "expiry" | "taken" | "cancelled" | "encashed" | "comp_off" | "adjustment";
  days: Decimal;
  effective_date: DateString;
  expires_on?: DateString | null;
  reference_type?: components["schemas"]["LeaveLedgerEntry"]["reference_type"];
  reference_id?: string | null;
  reason?: string | null;
  dedupe_key?: string | null;
  created_by?: string | null;
}

const DEBITS = new Set<NewEntry["entry_type"]>(["taken", "cancelled", "encashed"]);

/**
 * Appends entries in one set-based INSERT, skipping an existing dedupe_key; debits settle their accounts'
 * posted lapses in the same transaction (the caller holds lockEmployees). Returns the number written.
 */
export async function postEntries(c: Client, entries: NewEntry[]): Promise<number> {
  if (!entries.length) return 0;
  const written = await insertLedgerEntries(c, entryRows(entries));
  const debited = new Map<string, Account>();
  for (const e of entries)
    if (DEBITS.has(e.entry_type))
      debited.set(accountKey(e), { employee_id: e.employee_id, leave_type_id: e.leave_type_id, period_id: e.period_id });
  if (debited.size) await settleLapses(c, [...debited.values()], END_OF_TIME, { job: false, createdBy: entries[0].created_by });
  return written;
}

function entryRows(entries: NewEntry[]) {
  return entries.map((e) => ({
    employee_id: e.employee_id,
    leave_type_id: e.leave_type_id,
    period_id: e.period_id,
    entry_type: e.entry_type,
    days: e.days.toString(),
    effective_date: e.effective_date,
    expires_on: e.expires_on ?? null,
    reference_type: e.reference_type ?? null,
    reference_id: e.reference_id ?? null,
    reason: e.reason ?? null,
    dedupe_key: e.dedupe_key ?? null,
    created_by: e.created_by ?? null,
  }));
}
