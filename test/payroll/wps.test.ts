// UAE WPS: settings, the SIF file line by line, refusals (draft, missing settings, incomplete employees).
import { beforeAll, describe, expect, it } from "vitest";
import { expectDetails, expectError, useTestApp } from "../support/app.ts";
import { payrollEmployee, payrollWorld, type PayrollWorld } from "./fixtures.ts";
import * as clock from "../../src/lib/clock.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
let w: PayrollWorld;
let runId: string;
let incomplete: string;

beforeAll(async () => {
  w = await payrollWorld(t);
  await t.query(`UPDATE tenants SET timezone = 'Asia/Dubai', currency = 'AED' WHERE id = $1`, [w.owner.tenantId]);
  // no PF/ESI/PT: a UAE company switches the Indian statutory deductions off
  await api(w.hr.agent)
    .op("updatePfSettings", { body: { enabled: false } })
    .expect(200);
  await api(w.hr.agent)
    .op("updateEsiSettings", { body: { enabled: false } })
    .expect(200);
  await api(w.hr.agent)
    .op("updateProfessionalTaxSettings", { body: { enabled: false } })
    .expect(200);
  await payrollEmployee(t, w, "12000.00", {
    employee_code: "U-001",
    state: null,
    labour_card_number: "12345678",
    bank_routing_code: "802420101",
    bank_iban: "AE07 0331 2345 6789 0123 456",
  });
  const b = await payrollEmployee(t, w, "6500.00", {
    employee_code: "U-002",
    state: null,
    joining_date: "2027-01-10",
    labour_card_number: "915012345663",
    bank_routing_code: "302210101",
    bank_iban: "AE160240043520123456701",
  });
  incomplete = await payrollEmployee(t, w, "5000.00", {
    employee_code: "U-003",
    first_name: "Nadia",
    last_name: "Noiban",
    state: null,
    labour_card_number: "55555",
    bank_routing_code: null,
    bank_iban: null,
  });
  const [period] = await t.query(
    `INSERT INTO leave_periods (tenant_id, name, start_date, end_date) VALUES ($1, 'FY', '2027-01-01', '2027-12-31') RETURNING id`,
    [w.owner.tenantId],
  );
  const [lwp] = await t.query(`INSERT INTO leave_types (tenant_id, name, code, is_paid) VALUES ($1, 'Unpaid', 'UL', false) RETURNING id`, [
    w.owner.tenantId,
  ]);
  await t.query(
    `INSERT INTO leave_requests (tenant_id, employee_id, leave_type_id, period_id, from_date, ` +
      `to_date, days, status) VALUES ($1, $2, $3, $4, '2027-01-20', '2027-01-20', 1.0, 'approved')`,
    [w.owner.tenantId, b, lwp.id, period.id],
  );
  const cat = await api(w.hr.agent)
    .op("createExpenseCategory", { body: { name: "Fuel", requires_receipt: false } })
    .expect(201);
  const [bUser] = [await (await import("../support/app.ts")).addMember(t, w.owner, "employee", { employeeId: b })];
  const claim = await api(bUser.agent)
    .op("createExpenseClaim", {
      body: { category_id: cat.body.data.id, amount: "300.00", expense_date: "2026-11-01", description: "Fuel" },
    })
    .expect(201);
  await api(w.hr.agent)
    .op("updateExpenseClaim", { params: { id: claim.body.data.id }, body: { status: "approved" } })
    .expect(200);
  runId = (
    await api(w.hr.agent)
      .op("createPayrollRun", { body: { period: "2027-01" } })
      .expect(201)
  ).body.data.id;
});

describe("getWpsSettings: WPS settings", () => {
  it("defaults to empty ids and AED; owner/admin change them; hr reads", async () => {
    expect((await api(w.hr.agent).op("getWpsSettings").expect(200)).body.data).toMatchObject({
      employer_id: null,
      bank_routing_code: null,
      currency: "AED",
    });
    expectError(await api(w.hr.agent).op("updateWpsSettings", { body: { employer_id: "123456" } }), 403, "forbidden");
    expectError(await api(w.owner.agent).op("updateWpsSettings", { body: { bank_routing_code: "12345" } }), 400, "validation_failed");
  });
});

describe("updateWpsSettings, exportWpsSif: SIF export", () => {
  it("refuses drafts and missing settings", async () => {
    expectError(await api(w.hr.agent).op("exportWpsSif", { params: { draftId: runId } }), 409, "conflict");
    await api(w.hr.agent)
      .op("processPayrollRun", { params: { id: runId } })
      .expect(200);
    expectError(await api(w.hr.agent).op("exportWpsSif", { params: { draftId: runId } }), 409, "conflict");
    await api(w.owner.agent)
      .op("updateWpsSettings", { body: { employer_id: "123456", bank_routing_code: "802420101", employer_reference: "January payroll" } })
      .expect(200);
  });

  it("lists employees without WPS details in a 409", async () => {
    const e = expectError(await api(w.hr.agent).op("exportWpsSif", { params: { draftId: runId } }), 409, "conflict");
    expect(e.details).toEqual([{ path: "employees.U-003", message: "Nadia Noiban: missing bank_routing_code, bank_iban" }]);
  });

  it("produces the file line by line, EDR per employee and one SCR last", async () => {
    const before = clock.now();
    const res = await api(w.hr.agent)
      .op("exportWpsSif", { params: { draftId: runId }, query: { exclude_incomplete: true } })
      .expect(200);
    expect(res.headers["content-type"]).toMatch(/^text\/csv/);
    expect(res.headers["x-wps-excluded"]).toBe("1");
    const name = /filename="(\d{13})(\d{12})\.SIF"/.exec(res.headers["content-disposition"]);
    expect(name?.[1]).toBe("0000000123456");
    const lines = res.text.split("\r\n");
    expect(lines.pop()).toBe("");
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe("EDR,00000012345678,802420101,AE070331234567890123456,2027-01-01,2027-01-31,31,12000.00,0.00,0");
    // joined on the 10th, one unpaid day: 22 days employed, 21 payable of 31 → 6 500 × 21 / 31, split into components
    const slip = (
      await api(w.hr.agent)
        .op("getPayrollRunBreakdown", { params: { id: runId } })
        .expect(200)
    ).body.data.employees.find((e) => e.employee_code === "U-002");
    expect(slip).toMatchObject({ payable_days: "21.0", lop_days: "1.0", gross: "4403.23", reimbursements: "300.00", net_pay: "4703.23" });
    expect(lines[1]).toBe("EDR,00915012345663,302210101,AE160240043520123456701,2027-01-10,2027-01-31,22,4403.23,300.00,1");
    const scr = lines[2].split(",");
    expect(scr).toHaveLength(10);
    expect(scr[0]).toBe("SCR");
    expect(scr[1]).toBe("0000000123456");
    expect(scr[2]).toBe("802420101");
    expect(scr[3]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(scr[4]).toMatch(/^\d{4}$/);
    expect(scr.slice(5)).toEqual(["012027", "2", "16703.23", "AED", "January payroll"]);
    // the file name's stamp is the SCR's creation date and time (Dubai time)
    const stamp = name![2];
    expect(`20${stamp.slice(0, 2)}-${stamp.slice(2, 4)}-${stamp.slice(4, 6)}`).toBe(scr[3]);
    expect(stamp.slice(6, 10)).toBe(scr[4]);
    const dubai = new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Dubai", year: "numeric", month: "2-digit", day: "2-digit" }).format(
      before,
    );
    expect([
      dubai,
      new Intl.DateTimeFormat("en-CA", { timeZone: "Asia/Dubai", year: "numeric", month: "2-digit", day: "2-digit" }).format(clock.now()),
    ]).toContain(scr[3]);
  });

  it("updateWpsSettings refuses a formula-like reference; exportWpsSif writes an older one without its formula start", async () => {
    for (const employer_reference of ['=HYPERLINK("http://x")', "+1+1", "-2", "@SUM(A1)", "\tx"])
      expectError(await api(w.owner.agent).op("updateWpsSettings", { body: { employer_reference } }), 400, "validation_failed");
    await api(w.owner.agent)
      .op("updateWpsSettings", { body: { employer_reference: "Jan 2027 - run" } })
      .expect(200);
    // a value stored before the rule
    await t.query(
      "UPDATE tenant_settings SET settings = jsonb_set(settings, '{employer_reference}', to_jsonb($2::text)) " +
        "WHERE tenant_id = $1 AND kind = 'wps'",
      [w.owner.tenantId, "=cmd|' /C calc'!A0"],
    );
    const res = await api(w.hr.agent)
      .op("exportWpsSif", { params: { draftId: runId }, query: { exclude_incomplete: true } })
      .expect(200);
    const scr = res.text
      .split("\r\n")
      .find((l) => l.startsWith("SCR,"))!
      .split(",");
    expect(scr[9]).toBe("cmd|' /C calc'!A0");
    await api(w.owner.agent)
      .op("updateWpsSettings", { body: { employer_reference: "January payroll" } })
      .expect(200);
  });

  it("exportWpsSif: characters above U+00FF cannot become =, a comma or a line break in the file", async () => {
    const scrOf = async () => {
      const res = await api(w.hr.agent)
        .op("exportWpsSif", { params: { draftId: runId }, query: { exclude_incomplete: true } })
        .expect(200);
      expect(res.text).toMatch(/^[\x20-\x7E\r\n]*$/); // the file's bytes: ASCII only
      const lines = res.text.split("\r\n");
      expect(lines.pop()).toBe("");
      expect(lines).toHaveLength(3);
      for (const l of lines) expect(l.split(",")).toHaveLength(10);
      return lines[2].split(",");
    };
    // accepted by the document's pattern (no leading = + - @, no comma, no line break) ...
    await api(w.owner.agent)
      .op("updateWpsSettings", { body: { employer_reference: "Ľcmd|' /C calc'!A0" } })
      .expect(200);
    // ... and written transliterated: `Ľ` is `L`, never its low byte `=`
    expect((await scrOf())[9]).toBe("Lcmd|' /C calc'!A0");
    await api(w.owner.agent)
      .op("updateWpsSettings", { body: { employer_reference: "aĬbĊc" } })
      .expect(200);
    expect((await scrOf())[9]).toBe("aIbCc");
    // a full-width ＝ is an = in the file's character set: the formula start goes, as for an =
    await t.query(
      "UPDATE tenant_settings SET settings = jsonb_set(settings, '{employer_reference}', to_jsonb($2::text)) " +
        "WHERE tenant_id = $1 AND kind = 'wps'",
      [w.owner.tenantId, "＝HYPERLINK(1)，x\u010a"],
    );
    expect((await scrOf())[9]).toBe("HYPERLINK(1) xC");
    // an IBAN stored with a character outside the set is no IBAN: the employee is listed as incomplete
    await t.query(`UPDATE employees SET bank_iban = $2 WHERE tenant_id = $1 AND employee_code = 'U-001'`, [
      w.owner.tenantId,
      "AE07ĬĊ0331234567890123456",
    ]);
    const e = expectDetails(await api(w.hr.agent).op("exportWpsSif", { params: { draftId: runId } }), 409, "conflict");
    expect(e.details.map((d) => d.path)).toContain("employees.U-001");
    await t.query(`UPDATE employees SET bank_iban = $2 WHERE tenant_id = $1 AND employee_code = 'U-001'`, [
      w.owner.tenantId,
      "AE07 0331 2345 6789 0123 456",
    ]);
    await api(w.owner.agent)
      .op("updateWpsSettings", { body: { employer_reference: "January payroll" } })
      .expect(200);
  });

  it("is for owner/admin/hr", async () => {
    const emp = await (await import("../support/app.ts")).addMember(t, w.owner, "employee", { employeeId: incomplete });
    expectError(await api(emp.agent).op("exportWpsSif", { params: { draftId: runId } }), 403, "forbidden");
  });
});
