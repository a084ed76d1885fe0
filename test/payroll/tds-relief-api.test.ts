// Relief for arrears of earlier years (s.89(1), rule 21A; Form 10E) through the API: recorded on the tax
// profile (setTaxProfile `arrears`), it lowers the year's tax in the monthly deduction - the year still lands
// exactly, also when the arrears are recorded mid-year - and Form 16 Part B shows it on its own line.
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { expectError, useTestApp, type AuditChanges } from "../support/app.ts";
import { useClock } from "../support/clock.ts";
import { renderPdf } from "../support/pdf.ts";
import { memberFor, type PayrollWorld, payrollEmployee, payrollWorld, processRuns } from "./fixtures.ts";

useClock("2026-04-20T06:30:00Z");
const t = useTestApp();
let w: PayrollWorld;
let early: string;
let late: string;

// ₹18 lakh paid January-March 2026 (₹6 lakh a month), of which ₹3 lakh are arrears of 2023-24, when the total income was ₹6 lakh
// (new regime). With: 17,25,000 → 1,45,000 + 4 % = 1,50,800. Without: 14,25,000 → 20,000 + 40,000 + 2,25,000 × 15 % = 93,750, + 4 %
// = 97,500; difference 53,300. 2023-24: 6,00,000 → nil after the ₹25,000 rebate; 9,00,000 → 45,000 + 4 % = 46,800. Relief 53,300 −
// 46,800 = 6,500; the year's tax 1,50,800 − 6,500 = 1,44,300.
const ARREARS = [{ relates_to: "2023-24", amount: "300000.00", total_income: "600000.00", regime: "new" as const }];

beforeAll(async () => {
  w = await payrollWorld(t);
  early = await payrollEmployee(t, w, "600000.00", { joining_date: "2026-01-01" });
  late = await payrollEmployee(t, w, "600000.00", { joining_date: "2026-01-01" });
  await api(w.hr.agent)
    .op("setTaxProfile", { params: { employeeId: early }, query: { tax_year: "2025-26" }, body: { pan: "ABCPE1234F", arrears: ARREARS } })
    .expect(200);
  await api(w.hr.agent)
    .op("setTaxProfile", { params: { employeeId: late }, query: { tax_year: "2025-26" }, body: { pan: "ABCPL1234F" } })
    .expect(200);
  await processRuns(w, ["2026-01"]);
  // recorded after January was paid: February and March absorb the relief
  await api(w.hr.agent)
    .op("setTaxProfile", { params: { employeeId: late }, query: { tax_year: "2025-26" }, body: { arrears: ARREARS } })
    .expect(200);
  await processRuns(w, ["2026-02", "2026-03"]);
}, 180_000);

describe("getForm16, getTaxProjection: s.89(1) relief through the monthly deduction and Form 16 Part B", () => {
  it("recorded before the first month: ₹1,50,800 − relief ₹6,500 = ₹1,44,300 deducted over the year, to the rupee", async () => {
    const f = (
      await api(w.hr.agent)
        .op("getForm16", { params: { employeeId: early }, query: { tax_year: "2025-26" } })
        .expect(200)
    ).body.data!;
    expect(f).toMatchObject({ tax_payable: "150800.00", relief: "6500.00", net_tax_payable: "144300.00", balance: "0.00" });
    expect(f.tds.by_this_employer).toBe("144300.00");
    expect(f.relief_detail).toMatchObject({
      arrears: "300000.00",
      current_year: { total_income: "1725000.00", total_income_without_arrears: "1425000.00", tax_without_arrears: "97500.00" },
      earlier_years: [{ tax_year: "2023-24", tax: "0.00", tax_with_arrears: "46800.00", difference: "46800.00" }],
      relief: "6500.00",
    });
    const p = (
      await api(w.hr.agent)
        .op("getTaxProjection", { params: { employeeId: early }, query: { tax_year: "2025-26" } })
        .expect(200)
    ).body.data!;
    expect(p.months.map((m: { tds: string }) => m.tds)).toEqual(["48100.00", "48100.00", "48100.00"]);
    expect([p.computation.arrears_relief, p.computation.tax_payable]).toEqual(["6500.00", "144300.00"]);
  });

  it("recorded after January: ₹50,267 in January without relief, then ₹47,017 and the remainder ₹47,016 - ₹1,44,300", async () => {
    const p = (
      await api(w.hr.agent)
        .op("getTaxProjection", { params: { employeeId: late }, query: { tax_year: "2025-26" } })
        .expect(200)
    ).body.data!;
    expect(p.months.map((m: { tds: string }) => m.tds)).toEqual(["50267.00", "47017.00", "47016.00"]);
    const f = (
      await api(w.hr.agent)
        .op("getForm16", { params: { employeeId: late }, query: { tax_year: "2025-26" } })
        .expect(200)
    ).body.data!;
    expect([f.relief, f.net_tax_payable, f.tds.by_this_employer, f.balance]).toEqual(["6500.00", "144300.00", "144300.00", "0.00"]);
  });

  it("the Part B PDF prints the relief on its own line", async () => {
    const res = await w.hr.agent
      .get(`/api/payroll/form-16/${early}/pdf?tax_year=2025-26`)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on("data", (c: Buffer) => chunks.push(c));
        r.on("end", () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);
    const { text } = await renderPdf(res.body as Buffer, "/tmp/form-16-relief.png");
    expect(text).toContain("Relief (s.89) 6,500.00 INR");
    expect(text).toContain("Net tax payable 1,44,300.00 INR");
  });
});

describe("setTaxProfile: arrears of earlier years", () => {
  it("the employee records their own; the profile shows them oldest first; the change is audited from → to", async () => {
    const id = await payrollEmployee(t, w, "50000.00");
    const emp = await memberFor(t, w, id);
    const body = {
      arrears: [
        { relates_to: "2024-25", amount: "1000.50", total_income: "700000.00", regime: "old" },
        { relates_to: "2022-23", amount: "2000.00", total_income: "500000.00", regime: "new" },
      ],
    };
    const res = await emp.agent.put(`/api/payroll/tax-profiles/${id}?tax_year=2025-26`).send(body).expect(200);
    expect(res.body.data.arrears.map((a: { relates_to: string }) => a.relates_to)).toEqual(["2022-23", "2024-25"]);
    const [a] = await t.query<{ changes: AuditChanges }>(
      `SELECT changes FROM audit_logs WHERE tenant_id = $1 AND action = 'tax_profile.changed' AND changes->>'employee_id' = $2`,
      [w.owner.tenantId, id],
    );
    expect(a.changes.arrears.from).toEqual([]);
    expect(a.changes.arrears.to).toHaveLength(2);
  });

  it("refuses a year not before the profile's, a year named twice, and a year before the rates on record (naming 2020-21)", async () => {
    const url = `/api/payroll/tax-profiles/${early}?tax_year=2025-26`;
    const one = (relates_to: string) => ({ relates_to, amount: "1000.00", total_income: "500000.00", regime: "old" });
    expectError(await w.hr.agent.put(url).send({ arrears: [one("2025-26")] }), 400);
    expectError(await w.hr.agent.put(url).send({ arrears: [one("2024-25"), one("2024-25")] }), 400);
    expectError(await w.hr.agent.put(url).send({ arrears: [one("2024-26")] }), 400);
    const old = await w.hr.agent.put(url).send({ arrears: [one("2019-20")] });
    expectError(old, 400);
    expect(JSON.stringify(old.body)).toContain("2020-21");
    // nothing changed: the stored arrears stand
    const p = (await w.hr.agent.get(url).expect(200)).body.data;
    expect(p.arrears).toEqual(ARREARS);
  });
});
