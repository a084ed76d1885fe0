// Leave configuration: types, periods (fiscal years), policies and holidays. hr/admin/owner manage
// them; every change is audited in the same transaction.
import type { Prisma } from "../../../generated/prisma/client.ts";
import { audit, diff } from "../../audit.ts";
import { currentTenantId, db, type ScopedTx, tenantTx } from "../../db/tenancy.ts";
import { ack, created, ok, pageOf, paginated } from "../../http/envelope.ts";
import { badRequest, conflict, invalidField, notFound } from "../../http/errors.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { daysBetween, parseDate, toDateString } from "../../lib/dates.ts";
import { loadAttendanceSettings, tenantToday } from "../shared/work-settings.ts";
import { days } from "./days.ts";
import { holidayJson, leaveTypeJson, periodJson, policyJson } from "./json.ts";

const isUniqueViolation = (err: unknown) => (err as { code?: string })?.code === "P2002";

async function tenantLock(tx: ScopedTx, what: string) {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended(${`${what}:${currentTenantId()}`}, 0))`;
}

// ───────────────────────────── leave types ─────────────────────────────

type TypeFields = {
  allow_negative_balance?: boolean; negative_balance_limit?: string | { toString(): string } | null; carry_forward?: boolean; carry_forward_max_days?: unknown; carry_forward_expiry_days?: unknown;
  encashable?: boolean; encashment_max_days?: unknown; encashment_min_balance?: unknown; is_compensatory?: boolean; comp_off_validity_days?: unknown;
};
/** Options that only make sense with their switch on (checked on the merged result of an update). */
function checkTypeRules(t: TypeFields) {
  const set = (v: unknown) => v !== null && v !== undefined;
  if (!t.allow_negative_balance && days(t.negative_balance_limit ?? 0).gt(0)) throw invalidField("body.negative_balance_limit", "needs allow_negative_balance");
  if (!t.carry_forward && (set(t.carry_forward_max_days) || set(t.carry_forward_expiry_days))) throw invalidField("body.carry_forward_max_days", "and carry_forward_expiry_days need carry_forward");
  if (!t.encashable && (set(t.encashment_max_days) || set(t.encashment_min_balance))) throw invalidField("body.encashment_max_days", "and encashment_min_balance need encashable");
  if (!t.is_compensatory && set(t.comp_off_validity_days)) throw invalidField("body.comp_off_validity_days", "needs is_compensatory");
}

function typeData(body: Record<string, unknown>) {
  const data: Record<string, unknown> = { ...body };
  if (typeof data.code === "string") data.code = data.code.toUpperCase();
  return data;
}

async function typeInUse(id: string): Promise<boolean> {
  const counts = await Promise.all([
    db.leavePolicyItem.count({ where: { leave_type_id: id } }),
    db.leaveAllocation.count({ where: { leave_type_id: id } }),
    db.leaveLedgerEntry.count({ where: { leave_type_id: id } }),
    db.leaveRequest.count({ where: { leave_type_id: id } }),
    db.leaveEncashment.count({ where: { leave_type_id: id } }),
    db.holidayWorkRequest.count({ where: { leave_type_id: id } }),
  ]);
  return counts.some((c) => c > 0);
}

// ───────────────────────────── periods ─────────────────────────────

function checkPeriodDates(start: string, end: string) {
  if (end < start) throw invalidField("body.end_date", "must not be before start_date");
  if (daysBetween(start, end) + 1 > 366) throw invalidField("body.end_date", "makes the period longer than 366 days");
}

async function assertNoOverlap(tx: ScopedTx, start: string, end: string, exceptId?: string) {
  const other = await tx.leavePeriod.findFirst({ where: { start_date: { lte: parseDate(end) }, end_date: { gte: parseDate(start) }, ...(exceptId ? { NOT: { id: exceptId } } : {}) } });
  if (other) throw conflict(`The period overlaps ${other.name} (${toDateString(other.start_date)} to ${toDateString(other.end_date)})`);
}

async function periodInUse(c: ScopedTx | typeof db, id: string): Promise<boolean> {
  const counts = await Promise.all([
    c.leaveAllocation.count({ where: { period_id: id } }),
    c.leaveLedgerEntry.count({ where: { period_id: id } }),
    c.leaveRequest.count({ where: { period_id: id } }),
    c.leaveEncashment.count({ where: { period_id: id } }),
  ]);
  return counts.some((c) => c > 0);
}

// ───────────────────────────── policies ─────────────────────────────

const policyInclude = { items: { include: { leave_type: { select: { code: true } } } }, employees: { select: { employee_id: true } } } as const;

interface PolicyShape {
  assignment?: string;
  departments?: string[];
  designations?: string[];
  employee_ids?: string[];
}
function checkAssignment(p: Required<PolicyShape>) {
  if (p.assignment === "department" && !p.departments.length) throw invalidField("body.departments", "must name at least one department for assignment department");
  if (p.assignment === "designation" && !p.designations.length) throw invalidField("body.designations", "must name at least one designation for assignment designation");
  if (p.assignment === "individual" && !p.employee_ids.length) throw invalidField("body.employee_ids", "must name at least one employee for assignment individual");
}

async function checkPolicyRefs(items: { leave_type_id: string }[] | undefined, employeeIds: string[] | undefined) {
  if (items) {
    const ids = items.map((i) => i.leave_type_id);
    if (new Set(ids).size !== ids.length) throw invalidField("body.items", "names a leave type twice");
    const found = await db.leaveType.count({ where: { id: { in: ids } } });
    if (found !== ids.length) throw notFound("Leave type");
  }
  if (employeeIds?.length) {
    const found = await db.employee.count({ where: { id: { in: employeeIds }, deleted_at: null } });
    if (found !== employeeIds.length) throw notFound("Employee");
  }
}

type PolicyItemInput = { leave_type_id: string; annual_quota: string; accrual?: string; accrual_day?: string };
const itemRows = (items: PolicyItemInput[]) => items.map((i) => ({ leave_type_id: i.leave_type_id, annual_quota: i.annual_quota, accrual: i.accrual ?? "upfront", accrual_day: i.accrual_day ?? "first_day" }));

// ───────────────────────────── holidays ─────────────────────────────

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

const holidayData = (h: { date?: string; name?: string; description?: string | null; is_optional?: boolean; branch_id?: string | null; work_location_id?: string | null }) => ({
  ...(h.date !== undefined ? { date: parseDate(h.date) } : {}),
  ...(h.name !== undefined ? { name: h.name.trim() } : {}),
  ...(h.description !== undefined ? { description: h.description } : {}),
  ...(h.is_optional !== undefined ? { is_optional: h.is_optional } : {}),
  ...(h.branch_id !== undefined ? { branch_id: h.branch_id } : {}),
  ...(h.work_location_id !== undefined ? { work_location_id: h.work_location_id } : {}),
});

export const configHandlers = {
  // ── types
  async listLeaveTypes({ query }) {
    const page = pageOf(query);
    const where: Prisma.LeaveTypeWhereInput = query.active === undefined ? {} : { active: query.active };
    const [rows, total] = await Promise.all([db.leaveType.findMany({ where, orderBy: [{ name: "asc" }, { id: "asc" }], skip: page.skip, take: page.limit }), db.leaveType.count({ where })]);
    return paginated(rows.map(leaveTypeJson), page, total);
  },

  async createLeaveType({ body }) {
    checkTypeRules(body);
    try {
      const t = await tenantTx(async (tx) => {
        const row = await tx.leaveType.create({ data: typeData(body) as any });
        await audit({ action: "leave_type.created", entity_type: "leave_type", entity_id: row.id, changes: { code: row.code, name: row.name } }, tx);
        return row;
      });
      return created(leaveTypeJson(t), "Leave type created");
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(`A leave type with code ${body.code.toUpperCase()} already exists`);
      throw err;
    }
  },

  async getLeaveType({ params }) {
    const t = await db.leaveType.findFirst({ where: { id: params.id } });
    if (!t) throw notFound("Leave type");
    return ok(leaveTypeJson(t));
  },

  async updateLeaveType({ params, body }) {
    const before = await db.leaveType.findFirst({ where: { id: params.id } });
    if (!before) throw notFound("Leave type");
    checkTypeRules({ ...before, ...body });
    try {
      const t = await tenantTx(async (tx) => {
        const data = typeData(body);
        const after = await tx.leaveType.update({ where: { id: params.id }, data: data as any });
        const changes = diff(before as any, after as any, Object.keys(data));
        if (Object.keys(changes).length) await audit({ action: "leave_type.updated", entity_type: "leave_type", entity_id: after.id, changes }, tx);
        return after;
      });
      return ok(leaveTypeJson(t), "Leave type updated");
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(`A leave type with code ${String(body.code).toUpperCase()} already exists`);
      throw err;
    }
  },

  async deleteLeaveType({ params }) {
    const t = await db.leaveType.findFirst({ where: { id: params.id } });
    if (!t) throw notFound("Leave type");
    if (await typeInUse(t.id)) throw conflict("The leave type is in use (policies, allocations, ledger or requests); retire it with active: false instead");
    await tenantTx(async (tx) => {
      await tx.leaveType.delete({ where: { id: t.id } });
      await audit({ action: "leave_type.deleted", entity_type: "leave_type", entity_id: t.id, changes: { code: t.code, name: t.name } }, tx);
    });
    return ack("Leave type deleted");
  },

  // ── periods
  async listLeavePeriods({ query }) {
    const page = pageOf(query);
    const [rows, total] = await Promise.all([db.leavePeriod.findMany({ orderBy: [{ start_date: "desc" }], skip: page.skip, take: page.limit }), db.leavePeriod.count()]);
    return paginated(rows.map(periodJson), page, total);
  },

  async createLeavePeriod({ body }) {
    checkPeriodDates(body.start_date, body.end_date);
    const p = await tenantTx(async (tx) => {
      await tenantLock(tx, "leave-periods");
      await assertNoOverlap(tx, body.start_date, body.end_date);
      const current = (await tx.leavePeriod.count()) === 0 || body.is_current === true;
      if (current) await tx.leavePeriod.updateMany({ where: { is_current: true }, data: { is_current: false } });
      const row = await tx.leavePeriod.create({ data: { name: body.name, start_date: parseDate(body.start_date), end_date: parseDate(body.end_date), is_current: current } as any });
      await audit({ action: "leave_period.created", entity_type: "leave_period", entity_id: row.id, changes: { name: row.name, start_date: body.start_date, end_date: body.end_date, is_current: current } }, tx);
      return row;
    });
    return created(periodJson(p), "Leave period created");
  },

  async getLeavePeriod({ params }) {
    const p = await db.leavePeriod.findFirst({ where: { id: params.id } });
    if (!p) throw notFound("Leave period");
    return ok(periodJson(p));
  },

  async updateLeavePeriod({ params, body }) {
    const p = await tenantTx(async (tx) => {
      await tenantLock(tx, "leave-periods");
      const before = await tx.leavePeriod.findFirst({ where: { id: params.id } });
      if (!before) throw notFound("Leave period");
      const start = body.start_date ?? toDateString(before.start_date);
      const end = body.end_date ?? toDateString(before.end_date);
      const datesChange = start !== toDateString(before.start_date) || end !== toDateString(before.end_date);
      if (datesChange) {
        checkPeriodDates(start, end);
        if (await periodInUse(tx, before.id)) throw conflict("The dates of a period with allocations, ledger entries or requests cannot change");
        await assertNoOverlap(tx, start, end, before.id);
      }
      if (body.is_current === false && before.is_current) throw conflict("Exactly one period is current: make another period current instead");
      if (body.is_current === true && !before.is_current) await tx.leavePeriod.updateMany({ where: { is_current: true }, data: { is_current: false } });
      const data = { ...(body.name !== undefined ? { name: body.name } : {}), start_date: parseDate(start), end_date: parseDate(end), ...(body.is_current !== undefined ? { is_current: body.is_current } : {}) };
      const after = await tx.leavePeriod.update({ where: { id: before.id }, data });
      const changes = diff(before as any, after as any, Object.keys(data));
      if (Object.keys(changes).length) await audit({ action: "leave_period.updated", entity_type: "leave_period", entity_id: after.id, changes }, tx);
      return after;
    });
    return ok(periodJson(p), "Leave period updated");
  },

  async deleteLeavePeriod({ params }) {
    await tenantTx(async (tx) => {
      await tenantLock(tx, "leave-periods");
      const p = await tx.leavePeriod.findFirst({ where: { id: params.id } });
      if (!p) throw notFound("Leave period");
      if (await periodInUse(tx, p.id)) throw conflict("The period has allocations, ledger entries or requests and cannot be deleted");
      if (p.is_current && (await tx.leavePeriod.count()) > 1) throw conflict("The current period cannot be deleted while other periods exist: make another period current first");
      await tx.leavePeriod.delete({ where: { id: p.id } });
      await audit({ action: "leave_period.deleted", entity_type: "leave_period", entity_id: p.id, changes: { name: p.name } }, tx);
    });
    return ack("Leave period deleted");
  },

  // ── policies
  async listLeavePolicies({ query }) {
    const page = pageOf(query);
    const [rows, total] = await Promise.all([
      db.leavePolicy.findMany({ include: policyInclude, orderBy: [{ name: "asc" }, { id: "asc" }], skip: page.skip, take: page.limit }),
      db.leavePolicy.count(),
    ]);
    return paginated(rows.map(policyJson), page, total);
  },

  async createLeavePolicy({ body }) {
    const shape = { assignment: body.assignment ?? "default", departments: body.departments ?? [], designations: body.designations ?? [], employee_ids: body.employee_ids ?? [] };
    checkAssignment(shape);
    await checkPolicyRefs(body.items, shape.employee_ids);
    const p = await tenantTx(async (tx) => {
      const row = await tx.leavePolicy.create({
        data: { name: body.name, description: body.description ?? null, assignment: shape.assignment, departments: shape.departments, designations: shape.designations } as any,
      });
      await tx.leavePolicyItem.createMany({ data: itemRows(body.items).map((i) => ({ ...i, policy_id: row.id })) as any });
      if (shape.employee_ids.length) await tx.leavePolicyEmployee.createMany({ data: shape.employee_ids.map((employee_id) => ({ policy_id: row.id, employee_id })) as any });
      await audit({ action: "leave_policy.created", entity_type: "leave_policy", entity_id: row.id, changes: { name: row.name, assignment: shape.assignment, items: body.items } }, tx);
      return tx.leavePolicy.findFirstOrThrow({ where: { id: row.id }, include: policyInclude });
    });
    return created(policyJson(p), "Leave policy created");
  },

  async getLeavePolicy({ params }) {
    const p = await db.leavePolicy.findFirst({ where: { id: params.id }, include: policyInclude });
    if (!p) throw notFound("Leave policy");
    return ok(policyJson(p));
  },

  async updateLeavePolicy({ params, body }) {
    const before = await db.leavePolicy.findFirst({ where: { id: params.id }, include: policyInclude });
    if (!before) throw notFound("Leave policy");
    const shape = {
      assignment: body.assignment ?? before.assignment,
      departments: body.departments ?? before.departments,
      designations: body.designations ?? before.designations,
      employee_ids: body.employee_ids ?? before.employees.map((e) => e.employee_id),
    };
    checkAssignment(shape);
    await checkPolicyRefs(body.items, body.employee_ids);
    const p = await tenantTx(async (tx) => {
      const data: Record<string, unknown> = {};
      for (const k of ["name", "description", "assignment", "departments", "designations", "active"] as const) if (body[k] !== undefined) data[k] = body[k];
      if (Object.keys(data).length) await tx.leavePolicy.update({ where: { id: before.id }, data });
      if (body.items) {
        await tx.leavePolicyItem.deleteMany({ where: { policy_id: before.id } });
        await tx.leavePolicyItem.createMany({ data: itemRows(body.items).map((i) => ({ ...i, policy_id: before.id })) as any });
      }
      if (body.employee_ids) {
        await tx.leavePolicyEmployee.deleteMany({ where: { policy_id: before.id } });
        if (body.employee_ids.length) await tx.leavePolicyEmployee.createMany({ data: body.employee_ids.map((employee_id) => ({ policy_id: before.id, employee_id })) as any });
      }
      const after = await tx.leavePolicy.findFirstOrThrow({ where: { id: before.id }, include: policyInclude });
      const changes: Record<string, unknown> = diff(before as any, after as any, Object.keys(data));
      if (body.items) changes.items = { from: policyJson(before).items, to: policyJson(after).items };
      if (body.employee_ids) changes.employee_ids = { from: policyJson(before).employee_ids, to: policyJson(after).employee_ids };
      await audit({ action: "leave_policy.updated", entity_type: "leave_policy", entity_id: before.id, changes }, tx);
      return after;
    });
    return ok(policyJson(p), "Leave policy updated");
  },

  async deleteLeavePolicy({ params }) {
    const p = await db.leavePolicy.findFirst({ where: { id: params.id } });
    if (!p) throw notFound("Leave policy");
    if (await db.leaveAllocation.count({ where: { policy_id: p.id } })) throw conflict("Allocations were made from this policy; deactivate it with active: false instead");
    await tenantTx(async (tx) => {
      await tx.leavePolicyItem.deleteMany({ where: { policy_id: p.id } });
      await tx.leavePolicyEmployee.deleteMany({ where: { policy_id: p.id } });
      await tx.leavePolicy.delete({ where: { id: p.id } });
      await audit({ action: "leave_policy.deleted", entity_type: "leave_policy", entity_id: p.id, changes: { name: p.name } }, tx);
    });
    return ack("Leave policy deleted");
  },

  // ── holidays
  async listHolidays({ query }) {
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
    if (from && to && to < from) throw badRequest("to_date must not be before from_date", [{ path: "query.to_date", message: "must not be before from_date" }]);
    const where: Prisma.HolidayWhereInput = {
      date: { ...(from ? { gte: parseDate(from) } : {}), ...(to ? { lte: parseDate(to) } : {}) },
      ...(query.branch_id ? { OR: [{ branch_id: null }, { branch_id: query.branch_id }] } : {}),
    };
    const [rows, total] = await Promise.all([db.holiday.findMany({ where, orderBy: [{ date: "asc" }, { name: "asc" }], skip: page.skip, take: page.limit }), db.holiday.count({ where })]);
    return paginated(rows.map(holidayJson), page, total);
  },

  async createHoliday({ body }) {
    const h = await tenantTx(async (tx) => {
      await tenantLock(tx, "holidays");
      await assertNoDuplicateHolidays(tx, [body]);
      const row = await tx.holiday.create({ data: holidayData(body) as any });
      await audit({ action: "holiday.created", entity_type: "holiday", entity_id: row.id, changes: { date: body.date, name: row.name } }, tx);
      return row;
    });
    return created(holidayJson(h), "Holiday created");
  },

  async createHolidaysBulk({ body }) {
    const rows = await tenantTx(async (tx) => {
      await tenantLock(tx, "holidays");
      await assertNoDuplicateHolidays(tx, body.holidays);
      const made = await tx.holiday.createManyAndReturn({ data: body.holidays.map(holidayData) as any });
      await audit({ action: "holiday.bulk_created", entity_type: "holiday", entity_id: null, changes: { count: made.length, holidays: body.holidays.map((h) => `${h.date} ${h.name}`) } }, tx);
      return made;
    });
    rows.sort((a, b) => a.date.getTime() - b.date.getTime() || a.name.localeCompare(b.name));
    return created(rows.map(holidayJson), `${rows.length} holidays created`);
  },

  async getHoliday({ params }) {
    const h = await db.holiday.findFirst({ where: { id: params.id } });
    if (!h) throw notFound("Holiday");
    return ok(holidayJson(h));
  },

  async updateHoliday({ params, body }) {
    const h = await tenantTx(async (tx) => {
      await tenantLock(tx, "holidays");
      const before = await tx.holiday.findFirst({ where: { id: params.id } });
      if (!before) throw notFound("Holiday");
      const merged = {
        date: body.date ?? toDateString(before.date),
        name: body.name ?? before.name,
        branch_id: body.branch_id !== undefined ? body.branch_id : before.branch_id,
        work_location_id: body.work_location_id !== undefined ? body.work_location_id : before.work_location_id,
      };
      await assertNoDuplicateHolidays(tx, [merged], before.id);
      const data = holidayData(body);
      const after = await tx.holiday.update({ where: { id: before.id }, data });
      const changes = diff(before as any, after as any, Object.keys(data));
      if (Object.keys(changes).length) await audit({ action: "holiday.updated", entity_type: "holiday", entity_id: after.id, changes }, tx);
      return after;
    });
    return ok(holidayJson(h), "Holiday updated");
  },

  async deleteHoliday({ params }) {
    await tenantTx(async (tx) => {
      const h = await tx.holiday.findFirst({ where: { id: params.id } });
      if (!h) throw notFound("Holiday");
      await tx.holiday.delete({ where: { id: h.id } });
      await audit({ action: "holiday.deleted", entity_type: "holiday", entity_id: h.id, changes: { date: toDateString(h.date), name: h.name } }, tx);
    });
    return ack("Holiday deleted");
  },
} satisfies Partial<AreaHandlers<"leave">>;
