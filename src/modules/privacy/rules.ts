// The privacy rules as effective-dated data, per jurisdiction: how long each class of records must
// be kept (the retention schedule), how long a company has to answer a person's request, and the
// clocks of a breach. A rule applies from `effective_from`; the newest one in force on the day that
// counts (the request's receipt, the breach's discovery, the erasure) is used. Each rule's source is
// cited in docs/privacy.md; change a period by adding a row with its date, never by editing one.
import { addDays, type DateString } from "../../lib/dates.ts";

export type Jurisdiction = "IN" | "AE";
export type RequestType = "access" | "correction" | "erasure" | "grievance" | "nomination";

/** What the retention period is counted from. */
export type CountedFrom = "end_of_financial_year" | "record_date" | "end_of_service" | "last_stage_change" | "processing";

export interface RetentionRule {
  jurisdiction: Jurisdiction;
  record_class: string;
  period_years: number;
  period_days: number;
  counted_from: CountedFrom;
  rule: string;
  source: string;
  effective_from: DateString;
  action_after: "delete" | "pseudonymise";
}

const IN_FY = "end_of_financial_year" as const;

export const RETENTION_RULES: readonly RetentionRule[] = [
  {
    jurisdiction: "IN",
    record_class: "payslips",
    period_years: 8,
    period_days: 0,
    counted_from: IN_FY,
    rule:
      "Salary slips are vouchers of the books of account (wages paid, deductions, employer " +
      "contributions to PF and ESI): kept for eight financial years; longer than the wage " +
      "register's period under the labour codes and the ESI register's five years, which they " +
      "also satisfy",
    source: "Companies Act 2013 s.128(5); Code on Wages 2019 s.50; ESI (General) Regulations 1950 reg.32(2)",
    effective_from: "2014-04-01",
    action_after: "delete",
  },
  {
    jurisdiction: "IN",
    record_class: "attendance",
    period_years: 5,
    period_days: 0,
    counted_from: "record_date",
    rule: "The muster roll (attendance) is a register of the labour codes, preserved for five years from the last entry",
    source: "ESI (General) Regulations 1950 reg.32(2) (five years); Code on Wages 2019 s.50 and its rules",
    effective_from: "2025-11-21",
    action_after: "delete",
  },
  {
    jurisdiction: "IN",
    record_class: "employee_profile",
    period_years: 0,
    period_days: 0,
    counted_from: "processing",
    rule:
      "Erased on request or when its purpose ends: pseudonymised (the employee code kept as the " +
      "key of the records still retained), documents deleted",
    source: "DPDP Act 2023 s.8(7), s.12(3)",
    effective_from: "2027-05-13",
    action_after: "pseudonymise",
  },
  {
    jurisdiction: "IN",
    record_class: "candidates_not_hired",
    period_years: 1,
    period_days: 0,
    counted_from: "last_stage_change",
    rule:
      "A candidate not hired: the purpose ends with the decision; personal data and the logs of " +
      "its processing are kept one year from the processing, then erased without a request",
    source: "DPDP Act 2023 s.8(7); DPDP Rules 2025 r.8(3) and Seventh Schedule",
    effective_from: "2027-05-13",
    action_after: "pseudonymise",
  },
  {
    jurisdiction: "IN",
    record_class: "activity_log",
    period_years: 1,
    period_days: 0,
    counted_from: "processing",
    rule: "Logs of the processing are kept at least one year from the processing (the activity log is not erased by a request)",
    source: "DPDP Rules 2025 r.8(3)",
    effective_from: "2027-05-13",
    action_after: "delete",
  },
  {
    jurisdiction: "AE",
    record_class: "payslips",
    period_years: 2,
    period_days: 0,
    counted_from: "end_of_service",
    rule: "The worker's file and records (wages included) are kept at least two years after the end of service",
    source: "Federal Decree-Law 33/2021 art.13(1)",
    effective_from: "2022-02-02",
    action_after: "delete",
  },
  {
    jurisdiction: "AE",
    record_class: "attendance",
    period_years: 2,
    period_days: 0,
    counted_from: "end_of_service",
    rule: "Part of the worker's file: kept at least two years after the end of service",
    source: "Federal Decree-Law 33/2021 art.13(1)",
    effective_from: "2022-02-02",
    action_after: "delete",
  },
  {
    jurisdiction: "AE",
    record_class: "employee_profile",
    period_years: 0,
    period_days: 0,
    counted_from: "processing",
    rule: "Erased on request when no law requires it kept: pseudonymised, documents deleted",
    source: "Federal Decree-Law 45/2021 art.15",
    effective_from: "2022-01-02",
    action_after: "pseudonymise",
  },
  {
    jurisdiction: "AE",
    record_class: "candidates_not_hired",
    period_years: 1,
    period_days: 0,
    counted_from: "last_stage_change",
    rule: "No law requires it kept once the purpose ends (art.5: kept no longer than the purpose needs); the company's period: one year",
    source: "Federal Decree-Law 45/2021 art.5",
    effective_from: "2022-01-02",
    action_after: "pseudonymise",
  },
];

/** The rules of `jurisdiction` in force on `day`: for each record class the newest that applies by then. */
export function retentionSchedule(jurisdiction: Jurisdiction, day: DateString): RetentionRule[] {
  const byClass = new Map<string, RetentionRule>();
  for (const r of RETENTION_RULES)
    if (r.jurisdiction === jurisdiction && r.effective_from <= day) {
      const have = byClass.get(r.record_class);
      if (!have || have.effective_from < r.effective_from) byClass.set(r.record_class, r);
    }
  return [...byClass.values()];
}

/** The end of the Indian financial year (31 March) of a date. */
function financialYearEnd(d: DateString): DateString {
  const [y, m] = d.split("-").map(Number);
  return `${m >= 4 ? y + 1 : y}-03-31`;
}

export function addYears(d: DateString, years: number): DateString {
  const [y, m, day] = d.split("-").map(Number);
  const target = `${String(y + years).padStart(4, "0")}-${String(m).padStart(2, "0")}-`;
  // 29 February of a year that is not leap: 28 February
  const last = new Date(Date.UTC(y + years, m, 0)).getUTCDate();
  return `${target}${String(Math.min(day, last)).padStart(2, "0")}`;
}

/** Until when a record of `rule` dated `recordDate` must be kept (`endOfService` for the UAE worker file). */
export function retainUntil(rule: RetentionRule, recordDate: DateString, endOfService: DateString | null): DateString {
  const from =
    rule.counted_from === "end_of_financial_year"
      ? financialYearEnd(recordDate)
      : rule.counted_from === "end_of_service"
        ? (endOfService ?? recordDate) > recordDate
          ? (endOfService ?? recordDate)
          : recordDate
        : recordDate;
  return addDays(addYears(from, rule.period_years), rule.period_days);
}

// ─── request clocks ───

export interface Clock {
  days: number | null;
  hours: number | null;
  basis: "statutory" | "policy";
  source: string;
  effective_from: DateString;
}

interface RequestClock extends Clock {
  jurisdiction: Jurisdiction;
  types: readonly RequestType[];
}

const ALL_TYPES: readonly RequestType[] = ["access", "correction", "erasure", "grievance", "nomination"];

export const REQUEST_CLOCKS: readonly RequestClock[] = [
  {
    jurisdiction: "IN",
    types: ALL_TYPES,
    days: 90,
    hours: null,
    basis: "policy",
    source: "Company default before the DPDP Rules 2025 r.13-14 apply (13 May 2027): the same 90 days",
    effective_from: "2023-08-11",
  },
  {
    jurisdiction: "IN",
    types: ALL_TYPES,
    days: 90,
    hours: null,
    basis: "statutory",
    source:
      "DPDP Rules 2025 r.14(3) (grievances answered within a period not exceeding ninety days; " +
      "the published period for the other rights, r.14(1))",
    effective_from: "2027-05-13",
  },
  {
    jurisdiction: "AE",
    types: ALL_TYPES,
    days: 30,
    hours: null,
    basis: "policy",
    source: "Company default: Federal Decree-Law 45/2021 art.13-15 leave the period to its Executive Regulations, not issued",
    effective_from: "2022-01-02",
  },
];

/** The newest row in force on `day`; before the first applies (a breach found before the Act), the first as company policy. */
function newest<T extends { effective_from: DateString; basis: Clock["basis"] }>(rows: readonly T[], day: DateString): T | null {
  let best: T | null = null;
  for (const r of rows) if (r.effective_from <= day && (!best || best.effective_from < r.effective_from)) best = r;
  if (best || !rows.length) return best;
  const first = rows.reduce((a, r) => (r.effective_from < a.effective_from ? r : a));
  return { ...first, basis: "policy" };
}

const plain = (c: Clock): Clock => ({ days: c.days, hours: c.hours, basis: c.basis, source: c.source, effective_from: c.effective_from });

/** The clock of a request of `type` received on `day`, and its due date. */
export function requestClock(jurisdiction: Jurisdiction, type: RequestType, day: DateString): { clock: Clock; due: DateString } {
  const c = newest(
    REQUEST_CLOCKS.filter((r) => r.jurisdiction === jurisdiction && r.types.includes(type)),
    day,
  );
  if (!c) throw new Error(`no request clock for ${jurisdiction} on ${day}`);
  return { clock: plain(c), due: addDays(day, c.days ?? 0) };
}

// ─── breach clocks ───

interface BreachClock extends Clock {
  jurisdiction: Jurisdiction;
  persons: string;
  board_intimation: string;
}

export const BREACH_CLOCKS: readonly BreachClock[] = [
  {
    jurisdiction: "IN",
    days: null,
    hours: 72,
    basis: "policy",
    source: "Company default before the DPDP Rules 2025 r.7 apply (13 May 2027): the same clocks",
    effective_from: "2023-08-11",
    persons: "without delay (DPDP Act 2023 s.8(6); DPDP Rules 2025 r.7(1))",
    board_intimation: "without delay (DPDP Rules 2025 r.7(2)(a))",
  },
  {
    jurisdiction: "IN",
    days: null,
    hours: 72,
    basis: "statutory",
    source: "DPDP Rules 2025 r.7(2)(b): the detailed report within seventy-two hours of becoming aware",
    effective_from: "2027-05-13",
    persons: "without delay (DPDP Act 2023 s.8(6); DPDP Rules 2025 r.7(1))",
    board_intimation: "without delay (DPDP Rules 2025 r.7(2)(a))",
  },
  {
    jurisdiction: "AE",
    days: null,
    hours: null,
    basis: "statutory",
    source: "Federal Decree-Law 45/2021 art.9: on becoming aware, within the period its Executive Regulations set (not issued)",
    effective_from: "2022-01-02",
    persons: "on becoming aware (Federal Decree-Law 45/2021 art.9(2))",
    board_intimation: "the UAE Data Office on becoming aware (Federal Decree-Law 45/2021 art.9(1))",
  },
];

export function breachClock(jurisdiction: Jurisdiction, day: DateString): BreachClock {
  const c = newest(
    BREACH_CLOCKS.filter((r) => r.jurisdiction === jurisdiction),
    day,
  );
  if (!c) throw new Error(`no breach clock for ${jurisdiction} on ${day}`);
  return c;
}

export const clockJson = plain;
