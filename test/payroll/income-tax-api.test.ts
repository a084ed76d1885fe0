// Income tax through the API: the company's windows (getIncomeTaxSettings, updateIncomeTaxSettings), the
// profile per tax year (getTaxProfile, setTaxProfile), declarations and proofs (declareTaxInvestment,
// listTaxDeclarations, getTaxDeclaration, updateTaxDeclaration), the projection sheet with both regimes
// (getTaxProjection), and a UAE company, where none of it applies.
import { beforeAll, describe, expect, it } from "vitest";
import { expectDetails, expectError, type AuditChanges } from "../support/app.ts";
import { useTestApp } from "../support/app.ts";
import { useClock } from "../support/clock.ts";
import { memberFor, type PayrollWorld, payrollEmployee, payrollWorld } from "./fixtures.ts";
import type { TenantSession } from "../support/app.ts";
import { api } from "../support/api.ts";

// 20 April 2026: inside the default declaration window (1-30 April) of the tax year 2026-27
useClock("2026-04-20T06:30:00Z");
const t = useTestApp();
let w: PayrollWorld;
let empId: string;
let emp: TenantSession;
let otherId: string;
let proof: string;

beforeAll(async () => {
  w = await payrollWorld(t);
  empId = await payrollEmployee(t, w, "150000.00", { date_of_birth: "1965-06-01" });
  otherId = await payrollEmployee(t, w, "90000.00");
  emp = await memberFor(t, w, empId);
  proof = (
    await emp.agent
      .post("/api/upload")
      .attach("file", Buffer.from("PPF passbook 2026-27: 150000.00"), { filename: "ppf.txt", contentType: "text/plain" })
      .expect(201)
  ).body.data.id;
});

describe("getIncomeTaxSettings / updateIncomeTaxSettings", () => {
  it("defaults to April for declarations and January for proofs; changes are audited", async () => {
    const res = await api(w.hr.agent).op("getIncomeTaxSettings").expect(200);
    expect(res.body.data).toMatchObject({
      declaration_opens: "04-01",
      declaration_closes: "04-30",
      proof_opens: "01-01",
      proof_closes: "01-31",
    });
    const up = await api(w.hr.agent)
      .op("updateIncomeTaxSettings", { body: { proof_closes: "02-15" } })
      .expect(200);
    expect(up.body.data.proof_closes).toBe("02-15");
    const [a] = await t.query<{ changes: AuditChanges }>(
      `SELECT changes FROM audit_logs WHERE tenant_id = $1 AND action = 'settings.income_tax_updated'`,
      [w.owner.tenantId],
    );
    expect(a.changes).toMatchObject({ proof_closes: { from: "01-31", to: "02-15" } });
    expectError(await api(w.hr.agent).op("updateIncomeTaxSettings", { body: { proof_closes: "13-01" } }), 400);
  });
});

describe("getTaxProfile / setTaxProfile", () => {
  it("reads the defaults until saved: the new regime, the age band from the date of birth", async () => {
    const res = await api(emp.agent)
      .op("getTaxProfile", { params: { employeeId: empId } })
      .expect(200);
    expect(res.body.data).toMatchObject({
      tax_year: "2026-27",
      stored: false,
      regime: "new",
      pan: null,
      age_band: "60_to_79",
      age_band_from_birth_date: true,
    });
  });
  it("the employee chooses the old regime and gives a PAN; audited from → to; another employee's profile is a 404", async () => {
    const res = await api(emp.agent)
      .op("setTaxProfile", { params: { employeeId: empId }, body: { regime: "old", pan: "abcpe1234f", city: "Bangalore" } })
      .expect(200);
    expect(res.body.data).toMatchObject({ stored: true, regime: "old", pan: "ABCPE1234F", metro: true });
    const [a] = await t.query<{ changes: AuditChanges }>(
      `SELECT changes FROM audit_logs WHERE tenant_id = $1 AND action = 'tax_profile.changed'`,
      [w.owner.tenantId],
    );
    expect(a.changes.regime).toEqual({ from: "new", to: "old" });
    expectError(await api(emp.agent).op("getTaxProfile", { params: { employeeId: otherId } }), 404, "not_found");
    expectError(await api(emp.agent).op("setTaxProfile", { params: { employeeId: otherId }, body: { regime: "old" } }), 404, "not_found");
  });
  it("refuses a malformed PAN and a tax year without rules", async () => {
    expect(
      expectDetails(await api(emp.agent).op("setTaxProfile", { params: { employeeId: empId }, body: { pan: "12345" } }), 400).details[0]
        .path,
    ).toBe("body.pan");
    expectError(await api(emp.agent).op("getTaxProfile", { params: { employeeId: empId }, query: { tax_year: "2024-25" } }), 400);
  });
});

describe("declareTaxInvestment / updateTaxDeclaration / listTaxDeclarations / getTaxDeclaration", () => {
  let item: string;
  it("the employee declares 80C with a proof inside the window; hr verifies part of it", async () => {
    const res = await api(emp.agent)
      .op("declareTaxInvestment", { body: { section: "80C", description: "PPF", amount: "150000.00", proof_file_id: proof } })
      .expect(201);
    item = res.body.data.id;
    expect(res.body.data).toMatchObject({ tax_year: "2026-27", status: "submitted", employee_id: empId, proof_file_id: proof });
    const v = await api(w.hr.agent)
      .op("updateTaxDeclaration", { params: { id: item }, body: { status: "verified", verified_amount: "100000.00" } })
      .expect(200);
    expect(v.body.data).toMatchObject({ status: "verified", verified_amount: "100000.00" });
    expect(
      (
        await api(emp.agent)
          .op("getTaxDeclaration", { params: { id: item } })
          .expect(200)
      ).body.data.status,
    ).toBe("verified");
    const list = await api(emp.agent)
      .op("listTaxDeclarations", { query: { tax_year: "2026-27" } })
      .expect(200);
    expect(list.body.data.map((d: { id: string }) => d.id)).toEqual([item]);
    expectError(
      await api(w.hr.agent).op("updateTaxDeclaration", {
        params: { id: item },
        body: { status: "verified", verified_amount: "150000.01" },
      }),
      400,
    );
  });
  it("a rejection needs a reason; the employee changes a rejected item back to submitted", async () => {
    const d = await api(emp.agent)
      .op("declareTaxInvestment", { body: { section: "hra_rent", description: "Rent", amount: "360000.00" } })
      .expect(201);
    expectError(await api(w.hr.agent).op("updateTaxDeclaration", { params: { id: d.body.data.id }, body: { status: "rejected" } }), 400);
    const r = await api(w.hr.agent)
      .op("updateTaxDeclaration", { params: { id: d.body.data.id }, body: { status: "rejected", rejection_reason: "No rent receipts" } })
      .expect(200);
    expect(r.body.data).toMatchObject({ status: "rejected", rejection_reason: "No rent receipts" });
    const again = await api(emp.agent)
      .op("updateTaxDeclaration", { params: { id: d.body.data.id }, body: { proof_file_id: proof } })
      .expect(200);
    expect(again.body.data).toMatchObject({ status: "submitted", rejection_reason: null });
    expectError(await api(emp.agent).op("updateTaxDeclaration", { params: { id: d.body.data.id }, body: { status: "verified" } }), 404);
  });
  it("outside the windows the employee gets a 409 naming them; hr still records", async () => {
    await api(w.hr.agent)
      .op("updateIncomeTaxSettings", { body: { declaration_closes: "04-10", joiner_declaration_days: 0 } })
      .expect(200);
    const res = expectError(
      await api(emp.agent).op("declareTaxInvestment", { body: { section: "80E", description: "Loan", amount: "10000.00" } }),
      409,
    );
    expect(res.error).toContain("04-01 to 04-10");
    await api(w.hr.agent)
      .op("declareTaxInvestment", { body: { employee_id: empId, section: "80E", description: "Loan", amount: "10000.00" } })
      .expect(201);
  });
});

describe("getTaxProjection: both regimes on the employee's figures, and the proof cut-off", () => {
  it("until the cut-off declared amounts count; after it only verified ones", async () => {
    const before = (
      await api(emp.agent)
        .op("getTaxProjection", { params: { employeeId: empId } })
        .expect(200)
    ).body.data!;
    expect(before).toMatchObject({ tax_year: "2026-27", regime: "old", counting: "declared", remaining_months: 12 });
    expect(before.months).toHaveLength(12);
    // 80C: 1,00,000 verified (of 1,50,000 declared) + PF 1,800 × 12; rent 3,60,000 submitted counts for HRA
    expect(before.computation.deductions.find((d: { section: string }) => d.section === "80C")).toMatchObject({
      claimed: "121600.00",
      allowed: "121600.00",
    });
    expect(before.computation.exemptions.map((e: { section: string }) => e.section)).toEqual(["10(13A)"]);
    expect(["new", "old", "equal"]).toContain(before.comparison.lower);
    expect(before.comparison.new.exemptions).toEqual([]);
    // the proof window closes on 15 April: from the 16th only verified amounts count (the rent is not verified)
    await api(w.hr.agent)
      .op("updateIncomeTaxSettings", { body: { proof_opens: "04-01", proof_closes: "04-15" } })
      .expect(200);
    const after = (
      await api(emp.agent)
        .op("getTaxProjection", { params: { employeeId: empId } })
        .expect(200)
    ).body.data!;
    expect(after).toMatchObject({ counting: "verified", proof_cutoff: "2026-04-15" });
    expect(after.computation.exemptions).toEqual([]);
    expect(Number(after.computation.tax_payable)).toBeGreaterThan(Number(before.computation.tax_payable));
  });
});

describe("a UAE company (AED): no income tax withheld", () => {
  it("getTaxProfile, getTaxProjection: null; setTaxProfile, declareTaxInvestment: 409; slips carry no income tax", async () => {
    const uae = await payrollWorld(t);
    await t.query(`UPDATE tenants SET timezone = 'Asia/Dubai', currency = 'AED' WHERE id = $1`, [uae.owner.tenantId]);
    const id = await payrollEmployee(t, uae, "50000.00", { state: null });
    expect(
      (
        await api(uae.hr.agent)
          .op("getTaxProfile", { params: { employeeId: id } })
          .expect(200)
      ).body.data,
    ).toBeNull();
    expect(
      (
        await api(uae.hr.agent)
          .op("getTaxProjection", { params: { employeeId: id } })
          .expect(200)
      ).body.data,
    ).toBeNull();
    expectError(await api(uae.hr.agent).op("setTaxProfile", { params: { employeeId: id }, body: { regime: "old" } }), 409);
    expectError(
      await api(uae.hr.agent).op("declareTaxInvestment", { body: { employee_id: id, section: "80C", description: "x", amount: "1.00" } }),
      409,
    );
    const run = await api(uae.hr.agent)
      .op("createPayrollRun", { body: { period: "2026-04" } })
      .expect(201);
    const slip = (
      await api(uae.hr.agent)
        .op("getPayrollRunEmployee", { params: { id: run.body.data.id, employeeId: id } })
        .expect(200)
    ).body.data;
    expect(slip).not.toHaveProperty("income_tax");
    expect(slip).not.toHaveProperty("income_tax_detail");
    expect(
      (
        await api(uae.hr.agent)
          .op("getPayrollRun", { params: { id: run.body.data.id } })
          .expect(200)
      ).body.data.totals,
    ).not.toHaveProperty("income_tax");
  });
});

describe("createFinalSettlement: the same engine to the exit month, gratuity exempt up to ₹20 lakh (s.10(10))", () => {
  it("₹30 lakh paid in the exit month (April 2026), ₹20 lakh of gratuity: ₹4,57,500 + cess ₹18,300 = ₹4,75,800 recovered", async () => {
    const id = await payrollEmployee(t, w, "3000000.00", { joining_date: "2015-01-05" });
    await api(w.hr.agent)
      .op("setTaxProfile", { params: { employeeId: id }, query: { tax_year: "2026-27" }, body: { pan: "ABCPS4321Q" } })
      .expect(200);
    await api(w.hr.agent)
      .op("submitResignation", {
        params: { employeeId: id },
        body: { resignation_date: "2026-04-01", last_working_day: "2026-04-30", reason: "Retiring" },
      })
      .expect(201);
    const s = (
      await api(w.hr.agent)
        .op("createFinalSettlement", { body: { employee_id: id, notice_period_days: 0 } })
        .expect(201)
    ).body.data;
    expect(s.gratuity).toBe("2000000.00");
    // salary ₹30 lakh − ₹75,000 = ₹29.25 lakh; 3,00,000 (to ₹24 lakh) + 30 % of 5.25 lakh = 4,57,500; cess 18,300
    expect(s.income_tax_detail!.computation).toMatchObject({
      exemptions: [{ section: "10(10)", description: "Gratuity", amount: "2000000.00" }],
      taxable_income: "2925000.00",
      total_tax: "475800.00",
    });
    expect(s.income_tax).toBe("475800.00");
    expect(Number(s.net_payable)).toBeCloseTo(Number(s.total_payable) - Number(s.total_recovery), 2);
    expect(Number(s.total_recovery)).toBeGreaterThanOrEqual(475800);
  });
});
