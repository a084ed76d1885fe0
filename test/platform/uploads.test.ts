// Uploads: streamed to disk, never buffered in memory; bounded in progress
// (per user 429, per process 503, both with Retry-After, before the body is read); hourly budgets
// per user and per company shared through PostgreSQL (429 with Retry-After); the company's storage
// quota (413 `quota_exceeded`); and no temporary file left behind by a refused upload.
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import type { Request } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { withConfig } from "../../src/config.ts";
import { uploadsInProgress } from "../../src/http/uploads.ts";
import { MAX_UPLOAD_BYTES, uploadStorage } from "../../src/platform/storage/files.ts";
import { addMember, appWith, expectError, signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { createEmployee } from "../support/employees.ts";
import { expectRateLimitHeaders } from "../support/rate-limit.ts";
import { api } from "../support/api.ts";

const uploadDir = mkdtempSync(path.join(tmpdir(), "hrms-uploads-test-"));
afterAll(() => rmSync(uploadDir, { recursive: true, force: true }));
const t = useTestApp({ config: { uploadDir } });
const tempDir = path.join(uploadDir, ".tmp");

/** Temporary upload files left in <UPLOAD_DIR>/.tmp. */
const leftovers = () => {
  try {
    return readdirSync(tempDir);
  } catch {
    return [];
  }
};

/** Waits (for a condition, not a time: the deadline only catches a hang) until `check` holds. */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setImmediate(r));
  }
}

/** downloadFile by hand: its bytes, read with a parser of their own (uploads are multipart, by hand too). */
const download = (agent: TenantSession["agent"], id: string) =>
  agent
    .get(`/api/files/${id}`)
    .buffer(true)
    .parse((res, cb) => {
      const chunks: Buffer[] = [];
      res.on("data", (c: Buffer) => chunks.push(c));
      res.on("end", () => cb(null, Buffer.concat(chunks)));
    });

const text = (n: number, fill = 65) => Buffer.alloc(n, fill);

describe("uploadFile, downloadFile: uploads go to disk, not memory", () => {
  it("a file of the largest allowed size (10 MB) round-trips byte for byte, and no temporary file remains", async () => {
    const o = await signupTenant(t);
    const pdf = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(MAX_UPLOAD_BYTES - 9)]);
    expect(pdf.length).toBe(10 * 1024 * 1024);
    const up = await o.agent.post("/api/upload").attach("file", pdf, { filename: "max.pdf", contentType: "application/pdf" }).expect(201);
    const sha256 = createHash("sha256").update(pdf).digest("hex");
    expect(up.body.data).toMatchObject({ size_bytes: pdf.length, sha256, mime_type: "application/pdf" });
    // stored under its content address in UPLOAD_DIR
    const stored = path.join(uploadDir, sha256.slice(0, 2), sha256.slice(2, 4), sha256);
    expect(statSync(stored).size).toBe(pdf.length);
    const dl = await download(o.agent, up.body.data.id).expect(200);
    expect(Buffer.compare(dl.body, pdf)).toBe(0);
    await until(() => leftovers().length === 0, "the temporary folder is empty");
  });

  it("the multipart storage engine streams each file into <UPLOAD_DIR>/.tmp and keeps no buffer", async () => {
    const engine = uploadStorage();
    const bytes = randomBytes(3 * 1024 * 1024);
    const file = { fieldname: "file", originalname: "a.bin", encoding: "7bit", mimetype: "text/plain", stream: Readable.from([bytes]) };
    const info = await withConfig(
      t.config,
      () =>
        new Promise<Record<string, unknown>>((resolve, reject) =>
          engine._handleFile({} as Request, file as unknown as Express.Multer.File, (err, i) =>
            err ? reject(err) : resolve(i as Record<string, unknown>),
          ),
        ),
    );
    expect(info.buffer).toBeUndefined();
    expect(path.dirname(String(info.path))).toBe(tempDir);
    expect(info.size).toBe(bytes.length);
    expect(Buffer.compare(readFileSync(String(info.path)), bytes)).toBe(0);
    await new Promise<void>((resolve, reject) =>
      engine._removeFile({} as Request, info as unknown as Express.Multer.File, (err) => (err ? reject(err) : resolve())),
    );
    expect(leftovers()).toEqual([]);
  });

  it("uploadEmployeeDocument: a refused upload leaves no temporary file (wrong content, missing field, too large, two files)", async () => {
    const o = await signupTenant(t);
    const emp = await createEmployee(o);
    const docs = `/api/employees/${emp.id}/documents`;
    expectError(
      await o.agent.post(docs).attach("file", Buffer.from("not a pdf"), { filename: "x.pdf", contentType: "application/pdf" }).field({
        document_type: "other",
        title: "Fake",
      }),
      415,
      "unsupported_media_type",
    );
    // the file was read; the form then fails validation
    expectError(
      await o.agent.post(docs).attach("file", Buffer.from("%PDF-1.4 x"), { filename: "x.pdf", contentType: "application/pdf" }).field({
        document_type: "other",
      }),
      400,
      "validation_failed",
    );
    expectError(
      await o.agent.post("/api/upload").attach("file", text(MAX_UPLOAD_BYTES + 1), { filename: "big.txt", contentType: "text/plain" }),
      413,
      "payload_too_large",
    );
    expectError(
      await o.agent
        .post("/api/upload")
        .attach("file", text(10), { filename: "a.txt", contentType: "text/plain" })
        .attach("file", text(10), { filename: "b.txt", contentType: "text/plain" }),
      400,
      "validation_failed",
    );
    await until(() => leftovers().length === 0, "the temporary folder is empty");
    expect((await t.query("SELECT count(*)::int AS n FROM files WHERE tenant_id = $1", [o.tenantId]))[0].n).toBe(0);
  });
});

describe("uploadFile, uploadEmployeeDocument: a malformed form is the client's 400, never a 500", () => {
  it("a part header with control characters in its field name (the form parser's 'Malformed part header')", async () => {
    const o = await signupTenant(t);
    const b = "d14600db336c8b397dfcaa39e97a621f";
    const body = Buffer.concat([
      Buffer.from(`--${b}\r\nContent-Disposition: form-data; name="`),
      Buffer.from([0xc2, 0xbf, 0x7f, 0xc2, 0x90, 0x06]),
      Buffer.from(`"\r\n\r\n{}\r\n--${b}\r\nContent-Disposition: form-data; name="purpose"\r\n\r\nx\r\n--${b}--\r\n`),
    ]);
    const employee = await createEmployee(o);
    for (const url of ["/api/upload", `/api/employees/${employee.id}/documents`]) {
      const res = await o.agent.post(url).set("Content-Type", `multipart/form-data; boundary=${b}`).send(body);
      expectError(res, 400, "validation_failed");
      expect(res.body.details[0].message).toContain("Malformed part header");
    }
  });
});

describe("uploadFile: hourly budgets per user and per company (429 with Retry-After)", () => {
  it("refuses a user's upload past UPLOADS_PER_USER_PER_HOUR, counting nothing; a colleague has their own budget", async () => {
    const limited = appWith(t, { uploadsPerUserPerHour: 1 });
    const o = await signupTenant(t);
    const emp = await addMember(t, o, "employee");
    const up = (s: TenantSession) =>
      limited.as(s.agent).post("/api/upload").attach("file", text(20), { filename: "a.txt", contentType: "text/plain" });
    await up(o).expect(201);
    const refused = await up(o);
    const body = expectError(refused, 429, "rate_limited");
    const retryAfter = Number(refused.headers["retry-after"]);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(body.error).toBe(`Upload limit reached (1 uploads per user per hour); retry in ${retryAfter} s`);
    expectRateLimitHeaders(refused, { name: "upload-user", limit: 1, windowSeconds: 3600 });
    await up(emp).expect(201);
    expect((await t.query("SELECT count(*)::int AS n FROM files WHERE tenant_id = $1", [o.tenantId]))[0].n).toBe(2);
    await until(() => leftovers().length === 0, "the temporary folder is empty");
  });

  it("holds UPLOADS_PER_TENANT_PER_HOUR across the company's users; another company keeps its own", async () => {
    const limited = appWith(t, { uploadsPerTenantPerHour: 2 });
    const o = await signupTenant(t);
    const hr = await addMember(t, o, "hr");
    const other = await signupTenant(t);
    const up = (s: TenantSession) =>
      limited.as(s.agent).post("/api/upload").attach("file", text(20), { filename: "a.txt", contentType: "text/plain" });
    await up(o).expect(201);
    await up(hr).expect(201);
    const refused = await up(o);
    expect(expectError(refused, 429, "rate_limited").error).toMatch(
      /^Upload limit reached \(2 uploads per company per hour\); retry in \d+ s$/,
    );
    expect(Number(refused.headers["retry-after"])).toBeGreaterThan(0);
    expectRateLimitHeaders(refused, { name: "upload-tenant", limit: 2, windowSeconds: 3600 });
    await up(other).expect(201);
  });
});

describe("uploadFile: the company's storage quota (413 quota_exceeded)", () => {
  it("stores files up to TENANT_STORAGE_QUOTA_MB exactly, refuses one that does not fit, and one when no room is left", async () => {
    // one member's share is the whole quota here (MEMBER_STORAGE_SHARE_PERCENT=100): the company's quota alone
    const small = appWith(t, { tenantStorageQuotaBytes: 1000, memberStorageSharePercent: 100 });
    const o = await signupTenant(t);
    const up = (n: number) =>
      small.as(o.agent).post("/api/upload").attach("file", text(n), { filename: "a.txt", contentType: "text/plain" });
    await up(600).expect(201);
    const tooBig = expectError(await up(600), 413, "quota_exceeded");
    expect(tooBig.error).toMatch(
      /^Storage quota exceeded: the company's files may take 1000 bytes and 400 bytes are left; this file needs 600 bytes\./,
    );
    await up(400).expect(201);
    // full: refused before the body is read
    expectError(await up(1), 413, "quota_exceeded");
    const [row] = await t.query("SELECT count(*)::int AS n, sum(size_bytes)::int AS bytes FROM files WHERE tenant_id = $1", [o.tenantId]);
    expect(row).toEqual({ n: 2, bytes: 1000 });
    // another company has its own quota
    const other = await signupTenant(t);
    await small.as(other.agent).post("/api/upload").attach("file", text(900), { filename: "a.txt", contentType: "text/plain" }).expect(201);
    await until(() => leftovers().length === 0, "the temporary folder is empty");
  });
});

describe("uploadFile, uploadEmployeeDocument: one member's share of the storage quota", () => {
  it("a member's uploads stop at MEMBER_STORAGE_SHARE_PERCENT of the quota with a clear 413; others still upload", async () => {
    const small = appWith(t, { tenantStorageQuotaBytes: 1000, memberStorageSharePercent: 40 });
    const o = await signupTenant(t);
    const member = await addMember(t, o, "employee");
    const up = (s: TenantSession, n: number) =>
      small.as(s.agent).post("/api/upload").attach("file", text(n), { filename: "a.txt", contentType: "text/plain" });
    await up(member, 300).expect(201);
    const over = expectError(await up(member, 200), 413, "quota_exceeded");
    expect(over.error).toMatch(
      new RegExp(
        "^Storage share exceeded: the files you upload may take 400 bytes of the company's storage " +
          "\\(40 % of its quota\\) and 100 bytes are left; this file needs 200 bytes\\.",
      ),
    );
    await up(member, 100).expect(201);
    // the share is used up: refused before the body is read, and nothing stored
    const full = expectError(await up(member, 1), 413, "quota_exceeded");
    expect(full.error).toMatch(/^Storage share exceeded: .* and 0 bytes are left\./);
    const [row] = await t.query(
      "SELECT count(*)::int AS n, sum(size_bytes)::int AS bytes FROM files WHERE tenant_id = $1 AND uploaded_by = $2",
      [o.tenantId, member.userId],
    );
    expect(row).toEqual({ n: 2, bytes: 400 });
    // the company still has room for everyone else
    await up(o, 400).expect(201);
    await until(() => leftovers().length === 0, "the temporary folder is empty");
  });
});

describe("uploadFile: uploads in progress (429 per user, 503 per process, with Retry-After)", () => {
  let server: Server;
  let base: string;
  const bounded = () => appWith(t, { uploadsMaxConcurrent: 2, uploadsMaxConcurrentPerUser: 1 });
  let app: ReturnType<typeof bounded>;

  beforeAll(async () => {
    app = bounded();
    server = app.app.listen(0);
    await new Promise((r) => server.once("listening", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await new Promise((r) => server.close(r));
  });

  async function cookieOf(s: TenantSession): Promise<string> {
    const res = await api(t.request())
      .op("signIn", { body: { email: s.email, password: s.password } })
      .expect(200);
    return (res.headers["set-cookie"] as unknown as string[]).map((c) => c.split(";")[0]).join("; ");
  }

  /** An upload whose body is sent in part and held open until `finish` is called. */
  function heldUpload(cookie: string) {
    const boundary = "----held-upload";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="held.txt"\r\nContent-Type: text/plain\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const content = text(64 * 1024);
    const req = httpRequest(`${base}/api/upload`, {
      method: "POST",
      headers: {
        cookie,
        "content-type": `multipart/form-data; boundary=${boundary}`,
        "content-length": String(head.length + content.length + tail.length),
      },
    });
    const answer = new Promise<{ status: number; body: unknown }>((resolve, reject) => {
      req.on("response", (res) => {
        let data = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (data += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(data) }));
      });
      req.on("error", reject);
    });
    req.write(head);
    req.write(content.subarray(0, 1024));
    return {
      finish: () => {
        req.end(Buffer.concat([content.subarray(1024), tail]));
        return answer;
      },
    };
  }

  it("refuses a user's second upload at once while the first is read, and any upload while the server reads its maximum", async () => {
    const o = await signupTenant(t);
    const hr = await addMember(t, o, "hr");
    const emp = await addMember(t, o, "employee");
    const up = (s: TenantSession) =>
      app.as(s.agent).post("/api/upload").attach("file", text(20), { filename: "a.txt", contentType: "text/plain" });

    const first = heldUpload(await cookieOf(o));
    await until(() => uploadsInProgress() === 1, "the held upload is admitted");
    const perUser = await up(o);
    expect(expectError(perUser, 429, "rate_limited").error).toBe("Too many uploads at once (at most 1 per user); wait for one to finish");
    expect(perUser.headers["retry-after"]).toBe("2");
    expectRateLimitHeaders(perUser, { name: "uploads-in-progress", limit: 1 });

    const second = heldUpload(await cookieOf(hr));
    await until(() => uploadsInProgress() === 2, "the second held upload is admitted");
    const busy = await up(emp);
    expect(expectError(busy, 503, "unavailable").error).toBe("Too many uploads in progress on the server, try again shortly");
    expect(busy.headers["retry-after"]).toBe("2");

    expect((await first.finish()).status).toBe(201);
    expect((await second.finish()).status).toBe(201);
    await until(() => uploadsInProgress() === 0, "the held uploads are done");
    await up(o).expect(201);
    await up(emp).expect(201);
    expect((await t.query("SELECT count(*)::int AS n FROM files WHERE tenant_id = $1", [o.tenantId]))[0].n).toBe(4);
  });
});

describe("downloadFile, downloadEmployeeDocument: the media types they serve are the ones an upload accepts", () => {
  it("declares every accepted type on the 200 (a validating proxy or a generated SDK sees what is served)", async () => {
    const { ACCEPTED_TYPES } = await import("../../src/platform/storage/files.ts");
    const doc = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../generated/openapi.json"), "utf8"));
    const stored = doc.components.responses.StoredFile;
    expect(Object.keys(stored.content).sort()).toEqual([...ACCEPTED_TYPES].sort());
    for (const [p, id] of [
      ["/api/files/{fileId}", "downloadFile"],
      ["/api/employees/{employeeId}/documents/{documentId}/download", "downloadEmployeeDocument"],
    ]) {
      expect(doc.paths[p].get.operationId).toBe(id);
      expect(doc.paths[p].get.responses["200"]).toEqual({ $ref: "#/components/responses/StoredFile" });
    }
  });
});
