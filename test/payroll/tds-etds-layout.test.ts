// The e-TDS record layouts against the published field numbers: each record type's field count and the
// position (1-based, as the file formats number them) of the fields a statement is checked by. Sources:
// Protean's 24Q formats as annotated field by field in public implementations (the challan's "field no. 22,
// 23, 24, 25, 39 and 26", the deductee's "field no. 14, 15, 16, 17, 19, 22"), Odoo's Form 138 implementation.
import { describe, expect, it } from "vitest";
import { LAYOUTS, writeRecord } from "../../src/modules/payroll/income-tax/etds-layout.ts";
import { statementPan } from "../../src/modules/payroll/income-tax/tds-salary-detail.ts";

const at = (layout: "24Q" | "138", type: keyof (typeof LAYOUTS)["24Q"], name: string) => LAYOUTS[layout][type].indexOf(name) + 1;

describe("e-TDS layouts", () => {
  it("has the published number of fields per record type", () => {
    const counts = (l: "24Q" | "138") => Object.fromEntries(Object.entries(LAYOUTS[l]).map(([k, v]) => [k, v.length]));
    expect(counts("24Q")).toEqual({ FH: 18, BH: 72, CD: 41, DD: 39, SD: 88, S16: 8, C6A: 10 });
    expect(counts("138")).toEqual({ FH: 18, BH: 72, CD: 30, DD: 45, SD: 88, S16: 8, C6A: 10 });
  });
  it("places the 24Q fields where the format numbers them", () => {
    expect([at("24Q", "BH", "TAN"), at("24Q", "BH", "PAN"), at("24Q", "BH", "period"), at("24Q", "BH", "deductor type")]).toEqual([
      13, 15, 18, 32,
    ]);
    expect([at("24Q", "BH", "batch total deposit"), at("24Q", "BH", "salary detail count"), at("24Q", "BH", "responsible PAN")]).toEqual([
      47, 49, 59,
    ]);
    expect([at("24Q", "CD", "challan serial"), at("24Q", "CD", "BSR code"), at("24Q", "CD", "challan date")]).toEqual([12, 16, 18]);
    expect([at("24Q", "CD", "oltas income tax"), at("24Q", "CD", "oltas others"), at("24Q", "CD", "total deposit")]).toEqual([22, 26, 27]);
    expect([at("24Q", "CD", "fee"), at("24Q", "CD", "minor head"), at("24Q", "CD", "TDS interest")]).toEqual([39, 40, 34]);
    expect([
      at("24Q", "DD", "PAN"),
      at("24Q", "DD", "TDS income tax"),
      at("24Q", "DD", "total TDS"),
      at("24Q", "DD", "total deposited"),
    ]).toEqual([10, 14, 17, 19]);
    expect([at("24Q", "DD", "amount paid"), at("24Q", "DD", "reason"), at("24Q", "DD", "section code")]).toEqual([22, 30, 33]);
    expect([at("24Q", "SD", "PAN"), at("24Q", "SD", "gross total income"), at("24Q", "SD", "salary 17(1)")]).toEqual([7, 19, 67]);
  });
  it("places the Form 138 fields where its layout numbers them", () => {
    expect([
      at("138", "CD", "total tax deducted"),
      at("138", "CD", "BSR code"),
      at("138", "CD", "challan serial"),
      at("138", "CD", "challan date"),
    ]).toEqual([8, 15, 17, 19]);
    expect([at("138", "DD", "PAN"), at("138", "DD", "section code"), at("138", "DD", "amount paid"), at("138", "DD", "total TDS")]).toEqual(
      [8, 15, 20, 24],
    );
  });
  it("writes n-1 carets, keeps carets and line breaks out of values, and refuses a field the layout lacks", () => {
    const line = writeRecord("24Q", "S16", { "line number": 3, "record type": "S16", section: "16(ia)^x\r\n", amount: "75000.00" });
    expect(line).toBe("3^S16^^^^16(ia) x  ^75000.00^");
    expect(() => writeRecord("24Q", "S16", { "no such field": "1" })).toThrow(/no field/);
  });
  it("reports a PAN as the format asks: PANNOTAVBL without one, PANINVALID for a malformed one", () => {
    expect(statementPan(null)).toEqual({ pan: "PANNOTAVBL", pan_status: "missing" });
    expect(statementPan("abcpj5678k")).toEqual({ pan: "ABCPJ5678K", pan_status: "valid" });
    expect(statementPan("ABCPJ5678")).toEqual({ pan: "PANINVALID", pan_status: "invalid" });
    expect(statementPan("ABCP15678K")).toEqual({ pan: "PANINVALID", pan_status: "invalid" });
  });
});
