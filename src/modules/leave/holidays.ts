// Holidays: the company's list (optionally for one branch or work location; optional holidays are
// not days off). The same name on the same date for the same place exists once; changes are
// serialised per tenant so that two parallel creates cannot both pass the duplicate check.
import type { Prisma } from "../../../generated/prisma/client.ts";
import { audit, diff } from "../../platform/audit.ts";
import { advisoryLock } from "../../db/sql.ts";
import { db, type ScopedTx, tenantTx, byId } from "../../db/tenancy.ts";
import { pageOf } from "../../platform/use-case.ts";
import { badRequest, conflict, notFound } from "../../platform/errors.ts";
import type { QueryParams, RequestBody } from "../../platform/use-case.ts";
import { parseDate, toDateString } from "../../lib/dates.ts";
import { loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";
import { holidayJson, type Listing } from "./json.ts";

type HolidayJson = ReturnType<typeof holidayJson>;
type NewHoliday = RequestBody<"createHoliday">;

const lockHolidays = (tx: ScopedTx) => advisoryLock(tx, "holidays");

interface HolidayKey {
  date: string;
  name: string;
  branch_id?: string | null;
  work_location_id?: string | null;
}
const holidayKey = (h: HolidayKey) => `${h.date}|${h.name.trim().toLowerCase()}|${h.branch_id ?? ""}|${h.work_location_id ?? ""}`;

async function assertNoDuplicateHolidays(tx: ScopedTx, list: HolidayKey[], exceptId?: string) {
  const seen = new Set<string>();
  for (const h of list) {
    const k = holidayKey(h);
    if (seen.has(k)) throw conflict(`${h.name} on ${h.date} is listed twice`);
    seen.add(k);
  }
  const dates = [...new Set(list.map((h) => h.date))].map(parseDate);
  const existing = await tx.holiday.findMany({ where: { date: { in: dates }, ...(exceptId ? { NOT: { id: exceptId } } : {}) } });
  for (const e of existing) {
    const k = holidayKey({ date: toDateString(e.date), name: e.name, branch_id: e.branch_id, work_location_id: e.work_location_id });
    if (seen.has(k)) throw conflict(`The holiday ${e.name} on ${toDateString(e.date)} already exists`);
  }
}

type HolidayFields = { description?: string | null; is_optional?: boolean; branch_id?: string | null; work_location_id?: string | null };
/** The optional columns given (a field left out keeps its default or current value). */
const optionalColumns = (h: HolidayFields) => ({
  ...(h.description !== undefined ? { description: h.description } : {}),
  ...(h.is_optional !== undefined ? { is_optional: h.is_optional } : {}),
  ...(h.branch_id !== undefined ? { branch_id: h.branch_id } : {}),
  ...(h.work_location_id !== undefined ? { work_location_id: h.work_location_id } : {}),
});
const newHolidayRow = (h: NewHoliday) => ({ date: parseDate(h.date), name: h.name.trim(), ...optionalColumns(h) });
const changedColumns = (h: RequestBody<"updateHoliday">) => ({
  ...(h.date !== undefined ? { date: parseDate(h.date) } : {}),
  ...(h.name !== undefined ? { name: h.name.trim() } : {}),
  ...optionalColumns(h),
});

/** Holidays of a year (the current one by default) or a date range, optionally of one branch (and the company-wide ones). */
export async function holidayPage(query: QueryParams<"listHolidays">): Promise<Listing<HolidayJson>> {
  const page = pageOf(query);
  let from = query.from_date;
  let to = query.to_date;
  if (query.year) {
    from = `${query.year}-01-01`;
    to = `${query.year}-12-31`;
  } else if (!from && !to) {
    const year = tenantToday(await loadAttendanceSettings()).slice(0, 4);
    from = `${year}-01-01`;
    to = `${year}-12-31`;
  }
  if (from && to && to < from)
    throw badRequest("to_date must not be before from_date", [{ path: "query.to_date", message: "must not be before from_date" }]);
  const where: Prisma.HolidayWhereInput = {
    date: { ...(from ? { gte: parseDate(from) } : {}), ...(to ? { lte: parseDate(to) } : {}) },
    ...(query.branch_id ? { OR: [{ branch_id: null }, { branch_id: query.branch_id }] } : {}),
  };
  const [rows, total] = await Promise.all([
    db.holiday.findMany({ where, orderBy: [{ date: "asc" }, { name: "asc" }], skip: page.skip, take: page.limit }),
    db.holiday.count({ where }),
  ]);
  return { rows: rows.map(holidayJson), page, total };
}

export async function addHoliday(body: NewHoliday): Promise<HolidayJson> {
  const h = await tenantTx(async (tx) => {
    await lockHolidays(tx);
    await assertNoDuplicateHolidays(tx, [body]);
    const row = await tx.holiday.create({ data: newHolidayRow(body) });
    await audit({ action: "holiday.created", entity_type: "holiday", entity_id: row.id, changes: { date: body.date, name: row.name } }, tx);
    return row;
  });
  return holidayJson(h);
}

/** Several holidays at once (all or none), in date order. */
export async function addHolidays(body: RequestBody<"createHolidaysBulk">): Promise<HolidayJson[]> {
  const rows = await tenantTx(async (tx) => {
    await lockHolidays(tx);
    await assertNoDuplicateHolidays(tx, body.holidays);
    const made = await tx.holiday.createManyAndReturn({ data: body.holidays.map(newHolidayRow) });
    await audit(
      {
        action: "holiday.bulk_created",
        entity_type: "holiday",
        entity_id: null,
        changes: { count: made.length, holidays: body.holidays.map((h) => `${h.date} ${h.name}`) },
      },
      tx,
    );
    return made;
  });
  rows.sort((a, b) => a.date.getTime() - b.date.getTime() || a.name.localeCompare(b.name));
  return rows.map(holidayJson);
}

export async function holidayById(id: string): Promise<HolidayJson> {
  const h = await db.holiday.findFirst({ where: { id } });
  if (!h) throw notFound("Holiday");
  return holidayJson(h);
}

export async function changeHoliday(id: string, body: RequestBody<"updateHoliday">): Promise<HolidayJson> {
  const h = await tenantTx(async (tx) => {
    await lockHolidays(tx);
    const before = await tx.holiday.findFirst({ where: { id } });
    if (!before) throw notFound("Holiday");
    const merged = {
      date: body.date ?? toDateString(before.date),
      name: body.name ?? before.name,
      branch_id: body.branch_id !== undefined ? body.branch_id : before.branch_id,
      work_location_id: body.work_location_id !== undefined ? body.work_location_id : before.work_location_id,
    };
    await assertNoDuplicateHolidays(tx, [merged], before.id);
    const data = changedColumns(body);
    const after = await tx.holiday.update({ where: byId(before.id), data });
    const changes = diff(before, after, Object.keys(data));
    if (Object.keys(changes).length) await audit({ action: "holiday.updated", entity_type: "holiday", entity_id: after.id, changes }, tx);
    return after;
  });
  return holidayJson(h);
}

export async function removeHoliday(id: string): Promise<void> {
  await tenantTx(async (tx) => {
    const h = await tx.holiday.findFirst({ where: { id } });
    if (!h) throw notFound("Holiday");
    await tx.holiday.delete({ where: byId(h.id) });
    await audit(
      { action: "holiday.deleted", entity_type: "holiday", entity_id: h.id, changes: { date: toDateString(h.date), name: h.name } },
      tx,
    );
  });
}
