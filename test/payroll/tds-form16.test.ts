// Form 16 Part B through the API (getForm16) and the challans (recordTdsChallan, listTdsChallans): the
// certificate's figures are the year's computation on the salary paid, to the rupee; employees see only
// their own; another company's hr sees none; a UAE company has none (null, like the rest of the
// income-tax surface there).
import { beforeAll, describe, expect, it } from "vitest";
import { expectError, useTestApp } from "../support/app.ts";
import { useClock } from "../support/clock.ts";
import { renderPdf } from "../support/pdf.ts";
import { memberFor, type PayrollWorld, payrollEmployee, payrollWorld, processRuns } from "./fixtures.ts";
import { api } from "../support/api.ts";

// after the tax year 2025-26 (the certificate is issued by 15 June of the next year)
useClock("2026-04-20T06:30:00Z");
const t = useTestApp();
let w: PayrollWorld;
let joiner: string;
let other: string;

beforeAll(async () => {
  w = await payrollWorld(t);
  // joins on 1 January 2026 at ₹6 lakh a month: three months paid in the tax year 2025-26
  joiner = await payrollEmployee(t, w, "600000.00", { joining_date: "2026-01-01" });
  other = await payrollEmployee(t, w, "90000.00", { joining_date: "2026-01-01" });
  await api(w.hr.agent)
    .op("setTaxProfile", { params: { employeeId: joiner }, query: { tax_year: "2025-26" }, body: { pan: "ABCPJ5678K" } })
    .expect(200);
  await api(w.hr.agent)
    .op("updateIncomeTaxSettings", { body: { deductor_tan: "BLRA12345B", deductor_pan: "AAACA1234B" } })
    .expect(200);
  await processRuns(w, ["2026-01", "2026-02", "2026-03"]);
}, 120_000);

/** The text of a PDF the agent downloads, read as a person reads it. */
async function pdfOf(agent: PayrollWorld["hr"]["agent"], url: string) {
  return agent
    .get(url)
    .buffer(true)
    .parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on("data", (c: Buffer) => chunks.push(c));
      r.on("end", () => cb(null, Buffer.concat(chunks)));
    });
}

describe("getForm16: Part B of the tax year", () => {
  it("₹18 lakh paid: ₹17.25 lakh after the standard deduction, ₹1,45,000 + cess ₹5,800 = ₹1,50,800, all deducted", async () => {
    const f = (
      await api(w.hr.agent)
        .op("getForm16", { params: { employeeId: joiner }, query: { tax_year: "2025-26" } })
        .expect(200)
    ).body.data!;
    const projection = (
      await api(w.hr.agent)
        .op("getTaxProjection", { params: { employeeId: joiner }, query: { tax_year: "2025-26" } })
        .expect(200)
    ).body.data!;
    const c = projection.computation;
    expect(f).toMatchObject({
      form: "Form 16",
      part: "B",
      tax_year: "2025-26",
      assessment_year: "2026-27",
      period: { from: "2026-01-01", to: "2026-03-31" },
      employer: { tan: "BLRA12345B", pan: "AAACA1234B" },
      employee: { id: joiner, pan: "ABCPJ5678K" },
      regime: "new",
      salary: {
        gross: "1800000.00",
        gross_from_this_employer: "1800000.00",
        standard_deduction: "75000.00",
        income_chargeable: "1725000.00",
      },
      total_income: "1725000.00",
      tax_on_total_income: "145000.00",
      rebate: "0.00",
      cess: "5800.00",
      tax_payable: "150800.00",
      tds: {
        quarters: [
          { quarter: "Q1", amount_paid: "0.00", tax_deducted: "0.00" },
          { quarter: "Q2", amount_paid: "0.00", tax_deducted: "0.00" },
          { quarter: "Q3", amount_paid: "0.00", tax_deducted: "0.00" },
          { quarter: "Q4", amount_paid: "1800000.00", tax_deducted: "150800.00" },
        ],
        by_this_employer: "150800.00",
        total: "150800.00",
      },
      balance: "0.00",
    });
    // the same figures as the year's computation on the projection sheet, line by line
    expect([f.salary.gross, f.salary.income_chargeable, f.gross_total_income, f.total_income, f.tax_payable, f.cess]).toEqual([
      c.gross_salary,
      c.income_from_salary,
      c.gross_total_income,
      c.taxable_income,
      c.tax_payable,
      c.cess,
    ]);
    expect(projection.tds_to_date).toBe(f.tds.total);
  });
  it("names Form 130 under the Income-tax Act 2025 for 2026-27 (null: nothing paid that year yet)", async () => {
    expect(
      (
        await api(w.hr.agent)
          .op("getForm16", { params: { employeeId: joiner }, query: { tax_year: "2026-27" } })
          .expect(200)
      ).body.data,
    ).toBeNull();
  });
  it("the employee sees their own and not another's; another company's hr gets a 404", async () => {
    const emp = await memberFor(t, w, joiner);
    expect(
      (
        await api(emp.agent)
          .op("getForm16", { params: { employeeId: joiner }, query: { tax_year: "2025-26" } })
          .expect(200)
      ).body.data!.tax_payable,
    ).toBe("150800.00");
    expectError(await api(emp.agent).op("getForm16", { params: { employeeId: other }, query: { tax_year: "2025-26" } }), 404, "not_found");
    const stranger = await payrollWorld(t);
    expectError(
      await api(stranger.hr.agent).op("getForm16", { params: { employeeId: joiner }, query: { tax_year: "2025-26" } }),
      404,
      "not_found",
    );
  });
  it("refuses a tax year without rules", async () => {
    expectError(await api(w.hr.agent).op("getForm16", { params: { employeeId: joiner }, query: { tax_year: "2024-25" } }), 400);
  });
  it("a UAE company: null", async () => {
    const uae = await payrollWorld(t);
    await t.query(`UPDATE tenants SET timezone = 'Asia/Dubai', currency = 'AED' WHERE id = $1`, [uae.owner.tenantId]);
    const id = await payrollEmployee(t, uae, "50000.00", { state: null });
    expect(
      (
        await api(uae.hr.agent)
          .op("getForm16", { params: { employeeId: id }, query: { tax_year: "2025-26" } })
          .expect(200)
      ).body.data,
    ).toBeNull();
    expectError(
      await api(uae.hr.agent).op("downloadForm16", { params: { employeeId: id }, query: { tax_year: "2025-26" } }),
      409,
      "conflict",
    );
  });
});

describe("recordTdsChallan / listTdsChallans: deposits, due dates and the interest for a late one", () => {
  it("January's tax deposited on 6 February is on time; the month balances", async () => {
    const months = (
      await api(w.hr.agent)
        .op("listTdsChallans", { query: { tax_year: "2025-26" } })
        .expect(200)
    ).body.data!.months;
    const jan = months.find((m: { period: string }) => m.period === "2026-01")!;
    expect(months.map((m: { period: string }) => m.period)).toHaveLength(12);
    expect(jan).toMatchObject({ deposited: "0.00", due_date: "2026-02-07", challans: [] });
    expect(jan.warnings[0]).toContain("was due by 2026-02-07");
    const res = await api(w.hr.agent)
      .op("recordTdsChallan", {
        body: { period: "2026-01", bsr_code: "0510308", challan_serial: "00123", deposited_on: "2026-02-06", tax: jan.deducted },
      })
      .expect(201);
    expect(res.body.data).toMatchObject({ due_date: "2026-02-07", late: false, interest_due: { total: "0.00", lines: [] }, warnings: [] });
    expect(res.body.data.deductees).toEqual([{ employee_id: joiner, tds: jan.deducted }]);
    const after = (
      await api(w.hr.agent)
        .op("listTdsChallans", { query: { tax_year: "2025-26" } })
        .expect(200)
    ).body.data!.months;
    expect(after.find((m: { period: string }) => m.period === "2026-01")).toMatchObject({ deposited: jan.deducted, warnings: [] });
    const [a] = await t.query(`SELECT entity_id FROM audit_logs WHERE tenant_id = $1 AND action = 'tds_challan.recorded'`, [
      w.owner.tenantId,
    ]);
    expect(a.entity_id).toBe(res.body.data.id);
  });
  it("₹10,000 of February's tax deposited on 10 March (due the 7th): 1.5 % × 2 months (February, March) = ₹300 due", async () => {
    const res = await api(w.hr.agent)
      .op("recordTdsChallan", {
        body: { period: "2026-02", bsr_code: "0510308", challan_serial: "00124", deposited_on: "2026-03-10", tax: "10000.00" },
      })
      .expect(201);
    expect(res.body.data).toMatchObject({
      late: true,
      interest_due: {
        total: "300.00",
        lines: [{ from: "2026-02-28", to: "2026-03-10", months: 2, rate_percent: "1.5", amount: "300.00" }],
      },
    });
    expect(res.body.data.warnings.join(" ")).toContain("s.201(1A)");
  });
  it("refuses the same challan twice (409) and a malformed BSR code (400)", async () => {
    const body = { period: "2026-02", bsr_code: "0510308", challan_serial: "00124", deposited_on: "2026-03-10", tax: "1.00" };
    expectError(await api(w.hr.agent).op("recordTdsChallan", { body }), 409);
    expectError(await api(w.hr.agent).op("recordTdsChallan", { body: { ...body, challan_serial: "00125", bsr_code: "51030" } }), 400);
  });
  it("refuses a deposit dated after today (400), whatever month it names: the interest of a date to come has no end", async () => {
    const body = { period: "2026-04", bsr_code: "0510308", challan_serial: "00126", deposited_on: "2026-04-21", tax: "1.00" };
    const res = await api(w.hr.agent).op("recordTdsChallan", { body });
    expectError(res, 400);
    expect(JSON.stringify(res.body)).toContain("must not be after today (2026-04-20)");
    const far = { ...body, period: "7582-07", deposited_on: "9584-04-14", tax: "418234966755.45" };
    expectError(await api(w.hr.agent).op("recordTdsChallan", { body: far }), 400);
    await api(w.hr.agent)
      .op("recordTdsChallan", { body: { ...body, deposited_on: "2026-04-20" } })
      .expect(201);
  });
  it("another company sees none of them; an employee may not read them; a UAE company has none", async () => {
    const stranger = await payrollWorld(t);
    const months = (
      await api(stranger.hr.agent)
        .op("listTdsChallans", { query: { tax_year: "2025-26" } })
        .expect(200)
    ).body.data!.months;
    expect(months.every((m: { challans: unknown[] }) => m.challans.length === 0)).toBe(true);
    const emp = await memberFor(t, w, other);
    expectError(await api(emp.agent).op("listTdsChallans", { query: { tax_year: "2025-26" } }), 403);
    const uae = await payrollWorld(t);
    await t.query(`UPDATE tenants SET timezone = 'Asia/Dubai', currency = 'AED' WHERE id = $1`, [uae.owner.tenantId]);
    expect((await api(uae.hr.agent).op("listTdsChallans").expect(200)).body.data).toBeNull();
    expectError(
      await api(uae.hr.agent).op("recordTdsChallan", {
        body: { period: "2026-02", bsr_code: "0510308", challan_serial: "00124", deposited_on: "2026-03-10", tax: "1.00" },
      }),
      409,
    );
  });
});

describe("downloadForm16: Part B as a PDF", () => {
  it("carries every figure of the JSON to the rupee, in the INR grouping, as a named attachment", async () => {
    const f = (
      await api(w.hr.agent)
        .op("getForm16", { params: { employeeId: joiner }, query: { tax_year: "2025-26" } })
        .expect(200)
    ).body.data!;
    const res = await pdfOf(w.hr.agent, `/api/payroll/form-16/${joiner}/pdf?tax_year=2025-26`);
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="form-16-part-b-${f.employee.code}-2025-26.pdf"`);
    const { text } = await renderPdf(res.body as Buffer, "/tmp/form-16-part-b.png");
    expect(text).toContain("Form 16 Part B");
    for (const s of ["BLRA12345B", "AAACA1234B", "ABCPJ5678K", f.employee.name, "2025-26 (assessment year 2026-27)"])
      expect(text).toContain(s);
    const line = (label: string, amount: string) => expect(text).toContain(`${label} ${amount} INR`);
    line("Gross salary", "18,00,000.00");
    line("Less standard deduction", "75,000.00");
    line('Income chargeable under the head "Salaries"', "17,25,000.00");
    line("Gross total income", "17,25,000.00");
    line("Tax on total income", "1,45,000.00");
    line("Health and education cess", "5,800.00");
    line("Tax payable", "1,50,800.00");
    line("Q4: amount paid", "18,00,000.00");
    line("Q4: tax deducted", "1,50,800.00");
    line("Total tax deducted", "1,50,800.00");
    // the figures are the JSON's, not a second computation
    expect([f.salary.gross, f.tax_payable, f.cess, f.tds.total]).toEqual(["1800000.00", "150800.00", "5800.00", "150800.00"]);
  });
  it("the employee downloads their own and not another's; another company's hr gets a 404", async () => {
    const emp = await memberFor(t, w, joiner);
    const own = await pdfOf(emp.agent, `/api/payroll/form-16/${joiner}/pdf?tax_year=2025-26`);
    expect(own.status).toBe(200);
    expect((await renderPdf(own.body as Buffer, "/tmp/form-16-own.png")).text).toContain("Tax payable 1,50,800.00 INR");
    expectError(
      await api(emp.agent).op("downloadForm16", { params: { employeeId: other }, query: { tax_year: "2025-26" } }),
      404,
      "not_found",
    );
    const stranger = await payrollWorld(t);
    expectError(
      await api(stranger.hr.agent).op("downloadForm16", { params: { employeeId: joiner }, query: { tax_year: "2025-26" } }),
      404,
      "not_found",
    );
  });
  it("no certificate (nothing paid in the year): a 409 that says why", async () => {
    const res = await api(w.hr.agent).op("downloadForm16", { params: { employeeId: joiner }, query: { tax_year: "2026-27" } });
    expectError(res, 409, "conflict");
    expect(res.body.error).toMatch(/no income tax was withheld/);
  });
});
