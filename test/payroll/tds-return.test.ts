// The quarterly statement of tax deducted from salary through the API: getTdsReturn (its figures are the
// processed slips and the recorded challans to the rupee, the salary details Form 16's), recordTdsReturnFiling
// and the late-filing fee at fixed dates, downloadTdsReturnFile parsed back against the layout (record order,
// field counts, control totals, line numbers), Form 138 from 2026-27, isolation across companies, a UAE company.
import { beforeAll, describe, expect, it } from "vitest";
import { LAYOUTS, type LayoutId, type RecordType } from "../../src/modules/payroll/income-tax/etds-layout.ts";
import { api } from "../support/api.ts";
import { expectError, useTestApp } from "../support/app.ts";
import { useClock } from "../support/clock.ts";
import { memberFor, type PayrollWorld, payrollEmployee, payrollWorld, processRuns } from "./fixtures.ts";

// ten days after the 2025-26 Q4 statement was due (31 May 2026)
useClock("2026-06-10T06:30:00Z");
const t = useTestApp();
let w: PayrollWorld;
let joiner: string;
let noPan: string;

const SETTINGS = {
  deductor_tan: "BLRA12345B",
  deductor_pan: "AAACA1234B",
  deductor_type: "K" as const,
  deductor_address: { lines: ["4th Floor, Prestige Tower", "12 MG Road", "Bengaluru"], state_code: "15", pin: "560001" },
  deductor_email: "payroll@acme.example",
  deductor_phone: "8041234567",
  responsible_person: {
    name: "Priya Raman",
    designation: "Finance Director",
    pan: "ABCPR1234K",
    address: { lines: ["12 MG Road", "Bengaluru"], state_code: "15", pin: "560001" },
    email: "priya@acme.example",
    mobile: "9876543210",
  },
};

beforeAll(async () => {
  w = await payrollWorld(t);
  joiner = await payrollEmployee(t, w, "600000.00", { joining_date: "2026-01-01" });
  noPan = await payrollEmployee(t, w, "500000.00", { joining_date: "2026-01-01" });
  await api(w.hr.agent)
    .op("setTaxProfile", { params: { employeeId: joiner }, query: { tax_year: "2025-26" }, body: { pan: "ABCPJ5678K" } })
    .expect(200);
  await api(w.hr.agent).op("updateIncomeTaxSettings", { body: SETTINGS }).expect(200);
  await processRuns(w, ["2026-01", "2026-02", "2026-03"]);
  const months = (
    await api(w.hr.agent)
      .op("listTdsChallans", { query: { tax_year: "2025-26" } })
      .expect(200)
  ).body.data!.months;
  const deducted = (p: string) => months.find((m: { period: string }) => m.period === p)!.deducted;
  // January's and February's tax deposited in full; March's not at all
  await api(w.hr.agent)
    .op("recordTdsChallan", {
      body: { period: "2026-01", bsr_code: "0510308", challan_serial: "00123", deposited_on: "2026-02-06", tax: deducted("2026-01") },
    })
    .expect(201);
  await api(w.hr.agent)
    .op("recordTdsChallan", {
      body: {
        period: "2026-02",
        bsr_code: "0510308",
        challan_serial: "00124",
        deposited_on: "2026-03-10",
        tax: deducted("2026-02"),
        interest: "0.00",
      },
    })
    .expect(201);
}, 180_000);

type Month = { period: string; taxable_salary: string; tds: string };
const sum = (xs: string[]) => xs.reduce((a, x) => a + Math.round(Number(x) * 100), 0) / 100;
const money = (n: number) => n.toFixed(2);

describe("getTdsReturn: the 2025-26 Q4 statement (Form 24Q)", () => {
  it("carries each challan's deductees with the slips' salary and tax to the rupee, and the deductor block", async () => {
    const r = (
      await api(w.hr.agent)
        .op("getTdsReturn", { query: { tax_year: "2025-26", quarter: "Q4" } })
        .expect(200)
    ).body.data!;
    expect(r).toMatchObject({
      form: "Form 24Q",
      tax_year: "2025-26",
      quarter: "Q4",
      period: { from: "2026-01-01", to: "2026-03-31" },
      due_date: "2026-05-31",
      deductor: { tan: "BLRA12345B", pan: "AAACA1234B", type: "K", responsible_person: { name: "Priya Raman", mobile: "9876543210" } },
      filing: null,
    });
    expect(r.challans.map((c: { period: string }) => c.period)).toEqual(["2026-01", "2026-02"]);
    const sheets: Record<string, Month[]> = {};
    for (const id of [joiner, noPan])
      sheets[id] = (
        await api(w.hr.agent)
          .op("getTaxProjection", { params: { employeeId: id }, query: { tax_year: "2025-26" } })
          .expect(200)
      ).body.data!.months;
    for (const c of r.challans) {
      expect(c.deductees.map((d: { employee_id: string }) => d.employee_id).sort()).toEqual([joiner, noPan].sort());
      for (const d of c.deductees) {
        const slip = sheets[d.employee_id].find((m) => m.period === c.period)!;
        expect([d.amount_paid, d.tds_deducted, d.tds_deposited]).toEqual([slip.taxable_salary, slip.tds, slip.tds]);
        expect(d).toMatchObject({
          section_code: "92B",
          paid_on: `${c.period}-${c.period.endsWith("02") ? "28" : "31"}`,
          deposited_on: c.deposited_on,
        });
      }
      expect(c.deductees_tds).toBe(c.tax);
    }
    const joinerRecord = r.challans[0].deductees.find((d: { employee_id: string }) => d.employee_id === joiner);
    expect(joinerRecord).toMatchObject({ pan: "ABCPJ5678K", pan_status: "valid", amount_paid: "600000.00" });
    expect(r.challans[0].deductees.find((d: { employee_id: string }) => d.employee_id === noPan)).toMatchObject({
      pan: "PANNOTAVBL",
      pan_status: "missing",
    });
    const paid = [joiner, noPan].flatMap((id) => sheets[id].filter((m) => m.period !== "2026-03"));
    expect(r.totals).toMatchObject({
      challans: 2,
      deductee_records: 4,
      amount_paid: money(sum(paid.map((m) => m.taxable_salary))),
      tds_deducted: money(sum(paid.map((m) => m.tds))),
      tds_deposited: money(sum(paid.map((m) => m.tds))),
    });
    expect(r.warnings.join("\n")).toMatch(/No challan is recorded for 2026-03: the ₹[\d.]+ deducted that month is not in the statement/);
    expect(r.warnings.join("\n")).toMatch(/has no PAN: reported as PANNOTAVBL/);
  });
  it("Q4 carries the salary details of the year: Form 16's figures per employee", async () => {
    const r = (
      await api(w.hr.agent)
        .op("getTdsReturn", { query: { tax_year: "2025-26", quarter: "Q4" } })
        .expect(200)
    ).body.data!;
    const f = (
      await api(w.hr.agent)
        .op("getForm16", { params: { employeeId: joiner }, query: { tax_year: "2025-26" } })
        .expect(200)
    ).body.data!;
    const sd = r.salary_details!.find((s: { employee_id: string }) => s.employee_id === joiner)!;
    expect(sd).toMatchObject({
      pan: "ABCPJ5678K",
      category: "G",
      regime: "new",
      employment_from: "2026-01-01",
      employment_to: "2026-03-31",
      total_salary: f.salary.gross,
      standard_deduction: f.salary.standard_deduction,
      income_from_salary: f.salary.income_chargeable,
      gross_total_income: f.gross_total_income,
      taxable_income: f.total_income,
      tax_payable: f.tax_payable,
      tds_total: f.tds.total,
      shortfall: f.balance,
    });
    expect(sd.tax_payable).toBe("150800.00");
    expect(r.salary_details).toHaveLength(2);
  });
  it("Q1-Q3 carry no salary details; a quarter with nothing deducted has no challans", async () => {
    const r = (
      await api(w.hr.agent)
        .op("getTdsReturn", { query: { tax_year: "2025-26", quarter: "Q3" } })
        .expect(200)
    ).body.data!;
    expect(r).toMatchObject({ salary_details: null, challans: [], due_date: "2026-01-31", totals: { tds_deducted: "0.00" } });
    expect(r.late_fee).toMatchObject({ fee: "0.00", tds_of_statement: "0.00" });
  });
  it("refuses a quarter it does not know and a tax year without rules", async () => {
    // by hand: a quarter the document's enum refuses, and none at all
    expectError(await w.hr.agent.get("/api/payroll/tds-return?tax_year=2025-26&quarter=Q5"), 400);
    expectError(await w.hr.agent.get("/api/payroll/tds-return?tax_year=2025-26"), 400);
    expectError(await api(w.hr.agent).op("getTdsReturn", { query: { tax_year: "2024-25", quarter: "Q4" } }), 400);
  });
});

describe("recordTdsReturnFiling and the late-filing fee (s.234E)", () => {
  it("unfiled on 10 June: 10 days after 31 May at ₹200 = ₹2,000, under the Act 1961 of the statement's year", async () => {
    const r = (
      await api(w.hr.agent)
        .op("getTdsReturn", { query: { tax_year: "2025-26", quarter: "Q4" } })
        .expect(200)
    ).body.data!;
    expect(r.late_fee).toMatchObject({ as_of: "2026-06-10", filed: false, days: 10, fee: "2000.00", capped: false });
    expect(r.late_fee.source).toContain("s.234E");
    // the cap is the quarter's tax deducted by the runs, March's too (no challan yet), not only what challans cover
    const months = (
      await api(w.hr.agent)
        .op("listTdsChallans", { query: { tax_year: "2025-26" } })
        .expect(200)
    ).body.data!.months;
    const quarter = months.filter((m: { period: string }) => m.period >= "2026-01" && m.period <= "2026-03");
    expect(r.late_fee.tds_of_statement).toBe(money(sum(quarter.map((m: { deducted: string }) => m.deducted))));
    expect(Number(r.late_fee.tds_of_statement)).toBeGreaterThan(Number(r.totals.tds_deducted));
  });
  it("filed on 3 June: 3 days, ₹600; audited from -> to; a correction moves the fee", async () => {
    const url = "/api/payroll/tds-return/filing?tax_year=2025-26&quarter=Q4";
    const res = await w.hr.agent.put(url).send({ filed_on: "2026-06-03", receipt_number: "123456789012345" }).expect(200);
    expect(res.body.data.filing).toMatchObject({ filed_on: "2026-06-03", receipt_number: "123456789012345" });
    expect(res.body.data.late_fee).toMatchObject({ as_of: "2026-06-03", filed: true, days: 3, fee: "600.00" });
    await w.hr.agent.put(url).send({ filed_on: "2026-05-30", receipt_number: "123456789012346" }).expect(200);
    const r = (
      await api(w.hr.agent)
        .op("getTdsReturn", { query: { tax_year: "2025-26", quarter: "Q4" } })
        .expect(200)
    ).body.data!;
    expect(r.late_fee).toMatchObject({ as_of: "2026-05-30", days: 0, fee: "0.00" });
    const rows = await t.query(
      `SELECT changes FROM audit_logs WHERE tenant_id = $1 AND action = 'tds_return.filed' ORDER BY created_at, id`,
      [w.owner.tenantId],
    );
    expect(rows).toHaveLength(2);
    expect(rows[1].changes).toMatchObject({ quarter: "Q4", filed_on: { from: "2026-06-03", to: "2026-05-30" } });
  });
  it("refuses a filing date within the quarter or after today, and a malformed receipt number", async () => {
    const url = "/api/payroll/tds-return/filing?tax_year=2025-26&quarter=Q4";
    const early = await w.hr.agent.put(url).send({ filed_on: "2026-03-31", receipt_number: "123456789012345" });
    expectError(early, 400);
    expect(JSON.stringify(early.body)).toContain("after the quarter's last day (2026-03-31)");
    expectError(await w.hr.agent.put(url).send({ filed_on: "2026-06-11", receipt_number: "123456789012345" }), 400);
    expectError(await w.hr.agent.put(url).send({ filed_on: "2026-06-01", receipt_number: "12345" }), 400);
  });
});

/** The file's lines split into fields, with the index of a named field of a record type. */
function parse(text: string, layout: LayoutId) {
  expect(text.endsWith("\r\n")).toBe(true);
  const lines = text.slice(0, -2).split("\r\n");
  expect(lines.every((l) => !l.includes("\n") && !l.includes("\r"))).toBe(true);
  const records = lines.map((l) => l.split("^"));
  const at = (type: RecordType, name: string) => {
    const i = LAYOUTS[layout][type].indexOf(name);
    if (i < 0) throw new Error(`no field ${name} in ${type}`);
    return i;
  };
  return { records, get: (r: string[], name: string) => r[at(r[1] as RecordType, name)] };
}

/** Checks what the layout says of any file: order, field counts, numbering, control totals. */
function checkFile(text: string, layout: LayoutId) {
  const { records, get } = parse(text, layout);
  records.forEach((r, i) => {
    expect(r[0]).toBe(String(i + 1));
    expect(r.length, `${r[1]} record of line ${i + 1}`).toBe(LAYOUTS[layout][r[1] as RecordType].length);
  });
  const types = records.map((r) => r[1]).join(" ");
  expect(types).toMatch(/^FH BH( CD( DD)*)*( SD( S16)*( C6A)*)*$/);
  const [, bh] = records;
  const cds = records.filter((r) => r[1] === "CD");
  const sds = records.filter((r) => r[1] === "SD");
  const cents = (xs: string[]) => xs.reduce((a, x) => a + Math.round(Number(x) * 100), 0);
  expect(Number(get(bh, "challan count"))).toBe(cds.length);
  expect(Math.round(Number(get(bh, "batch total deposit")) * 100)).toBe(cents(cds.map((c) => get(c, "total deposit"))));
  for (const cd of cds) {
    const dds = records.filter((r) => r[1] === "DD" && get(r, "challan record number") === get(cd, "challan record number"));
    expect(Number(get(cd, "deductee count"))).toBe(dds.length);
    expect(Math.round(Number(get(cd, "deposited as per deductees")) * 100)).toBe(cents(dds.map((d) => get(d, "total deposited"))));
    const deducted = layout === "24Q" ? get(cd, "total TDS") : get(cd, "deducted as per deductees");
    expect(Math.round(Number(deducted) * 100)).toBe(cents(dds.map((d) => get(d, "total TDS"))));
  }
  if (sds.length) {
    expect(Number(get(bh, "salary detail count"))).toBe(sds.length);
    expect(Math.round(Number(get(bh, "batch total gross total income")) * 100)).toBe(cents(sds.map((s) => get(s, "gross total income"))));
    for (const sd of sds) {
      const n = get(sd, "salary detail record number");
      const s16 = records.filter((r) => r[1] === "S16" && get(r, "salary detail record number") === n);
      const c6a = records.filter((r) => r[1] === "C6A" && get(r, "salary detail record number") === n);
      expect(Number(get(sd, "S16 count"))).toBe(s16.length);
      expect(Math.round(Number(get(sd, "S16 total")) * 100)).toBe(cents(s16.map((s) => get(s, "amount"))));
      expect(Number(get(sd, "C6A count"))).toBe(c6a.length);
    }
  }
  return { records, get };
}

async function download(agent: PayrollWorld["hr"]["agent"], url: string) {
  return agent
    .get(url)
    .buffer(true)
    .parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on("data", (c: Buffer) => chunks.push(c));
      r.on("end", () => cb(null, Buffer.concat(chunks).toString("latin1")));
    });
}

describe("downloadTdsReturnFile: the e-TDS text file, parsed back", () => {
  it("24Q Q4: FH, BH, each challan with its deductees, the salary details; counts and totals add up", async () => {
    const r = (
      await api(w.hr.agent)
        .op("getTdsReturn", { query: { tax_year: "2025-26", quarter: "Q4" } })
        .expect(200)
    ).body.data!;
    const res = await download(w.hr.agent, "/api/payroll/tds-return/file?tax_year=2025-26&quarter=Q4");
    expect(res.status).toBe(200);
    expect(res.headers["content-type"]).toBe("text/plain; charset=us-ascii");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="24QRQ4_BLRA12345B_202526.txt"');
    const text = res.body as string;
    expect(/^[\x20-\x7e\r\n]*$/.test(text)).toBe(true);
    const { records, get } = checkFile(text, "24Q");
    expect(records.map((x) => x[1]).join(" ")).toBe("FH BH CD DD DD CD DD DD SD S16 SD S16");
    const [fh, bh] = records;
    expect([get(fh, "file type"), get(fh, "upload type"), get(fh, "file creation date"), get(fh, "TAN")]).toEqual([
      "SL1",
      "R",
      "10062026",
      "BLRA12345B",
    ]);
    expect([get(bh, "form number"), get(bh, "assessment year"), get(bh, "financial year"), get(bh, "period")]).toEqual([
      "24Q",
      "202627",
      "202526",
      "Q4",
    ]);
    expect([get(bh, "deductor state"), get(bh, "deductor PIN"), get(bh, "responsible mobile"), get(bh, "responsible PAN")]).toEqual([
      "15",
      "560001",
      "9876543210",
      "ABCPR1234K",
    ]);
    // the file's deductee records are the JSON's, challan by challan
    const dds = records.filter((x) => x[1] === "DD");
    const json = r.challans.flatMap((c: { deductees: { pan: string; amount_paid: string; tds_deducted: string }[] }) => c.deductees);
    expect(dds.map((d) => [get(d, "PAN"), get(d, "amount paid"), get(d, "total TDS"), get(d, "section code")])).toEqual(
      json.map((d: { pan: string; amount_paid: string; tds_deducted: string }) => [d.pan, d.amount_paid, d.tds_deducted, "92B"]),
    );
    expect(get(dds[0], "date of payment")).toBe("31012026");
    const sd = records.find((x) => x[1] === "SD" && get(x, "PAN") === "ABCPJ5678K")!;
    expect([get(sd, "gross total income"), get(sd, "net tax payable"), get(sd, "total TDS of the year")]).toEqual([
      "1725000.00",
      "150800.00",
      "150800.00",
    ]);
  });
  it("an employee may not download it; without a TAN it is a 409 that says what to set", async () => {
    const emp = await memberFor(t, w, joiner);
    expectError(await api(emp.agent).op("downloadTdsReturnFile", { query: { tax_year: "2025-26", quarter: "Q4" } }), 403);
    const bare = await payrollWorld(t);
    const res = await api(bare.hr.agent).op("downloadTdsReturnFile", { query: { tax_year: "2025-26", quarter: "Q4" } });
    expectError(res, 409, "conflict");
    expect(res.body.error).toContain("deductor_tan");
  });
});

describe("getTdsReturn, downloadTdsReturnFile: Form 138 from the tax year 2026-27", () => {
  it("names Form 138 under the Act 2025, with its layout, section code and s.427", async () => {
    await processRuns(w, ["2026-04", "2026-05"]);
    const months = (
      await api(w.hr.agent)
        .op("listTdsChallans", { query: { tax_year: "2026-27" } })
        .expect(200)
    ).body.data!.months;
    await api(w.hr.agent)
      .op("recordTdsChallan", {
        body: { period: "2026-04", bsr_code: "0510308", challan_serial: "00200", deposited_on: "2026-05-06", tax: months[0].deducted },
      })
      .expect(201);
    const r = (
      await api(w.hr.agent)
        .op("getTdsReturn", { query: { tax_year: "2026-27", quarter: "Q1" } })
        .expect(200)
    ).body.data!;
    expect(r).toMatchObject({ form: "Form 138", due_date: "2026-07-31", salary_details: null });
    expect(r.late_fee.source).toContain("s.427");
    expect(r.challans[0].deductees[0].section_code).toBe("1002");
    expect(r.warnings.join("\n")).toContain("The quarter ends on 2026-06-30");
    expect(r.warnings.join("\n")).toMatch(/No challan is recorded for 2026-05/);
    const res = await download(w.hr.agent, "/api/payroll/tds-return/file?tax_year=2026-27&quarter=Q1");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="138RQ1_BLRA12345B_202627.txt"');
    const { records, get } = checkFile(res.body as string, "138");
    expect(records.map((x) => x[1]).join(" ")).toBe("FH BH CD DD DD");
    expect([get(records[1], "form number"), get(records[1], "assessment year"), get(records[1], "financial year")]).toEqual([
      "138",
      "202728",
      "202627",
    ]);
    // the previous quarter's statement was recorded as filed: the batch header says so, with its receipt
    expect([get(records[1], "earlier regular statement filed"), get(records[1], "previous token number")]).toEqual([
      "Y",
      "123456789012346",
    ]);
  });
});

describe("getTdsReturn, recordTdsReturnFiling: isolation and a UAE company", () => {
  it("another company sees none of the challans, and its filing does not touch this one's", async () => {
    const stranger = await payrollWorld(t);
    const r = (
      await api(stranger.hr.agent)
        .op("getTdsReturn", { query: { tax_year: "2025-26", quarter: "Q4" } })
        .expect(200)
    ).body.data;
    expect(r).toMatchObject({ challans: [], salary_details: [], filing: null, deductor: { tan: null } });
    await api(stranger.hr.agent)
      .op("recordTdsReturnFiling", {
        query: { tax_year: "2025-26", quarter: "Q4" },
        body: { filed_on: "2026-06-09", receipt_number: "999999999999999" },
      })
      .expect(200);
    const own = (
      await api(w.hr.agent)
        .op("getTdsReturn", { query: { tax_year: "2025-26", quarter: "Q4" } })
        .expect(200)
    ).body.data!;
    expect(own.filing!.receipt_number).toBe("123456789012346");
    const emp = await memberFor(t, w, noPan);
    expectError(await api(emp.agent).op("getTdsReturn", { query: { tax_year: "2025-26", quarter: "Q4" } }), 403);
  });
  it("a UAE company: null, and no file or filing (409)", async () => {
    const uae = await payrollWorld(t);
    await t.query(`UPDATE tenants SET timezone = 'Asia/Dubai', currency = 'AED' WHERE id = $1`, [uae.owner.tenantId]);
    expect(
      (
        await api(uae.hr.agent)
          .op("getTdsReturn", { query: { tax_year: "2025-26", quarter: "Q4" } })
          .expect(200)
      ).body.data,
    ).toBeNull();
    expectError(await api(uae.hr.agent).op("downloadTdsReturnFile", { query: { tax_year: "2025-26", quarter: "Q4" } }), 409, "conflict");
    expectError(
      await api(uae.hr.agent).op("recordTdsReturnFiling", {
        query: { tax_year: "2025-26", quarter: "Q4" },
        body: { filed_on: "2026-06-09", receipt_number: "999999999999999" },
      }),
      409,
      "conflict",
    );
  });
});
