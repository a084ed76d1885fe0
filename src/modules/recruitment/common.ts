// Recruitment: shared rules and helpers - who recruits, what a manager may see, the company's
// name / time zone / currency, names of people, and small value checks (row locks: queries.ts).
import { activeTenant } from "../../db/central.ts";
import { db, type ScopedTx } from "../../db/tenancy.ts";
import { badRequest, type ErrorDetail, invalidField } from "../../platform/errors.ts";
import type { AuthContext } from "../../platform/use-case.ts";
import { todayIn, type DateString } from "../../lib/dates.ts";
import { formatMoney, money, moneyStringOrNull } from "../../lib/money.ts";
import { hrMemberIds, userNames } from "../shared/access.ts";

/** owner, admin and hr run recruitment; managers raise requisitions and interview. */

export interface Company {
  id: string;
  name: string;
  timezone: string;
  currency: string;
  /** The postal address the letters print under the name. */
  address: string | null;
}

/** The active tenant as recruitment shows it (legal name first). */
export async function companyOf(): Promise<Company> {
  const t = await activeTenant({ id: true, name: true, legal_name: true, timezone: true, currency: true, address: true });
  return { id: t.id, name: t.legal_name || t.name, timezone: t.timezone, currency: t.currency, address: t.address };
}

export async function companyToday(): Promise<DateString> {
  return todayIn((await companyOf()).timezone);
}

export { userNames };

/** The department of the employee record linked to a manager (null when none is linked). */
export async function managerDepartment(auth: AuthContext): Promise<string | null> {
  if (!auth.employeeId) return null;
  const e = await db.employee.findFirst({ where: { id: auth.employeeId, deleted_at: null }, select: { department: true } });
  return e?.department ?? null;
}

/** owner, admin and hr members of the company other than `except`, with their e-mail addresses. */
export async function recruiters(tx: ScopedTx, except?: string | null): Promise<{ userId: string; email: string | null }[]> {
  const ids = await hrMemberIds(tx, except);
  const names = await userNames(ids);
  return ids.map((userId) => ({ userId, email: names.get(userId)?.email ?? null }));
}

/** The fields of `body` named in `keys` that are given (not undefined), in the order of `keys`. */
export function givenFields<T extends object, K extends keyof T>(body: T, keys: readonly K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (body[k] !== undefined) out[k] = body[k];
  return out;
}

type Named = { first_name?: string; last_name?: string; email?: string };

/** 400 naming each of first_name, last_name, email that is missing (`alternative` says what else would do). */
export function requireNames<T extends Named>(data: T, alternative: string): T & Required<Named> {
  const missing: ErrorDetail[] = (["first_name", "last_name", "email"] as const)
    .filter((f) => !data[f])
    .map((f) => ({ path: `body.${f}`, message: "is required" }));
  if (missing.length) throw badRequest(`${missing.map((d) => d.path.slice(5)).join(", ")} required (or give ${alternative})`, missing);
  return data as T & Required<Named>;
}

/** Skills and tags: trimmed, lower-case, without duplicates, in the order given. */
export function normalizeTerms(list: string[] | undefined): string[] | undefined {
  if (!list) return undefined;
  const out: string[] = [];
  for (const raw of list) {
    const v = raw.trim().toLowerCase().replace(/\s+/g, " ");
    if (v && !out.includes(v)) out.push(v);
  }
  return out;
}

export function trimOrNull(v: string | null | undefined): string | null | undefined {
  if (v === undefined || v === null) return v;
  const t = v.trim();
  return t === "" ? null : t;
}

/** 400 naming the field unless the amount is ≥ 0 (or > 0 with `positive`). */
export function checkAmount(path: string, v: unknown, opts: { positive?: boolean } = {}): void {
  if (v === null || v === undefined) return;
  const d = money(String(v));
  if (d.isNegative() || (opts.positive && d.isZero()))
    throw invalidField(path, opts.positive ? "must be greater than zero" : "must not be negative");
}

/** 400 unless min ≤ max (both given). */
export function checkSalaryRange(min: unknown, max: unknown, path = "body.max_salary"): void {
  if (min === null || min === undefined || max === null || max === undefined) return;
  if (money(String(min)).gt(money(String(max)))) throw invalidField(path, "must not be less than the minimum salary");
}

export const moneyOut = (v: { toString(): string } | null | undefined) => moneyStringOrNull(v);
export const numberOut = (v: { toString(): string } | null | undefined) => (v === null || v === undefined ? null : Number(v.toString()));

/** A file of the company (uploaded through POST /api/upload), or 400 naming the field. */
export async function checkFile(tx: ScopedTx, fileId: string | null | undefined, path: string): Promise<void> {
  if (!fileId) return;
  if (!(await tx.storedFile.findFirst({ where: { id: fileId }, select: { id: true } })))
    throw invalidField(path, "is not a file of this company");
}

/** Name of a person from first/last. */
export const fullName = (p: { first_name: string; last_name: string }) => `${p.first_name} ${p.last_name}`.trim();

/** "Tuesday, 10 February 2026, 15:00" in the time zone. */
export function formatInstant(d: Date, timeZone: string): string {
  return new Intl.DateTimeFormat("en-GB", {
    timeZone,
    weekday: "long",
    day: "numeric",
    month: "long",
    year: "numeric",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).format(d);
}

/** "24,00,000.00" (Indian grouping for INR) or "2,400,000.00": the shared formatter of src/lib/money.ts. */
export { formatMoney };

export const EMPLOYMENT_LABELS: Record<string, string> = {
  full_time: "Full-time",
  part_time: "Part-time",
  contract: "Contract",
  fixed_term: "Fixed-term",
  intern: "Internship",
};
