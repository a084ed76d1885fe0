// Uploads nothing refers to are removed after ORPHAN_FILE_GRACE_HOURS: the
// scheduled job deletes an old unreferenced file's row and bytes, keeps referenced and fresh ones,
// keeps bytes another company's file still holds, and sweeps stale temporary files; and every
// column of the schema that refers to files is one the job asks about.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { registerAllJobs } from "../../src/modules/jobs.ts";
import { FILE_REFERENCES, REMOVE_ORPHAN_FILES_JOB } from "../../src/modules/utilities/cleanup.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { expectError, signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { createEmployee } from "../support/employees.ts";
import { addCandidate, type Company, openPosting, recruitingCompany } from "../recruitment/fixtures.ts";
import { api } from "../support/api.ts";

const uploadDir = mkdtempSync(path.join(tmpdir(), "hrms-orphans-test-"));
afterAll(() => rmSync(uploadDir, { recursive: true, force: true }));
const t = useTestApp({ config: { uploadDir, orphanFileGraceHours: 24 } });
const root = path.resolve(import.meta.dirname, "../..");

let c: Company;
beforeAll(async () => {
  registerAllJobs();
  c = await recruitingCompany(t, { company: "Orphans Ltd" });
});

const contentFile = (sha256: string) => path.join(uploadDir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);

async function upload(s: TenantSession, content: string): Promise<{ id: string; sha256: string }> {
  const r = await s.agent
    .post("/api/upload")
    .attach("file", Buffer.from(content), { filename: "f.txt", contentType: "text/plain" })
    .expect(201);
  return r.body.data;
}

/** Makes files look `hours` old. */
async function age(ids: string[], hours: number) {
  await t.query(`UPDATE files SET created_at = now() - make_interval(hours => $2) WHERE id = ANY($1::uuid[])`, [ids, hours]);
}

const rowExists = async (id: string) => (await t.query("SELECT 1 FROM files WHERE id = $1", [id])).length === 1;

describe("uploadFile, uploadEmployeeDocument, createCandidate: unreferenced uploads are removed after the grace period", () => {
  it("deletes an old unreferenced upload (row and bytes); keeps referenced, fresh and shared ones", async () => {
    const owner = c.owner;
    const orphan = await upload(owner, `orphan ${Date.now()}`);
    const fresh = await upload(owner, `fresh ${Date.now()}`);
    const resume = await upload(c.hr, `resume ${Date.now()}`);
    const posting = await openPosting(c.hr.agent);
    await addCandidate(c.hr.agent, posting.id, { resume_file_id: resume.id });
    const emp = await createEmployee(owner);
    const doc = await owner.agent
      .post(`/api/employees/${emp.id}/documents`)
      .attach("file", Buffer.from(`%PDF-1.4 contract ${Date.now()}`), { filename: "contract.pdf", contentType: "application/pdf" })
      .field({ document_type: "other", title: "Contract" })
      .expect(201);
    const docFileId = doc.body.data.file.id as string;
    // the same content uploaded by another company: the bytes are shared
    const shared = `shared ${Date.now()}`;
    const mine = await upload(owner, shared);
    const other = await signupTenant(t);
    const theirs = await upload(other, shared);
    expect(theirs.sha256).toBe(mine.sha256);

    await age([orphan.id, resume.id, docFileId, mine.id], 25);
    await age([fresh.id, theirs.id], 23);
    // a temporary file of an upload that never finished, and one being written now
    const tmp = path.join(uploadDir, ".tmp");
    mkdirSync(tmp, { recursive: true });
    writeFileSync(path.join(tmp, "stale"), "x");
    const old = new Date(Date.now() - 25 * 3_600_000);
    utimesSync(path.join(tmp, "stale"), old, old);
    writeFileSync(path.join(tmp, "current"), "y");

    await jobs.runNow(REMOVE_ORPHAN_FILES_JOB, t.config);

    expect(await rowExists(orphan.id)).toBe(false);
    expect(existsSync(contentFile(orphan.sha256))).toBe(false);
    expectError(await api(owner.agent).op("downloadFile", { params: { fileId: orphan.id } }), 404, "not_found");
    expect(await rowExists(mine.id)).toBe(false);
    // referenced (a candidate's resume, an employee document), fresh, or bytes still held by another company's file
    for (const id of [resume.id, docFileId, fresh.id, theirs.id]) expect(await rowExists(id), id).toBe(true);
    for (const f of [resume, fresh, theirs]) expect(existsSync(contentFile(f.sha256))).toBe(true);
    await api(owner.agent)
      .op("downloadFile", { params: { fileId: resume.id } })
      .expect(200);
    await owner.agent.get(doc.body.data.download_path).expect(200);
    expect(readdirSync(tmp)).toEqual(["current"]);

    // once the other company's copy is old and unreferenced too, the bytes go with it
    await age([theirs.id], 25);
    await jobs.runNow(REMOVE_ORPHAN_FILES_JOB, t.config);
    expect(await rowExists(theirs.id)).toBe(false);
    expect(existsSync(contentFile(theirs.sha256))).toBe(false);
    expect(await rowExists(resume.id)).toBe(true);
  });

  it("asks about every column of the schema that refers to files", () => {
    const columns: string[] = [];
    for (const file of readdirSync(path.join(root, "prisma/schema")).filter((f) => f.endsWith(".prisma"))) {
      const text = readFileSync(path.join(root, "prisma/schema", file), "utf8");
      for (const m of text.matchAll(/^model\s+(\w+)\s*\{([\s\S]*?)^\}/gm)) {
        const table = /@@map\("([^"]+)"\)/.exec(m[2])?.[1] ?? m[1];
        for (const f of m[2].matchAll(/^\s+(\w*file_id)\s/gm)) columns.push(`${table}.${f[1]}`);
      }
    }
    expect(columns.length).toBeGreaterThanOrEqual(7);
    expect(FILE_REFERENCES.flatMap((r) => r.columns).sort()).toEqual(columns.sort());
  });
});
