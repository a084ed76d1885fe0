// UAE Wages Protection System: the Salary Information File (SIF) of a processed run, in the layout
// of the UAE Central Bank's WPS - CSV without header, one EDR (employee detail record) per
// employee, exactly one SCR (salary control record) as the last line, named
// `<13-digit employer id><YYMMDDHHMMSS>.SIF`.
import { activeTenant } from "../../db/central.ts";
import { db } from "../../db/tenancy.ts";
import { AppError, conflict, notFound } from "../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { daysBetween, wallClockIn } from "../../lib/dates.ts";
import { Decimal } from "../../lib/money.ts";
import { readSettingsDoc, writeSettingsDoc } from "../../platform/tenant-settings.ts";
import { mapYielding, nextTurn } from "../../lib/yielding.ts";
import { wpsSlips } from "./queries/runs.ts";
import * as clock from "../../lib/clock.ts";

export const WPS_DEFAULTS: {
  employer_id: string | null;
  bank_routing_code: string | null;
  employer_reference: string | null;
  currency: string;
} = {
  employer_id: null,
  bank_routing_code: null,
  employer_reference: null,
  currency: "AED",
};

export interface SifEmployee {
  employee_code: string;
  employee_name: string;
  labour_card_number: string | null;
  bank_routing_code: string | null;
  bank_iban: string | null;
  pay_start: string;
  pay_end: string;
  net_pay: string;
  variable: string;
  lop_days: string;
}

export interface SifInput {
  employer_id: string;
  bank_routing_code: string;
  employer_reference: string | null;
  currency: string;
  year: number;
  month: number;
  /** Local creation time of the file (company time zone): `YYYY-MM-DDTHH:MM:SS`. */
  created_local: string;
  employees: SifEmployee[];
}

/**
 * Text as the SIF's printable ASCII (accents dropped by NFKD, anything else removed). A field's rules are
 * checked on this result, not on the Unicode: checked before, `Ľ` U+013D was written as its low byte `=`.
 */
export function sifText(text: string): string {
  return text.normalize("NFKD").replace(/[^\x20-\x7E]/g, "");
}
// Identifiers are not transliterated: an account number with a letter that is not A-Z is no account
// number. Their ASCII digits (JavaScript's \d is 0-9 only), or the IBAN when it is one as written.
const digits = (s: string) => s.replace(/\D/g, "");
const clean = (s: string) => s.replace(/[\s,]/g, "").toUpperCase();
const IBAN = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/;

/** The IBAN as the file writes it (ASCII letters and digits only), or null when that is not an IBAN. */
const sifIban = (iban: string | null): string | null => (iban && IBAN.test(clean(iban)) ? clean(iban) : null);

/**
 * A free-text field: the file's characters, no comma, no spreadsheet formula start (`=`, `+`, `-`, `@`,
 * after spaces) - CSV injection; values stored before the document refused them are written without. At most `max`.
 */
export function sifFreeText(text: string, max: number): string {
  const ascii = sifText(text).replace(/,/g, " ");
  let i = 0;
  while (i < ascii.length && "=+-@ ".includes(ascii[i])) i++;
  return ascii.slice(i, i + max).trimEnd();
}

/** What makes an employee unpayable through WPS (empty = fine). */
export function missingWpsDetails(e: Pick<SifEmployee, "labour_card_number" | "bank_routing_code" | "bank_iban">): string[] {
  const missing: string[] = [];
  const lc = e.labour_card_number ? digits(e.labour_card_number) : "";
  if (!lc || lc.length > 14) missing.push("labour_card_number");
  if (!e.bank_routing_code || !/^\d{9}$/.test(digits(e.bank_routing_code))) missing.push("bank_routing_code");
  if (!sifIban(e.bank_iban)) missing.push("bank_iban");
  return missing;
}

/**
 * The last check of the file before it leaves: only the file's characters, ten fields a line, no
 * field that a spreadsheet would read as a formula. A failure is a bug of this file's code (500).
 */
function assertSifContent(content: string): void {
  if (!/^[\x20-\x7E\r\n]*$/.test(content)) throw new Error("SIF: a character outside the file's character set");
  for (const line of content.split("\r\n").slice(0, -1)) {
    const fields = line.split(",");
    if (fields.length !== 10 || /[\r\n]/.test(line)) throw new Error("SIF: a line without its ten fields");
    if (fields.some((f) => /^[=+@\t\r]/.test(f) || /^-\D/.test(f))) throw new Error("SIF: a field with a formula start");
  }
}

export function buildSif(input: SifInput): { fileName: string; content: string; edrCount: number } {
  let total = new Decimal(0);
  const lines = input.employees.map((e) => {
    const r = edr(e);
    total = total.plus(r.fixed).plus(r.variable);
    return r.line;
  });
  return assembleSif(input, lines, total);
}

/** buildSif() with a turn of the event loop every few ms (a run of thousands of employees). */
export async function buildSifYielding(input: SifInput): Promise<{ fileName: string; content: string; edrCount: number }> {
  let total = new Decimal(0);
  const lines = await mapYielding(input.employees, (e) => {
    const r = edr(e);
    total = total.plus(r.fixed).plus(r.variable);
    return r.line;
  });
  await nextTurn();
  return assembleSif(input, lines, total);
}

/** The EDR (employee detail record) line of an employee. */
function edr(e: SifEmployee): { line: string; fixed: Decimal; variable: Decimal } {
  const net = new Decimal(e.net_pay);
  const variable = Decimal.min(new Decimal(e.variable), net);
  const fixed = net.minus(variable);
  const leave = new Decimal(e.lop_days).toDecimalPlaces(0, Decimal.ROUND_HALF_UP).toFixed(0);
  const line = [
    "EDR",
    digits(e.labour_card_number!).padStart(14, "0"),
    digits(e.bank_routing_code!),
    sifIban(e.bank_iban)!,
    e.pay_start,
    e.pay_end,
    String(daysBetween(e.pay_start, e.pay_end) + 1),
    fixed.toFixed(2),
    variable.toFixed(2),
    leave,
  ].join(",");
  return { line, fixed, variable };
}

/** The EDR lines, then the SCR (salary control record), and the file's name. */
function assembleSif(input: SifInput, lines: string[], total: Decimal): { fileName: string; content: string; edrCount: number } {
  const [date, time] = input.created_local.split("T");
  const mm = String(input.month).padStart(2, "0");
  const employer = digits(input.employer_id).padStart(13, "0");
  const ref = sifFreeText(input.employer_reference ?? "", 35);
  lines.push(
    [
      "SCR",
      employer,
      digits(input.bank_routing_code),
      date,
      time.slice(0, 5).replace(":", ""),
      `${mm}${input.year}`,
      String(input.employees.length),
      total.toFixed(2),
      sifText(input.currency),
      ref,
    ].join(","),
  );
  const stamp = `${date.slice(2).replace(/-/g, "")}${time.replace(/:/g, "").slice(0, 6)}`;
  const content = `${lines.join("\r\n")}\r\n`;
  assertSifContent(content);
  return { fileName: `${employer}${stamp}.SIF`, content, edrCount: input.employees.length };
}

/** `YYYY-MM-DDTHH:MM:SS` of an instant in a time zone. */
export function localTimestamp(timeZone: string, now = clock.now()): string {
  const p = wallClockIn(now, timeZone);
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}:${p.second}`;
}

/** The company's WPS settings (defaults for what it has not set). */
export function wpsSettings() {
  return readSettingsDoc("wps", WPS_DEFAULTS);
}

/** Changes the company's WPS settings. */
export function changeWpsSettings(auth: AuthContext, patch: RequestBody<"updateWpsSettings">) {
  return writeSettingsDoc("wps", WPS_DEFAULTS, patch, auth.userId);
}

/**
 * The SIF of a processed run: 409 when the employer details are missing, or when employees lack
 * WPS details unless `excludeIncomplete` (they are left out, as are employees with nothing to pay).
 */
export async function wpsFile(runId: string, excludeIncomplete: boolean): Promise<{ fileName: string; content: Buffer; excluded: number }> {
  const run = await db.payrollRun.findFirst({ where: { id: runId } });
  if (!run) throw notFound("Payroll run");
  if (run.status !== "processed")
    throw conflict(
      "The WPS file is produced for processed runs only: process the draft first with POST " +
        "/api/payroll/draft-runs/{id}/process (processPayrollRun)",
    );
  const settings = await readSettingsDoc("wps", WPS_DEFAULTS);
  if (!settings.employer_id || !settings.bank_routing_code)
    throw conflict("Set the WPS employer id and bank routing code first (POST /api/configuration/payroll/wps-settings)");
  // as the file will hold them (values stored before the document's patterns, or by hand)
  if (!/^\d{1,13}$/.test(digits(settings.employer_id)) || !/^\d{9}$/.test(digits(settings.bank_routing_code)))
    throw conflict("The WPS employer id or bank routing code is not valid; set it again (POST /api/configuration/payroll/wps-settings)");
  if (!/^[A-Z]{3}$/.test(sifText(settings.currency)))
    throw conflict("The WPS currency is not valid; set it again (POST /api/configuration/payroll/wps-settings)");
  // One plain query for the slips with their employees' bank details, then the file built with
  // turns of the event loop in between - a run of thousands of employees is otherwise well over
  // 100 ms of one request's work in one go.
  const employees: SifEmployee[] = await wpsSlips(db, run.id);
  await nextTurn();
  const incomplete = (await mapYielding(employees, (e) => ({ e, missing: missingWpsDetails(e) }))).filter((x) => x.missing.length);
  if (incomplete.length && !excludeIncomplete)
    throw new AppError(
      "conflict",
      `${incomplete.length} employee(s) lack WPS details (labour card number, ` +
        `bank routing code, IBAN); complete them or pass exclude_incomplete=true`,
      incomplete.map((x) => ({ path: `employees.${x.e.employee_code}`, message: `${x.e.employee_name}: missing ${x.missing.join(", ")}` })),
    );
  const bad = new Set(incomplete.map((x) => x.e));
  const payable = employees.filter((e) => !bad.has(e) && new Decimal(e.net_pay).gt(0));
  if (!payable.length) throw conflict("No employee of the run can be paid through WPS");
  const tenant = await activeTenant({ timezone: true });
  await nextTurn();
  const sif = await buildSifYielding({
    employer_id: settings.employer_id,
    bank_routing_code: settings.bank_routing_code,
    employer_reference: settings.employer_reference,
    currency: settings.currency,
    year: run.period_year,
    month: run.period_month,
    created_local: localTimestamp(tenant.timezone),
    employees: payable,
  });
  // pure ASCII by now (assertSifContent): each character is its byte
  return { fileName: sif.fileName, content: Buffer.from(sif.content, "ascii"), excluded: employees.length - payable.length };
}
