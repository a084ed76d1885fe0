// Full and final settlement end to end: create → review → recalculate → process (once) → 409,
// with exact paisa figures for an exit with salary, leave encashment, gratuity, notice shortfall,
// a loan and a claim; and the monthly gratuity provision on the payroll run.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { expectError, useTestApp } from "../support/app.ts";
import { createType, grant } from "../leave/fixtures.ts";
import { renderPdf } from "../support/pdf.ts";
import { type PayrollWorld, payrollEmployee, payrollWorld } from "./fixtures.ts";
import { PAYROLL_FIGURES_DAY, today, useClock } from "../support/clock.ts";
import { addDays } from "../../src/lib/dates.ts";

// the months below (loans, runs) are worked out by hand from this day
useClock(PAYROLL_FIGURES_DAY);
const t = useTestApp();
let w: PayrollWorld;
/** The employee's exit as hr reads it on the profile (null in a view without it). */
const exitOf = async (employeeId: string) => {
  const e = (await api(w.hr.agent).op("getEmployee", { params: { employeeId } }).expect(200)).body.data;
  return "exit" in e ? e.exit : null;
};
let loanTypeId: string;
let mealsId: string;
let earnedId: string;

beforeAll(async () => {
  w = await payrollWorld(t);
  // a leave period containing the exits' last working days (and today, 2026-11)
  const period = await api(w.hr.agent).op("createLeavePeriod", {
    body: { name: "2026", start_date: "2026-01-01", end_date: "2026-12-31" },
  });
  if (period.status !== 201) throw new Error(JSON.stringify(period.body));
  const periods = (
    await api(w.hr.agent)
      .op("listLeavePeriods", { query: { limit: 100 } })
      .expect(200)
  ).body.data;
  if (!periods.some((p) => p.is_current))
    await api(w.hr.agent)
      .op("updateLeavePeriod", { params: { id: period.body.data.id }, body: { is_current: true } })
      .expect(200);
  earnedId = (await createType(w.hr.agent, { name: "Earned leave", encashable: true })).id;
  loanTypeId = (
    await api(w.hr.agent)
      .op("createLoanType", { body: { name: "Salary advance", max_amount: "100000.00", max_installments: 12, interest_rate: "0" } })
      .expect(201)
  ).body.data.id;
  mealsId = (
    await api(w.hr.agent)
      .op("createExpenseCategory", { body: { name: "Meals", requires_receipt: false } })
      .expect(201)
  ).body.data.id;
});

/** An employee (CTC 50 000: BASIC 25 000, the PF wage) who joined 2018-01-01 and resigned 2026-06-01, last day 2026-07-15. */
async function leaver(extra: { loan?: boolean; claim?: string; leave?: string; encash?: string } = {}) {
  const id = await payrollEmployee(t, w, "50000.00", { joining_date: "2018-01-01" });
  if (extra.leave) await grant(w.hr.agent, id, earnedId, extra.leave);
  if (extra.encash) {
    const x = (
      await api(w.hr.agent)
        .op("createLeaveEncashment", { body: { employee_id: id, leave_type_id: earnedId, days: extra.encash } })
        .expect(201)
    ).body.data;
    await api(w.hr.agent)
      .op("updateLeaveEncashment", { params: { id: x.id }, body: { status: "approved" } })
      .expect(200);
  }
  if (extra.loan) {
    const loan = (
      await api(w.hr.agent)
        .op("createLoanAdvance", {
          body: { employee_id: id, loan_type_id: loanTypeId, amount: "10000.00", installments: 4, start_month: "2026-12" },
        })
        .expect(201)
    ).body.data;
    await api(w.hr.agent)
      .op("updateLoanAdvance", { params: { id: loan.id }, body: { status: "approved" } })
      .expect(200);
  }
  if (extra.claim) await claim(id, extra.claim);
  await api(w.hr.agent)
    .op("submitResignation", {
      params: { employeeId: id },
      body: { resignation_date: "2026-06-01", last_working_day: "2026-07-15", reason: "Moving on" },
    })
    .expect(201);
  return id;
}

async function claim(employeeId: string, amount: string): Promise<string> {
  const c = (
    await api(w.hr.agent)
      .op("createExpenseClaim", {
        body: { employee_id: employeeId, category_id: mealsId, amount, expense_date: "2026-07-10", description: "Client lunch" },
      })
      .expect(201)
  ).body.data;
  await api(w.hr.agent)
    .op("updateExpenseClaim", { params: { id: c.id }, body: { status: "approved" } })
    .expect(200);
  return c.id;
}

const OPS = "createFinalSettlement, getFinalSettlement, listFinalSettlements, updateFinalSettlement, processFinalSettlement";
describe(`${OPS}, downloadFinalSettlement: full and final settlement`, () => {
  it("computes every line to the paisa, processes once (concurrent calls: one wins) and pays and closes what it settles", async () => {
    // 12.5 days granted, 2.5 of them encashed by an approved request no payroll run has paid
    const id = await leaver({ loan: true, claim: "1234.56", leave: "12.5", encash: "2.5" });
    const res = await api(w.hr.agent)
      .op("createFinalSettlement", { body: { employee_id: id, notice_period_days: 60, recover_notice_shortfall: true } })
      .expect(201);
    const s = res.body.data;
    expect(s).toMatchObject({
      settlement_number: "FS-00001",
      employee_id: id,
      status: "draft",
      separation: "resignation",
      joining_date: "2018-01-01",
      resignation_date: "2026-06-01",
      last_working_day: "2026-07-15",
      // 25 000 / 26
      daily_wage: "961.54",
      salary: {
        included: true,
        note: null,
        month: "2026-07",
        pay_start: "2026-07-01",
        pay_end: "2026-07-15",
        days_in_period: 31,
        payable_days: "15.0",
        lop_days: "0.0",
        // 12 096.77 + 4 838.71 + 7 258.06 (× 15/31)
        gross: "24193.54",
        pf_employee: "1452.00",
        esi_employee: "0.00",
        professional_tax: "200.00",
        total_deductions: "1652.00",
        net: "22541.54",
      },
      // 12.5 × 25 000 / 26 = 12 019.2307…
      // 2.5 × 25 000 / 26 = 2 403.846… and 10 × 25 000 / 26 = 9 615.384…, each rounded once on its total
      // (a payroll run pays an approved encashment at the same rate: see "leave encashment" below)
      leave_encashment_lines: [
        { leave_type_id: earnedId, leave_type: "Earned leave", days: "2.5", amount: "2403.85", source: "request" },
        { leave_type_id: earnedId, leave_type: "Earned leave", days: "10.0", amount: "9615.38", source: "balance", encashment_id: null },
      ],
      // 8 years 6 months 15 days → 9 years: 25 000 × 15 / 26 × 9 = 129 807.69… → 129 808
      gratuity_detail: {
        eligible: true,
        reason: null,
        wage: "25000.00",
        service: { years: 8, months: 6, days: 15 },
        counted_years: 9,
        computed: "129808.00",
        amount: "129808.00",
        capped: false,
      },
      // served 2026-06-01..2026-07-15 = 45 days of 60: 15 × 25 000 / 26 = 14 423.0769…
      notice: { required_days: 60, served_days: 45, shortfall_days: 15, recovered: true, amount: "14423.08" },
      loans: [{ amount: "10000.00" }],
      claims: [{ category: "Meals", amount: "1234.56" }],
      salary_net: "22541.54",
      leave_encashment: "12019.23",
      gratuity: "129808.00",
      reimbursements: "1234.56",
      notice_recovery: "14423.08",
      loan_recovery: "10000.00",
      // gratuity due 30 days after 2026-07-15 (2026-08-14) is paid late on today's processing (2026-11-25):
      // simple interest at 10 % a year from 2026-07-15, 133 days: 129 808 × 10 % × 133 ÷ 365 = 4 729.990… → 4 729.99
      gratuity_interest: "4729.99",
      dues: {
        final_wages_due: "2026-07-17", // Wednesday 15 July + two working days (Thu 16, Fri 17)
        gratuity_due: "2026-08-14",
        as_of: "2026-11-25",
        paid_on: null,
        gratuity_interest: { rate_percent: "10.00", from: "2026-07-15", to: "2026-11-25", days: 133, amount: "4729.99" },
      },
      // 165 603.33 before the interest
      total_payable: "170333.32",
      total_recovery: "24423.08",
      net_payable: "145910.24",
      created_by: w.hr.userId,
      processed_at: null,
    });
    expect(s.salary.earnings.map((l) => [l.code, l.amount])).toEqual([
      ["BASIC", "12096.77"],
      ["HRA", "4838.71"],
      ["SPECIAL", "7258.06"],
    ]);
    expect(s.loans[0].installment_ids).toHaveLength(4);
    expect(
      (
        await api(w.hr.agent)
          .op("getFinalSettlement", { params: { id: s.id } })
          .expect(200)
      ).body.data,
    ).toEqual({ ...s, version: expect.any(String) });
    const list = (
      await api(w.hr.agent)
        .op("listFinalSettlements", { query: { employee_id: id, status: "draft" } })
        .expect(200)
    ).body;
    expect(list.data.map((x) => x.id)).toEqual([s.id]);
    // the list says what is overdue on the draft today (2026-11-25)
    expect(list.data[0].warnings).toEqual([
      "Final wages were due on 2026-07-17 (within two working days of the separation, Code on Wages 2019 s.17(2)): 131 days overdue",
      "Gratuity of 129808.00 was due on 2026-08-14 (within 30 days, Payment of Gratuity Act 1972 s.7(3)): " +
        "simple interest at 10 % a year runs from 2026-07-15 until it is paid (s.7(3A))",
    ]);

    // one settlement per exit; the exit checklist's final settlement now belongs to it
    expectError(await api(w.hr.agent).op("createFinalSettlement", { body: { employee_id: id } }), 409, "conflict");
    const exit = await exitOf(id);
    const item = exit?.checklist.find((c) => c.item === "final_settlement");
    expect(item).toMatchObject({ owner: "payroll", reference: "FS-00001", status: "pending" });
    expectError(
      await api(w.hr.agent).op("updateExitChecklistItem", { params: { employeeId: id, itemId: item!.id }, body: { status: "done" } }),
      409,
      "conflict",
    );

    // review: waive the notice recovery, then recover it again
    const waived = (
      await api(w.hr.agent)
        .op("updateFinalSettlement", { params: { id: s.id }, body: { recover_notice_shortfall: false } })
        .expect(200)
    ).body.data;
    expect(waived).toMatchObject({ notice_recovery: "0.00", total_recovery: "10000.00", net_payable: "160333.32" });
    const back = (
      await api(w.hr.agent)
        .op("updateFinalSettlement", { params: { id: s.id }, body: { recover_notice_shortfall: true } })
        .expect(200)
    ).body.data;
    expect(back.net_payable).toBe("145910.24");

    // process: two at once, exactly one wins
    const statuses = (await Promise.all([1, 2].map(() => api(w.hr.agent).op("processFinalSettlement", { params: { id: s.id } })))).map(
      (r) => r.status,
    );
    expect(statuses.sort()).toEqual([200, 409]);
    const done = (
      await api(w.hr.agent)
        .op("getFinalSettlement", { params: { id: s.id } })
        .expect(200)
    ).body.data;
    expect(done).toMatchObject({ status: "processed", processed_by: w.hr.userId, net_payable: "145910.24" });
    // paid today: the interest counted to the processing day; nothing overdue is left to warn of
    expect(done.dues).toMatchObject({ as_of: "2026-11-25", paid_on: "2026-11-25", gratuity_interest: { days: 133, amount: "4729.99" } });
    expect(done.warnings).toEqual([]);
    expect((await t.query(`SELECT net_payable::text AS n FROM final_settlements WHERE id = $1`, [s.id]))[0].n).toBe("145910.24");
    expectError(await api(w.hr.agent).op("processFinalSettlement", { params: { id: s.id } }), 409, "conflict");
    expectError(await api(w.hr.agent).op("updateFinalSettlement", { params: { id: s.id }, body: {} }), 409, "conflict");

    // the loan is recovered and closed, the claim paid, the leave encashed and debited
    const loan = (
      await api(w.hr.agent)
        .op("getLoanAdvance", { params: { id: s.loans[0].loan_id } })
        .expect(200)
    ).body.data;
    expect(loan).toMatchObject({ status: "closed", repaid_amount: "10000.00", outstanding_amount: "0.00" });
    expect(loan.schedule.map((i) => i.status)).toEqual(["paid", "paid", "paid", "paid"]);
    const paidClaim = (
      await api(w.hr.agent)
        .op("getExpenseClaim", { params: { id: s.claims[0].claim_id } })
        .expect(200)
    ).body.data;
    expect(paidClaim.status).toBe("paid");
    const [requested, remaining] = done.leave_encashment_lines;
    expect(requested.encashment_id).toBe(s.leave_encashment_lines[0].encashment_id);
    const req = (
      await api(w.hr.agent)
        .op("getLeaveEncashment", { params: { id: requested.encashment_id! } })
        .expect(200)
    ).body.data;
    expect(req).toMatchObject({ employee_id: id, status: "approved", days: "2.5", amount: "2403.85" });
    const enc = (
      await api(w.hr.agent)
        .op("getLeaveEncashment", { params: { id: remaining.encashment_id! } })
        .expect(200)
    ).body.data;
    expect(enc).toMatchObject({ employee_id: id, status: "approved", days: "10.0", amount: "9615.38" });
    const balances = (
      await api(w.hr.agent)
        .op("listLeaveBalances", { query: { employee_id: id } })
        .expect(200)
    ).body.data;
    expect(balances.find((b) => b.leave_type_id === earnedId)).toMatchObject({ encashed: "12.5" });
    // the checklist item is ticked by processing
    const after = await exitOf(id);
    expect(after?.checklist.find((c) => c.item === "final_settlement")).toMatchObject({ status: "done", completed_by: w.hr.userId });

    // July's payroll run leaves the employee out: the settlement paid the month
    const run = (
      await api(w.hr.agent)
        .op("createPayrollRun", { body: { period: "2026-07", employee_ids: [id] } })
        .expect(201)
    ).body.data;
    expect(run.totals!.employee_count).toBe(0);

    // audited
    const actions = (await t.query(`SELECT action FROM audit_logs WHERE entity_id = $1 ORDER BY created_at, action`, [s.id])).map(
      (r) => r.action,
    );
    expect(actions).toEqual([
      "final_settlement.created",
      "final_settlement.recalculated",
      "final_settlement.recalculated",
      "final_settlement.processed",
    ]);

    // the statement as a PDF
    const pdf = await w.hr.agent
      .get(`/api/payroll/final-settlements/${s.id}/pdf`)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on("data", (c: Buffer) => chunks.push(c));
        r.on("end", () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(pdf.headers["content-type"]).toBe("application/pdf");
    expect(pdf.headers["content-disposition"]).toBe('attachment; filename="final-settlement-FS-00001.pdf"');
    expect((pdf.body as Buffer).subarray(0, 5).toString()).toBe("%PDF-");
    // read as a person reads it: amounts grouped as on the payslip (lakh for INR), the net in words
    const { text } = await renderPdf(pdf.body as Buffer, "/tmp/final-settlement.png");
    expect(text).toContain("Net payable: 1,45,910.24 INR");
    expect(text).toContain("1,29,808.00 INR"); // gratuity
    expect(text).toContain("In words: Rupees One Lakh Forty-Five Thousand Nine Hundred Ten and Paise Twenty-Four Only");
  });

  it("refuses what cannot be settled, and a draft whose figures changed since it was computed", async () => {
    const stay = await payrollEmployee(t, w, "50000.00");
    expectError(await api(w.hr.agent).op("createFinalSettlement", { body: { employee_id: stay } }), 409, "conflict");
    expectError(
      await api(w.hr.agent).op("createFinalSettlement", { body: { employee_id: "6f1c8a1e-0000-4000-8000-000000000000" } }),
      404,
      "not_found",
    );
    expectError(
      await api(w.hr.agent).op("createFinalSettlement", { body: { employee_id: stay, notice_period_days: 400 } }),
      400,
      "validation_failed",
    );
    // no notice owed, no loan: only salary, leave and gratuity
    const id = await leaver();
    const s = (
      await api(w.hr.agent)
        .op("createFinalSettlement", { body: { employee_id: id } })
        .expect(201)
    ).body.data;
    expect(s).toMatchObject({
      notice: { required_days: 0, served_days: 45, shortfall_days: 0, recovered: false, amount: "0.00" },
      loans: [],
      claims: [],
      leave_encashment_lines: [],
      net_payable: "157079.53", // 22 541.54 + 129 808.00 + interest on the late gratuity 4 729.99
    });
    // a claim approved after the review changes the figures: processing asks for a recalculation
    await claim(id, "100.00");
    const changed = expectError(await api(w.hr.agent).op("processFinalSettlement", { params: { id: s.id } }), 409, "conflict");
    expect(changed.error).toContain("recalculate it (PUT) and review it before processing");
    expect(
      (
        await api(w.hr.agent)
          .op("getFinalSettlement", { params: { id: s.id } })
          .expect(200)
      ).body.data.status,
    ).toBe("draft");
    const again = (
      await api(w.hr.agent)
        .op("updateFinalSettlement", { params: { id: s.id }, body: {} })
        .expect(200)
    ).body.data;
    expect(again).toMatchObject({ reimbursements: "100.00", net_payable: "157179.53" });
    await api(w.hr.agent)
      .op("processFinalSettlement", { params: { id: s.id } })
      .expect(200);
  });

  it("a draft before the last working day is an estimate: it is processed only after that day", async () => {
    const id = await payrollEmployee(t, w, "50000.00", { joining_date: "2020-01-01" });
    const lwd = addDays(today(), 20);
    await api(w.hr.agent)
      .op("submitResignation", { params: { employeeId: id }, body: { resignation_date: "2026-06-01", last_working_day: lwd, reason: "x" } })
      .expect(201);
    const s = (
      await api(w.hr.agent)
        .op("createFinalSettlement", { body: { employee_id: id } })
        .expect(201)
    ).body.data;
    expect(s.status).toBe("draft");
    const early = expectError(await api(w.hr.agent).op("processFinalSettlement", { params: { id: s.id } }), 409, "conflict");
    expect(early.error).toBe(`The settlement can be processed after the last working day (${lwd})`);
  });

  it("gratuity: fewer than five completed years pay none, death waives the minimum", async () => {
    const id = await payrollEmployee(t, w, "50000.00", { joining_date: "2022-02-01" });
    await api(w.hr.agent)
      .op("submitResignation", {
        params: { employeeId: id },
        body: { resignation_date: "2026-06-01", last_working_day: "2026-06-30", reason: "x" },
      })
      .expect(201);
    const s = (
      await api(w.hr.agent)
        .op("createFinalSettlement", { body: { employee_id: id } })
        .expect(201)
    ).body.data;
    expect(s.gratuity_detail).toMatchObject({
      eligible: false,
      service: { years: 4, months: 5, days: 0 },
      amount: "0.00",
      reason: "4 years of completed service; gratuity needs 5 years",
    });
    const death = (
      await api(w.hr.agent)
        .op("updateFinalSettlement", { params: { id: s.id }, body: { separation: "death" } })
        .expect(200)
    ).body.data;
    // 4 years (5 months dropped): 25 000 × 15 / 26 × 4 = 57 692.307… → 57 692
    expect(death).toMatchObject({ separation: "death", gratuity: "57692.00", gratuity_detail: { eligible: true, counted_years: 4 } });
  });
});

describe("createPayrollRun, getPayrollRunEmployee: leave encashment", () => {
  it("a run pays an approved encashment at the settlement's daily wage: 2.5 days of basic 25 000 = 2 403.85 either way", async () => {
    const id = await payrollEmployee(t, w, "50000.00");
    await grant(w.hr.agent, id, earnedId, "2.5");
    const x = (
      await api(w.hr.agent)
        .op("createLeaveEncashment", { body: { employee_id: id, leave_type_id: earnedId, days: "2.5" } })
        .expect(201)
    ).body.data;
    await api(w.hr.agent)
      .op("updateLeaveEncashment", { params: { id: x.id }, body: { status: "approved" } })
      .expect(200);
    const run = (
      await api(w.hr.agent)
        .op("createPayrollRun", { body: { period: "2027-05", employee_ids: [id] } })
        .expect(201)
    ).body.data;
    const slip = (
      await api(w.hr.agent)
        .op("getPayrollRunEmployee", { params: { id: run.id, employeeId: id } })
        .expect(200)
    ).body.data;
    // 2.5 × 25 000 ÷ 26 = 2 403.846… → 2 403.85, as the settlement's request line above (not 2.5 × gross 50 000 ÷ 31 = 4 032.26)
    expect(slip.encashments).toEqual([{ encashment_id: x.id, leave_type: "Earned leave", days: "2.5", amount: "2403.85" }]);
    expect(slip).toMatchObject({ gross: "50000.00", leave_encashment: "2403.85" });
  });
});

describe("createPayrollRun, getPayrollRunEmployee, updateGratuitySettings, getGratuitySettings: monthly gratuity provision", () => {
  it("off by default (slips unchanged); on, each slip shows basic + DA × 15/26 ÷ 12 as an employer contribution", async () => {
    const id = await payrollEmployee(t, w, "50000.00");
    const slipOf = async (period: string) => {
      const run = (
        await api(w.hr.agent)
          .op("createPayrollRun", { body: { period, employee_ids: [id] } })
          .expect(201)
      ).body.data;
      return (
        await api(w.hr.agent)
          .op("getPayrollRunEmployee", { params: { id: run.id, employeeId: id } })
          .expect(200)
      ).body.data;
    };
    const off = await slipOf("2027-03");
    expect(off.gratuity_provision).toBeUndefined();
    const settings = (await api(w.hr.agent).op("getGratuitySettings").expect(200)).body.data;
    expect(settings.monthly_provision).toBe(false);
    await api(w.hr.agent)
      .op("updateGratuitySettings", { body: { monthly_provision: true } })
      .expect(200);
    const on = await slipOf("2027-04");
    // 25 000 × 15 / 26 / 12 = 1 201.923…
    expect(on.gratuity_provision).toBe("1201.92");
    expect(on.employer_contributions).toBe((Number(off.employer_contributions) + 1201.92).toFixed(2));
    expect(on.employer_cost).toBe((Number(off.employer_cost) + 1201.92).toFixed(2));
    expect([on.gross, on.total_deductions, on.net_pay]).toEqual([off.gross, off.total_deductions, off.net_pay]);
    await api(w.hr.agent)
      .op("updateGratuitySettings", { body: { monthly_provision: false } })
      .expect(200);
  });
});
