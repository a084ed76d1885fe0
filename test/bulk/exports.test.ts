// Bulk exports: CSV or NDJSON, streamed in keyset batches, with the list's
// filters and updated_since; formula cells neutralised; roles, scopes and tenant isolation.
import { parse } from "csv-parse/sync";
import { describe, expect, it } from "vitest";
import { csvCell } from "../../src/modules/bulk/exports.ts";
import { addMember, expectError, signupTenant, useTestApp } from "../support/app.ts";
import { createEmployee, insertEmployee } from "../support/employees.ts";
import { api } from "../support/api.ts";

const t = useTestApp();

/** The body of a streamed answer as text (supertest buffers text/csv; NDJSON needs a parser). */
const text = (req: import("supertest").Test) =>
  req.buffer(true).parse((res, cb) => {
    let s = "";
    res.setEncoding("utf8");
    res.on("data", (c: string) => {
      s += c;
    });
    res.on("end", () => cb(null, s));
  });

describe("exportEmployees: CSV and NDJSON", () => {
  it("exports every live employee as CSV (the create's columns), formula cells neutralised", async () => {
    const o = await signupTenant(t);
    const evil = await createEmployee(o, {
      first_name: '=HYPERLINK("http://x")',
      last_name: "@SUM(A1)",
      designation: "-2+3",
      phone: "+91 98765 43210",
    });
    const plain = await createEmployee(o, { first_name: "Plain", last_name: "Person, Jr.", designation: 'Says "hi"\nand, bye' });
    const deleted = await createEmployee(o, { first_name: "Gone" });
    await api(o.agent)
      .op("deleteEmployee", { params: { employeeId: deleted.id } })
      .expect(200);
    const res = await text(o.agent.get("/api/exports/employees")).expect(200);
    expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
    expect(res.headers["content-disposition"]).toBe('attachment; filename="employees.csv"');
    const [header, ...rows] = parse(res.body as string) as string[][];
    expect(header.slice(0, 5)).toEqual(["id", "employee_code", "first_name", "last_name", "email"]);
    const byId = new Map(rows.map((r) => [r[0], Object.fromEntries(header.map((h, i) => [h, r[i]]))]));
    expect([...byId.keys()].sort()).toEqual([evil.id, plain.id].sort());
    expect(byId.get(evil.id)).toMatchObject({
      first_name: '\'=HYPERLINK("http://x")',
      last_name: "'@SUM(A1)",
      designation: "'-2+3",
      phone: "'+91 98765 43210",
    });
    expect(byId.get(plain.id)).toMatchObject({
      first_name: "Plain",
      last_name: "Person, Jr.",
      designation: 'Says "hi"\nand, bye',
      date_of_birth: "",
      status: "active",
    });
    expect((res.body as string).endsWith("\r\n")).toBe(true);
  });

  it("NDJSON by format or Accept, values as stored; filters and updated_since", async () => {
    const o = await signupTenant(t);
    const a = await createEmployee(o, { department: "Sales", first_name: "=cmd" });
    const b = await createEmployee(o, { department: "Ops" });
    const res = await text(o.agent.get("/api/exports/employees?format=ndjson&department=Sales")).expect(200);
    expect(res.headers["content-type"]).toBe("application/x-ndjson; charset=utf-8");
    const lines = (res.body as string)
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(lines).toEqual([expect.objectContaining({ id: a.id, first_name: "=cmd", department: "Sales", date_of_birth: null })]);
    const byAccept = await text(o.agent.get("/api/exports/employees").set("Accept", "application/x-ndjson")).expect(200);
    expect((byAccept.body as string).trimEnd().split("\n")).toHaveLength(2);

    // updated_since: only rows changed at or after it, by the database's change stamp (a raw-SQL
    // update, which Prisma's updated_at never sees, counts)
    const [{ mark }] = await t.query<{ mark: Date }>("SELECT clock_timestamp() AS mark");
    await t.query("UPDATE employees SET department = department WHERE id = $1", [b.id]);
    const sinceParam = encodeURIComponent(mark.toISOString());
    const since = await text(o.agent.get(`/api/exports/employees?format=ndjson&updated_since=${sinceParam}`)).expect(200);
    expect(
      (since.body as string)
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l).id),
    ).toEqual([b.id]);
    expectError(await api(o.agent).op("exportEmployees", { query: { updated_since: "yesterday" } }), 400, "validation_failed");
    expectError(await o.agent.get("/api/exports/employees?format=xlsx"), 400, "validation_failed");
  });

  it("walks more rows than one batch in id order, each once", async () => {
    const o = await signupTenant(t);
    const values = Array.from(
      { length: 10100 },
      (_, i) => `('${o.tenantId}', 'B-${i}', 'B${i}', 'Batch', 'b${i}.${o.tenantId}@example.test', 'Ops', 'X', '2024-01-01', '')`,
    );
    await t.query(
      `INSERT INTO employees (tenant_id, employee_code, first_name, last_name, email, department, designation, joining_date, search_text)
       VALUES ${values.join(",")}`,
    );
    const res = await text(o.agent.get("/api/exports/employees?format=ndjson")).expect(200);
    const ids = (res.body as string)
      .trimEnd()
      .split("\n")
      .map((l) => JSON.parse(l).id as string);
    expect(ids).toHaveLength(10100);
    expect(new Set(ids).size).toBe(10100);
    expect([...ids].sort()).toEqual(ids);
  });
});

describe("exportHolidays, exportAttendanceRecords, exportLeaveAllocations: the other kinds", () => {
  it("exports holidays with the date filters and an empty export as the header alone", async () => {
    const o = await signupTenant(t);
    expect((await text(o.agent.get("/api/exports/holidays")).expect(200)).body).toBe(
      "id,date,name,description,is_optional,branch_id,work_location_id,created_at,updated_at\r\n",
    );
    await api(o.agent)
      .op("createHoliday", { body: { date: "2027-01-26", name: "Republic Day" } })
      .expect(201);
    await api(o.agent)
      .op("createHoliday", { body: { date: "2027-08-15", name: "Independence Day" } })
      .expect(201);
    const res = await text(o.agent.get("/api/exports/holidays?format=ndjson&from_date=2027-06-01")).expect(200);
    expect(
      (res.body as string)
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l).name),
    ).toEqual(["Independence Day"]);
  });

  it("exports attendance records by employee", async () => {
    const o = await signupTenant(t);
    const e1 = await insertEmployee(t, o.tenantId);
    const e2 = await insertEmployee(t, o.tenantId);
    await api(o.agent)
      .op("importAttendance", {
        body: {
          records: [
            { employee_id: e1, date: "2026-11-02", status: "absent" },
            { employee_id: e2, date: "2026-11-02", status: "absent" },
          ],
        },
      })
      .expect(200);
    const res = await text(o.agent.get(`/api/exports/attendance?format=ndjson&employee_id=${e1}`)).expect(200);
    expect(
      (res.body as string)
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l)),
    ).toEqual([expect.objectContaining({ employee_id: e1, date: "2026-11-02", status: "absent", source: "import" })]);
  });
});

describe("exportEmployees: roles and isolation", () => {
  it("hr may export; managers and employees may not; another company's rows never appear", async () => {
    const o = await signupTenant(t);
    const mine = await createEmployee(o);
    const other = await signupTenant(t);
    await createEmployee(other);
    const hr = await addMember(t, o, "hr");
    const manager = await addMember(t, o, "manager", { employeeId: mine.id });
    const res = await text(hr.agent.get("/api/exports/employees?format=ndjson")).expect(200);
    expect(
      (res.body as string)
        .trimEnd()
        .split("\n")
        .map((l) => JSON.parse(l).id),
    ).toEqual([mine.id]);
    expectError(await api(manager.agent).op("exportEmployees"), 403, "forbidden");
  });
});

describe("csvCell", () => {
  it("neutralises cells that begin with = + - @ tab or CR, and nothing else", () => {
    for (const s of ["=1+1", "+1", "-1", "@x", "\tx", "\rx"]) expect(csvCell(s)).toBe(`'${s}`);
    for (const s of ["a=1", "1-2", " =x", "", "x@y"]) expect(csvCell(s)).toBe(s);
    expect(csvCell(null)).toBe("");
    expect(csvCell(true)).toBe("true");
    expect(csvCell([{ a: 1 }])).toBe('[{"a":1}]');
    // text that already begins with ' before such a character gets one more, so the import's undoing is exact
    expect(csvCell("'=x")).toBe("''=x");
    expect(csvCell("'quoted'")).toBe("'quoted'");
  });
});
