// The HTTP edge: module gate, role guard, origin check, malformed/oversized bodies, unknown
// routes and methods, uploads, settings and the activity log, notifications.
import { describe, expect, it } from "vitest";
import { addMember, expectDetails, expectError, signupTenant, useTestApp } from "../support/app.ts";
import { api } from "../support/api.ts";

const t = useTestApp();

describe("guards from the document", () => {
  it("updateCompanySettings: a disabled module answers 403 module_disabled, then 200 once enabled", async () => {
    const o = await signupTenant(t);
    expectError(await api(o.agent).op("getPfSettings"), 403, "module_disabled");
    const s = await api(o.agent)
      .op("updateCompanySettings", { body: { modules: ["payroll"] } })
      .expect(200);
    expect(s.body.data.modules).toEqual(["payroll"]);
    const pf = await api(o.agent).op("getPfSettings").expect(200);
    expect(pf.body.data).toMatchObject({ employee_rate: "12.00", eps_rate: "8.33", wage_ceiling: "15000.00", updated_at: null });
    const log = await api(o.agent)
      .op("listActivityLog", { query: { action: "settings." } })
      .expect(200);
    expect(log.body.data[0]).toMatchObject({ action: "settings.modules_changed", changes: { modules: { from: [], to: ["payroll"] } } });
    // module check comes before the role check: an employee sees module_disabled for a disabled module
    await api(o.agent)
      .op("updateCompanySettings", { body: { modules: [] } })
      .expect(200);
    const emp = await addMember(t, o, "employee");
    expectError(await api(emp.agent).op("getPfSettings"), 403, "module_disabled");
  });

  it("updatePfSettings: a role outside x-roles answers 403 forbidden", async () => {
    const o = await signupTenant(t);
    await api(o.agent)
      .op("updateCompanySettings", { body: { modules: ["payroll"] } })
      .expect(200);
    const emp = await addMember(t, o, "employee");
    const mgr = await addMember(t, o, "manager");
    expectError(await api(emp.agent).op("getPfSettings"), 403, "forbidden");
    expectError(await api(mgr.agent).op("updateCompanySettings", { body: { name: "x" } }), 403, "forbidden");
    expectError(await api(emp.agent).op("listActivityLog"), 403, "forbidden");
    await api(emp.agent).op("getCompanySettings").expect(200);
    const hr = await addMember(t, o, "hr");
    const upd = await api(hr.agent)
      .op("updatePfSettings", { body: { wage_ceiling: "21000.00" } })
      .expect(200);
    expect(upd.body.data).toMatchObject({ wage_ceiling: "21000.00", employee_rate: "12.00" });
    expect((await api(o.agent).op("getPfSettings").expect(200)).body.data.wage_ceiling).toBe("21000.00");
    expectError(await api(hr.agent).op("updatePfSettings", { body: { eps_rate: "180.00" } }), 400, "validation_failed");
  });

  it("public operations need no session; others are 401", async () => {
    await api(t.request()).op("getHealth").expect(200);
    for (const [m, p] of [
      ["get", "/api/auth/session"],
      ["get", "/api/configuration/company-settings"],
      ["post", "/api/upload"],
      ["get", "/api/notifications"],
    ] as const)
      expectError(await t.request()[m](p), 401, "unauthenticated");
  });

  it("loads a session only where one can matter: the cookie is sent, or the operation signs someone in", async () => {
    const sessions = async () => (await t.query<{ n: number }>(`SELECT count(*)::int AS n FROM "session"`))[0].n;
    const before = await sessions();
    // without a cookie: no session cookie is set, no session row is written
    for (const p of ["/api/health", "/api/server-time", "/api/configuration/company-settings"])
      expect((await t.request().get(p)).headers["set-cookie"], p).toBeUndefined();
    expect(await sessions()).toBe(before);
    // operations that sign someone in (Set-Cookie declared on their success) still get one
    const o = await signupTenant(t);
    const again = t.request();
    const signIn = await api(again)
      .op("signIn", { body: { email: o.email, password: o.password } })
      .expect(200);
    expect(String(signIn.headers["set-cookie"])).toMatch(/^hrms\.sid=/);
    // and with the cookie, the session (and the membership read with it) is there
    expect((await api(again).op("getSession").expect(200)).body.data.role).toBe("owner");
    // a role changed in the database takes effect with the very next request
    await t.query(`UPDATE memberships SET role = 'employee' WHERE user_id = $1 AND tenant_id = $2`, [o.userId, o.tenantId]);
    expectError(await api(again).op("listMembers"), 403, "forbidden");
  });
});

// By hand below: requests the typed client would refuse (malformed, unknown, missing or mistyped
// bodies and parameters, routes outside the document), an Origin header, and multipart uploads.
describe("request hygiene", () => {
  it("refuses state-changing requests from a foreign Origin (CSRF)", async () => {
    const o = await signupTenant(t);
    expectError(
      await o.agent.post("/api/configuration/company-settings").set("Origin", "https://evil.example").send({ name: "pwned" }),
      403,
      "forbidden",
    );
    const s = await o.agent.get("/api/configuration/company-settings").set("Origin", "https://evil.example").expect(200);
    expect(s.body.data.name).not.toBe("pwned");
    await o.agent.post("/api/configuration/company-settings").set("Origin", "http://localhost:3000").send({ name: "Fine Co" }).expect(200);
  });

  it("answers malformed JSON, oversized bodies, unknown fields, unknown routes and wrong methods with the envelope", async () => {
    const o = await signupTenant(t);
    const bad = expectDetails(
      await t.request().post("/api/auth/sign-in").set("Content-Type", "application/json").send('{"email": "x@y.z", '),
      400,
      "validation_failed",
    );
    expect(bad.details[0].path).toBe("body");
    expectError(
      await o.agent
        .post("/api/configuration/company-settings")
        .set("Content-Type", "application/json")
        .send(JSON.stringify({ address: "x".repeat(1_100_000) })),
      413,
      "payload_too_large",
    );
    const extra = expectError(await o.agent.post("/api/configuration/company-settings").send({ nmae: "typo" }), 400, "validation_failed");
    expect(JSON.stringify(extra.details)).toContain("nmae");
    const missing = expectDetails(await t.request().post("/api/auth/sign-in").send({ email: "not-an-email" }), 400, "validation_failed");
    expect(missing.details.map((d: { path: string }) => d.path).sort()).toEqual(["body.email", "body.password"]);
    expectError(await o.agent.get("/api/no-such-thing"), 404, "not_found");
    expectError(await o.agent.delete("/api/configuration/company-settings"), 405, "method_not_allowed");
    expectError(
      await o.agent.post("/api/configuration/company-settings").set("Content-Type", "text/plain").send("name=x"),
      415,
      "unsupported_media_type",
    );
    expectError(await api(o.agent).op("listActivityLog", { query: { limit: 101 } }), 400, "validation_failed");
    expectError(await api(o.agent).op("listActivityLog", { query: { page: 0 } }), 400, "validation_failed");
    expectError(await o.agent.get("/api/configuration/activity-log?unknown=1"), 400, "validation_failed");
    expectError(await api(o.agent).op("updateCompanySettings", { body: { timezone: "Mars/Base" } }), 400, "validation_failed");
  });

  it("refuses a missing body where the operation requires one, even when its schema accepts {}", async () => {
    const o = await signupTenant(t);
    // company-settings: every field optional, the body itself required
    for (const res of [
      await o.agent.post("/api/configuration/company-settings"),
      await o.agent.post("/api/configuration/company-settings").set("Content-Type", "application/json").send(""),
    ]) {
      const e = expectError(res, 400, "validation_failed");
      expect(e.details).toEqual([{ path: "body", message: "is required" }]);
    }
    // an explicit {} is a body: it gets the schema's own answer (company settings need at least one field)
    expect(expectError(await api(o.agent).op("updateCompanySettings", { body: {} }), 400, "validation_failed").details).not.toEqual([
      { path: "body", message: "is required" },
    ]);
    // operations without a body are unaffected
    await api(o.agent).op("markAllNotificationsRead").expect(200);
  });

  it("refuses NUL characters and values the database cannot hold with a 400 naming the field", async () => {
    const o = await signupTenant(t);
    const nul = expectError(
      await api(o.agent).op("updateCompanySettings", { body: { address: "Line\u0000two" } }),
      400,
      "validation_failed",
    );
    expect(nul.details).toEqual([{ path: "body.address", message: "must not contain NUL (U+0000) characters" }]);
    expectError(await api(o.agent).op("listActivityLog", { query: { from: "2026-02-30" } }), 400, "validation_failed");
    expectError(await api(o.agent).op("listActivityLog", { query: { from: "99999-01-01" } }), 400, "validation_failed");
    const s = await api(o.agent).op("getCompanySettings").expect(200);
    expect(s.body.data.address).toBeNull();
  });

  it("sets security headers and a request id on every response", async () => {
    const res = await t.request().get("/api/no-such-thing");
    expect(res.headers["x-request-id"]).toMatch(/^[\w-]{8,}$/);
    expect(res.headers["x-content-type-options"]).toBe("nosniff");
    expect(res.headers["x-powered-by"]).toBeUndefined();
    expect(res.headers["content-security-policy"]).toBeDefined();
    // helmet's full set (recorded once at start-up, src/http/middleware.ts securityHeaders), on an error
    // and on a success alike
    const ok = await api(t.request()).op("getHealth").expect(200);
    for (const r of [res, ok]) {
      expect(r.headers["content-security-policy"]).toContain("script-src 'self'");
      expect(r.headers["content-security-policy"]).toContain("img-src 'self' data:");
      expect(r.headers["content-security-policy"]).toContain("default-src 'self'");
      expect(r.headers["strict-transport-security"]).toMatch(/^max-age=\d+; includeSubDomains$/);
      expect(r.headers["x-frame-options"]).toBe("SAMEORIGIN");
      expect(r.headers["cross-origin-opener-policy"]).toBe("same-origin");
      expect(r.headers["cross-origin-resource-policy"]).toBe("same-origin");
      expect(r.headers["referrer-policy"]).toBe("no-referrer");
      expect(r.headers["origin-agent-cluster"]).toBe("?1");
      expect(r.headers["x-dns-prefetch-control"]).toBe("off");
      expect(r.headers["x-download-options"]).toBe("noopen");
      expect(r.headers["x-permitted-cross-domain-policies"]).toBe("none");
      expect(r.headers["x-xss-protection"]).toBe("0");
      expect(r.headers["cross-origin-embedder-policy"]).toBeUndefined();
    }
  });
});

describe("uploadFile, downloadFile: files", () => {
  it("stores an upload outside the database and lets the uploader download it", async () => {
    const o = await signupTenant(t);
    const pdf = Buffer.from("%PDF-1.4\n% test document\n");
    const up = await o.agent
      .post("/api/upload")
      .attach("file", pdf, { filename: "offer.pdf", contentType: "application/pdf" })
      .field("purpose", "offer")
      .expect(201);
    expect(up.body.data).toMatchObject({
      original_name: "offer.pdf",
      mime_type: "application/pdf",
      size_bytes: pdf.length,
      purpose: "offer",
    });
    const dl = await o.agent
      .get(`/api/files/${up.body.data.id}`)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => cb(null, Buffer.concat(chunks)));
      })
      .expect(200);
    expect(Buffer.compare(dl.body, pdf)).toBe(0);
    // another tenant cannot download it; a colleague with role employee cannot either
    const other = await signupTenant(t);
    expectError(await api(other.agent).op("downloadFile", { params: { fileId: up.body.data.id } }), 404, "not_found");
    const emp = await addMember(t, o, "employee");
    expectError(await api(emp.agent).op("downloadFile", { params: { fileId: up.body.data.id } }), 404, "not_found");
  });

  it("refuses files over 10 MB (413), of other types (415), with lying content (415), and missing files (400)", async () => {
    const o = await signupTenant(t);
    expectError(
      await o.agent
        .post("/api/upload")
        .attach("file", Buffer.alloc(10 * 1024 * 1024 + 1, 65), { filename: "big.txt", contentType: "text/plain" }),
      413,
      "payload_too_large",
    );
    expectError(
      await o.agent
        .post("/api/upload")
        .attach("file", Buffer.from("MZ\x90\x00"), { filename: "x.exe", contentType: "application/x-msdownload" }),
      415,
      "unsupported_media_type",
    );
    expectError(
      await o.agent
        .post("/api/upload")
        .attach("file", Buffer.from("not a pdf at all"), { filename: "fake.pdf", contentType: "application/pdf" }),
      415,
      "unsupported_media_type",
    );
    // a WAV is a RIFF container too: image/webp needs RIFF....WEBP
    const riff = (form: string) =>
      Buffer.concat([Buffer.from("RIFF"), Buffer.from([36, 0, 0, 0]), Buffer.from(`${form}VP8 `), Buffer.alloc(24)]);
    expectError(
      await o.agent.post("/api/upload").attach("file", riff("WAVE"), { filename: "photo.webp", contentType: "image/webp" }),
      415,
      "unsupported_media_type",
    );
    expectError(await o.agent.post("/api/upload").field("purpose", "nothing"), 400, "validation_failed");
    const rows = await t.query("SELECT count(*)::int AS n FROM files WHERE tenant_id = $1", [o.tenantId]);
    expect(rows[0].n).toBe(0);
    await o.agent.post("/api/upload").attach("file", riff("WEBP"), { filename: "photo.webp", contentType: "image/webp" }).expect(201);
  });
});

describe("listNotifications, markAllNotificationsRead, markNotificationRead: notifications", () => {
  it("lists the caller's notifications with unread count and marks them read", async () => {
    const o = await signupTenant(t);
    const emp = await addMember(t, o, "employee");
    for (const title of ["one", "two", "three"])
      await t.query("INSERT INTO notifications (tenant_id, user_id, kind, title) VALUES ($1, $2, 'leave.submitted', $3)", [
        o.tenantId,
        emp.userId,
        title,
      ]);
    await t.query("INSERT INTO notifications (tenant_id, user_id, kind, title) VALUES ($1, $2, 'leave.submitted', 'for the owner')", [
      o.tenantId,
      o.userId,
    ]);
    const list = await api(emp.agent)
      .op("listNotifications", { query: { limit: 2 } })
      .expect(200);
    expect(list.body.pagination).toEqual({ page: 1, limit: 2, total: 3, total_pages: 2 });
    expect(list.body.unread_count).toBe(3);
    await api(emp.agent)
      .op("markNotificationRead", { params: { notificationId: list.body.data[0].id } })
      .expect(200);
    expect(
      (
        await api(emp.agent)
          .op("listNotifications", { query: { unread: true } })
          .expect(200)
      ).body.pagination?.total,
    ).toBe(2);
    const all = await api(emp.agent).op("markAllNotificationsRead").expect(200);
    expect(all.body.data.updated).toBe(2);
    expect((await api(o.agent).op("listNotifications").expect(200)).body.unread_count).toBe(1);
  });
});
