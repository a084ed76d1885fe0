// Employee documents: multipart upload with limits, listing, download, access and audit.
import { beforeAll, describe, expect, it } from "vitest";
import { addMember, expectError, signupTenant, useTestApp, type TenantSession } from "../support/app.ts";
import { createEmployee, type Employee } from "../support/employees.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
const PDF = Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.from("hello document ".repeat(50))]);
let owner: TenantSession;
let emp: Employee, other: Employee;

beforeAll(async () => {
  owner = await signupTenant(t);
  emp = await createEmployee(owner);
  other = await createEmployee(owner);
});

const upload = (
  s: TenantSession,
  employeeId: string,
  file: Buffer,
  opts: { filename?: string; contentType?: string; type?: string; title?: string } = {},
) => {
  let req = s.agent.post(`/api/employees/${employeeId}/documents`);
  if (opts.type !== "") req = req.field("document_type", opts.type ?? "id_proof");
  if (opts.title !== "") req = req.field("title", opts.title ?? "PAN card");
  return req.attach("file", file, { filename: opts.filename ?? "pan.pdf", contentType: opts.contentType ?? "application/pdf" });
};
const docCount = async (employeeId: string) =>
  (await t.query(`SELECT count(*)::int AS n FROM employee_documents WHERE employee_id = $1`, [employeeId]))[0].n;

describe("listEmployeeDocuments, uploadEmployeeDocument, downloadEmployeeDocument: upload and download", () => {
  it("stores the file, lists its metadata, serves the bytes and logs the upload", async () => {
    const res = await upload(owner, emp.id, PDF).expect(201);
    const doc = res.body.data;
    expect(doc).toMatchObject({
      employee_id: emp.id,
      document_type: "id_proof",
      title: "PAN card",
      uploaded_by: owner.userId,
      download_path: `/api/employees/${emp.id}/documents/${doc.id}/download`,
    });
    expect(doc.file).toMatchObject({
      original_name: "pan.pdf",
      mime_type: "application/pdf",
      size_bytes: PDF.length,
      purpose: "employee_document",
    });
    const [row] = await t.query(
      `SELECT d.title, f.sha256, f.size_bytes FROM employee_documents d JOIN files f ON f.id = d.file_id WHERE d.id = $1`,
      [doc.id],
    );
    expect(row).toMatchObject({ title: "PAN card", size_bytes: PDF.length, sha256: doc.file.sha256 });

    const listed = await api(owner.agent)
      .op("listEmployeeDocuments", { params: { employeeId: emp.id } })
      .expect(200);
    expect(listed.body.data).toEqual([doc]);
    expect(listed.body.pagination.total).toBe(1);

    const dl = await owner.agent
      .get(doc.download_path)
      .buffer(true)
      .parse((r, cb) => {
        const chunks: Buffer[] = [];
        r.on("data", (c: Buffer) => chunks.push(c));
        r.on("end", () => cb(null, Buffer.concat(chunks)));
      });
    expect(dl.status).toBe(200);
    expect(dl.headers["content-type"]).toBe("application/pdf");
    expect(dl.headers["content-disposition"]).toContain("pan.pdf");
    expect(Buffer.compare(dl.body as Buffer, PDF)).toBe(0);

    const log = (
      await api(owner.agent)
        .op("getEmployeeActivityLog", { params: { employeeId: emp.id } })
        .expect(200)
    ).body.data;
    expect(log[0]).toMatchObject({ action: "employee.document_uploaded", actor_user_id: owner.userId });
    expect(log[0].changes!.documents).toEqual({
      from: null,
      to: { id: doc.id, document_type: "id_proof", title: "PAN card", file_name: "pan.pdf", size_bytes: PDF.length },
    });

    // The document belongs to its employee only.
    expectError(
      await api(owner.agent).op("downloadEmployeeDocument", { params: { employeeId: other.id, documentId: doc.id } }),
      404,
      "not_found",
    );
    expectError(
      await api(owner.agent).op("downloadEmployeeDocument", {
        params: { employeeId: emp.id, documentId: "00000000-0000-4000-8000-000000000000" },
      }),
      404,
      "not_found",
    );
  });

  it("rejects files over 10 MB (413) and other types (415), storing nothing", async () => {
    const before = await docCount(other.id);
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x41);
    big.write("%PDF-");
    expectError(await upload(owner, other.id, big), 413, "payload_too_large");
    expectError(
      await upload(owner, other.id, Buffer.from("PK\x03\x04zip"), { filename: "a.zip", contentType: "application/zip" }),
      415,
      "unsupported_media_type",
    );
    expectError(
      await upload(owner, other.id, Buffer.from("MZ not a pdf"), { filename: "fake.pdf", contentType: "application/pdf" }),
      415,
      "unsupported_media_type",
    );
    expect(await docCount(other.id)).toBe(before);
    const audits = await t.query(
      `SELECT count(*)::int AS n FROM audit_logs WHERE entity_id = $1 AND action = 'employee.document_uploaded'`,
      [other.id],
    );
    expect(audits[0].n).toBe(0);
  });

  it("requires the file, a known document_type and a title (400)", async () => {
    expectError(
      await owner.agent.post(`/api/employees/${other.id}/documents`).field("document_type", "id_proof").field("title", "x"),
      400,
      "validation_failed",
    );
    expectError(await upload(owner, other.id, PDF, { type: "tattoo" }), 400, "validation_failed");
    expectError(await upload(owner, other.id, PDF, { title: "" }), 400, "validation_failed");
    expectError(
      await upload(owner, other.id, Buffer.alloc(0), { filename: "empty.txt", contentType: "text/plain" }),
      400,
      "validation_failed",
    );
    expect(await docCount(other.id)).toBe(0);
  });
});

describe("uploadEmployeeDocument: uploads the operation does not take", () => {
  it("answers two files, or a file in another field, with a 400 that says so (not 'File too large', not a 500)", async () => {
    const two = await upload(owner, emp.id, PDF).attach("file", PDF, { filename: "b.pdf", contentType: "application/pdf" });
    expect(expectError(two, 400, "validation_failed").error).toBe("Upload one file per request");
    const elsewhere = await owner.agent
      .post(`/api/employees/${emp.id}/documents`)
      .field("document_type", "id_proof")
      .field("title", "PAN card")
      .attach("attachment", PDF, { filename: "a.pdf", contentType: "application/pdf" });
    expectError(elsewhere, 400, "validation_failed");
  });
});

describe("access", () => {
  it("employees upload their own documents; managers and hr read them; colleagues get 404", async () => {
    const owner2 = await signupTenant(t);
    const boss = await createEmployee(owner2);
    const worker = await createEmployee(owner2, { reports_to: boss.id });
    const peer = await createEmployee(owner2);
    const me = await addMember(t, owner2, "employee", { employeeId: worker.id });
    const mgr = await addMember(t, owner2, "manager", { employeeId: boss.id });
    const colleague = await addMember(t, owner2, "employee", { employeeId: peer.id });
    const doc = (
      await upload(me, worker.id, Buffer.from("my notes"), {
        filename: "notes.txt",
        contentType: "text/plain",
        type: "other",
        title: "Notes",
      }).expect(201)
    ).body.data;
    expect(doc.uploaded_by).toBe(me.userId);
    await me.agent.get(doc.download_path).expect(200);
    await mgr.agent.get(doc.download_path).expect(200);
    expect(
      (
        await api(mgr.agent)
          .op("listEmployeeDocuments", { params: { employeeId: worker.id } })
          .expect(200)
      ).body.data,
    ).toHaveLength(1);
    expectError(await colleague.agent.get(doc.download_path), 404, "not_found");
    expectError(await api(colleague.agent).op("listEmployeeDocuments", { params: { employeeId: worker.id } }), 404, "not_found");
    // Managers upload only for themselves.
    expectError(await upload(mgr, worker.id, PDF), 404, "not_found");
    // Another company cannot reach it, even through its own employee's path.
    const stranger = await signupTenant(t);
    const theirs = await createEmployee(stranger);
    expectError(await stranger.agent.get(doc.download_path), 404, "not_found");
    expectError(
      await api(stranger.agent).op("downloadEmployeeDocument", { params: { employeeId: theirs.id, documentId: doc.id } }),
      404,
      "not_found",
    );
    // Nor can the plain file endpoint serve it to a colleague.
    expectError(await api(colleague.agent).op("downloadFile", { params: { fileId: doc.file.id } }), 404, "not_found");
  });
});
