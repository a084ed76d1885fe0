// Leave periods (fiscal years): hr's configuration of them - never overlapping, at most 366 days,
// exactly one current, dates fixed once used - and finding the period of a date range.
import { audit, diff } from "../../platform/audit.ts";
import { advisoryLock } from "../../db/sql.ts";
import { db, type ScopedTx, tenantTx, byId } from "../../db/tenancy.ts";
import { type PageQuery, pageOf } from "../../platform/use-case.ts";
import { conflict, invalidField, notFound } from "../../platform/errors.ts";
import type { RequestBody } from "../../platform/use-case.ts";
import { type DateString, daysBetween, parseDate, toDateString } from "../../lib/dates.ts";
import { type Listing, periodJson } from "./json.ts";

type Client = ScopedTx | typeof db;
type PeriodJson = ReturnType<typeof periodJson>;

export interface PeriodRow {
  id: string;
  name: string;
  start_date: Date;
  end_date: Date;
  is_current: boolean;
}

/** The period containing the whole range; 409 when the range is outside every period or spans two. */
export async function periodFor(c: Client, from: DateString, to: DateString): Promise<PeriodRow> {
  const p = await c.leavePeriod.findFirst({ where: { start_date: { lte: parseDate(from) }, end_date: { gte: parseDate(from) } } });
  if (!p) throw conflict(`No leave period contains ${from}; ask hr to create the leave period first`);
  if (toDateString(p.end_date) < to)
    throw conflict(`The dates span two leave periods (${p.name} ends on ${toDateString(p.end_date)}); submit one request per period`);
  return p;
}

export async function currentPeriod(c: Client): Promise<PeriodRow | null> {
  return c.leavePeriod.findFirst({ where: { is_current: true } });
}

/** The named period (404 when unknown), else the current one (404 when there is none). */
export async function namedOrCurrentPeriod(c: Client, id?: string): Promise<PeriodRow> {
  if (id) {
    const p = await c.leavePeriod.findFirst({ where: { id } });
    if (!p) throw notFound("Leave period");
    return p;
  }
  const p = await currentPeriod(c);
  if (!p) throw notFound("Current leave period");
  return p;
}

// ───────────────────────────── configuration ─────────────────────────────

/** Changes to periods are serialised per tenant (overlap and "one current" checks). */
const lockPeriods = (tx: ScopedTx) => advisoryLock(tx, "leave-periods");

function checkPeriodDates(start: string, end: string) {
  if (end < start) throw invalidField("body.end_date", "must not be before start_date");
  if (daysBetween(start, end) + 1 > 366) throw invalidField("body.end_date", "makes the period longer than 366 days");
}

async function assertNoOverlap(tx: ScopedTx, start: string, end: string, exceptId?: string) {
  const other = await tx.leavePeriod.findFirst({
    where: { start_date: { lte: parseDate(end) }, end_date: { gte: parseDate(start) }, ...(exceptId ? { NOT: { id: exceptId } } : {}) },
  });
  if (other) throw conflict(`The period overlaps ${other.name} (${toDateString(other.start_date)} to ${toDateString(other.end_date)})`);
}

async function periodInUse(c: Client, id: string): Promise<boolean> {
  // one after the other (and no further once one is found): `c` may be a transaction, which runs one query at a time
  const where = { period_id: id };
  return (
    (await c.leaveAllocation.count({ where })) > 0 ||
    (await c.leaveLedgerEntry.count({ where })) > 0 ||
    (await c.leaveRequest.count({ where })) > 0 ||
    (await c.leaveEncashment.count({ where })) > 0
  );
}

export async function periodPage(query: PageQuery): Promise<Listing<PeriodJson>> {
  const page = pageOf(query);
  const [rows, total] = await Promise.all([
    db.leavePeriod.findMany({ orderBy: [{ start_date: "desc" }], skip: page.skip, take: page.limit }),
    db.leavePeriod.count(),
  ]);
  return { rows: rows.map(periodJson), page, total };
}

/** A new period; the first one, or one created with is_current, becomes the current period. */
export async function addPeriod(body: RequestBody<"createLeavePeriod">): Promise<PeriodJson> {
  checkPeriodDates(body.start_date, body.end_date);
  const p = await tenantTx(async (tx) => {
    await lockPeriods(tx);
    await assertNoOverlap(tx, body.start_date, body.end_date);
    const current = (await tx.leavePeriod.count()) === 0 || body.is_current === true;
    if (current) await tx.leavePeriod.updateMany({ where: { is_current: true }, data: { is_current: false } });
    const row = await tx.leavePeriod.create({
      data: { name: body.name, start_date: parseDate(body.start_date), end_date: parseDate(body.end_date), is_current: current },
    });
    await audit(
      {
        action: "leave_period.created",
        entity_type: "leave_period",
        entity_id: row.id,
        changes: { name: row.name, start_date: body.start_date, end_date: body.end_date, is_current: current },
      },
      tx,
    );
    return row;
  });
  return periodJson(p);
}

export async function periodById(id: string): Promise<PeriodJson> {
  const p = await db.leavePeriod.findFirst({ where: { id } });
  if (!p) throw notFound("Leave period");
  return periodJson(p);
}

export async function changePeriod(id: string, body: RequestBody<"updateLeavePeriod">): Promise<PeriodJson> {
  const p = await tenantTx(async (tx) => {
    await lockPeriods(tx);
    const before = await tx.leavePeriod.findFirst({ where: { id } });
    if (!before) throw notFound("Leave period");
    const start = body.start_date ?? toDateString(before.start_date);
    const end = body.end_date ?? toDateString(before.end_date);
    const datesChange = start !== toDateString(before.start_date) || end !== toDateString(before.end_date);
    if (datesChange) {
      checkPeriodDates(start, end);
      if (await periodInUse(tx, before.id))
        throw conflict("The dates of a period with allocations, ledger entries or requests cannot change");
      await assertNoOverlap(tx, start, end, before.id);
    }
    if (body.is_current === false && before.is_current)
      throw conflict("Exactly one period is current: make another period current instead");
    if (body.is_current === true && !before.is_current)
      await tx.leavePeriod.updateMany({ where: { is_current: true }, data: { is_current: false } });
    const data = {
      ...(body.name !== undefined ? { name: body.name } : {}),
      start_date: parseDate(start),
      end_date: parseDate(end),
      ...(body.is_current !== undefined ? { is_current: body.is_current } : {}),
    };
    const after = await tx.leavePeriod.update({ where: byId(before.id), data });
    const changes = diff(before, after, Object.keys(data));
    if (Object.keys(changes).length)
      await audit({ action: "leave_period.updated", entity_type: "leave_period", entity_id: after.id, changes }, tx);
    return after;
  });
  return periodJson(p);
}

/** Deletes an unused period (never the current one while others exist). */
export async function removePeriod(id: string): Promise<void> {
  await tenantTx(async (tx) => {
    await lockPeriods(tx);
    const p = await tx.leavePeriod.findFirst({ where: { id } });
    if (!p) throw notFound("Leave period");
    if (await periodInUse(tx, p.id)) throw conflict("The period has allocations, ledger entries or requests and cannot be deleted");
    if (p.is_current && (await tx.leavePeriod.count()) > 1)
      throw conflict("The current period cannot be deleted while other periods exist: make another period current first");
    await tx.leavePeriod.delete({ where: byId(p.id) });
    await audit({ action: "leave_period.deleted", entity_type: "leave_period", entity_id: p.id, changes: { name: p.name } }, tx);
  });
}
