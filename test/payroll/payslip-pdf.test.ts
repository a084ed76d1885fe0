// The payslip PDF as a reader sees it: rendered to PNG (written to /tmp for a look) and its text
// read back with positions - earnings and deductions side by side, totals, net pay in figures and
// words, Indian digit grouping, the bank account masked, PAN / UAN / ESI number, loss of pay in
// days and amount, the employer's contributions. First a slip built by hand (exact figures), then
// the slip of a processed run (with a leave encashment) downloaded through downloadMySalarySlip.
import { beforeAll, describe, expect, it } from "vitest";
import { amountInWords } from "../../src/lib/amount-words.ts";
import { formatMoney } from "../../src/lib/money.ts";
import type { slipJson } from "../../src/modules/payroll/json.ts";
import { lopAmount } from "../../src/modules/payroll/payslip-lines.ts";
import { payslipPdf } from "../../src/modules/payroll/payslip-pdf.ts";
import { useTestApp, type TenantSession } from "../support/app.ts";
import { find, renderPdf, type RenderedPdf } from "../support/pdf.ts";
import { memberFor, payrollEmployee, payrollWorld, type PayrollWorld } from "./fixtures.ts";
import { api } from "../support/api.ts";

type Slip = ReturnType<typeof slipJson>;

const line = (code: string, name: string, full: string, amount: string) => ({ component_id: code, code, name, full_amount: full, amount });

/** April 2027 (30 days), 2 days of loss of pay: 1,50,000.00 a month paid 28/30 = 1,40,000.00. */
function handSlip(): Slip {
  return {
    id: "00000000-0000-4000-8000-000000000001",
    run_id: "00000000-0000-4000-8000-000000000002",
    period: "2027-04",
    run_status: "processed",
    slip_number: "PS-202704-00007",
    employee_id: "00000000-0000-4000-8000-000000000003",
    employee_code: "EMP-00042",
    employee_name: "Priya Sharma",
    department: "Engineering",
    designation: "Senior Engineer",
    pay_start: "2027-04-01",
    pay_end: "2027-04-30",
    days_in_period: 30,
    payable_days: "28.0",
    lop_days: "2.0",
    gross: "140000.00",
    total_deductions: "17793.50",
    net_pay: "123456.50",
    pf_employee: "1800.00",
    esi_employee: "0.00",
    professional_tax: "200.00",
    loan_deduction: "2000.00",
    reimbursements: "1250.00",
    leave_encashment: "0.00",
    employer_cost: "143200.00",
    earnings: [
      line("BASIC", "Basic", "75000.00", "70000.00"),
      line("HRA", "House rent allowance", "30000.00", "28000.00"),
      line("SPECIAL", "Special allowance", "45000.00", "42000.00"),
    ],
    deductions: [line("TDS", "Income tax (TDS)", "13793.50", "13793.50")],
    full_month_gross: "150000.00",
    lop: { leave_days: "2.0", absent_days: "0.0" },
    pf: {
      applicable: true,
      wages: "70000.00",
      base: "15000.00",
      employee: "1800.00",
      employer_total: "1800.00",
      employer_epf: "550.00",
      employer_eps: "1250.00",
      edli: "75.00",
      admin_charges: "75.00",
      eps_applicable: true,
      eps_exclusion: null,
    },
    esi: { applicable: false, covered: false, wages: "0.00", employee: "0.00", employer: "0.00", period_start_wages: "150000.00" },
    professional_tax_detail: { state: "Maharashtra", amount: "200.00" },
    loans: [{ loan_id: "l1", loan_number: "LN-0003", installment_ids: ["i1"], amount: "2000.00" }],
    reimbursement_lines: [{ claim_id: "c1", claim_number: "EC-0011", category: "Travel", amount: "1250.00" }],
    encashments: [],
    employer_contributions: "1950.00",
  };
}

const employee = {
  joining_date: "2023-04-03",
  pan_number: "ABCPS1234K",
  uan: "100123456789",
  esi_number: "3100123456",
  bank_name: "HDFC Bank",
  bank_account_number: "50100234567890",
  bank_iban: null,
  bank_ifsc: "HDFC0001234",
};

/** Texts on one line (within 2 points), left to right. */
const sameLine = (r: RenderedPdf, a: { y: number; page: number }) =>
  r.items
    .filter((i) => i.page === a.page && Math.abs(i.y - a.y) < 2)
    .sort((p, q) => p.x - q.x)
    .map((i) => i.str);

const MIDDLE = 595.28 / 2;

describe("payslipPdf: a slip built by hand, rendered", () => {
  let r: RenderedPdf;
  beforeAll(async () => {
    const pdf = await payslipPdf(
      { name: "Acme Technologies Pvt Ltd", address: "4th Floor, 12 MG Road, Bengaluru 560001", currency: "INR" },
      handSlip(),
      employee,
    );
    r = await renderPdf(pdf, "/tmp/payslip-hand-inr.png");
  });

  it("is one A4 page with ink on it", () => {
    expect(r.pages).toBe(1);
    expect(r.png).toMatchObject({ width: 893, height: 1263 });
    expect(r.png.inkPixels).toBeGreaterThan(5000);
  });

  it("heads the page with the company's name and address and the month", () => {
    expect(find(r, "Acme Technologies Pvt Ltd").y).toBeLessThan(find(r, "4th Floor, 12 MG Road, Bengaluru 560001").y);
    expect(find(r, "Payslip for April 2027").y).toBeLessThan(find(r, "Employee name").y);
  });

  it("prints the particulars: PAN, UAN, ESI number, the bank account masked to its last four digits", () => {
    expect(sameLine(r, find(r, "PAN"))).toEqual(["PAN", "ABCPS1234K", "UAN", "100123456789"]);
    expect(sameLine(r, find(r, "ESI number"))).toEqual(["ESI number", "3100123456", "Bank", "HDFC Bank, HDFC0001234"]);
    expect(find(r, "Bank account")).toBeDefined();
    expect(r.text).toContain("********7890");
    expect(r.text).not.toContain("50100234567890");
  });

  it("shows loss of pay in days and amount", () => {
    expect(sameLine(r, find(r, "Loss of pay (days)"))).toEqual(["Loss of pay (days)", "2.0", "Loss of pay (amount)", "INR 10,000.00"]);
    expect(lopAmount(handSlip()).toFixed(2)).toBe("10000.00");
  });

  it("sets earnings and deductions side by side, headings in the label columns, amounts in Indian grouping", () => {
    const earnings = find(r, "Earnings");
    const deductions = find(r, "Deductions");
    expect(Math.abs(earnings.y - deductions.y)).toBeLessThan(1);
    expect(earnings.x).toBeLessThan(60);
    expect(deductions.x).toBeGreaterThan(MIDDLE);
    expect(deductions.x).toBeLessThan(MIDDLE + 30); // at the start of the right half, not in its amount column
    expect(sameLine(r, earnings)).toEqual(["Earnings", "Amount (INR)", "Deductions", "Amount (INR)"]);
    expect(sameLine(r, find(r, "Basic"))).toEqual(["Basic", "70,000.00", "Income tax (TDS)", "13,793.50"]);
    expect(sameLine(r, find(r, "House rent allowance"))).toEqual([
      "House rent allowance",
      "28,000.00",
      "Provident fund (employee)",
      "1,800.00",
    ]);
    expect(sameLine(r, find(r, "Special allowance"))).toEqual(["Special allowance", "42,000.00", "Professional tax", "200.00"]);
    expect(sameLine(r, find(r, "Loan LN-0003"))).toEqual(["Loan LN-0003", "2,000.00"]);
    // amounts right-aligned in their half: they end at the same x as the heading "Amount (INR)"
    const left = r.items.filter((i) => i.str === "Amount (INR)").sort((p, q) => p.x - q.x);
    expect(Math.abs(find(r, "70,000.00").x + find(r, "70,000.00").width - (left[0].x + left[0].width))).toBeLessThan(1);
    expect(find(r, "70,000.00").x).toBeLessThan(MIDDLE);
    expect(find(r, "13,793.50").x).toBeGreaterThan(MIDDLE);
  });

  it("totals both columns on one line, then other payments, net pay in figures and words, employer contributions", () => {
    expect(sameLine(r, find(r, "Gross earnings"))).toEqual(["Gross earnings", "1,40,000.00", "Total deductions", "17,793.50"]);
    expect(sameLine(r, find(r, "Reimbursement EC-0011 (Travel)"))).toEqual(["Reimbursement EC-0011 (Travel)", "1,250.00"]);
    expect(sameLine(r, find(r, "Net pay"))).toEqual(["Net pay", "INR 1,23,456.50"]);
    expect(r.text).toContain("In words: Rupees One Lakh Twenty-Three Thousand Four Hundred Fifty-Six and Paise Fifty Only");
    const employer = find(r, "Employer contributions (not deducted from pay)");
    expect(employer.y).toBeGreaterThan(find(r, "Net pay").y);
    expect(sameLine(r, find(r, "Provident fund (EPF, employer)"))).toEqual(["Provident fund (EPF, employer)", "550.00"]);
    expect(sameLine(r, find(r, "Pension scheme (EPS, employer)"))).toEqual(["Pension scheme (EPS, employer)", "1,250.00"]);
    expect(sameLine(r, find(r, "Total employer contributions"))).toEqual(["Total employer contributions", "1,950.00"]);
  });
});

describe("payslipPdf: another currency", () => {
  it("groups in threes and words in millions for AED; without a record it prints dashes", async () => {
    const slip = { ...handSlip(), pf: { ...handSlip().pf, applicable: false }, professional_tax: "0.00", net_pay: "1234567.25" };
    const r = await renderPdf(
      await payslipPdf({ name: "Gulf Trading LLC", address: null, currency: "AED" }, slip, null),
      "/tmp/payslip-hand-aed.png",
    );
    expect(sameLine(r, find(r, "Gross earnings"))).toEqual(["Gross earnings", "140,000.00", "Total deductions", "17,793.50"]);
    expect(sameLine(r, find(r, "Net pay"))).toEqual(["Net pay", "AED 1,234,567.25"]);
    expect(r.text).toContain("Dirhams One Million Two Hundred Thirty-Four Thousand Five Hundred Sixty-Seven and Fils Twenty-Five Only");
    expect(sameLine(r, find(r, "PAN"))).toEqual(["PAN", "-", "UAN", "-"]);
    expect(r.text).not.toContain("Provident fund");
  });
});

describe("payslipPdf: the longest slip", () => {
  it("flows onto further pages with every line, and the words of the largest net pay fit in their box", async () => {
    const loans = Array.from({ length: 60 }, (_, i) => ({
      loan_id: `l${i}`,
      loan_number: `LN-${String(i + 1).padStart(4, "0")}`,
      installment_ids: [],
      amount: "1.00",
    }));
    const slip = { ...handSlip(), loans, net_pay: "999999999999.99" };
    const r = await renderPdf(await payslipPdf({ name: "Acme", address: null, currency: "INR" }, slip, employee), "/tmp/payslip-long.png");
    expect(r.pages).toBe(3);
    for (const l of loans) expect(find(r, `Loan ${l.loan_number}`)).toBeDefined();
    // each further page names the slip, and the table that goes on repeats its heading
    for (const page of [2, 3]) {
      const first = r.items.filter((i) => i.page === page).sort((p, q) => p.y - q.y)[0];
      expect(first.str).toBe("Acme - Payslip for April 2027 - Priya Sharma (EMP-00042) - continued");
    }
    const again = r.items.find((i) => i.page === 2 && i.str === "Deductions");
    expect(again && sameLine(r, again)).toEqual(["Earnings", "Amount (INR)", "Deductions", "Amount (INR)"]);
    expect(sameLine(r, find(r, "Net pay"))).toEqual(["Net pay", "INR 9,99,99,99,99,999.99"]);
    expect(r.text).toContain(
      "In words: Rupees Ninety-Nine Thousand Nine Hundred Ninety-Nine Crore Ninety-Nine Lakh Ninety-Nine Thousand " +
        "Nine Hundred Ninety-Nine and Paise Ninety-Nine Only",
    );
    const words = find(r, /^In words: /);
    expect(find(r, /and Paise Ninety-Nine Only$/).y).toBeGreaterThan(words.y); // on a second line, in the box
    expect(find(r, "Total employer contributions").page).toBe(3);
  });
});

describe("downloadMySalarySlip: the PDF of a processed run", () => {
  const t = useTestApp();
  let w: PayrollWorld;
  let emp: string;
  let me: TenantSession;
  let runId: string;

  beforeAll(async () => {
    w = await payrollWorld(t);
    await api(w.owner.agent)
      .op("updateCompanySettings", { body: { legal_name: "Acme Technologies Pvt Ltd", address: "12 MG Road, Bengaluru 560001" } })
      .expect(200);
    emp = await payrollEmployee(t, w, "150000.00", { first_name: "Priya", last_name: "Sharma", employee_code: "P-100" });
    await api(w.hr.agent)
      .op("updateEmployee", {
        params: { employeeId: emp },
        body: { pan_number: "ABCPS1234K", uan: "100123456789", bank_name: "HDFC Bank", bank_account_number: "50100234567890" },
      })
      .expect(200);
    me = await memberFor(t, w, emp);
    // two days absent: 2 days of loss of pay out of April's 30
    await t.query(
      `INSERT INTO attendance_records (tenant_id, employee_id, date, status) ` +
        `VALUES ($1, $2, '2027-04-05', 'absent'), ($1, $2, '2027-04-06', 'absent')`,
      [w.owner.tenantId, emp],
    );
    // an approved encashment of 2 days, paid by the run at basic + DA ÷ 26 a day
    const [period] = await t.query(
      `INSERT INTO leave_periods (tenant_id, name, start_date, end_date) VALUES ($1, 'FY', '2027-01-01', '2027-12-31') RETURNING id`,
      [w.owner.tenantId],
    );
    const [el] = await t.query(
      `INSERT INTO leave_types (tenant_id, name, code, encashable) VALUES ($1, 'Earned leave', 'EL', true) RETURNING id`,
      [w.owner.tenantId],
    );
    await t.query(
      `INSERT INTO leave_encashments (tenant_id, employee_id, leave_type_id, period_id, days, status) ` +
        `VALUES ($1, $2, $3, $4, 2.0, 'approved')`,
      [w.owner.tenantId, emp, el.id, period.id],
    );
    const run = await api(w.hr.agent)
      .op("createPayrollRun", { body: { period: "2027-04" } })
      .expect(201);
    runId = run.body.data.id;
    await api(w.hr.agent)
      .op("processPayrollRun", { params: { id: runId } })
      .expect(200);
  });

  it("prints the record's PAN, UAN and masked account, the company's address and the slip's figures grouped", async () => {
    const slip = (
      await api(me.agent)
        .op("getMySalarySlip", { params: { draftId: runId } })
        .expect(200)
    ).body.data;
    const res = await me.agent
      .get(`/api/payroll/my-salary/${runId}/pdf`)
      .buffer(true)
      .parse((x, cb) => {
        const chunks: Buffer[] = [];
        x.on("data", (c: Buffer) => chunks.push(c));
        x.on("end", () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);
    const r = await renderPdf(res.body as Buffer, "/tmp/payslip-download.png");
    expect(r.pages).toBe(1);
    expect(r.png.inkPixels).toBeGreaterThan(5000);
    expect(find(r, "12 MG Road, Bengaluru 560001")).toBeDefined();
    expect(sameLine(r, find(r, "PAN"))).toEqual(["PAN", "ABCPS1234K", "UAN", "100123456789"]);
    expect(r.text).toContain("********7890");
    expect(sameLine(r, find(r, "Gross earnings"))).toEqual([
      "Gross earnings",
      formatMoney(slip.gross, "INR"),
      "Total deductions",
      formatMoney(slip.total_deductions, "INR"),
    ]);
    expect(formatMoney(slip.gross, "INR")).toBe("1,40,000.00"); // 1,50,000.00 × 28/30
    expect(sameLine(r, find(r, "Loss of pay (days)"))).toEqual(["Loss of pay (days)", "2.0", "Loss of pay (amount)", "INR 10,000.00"]);
    // the encashment under other payments: 2 × basic 75 000 (no DA) ÷ 26 = 5 769.2307… → 5 769.23
    expect(sameLine(r, find(r, "Leave encashment: 2.0 days Earned leave"))).toEqual([
      "Leave encashment: 2.0 days Earned leave",
      "5,769.23",
    ]);
    expect(sameLine(r, find(r, "Total other payments"))).toEqual(["Total other payments", "5,769.23"]);
    expect(slip.leave_encashment).toBe("5769.23");
    expect(sameLine(r, find(r, "Net pay"))).toEqual(["Net pay", `INR ${formatMoney(slip.net_pay, "INR")}`]);
    expect(r.text).toContain(`In words: ${amountInWords(slip.net_pay, "INR")}`);
    expect(sameLine(r, find(r, "Total employer contributions"))[1]).toBe(formatMoney(slip.employer_contributions, "INR"));
  });
});
