// Part A of Form 16 (uploadForm16PartA, downloadForm16PartA, deleteForm16PartA): hr uploads the TRACES PDF
// per employee and tax year, a new upload replaces it as a new version, a removal takes it away - each
// audited; the employee downloads their own and no one else's; another company sees nothing; getForm16 says
// whether it is attached; only PDFs; a replaced or removed version's file is let go (the cleanup's to remove);
// a UAE company has none (409).
import { beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { expectError, useTestApp, type AuditChanges } from "../support/app.ts";
import { useClock } from "../support/clock.ts";
import { renderPdf } from "../support/pdf.ts";
import { memberFor, type PayrollWorld, payrollEmployee, payrollWorld } from "./fixtures.ts";

useClock("2026-06-20T06:30:00Z");
const t = useTestApp();
let w: PayrollWorld;
let alice: string;
let bob: string;
let aliceMember: Awaited<ReturnType<typeof memberFor>>;

const pdf = (text: string) => Buffer.from(`%PDF-1.4\n% ${text}\n%%EOF\n`);
const url = (id: string, year = "2025-26") => `/api/payroll/form-16/${id}/part-a?tax_year=${year}`;

/** The bytes of a download, as received. */
function download(agent: PayrollWorld["hr"]["agent"], path: string) {
  return agent
    .get(path)
    .buffer(true)
    .parse((r, cb) => {
      const chunks: Buffer[] = [];
      r.on("data", (c: Buffer) => chunks.push(c));
      r.on("end", () => cb(null, Buffer.concat(chunks)));
    });
}

beforeAll(async () => {
  w = await payrollWorld(t);
  alice = await payrollEmployee(t, w, "600000.00", { joining_date: "2026-03-01" });
  bob = await payrollEmployee(t, w, "90000.00", { joining_date: "2026-03-01" });
  // Alice signs in before her Part A is uploaded (the notice goes to her account)
  aliceMember = await memberFor(t, w, alice);
  const run = await api(w.hr.agent)
    .op("createPayrollRun", { body: { period: "2026-03" } })
    .expect(201);
  await api(w.hr.agent)
    .op("processPayrollRun", { params: { id: run.body.data.id } })
    .expect(200);
}, 120_000);

describe("uploadForm16PartA, downloadForm16PartA, deleteForm16PartA: Form 16 Part A", () => {
  it("getForm16 says no Part A until one is uploaded; the download is a 404 that says so", async () => {
    const f = (
      await api(w.hr.agent)
        .op("getForm16", { params: { employeeId: alice }, query: { tax_year: "2025-26" } })
        .expect(200)
    ).body.data!;
    expect(f.part_a).toBeNull();
    const res = await w.hr.agent.get(url(alice));
    expectError(res, 404, "not_found");
    expect(res.body.error).toMatch(/No Part A/);
  });

  it("hr uploads the TRACES PDF: version 1, named in getForm16 with its download address; audited", async () => {
    const res = await w.hr.agent
      .put(url(alice))
      .attach("file", pdf("alice v1"), { filename: "ABCPE1234F_2026-27.pdf", contentType: "application/pdf" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      version: 1,
      file_name: "ABCPE1234F_2026-27.pdf",
      size_bytes: pdf("alice v1").length,
      download_url: url(alice),
    });
    const f = (
      await api(w.hr.agent)
        .op("getForm16", { params: { employeeId: alice }, query: { tax_year: "2025-26" } })
        .expect(200)
    ).body.data!;
    expect(f.part_a).toEqual(res.body.data);
    const [a] = await t.query<{ changes: AuditChanges }>(
      `SELECT changes FROM audit_logs WHERE tenant_id = $1 AND action = 'form16_part_a.uploaded' AND entity_id = $2`,
      [w.owner.tenantId, alice],
    );
    expect(a.changes).toMatchObject({
      tax_year: "2025-26",
      part_a: { from: null, to: { version: 1, file_name: "ABCPE1234F_2026-27.pdf" } },
    });
  });

  it("the employee is notified, downloads their own Part A byte for byte, not another's; another company's hr gets a 404", async () => {
    const emp = aliceMember;
    const notes = (await api(emp.agent).op("listNotifications").expect(200)).body.data;
    expect(notes.map((n: { kind: string; title: string }) => [n.kind, n.title])).toContainEqual([
      "form16_part_a.uploaded",
      "Part A of your Form 16 for 2025-26 is available",
    ]);
    const own = await download(emp.agent, url(alice));
    expect(own.status).toBe(200);
    expect(own.headers["content-type"]).toBe("application/pdf");
    expect(own.headers["content-disposition"]).toContain("ABCPE1234F_2026-27.pdf");
    expect((own.body as Buffer).equals(pdf("alice v1"))).toBe(true);
    await w.hr.agent.put(url(bob)).attach("file", pdf("bob"), { filename: "bob.pdf", contentType: "application/pdf" }).expect(200);
    expectError(await emp.agent.get(url(bob)), 404, "not_found");
    const stranger = await payrollWorld(t);
    expectError(await stranger.hr.agent.get(url(alice)), 404, "not_found");
    expectError(
      await stranger.hr.agent.put(url(alice)).attach("file", pdf("x"), { filename: "x.pdf", contentType: "application/pdf" }),
      404,
      "not_found",
    );
  });

  it("an employee may not upload or remove, not even their own (403)", async () => {
    const emp = aliceMember;
    expectError(await emp.agent.put(url(alice)).attach("file", pdf("mine"), { filename: "m.pdf", contentType: "application/pdf" }), 403);
    expectError(await emp.agent.delete(url(alice)), 403);
  });

  it("only a PDF: another type or a file that is not a PDF inside is a 415; the tax year is required (400)", async () => {
    const put = (body: Buffer, contentType: string, name = "part-a.pdf") =>
      w.hr.agent.put(url(alice)).attach("file", body, { filename: name, contentType });
    expectError(await put(Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]), "image/png", "part-a.png"), 415);
    expectError(await put(Buffer.from("not a pdf at all"), "application/pdf"), 415);
    const noYear = await w.hr.agent
      .put(`/api/payroll/form-16/${alice}/part-a`)
      .attach("file", pdf("x"), { filename: "x.pdf", contentType: "application/pdf" });
    expectError(noYear, 400);
    // still version 1
    const f = (
      await api(w.hr.agent)
        .op("getForm16", { params: { employeeId: alice }, query: { tax_year: "2025-26" } })
        .expect(200)
    ).body.data!;
    expect(f.part_a!.version).toBe(1);
  });

  it("the same PDF again (a retry) changes nothing: still version 1", async () => {
    const res = await w.hr.agent.put(url(alice)).attach("file", pdf("alice v1"), { filename: "retry.pdf", contentType: "application/pdf" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ version: 1, file_name: "ABCPE1234F_2026-27.pdf" });
  });

  it("a new upload replaces it as version 2 (audited from → to); the replaced version's file is let go", async () => {
    const res = await w.hr.agent
      .put(url(alice))
      .attach("file", pdf("alice v2"), { filename: "part-a-corrected.pdf", contentType: "application/pdf" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ version: 2, file_name: "part-a-corrected.pdf" });
    expect(((await download(w.hr.agent, url(alice))).body as Buffer).equals(pdf("alice v2"))).toBe(true);
    const rows = await t.query(
      `SELECT version, file_id IS NOT NULL AS has_file, replaced_at IS NOT NULL AS replaced FROM form16_part_a
        WHERE tenant_id = $1 AND employee_id = $2 ORDER BY version`,
      [w.owner.tenantId, alice],
    );
    expect(rows).toEqual([
      { version: 1, has_file: false, replaced: true },
      { version: 2, has_file: true, replaced: false },
    ]);
    const audits = await t.query<{ changes: AuditChanges }>(
      `SELECT changes FROM audit_logs WHERE tenant_id = $1 AND action = 'form16_part_a.uploaded' AND entity_id = $2 ORDER BY created_at`,
      [w.owner.tenantId, alice],
    );
    expect(audits.at(-1)?.changes.part_a).toMatchObject({ from: { version: 1 }, to: { version: 2, file_name: "part-a-corrected.pdf" } });
    // Part B's PDF says Part A is attached, as a separate download
    const partB = await download(w.hr.agent, `/api/payroll/form-16/${alice}/pdf?tax_year=2025-26`);
    const { text } = await renderPdf(partB.body as Buffer, "/tmp/form-16-part-a-note.png");
    expect(text).toContain("Part A (TRACES): uploaded 2026-06-20 (version 2), a separate download");
  });

  it("hr removes it: getForm16 has no Part A, the download and a second removal are 404s; audited", async () => {
    await w.hr.agent.delete(url(bob)).expect(200);
    const f = (
      await api(w.hr.agent)
        .op("getForm16", { params: { employeeId: bob }, query: { tax_year: "2025-26" } })
        .expect(200)
    ).body.data!;
    expect(f.part_a).toBeNull();
    expectError(await w.hr.agent.get(url(bob)), 404, "not_found");
    expectError(await w.hr.agent.delete(url(bob)), 404, "not_found");
    const [a] = await t.query(
      `SELECT changes FROM audit_logs WHERE tenant_id = $1 AND action = 'form16_part_a.removed' AND entity_id = $2`,
      [w.owner.tenantId, bob],
    );
    expect(a.changes).toMatchObject({ tax_year: "2025-26", part_a: { from: { version: 1, file_name: "bob.pdf" }, to: null } });
    // a later upload is version 2: the numbering goes on
    const again = await w.hr.agent.put(url(bob)).attach("file", pdf("bob 2"), { filename: "bob.pdf", contentType: "application/pdf" });
    expect(again.body.data.version).toBe(2);
  });

  it("each tax year has its own: 2026-27 has none", async () => {
    expectError(await w.hr.agent.get(url(alice, "2026-27")), 404, "not_found");
  });

  it("a UAE company: no Part A (409 for upload, download and removal)", async () => {
    const uae = await payrollWorld(t);
    await t.query(`UPDATE tenants SET timezone = 'Asia/Dubai', currency = 'AED' WHERE id = $1`, [uae.owner.tenantId]);
    const id = await payrollEmployee(t, uae, "50000.00", { state: null });
    expectError(
      await uae.hr.agent.put(url(id)).attach("file", pdf("uae"), { filename: "a.pdf", contentType: "application/pdf" }),
      409,
      "conflict",
    );
    expectError(await uae.hr.agent.get(url(id)), 409, "conflict");
    expectError(await uae.hr.agent.delete(url(id)), 409, "conflict");
  });
});
