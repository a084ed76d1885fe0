// Errors say what to send: an unknown field or query parameter names the one most likely meant and
// the ones the request takes; a 415 names the media type; a well-formed date that does not exist says
// so; a 401 says how to authenticate and names the scheme (WWW-Authenticate); a refused Origin names
// ALLOWED_ORIGINS; a state prerequisite names the call that meets it; a loopback webhook URL names
// WEBHOOK_ALLOW_LOOPBACK; a wrong setting stops the server with one message and no stack trace.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { nearestName } from "../../src/http/error-hints.ts";
import { addMember, expectDetails, expectError, signupTenant, useTestApp } from "../support/app.ts";
import { approvedRequisition, recruitingCompany } from "../recruitment/fixtures.ts";
import { api } from "../support/api.ts";

// The requests that send an unknown field or parameter, another media type or an Origin are written
// by hand: the typed client would refuse them.
const t = useTestApp();
const UUID = "5d0f3a8e-2b1c-4d5e-8f9a-0b1c2d3e4f5a";

describe("updateLeaveRequest, updateCompanySettings, getActivityLog: an unknown field names the one meant", () => {
  it("decision_comment (the record's name) is answered with comment, a typo with the field, a query parameter likewise", async () => {
    const o = await signupTenant(t);
    const leave = expectError(
      await o.agent.put(`/api/leave-requests/${UUID}`).send({ status: "approved", decision_comment: "Enjoy" }),
      400,
      "validation_failed",
    );
    expect(leave.details).toEqual([
      {
        path: "body.decision_comment",
        message: expect.stringMatching(/^is not a field of this request: did you mean "comment"\? This request takes: .*\bcomment\b/),
      },
    ]);
    const typo = expectDetails(await o.agent.post("/api/configuration/company-settings").send({ nmae: "Acme" }), 400);
    expect(typo.details[0].message).toMatch(/^is not a field of this request: did you mean "name"\?/);
    const query = expectDetails(await o.agent.get("/api/configuration/activity-log?limt=5"), 400);
    expect(query.details[0].message).toMatch(/^is not a query parameter of this request: did you mean "limit"\?/);
    const far = expectDetails(await o.agent.post("/api/configuration/company-settings").send({ zzzzzz: 1 }), 400);
    expect(far.details[0].message).toMatch(/^is not a field of this request\. This request takes: /);
    expect(nearestName("decision_comment", ["status", "comment"])).toBe("comment");
    expect(nearestName("x", ["ab", "ac"])).toBeUndefined(); // two equally near: no guess
  });
});

describe("updateCompanySettings, createHoliday: media types and dates", () => {
  it("a 415 names the media type to send", async () => {
    const o = await signupTenant(t);
    const res = expectError(
      await o.agent.post("/api/configuration/company-settings").set("Content-Type", "text/plain").send("name=x"),
      415,
      "unsupported_media_type",
    );
    expect(res.error).toBe("Unsupported content type (text/plain): send the body as application/json, with a matching Content-Type header");
  });

  it("a date in the right form that does not exist says so, in the body, the query and an import row", async () => {
    const o = await signupTenant(t);
    const body = expectError(await api(o.agent).op("createHoliday", { body: { date: "2026-02-30", name: "Nope" } }), 400);
    expect(body.details).toEqual([{ path: "body.date", message: "is not a date that exists: February 2026 has 28 days" }]);
    const leap = expectDetails(await api(o.agent).op("createHoliday", { body: { date: "2027-02-29", name: "Nope" } }), 400);
    expect(leap.details[0].message).toBe("is not a date that exists: February 2027 has 28 days");
    const month = expectDetails(await api(o.agent).op("listActivityLog", { query: { from: "2026-13-01" } }), 400);
    expect(month.details[0].message).toBe("is not a date that exists: there is no month 13 (months are 01 to 12)");
    const form = expectDetails(await api(o.agent).op("listActivityLog", { query: { from: "30-01-2026" } }), 400);
    expect(form.details[0].message).toMatch(/^must be a date as YYYY-MM-DD/);
    const row = expectDetails(await api(o.agent).op("importHolidays", { body: { csv: "date,name\n2026-04-31,Nope\n" } }), 400);
    expect(row.details[0]).toMatchObject({ row: 1, column: "date", message: "is not a date that exists: April 2026 has 30 days" });
    await api(o.agent)
      .op("createHoliday", { body: { date: "2028-02-29", name: "Leap day" } })
      .expect(201);
  });
});

describe("listEmployees, signIn: a 401 says how to authenticate", () => {
  it("without a session or credential: the hint and WWW-Authenticate; a refused bearer: invalid_token", async () => {
    const none = await api(t.request()).op("listEmployees");
    expect(expectError(none, 401, "unauthenticated").error).toBe(
      "Authentication required: sign in with POST /api/auth/sign-in and send its session cookie, " +
        "or send an API credential as Authorization: Bearer <secret>",
    );
    expect(none.headers["www-authenticate"]).toBe('Bearer realm="hrms"');
    const bearer = await api(t.request()).op("listEmployees", { headers: { Authorization: "Bearer hrms_nope_nope_nope" } });
    expectError(bearer, 401, "unauthenticated");
    expect(bearer.headers["www-authenticate"]).toBe('Bearer realm="hrms", error="invalid_token"');
    const wrong = await api(t.request()).op("signIn", { body: { email: "nobody@example.test", password: "wrong-password-here" } });
    expectError(wrong, 401);
    expect(wrong.headers["www-authenticate"]).toBe('Bearer realm="hrms"');
  });
});

describe("updateCompanySettings: a refused Origin names ALLOWED_ORIGINS", () => {
  it("says which origin was refused and the setting that allows another", async () => {
    const o = await signupTenant(t);
    const res = expectError(
      await o.agent.post("/api/configuration/company-settings").set("Origin", "https://app.other.example").send({ name: "x" }),
      403,
      "forbidden",
    );
    expect(res.error).toMatch(/^Cross-origin request refused: https:\/\/app\.other\.example may not make state-changing requests\./);
    expect(res.error).toContain("ALLOWED_ORIGINS");
  });
});

describe("createJobPosting, createWebhookEndpoint: what to do next is named", () => {
  it("a posting of an unapproved requisition names the call that approves it", async () => {
    const c = await recruitingCompany(t);
    const r = await api(c.hr.agent)
      .op("createJobRequisition", { body: { title: "Data Engineer", department: "Engineering", positions: 1 } })
      .expect(201);
    const res = expectError(
      await api(c.hr.agent).op("createJobPosting", { body: { requisition_id: r.body.data.id, description: "Pipelines." } }),
      409,
    );
    expect(res.error).toContain(
      "approve it first with PUT /api/recruitment/job-requisitions/{id} and status approved (updateJobRequisition)",
    );
    await approvedRequisition(c.hr.agent); // the named call is the one that works
  });

  it("a loopback webhook URL names WEBHOOK_ALLOW_LOOPBACK (refused in tests and production by default)", async () => {
    const o = await signupTenant(t);
    const res = expectDetails(await api(o.agent).op("createWebhookEndpoint", { body: { url: "http://127.0.0.1:9/hook" } }), 400);
    expect(res.details[0]).toMatchObject({ path: "body.url", message: expect.stringContaining("WEBHOOK_ALLOW_LOOPBACK=true") });
    const named = expectDetails(await api(o.agent).op("createWebhookEndpoint", { body: { url: "http://localhost:9/hook" } }), 400);
    expect(named.details[0].message).toMatch(/^is a loopback name \(localhost\)/);
  });
});

describe("configuration: a wrong setting stops the server with one message", () => {
  it("PORT=abc prints what is wrong and where settings are described, no stack trace, exit 1", async () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const err = await promisify(execFile)(path.join(root, "node_modules/.bin/tsx"), [path.join(root, "src/main.ts")], {
      env: { ...process.env, PORT: "abc", VITEST: undefined, NODE_ENV: "development" },
      timeout: 120_000,
    }).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(err?.code).toBe(1);
    expect(err?.stderr.trim().split("\n")).toEqual([
      "Invalid configuration (1 variable):",
      '  PORT must be an integer from 0 to 65535, got "abc"',
      "Every setting, its default and its form: docs/configuration.md",
    ]);
  });
});

describe("createHoliday, createEmployee, createLeaveRequest: a 201 says where the record is", () => {
  it("Location is the created record's own GET path, which answers it", async () => {
    const o = await signupTenant(t);
    const res = await api(o.agent)
      .op("createHoliday", { body: { date: "2027-01-26", name: "Republic Day" } })
      .expect(201);
    expect(res.headers.location).toBe(`/api/holidays/${res.body.data.id}`);
    expect((await o.agent.get(res.headers.location).expect(200)).body.data.name).toBe("Republic Day");
  });
});

describe("createHoliday, updateCompanySettings: who may call comes before what is sent", () => {
  it("a credential without the write scope gets the 403 naming it, not 400s about its body", async () => {
    const o = await signupTenant(t);
    const cred = await api(o.agent)
      .op("createApiCredential", { body: { name: "Reader", scopes: ["leave:read"] } })
      .expect(201);
    const bearer = { Authorization: `Bearer ${cred.body.data.secret}` };
    const res = expectError(await t.request().post("/api/holidays").set(bearer).send({ date: "2026-02-30", nmae: "x" }), 403, "forbidden");
    expect(res.error).toContain("leave:write");
    expect(res.details ?? []).toEqual([]);
  });

  it("a role outside the operation's roles gets its 403 before the body is validated", async () => {
    const o = await signupTenant(t);
    const employee = await addMember(t, o, "employee");
    expectError(await employee.agent.post("/api/configuration/company-settings").send({ nmae: "typo" }), 403, "forbidden");
    expectError(await employee.agent.post("/api/holidays").send({}), 403, "forbidden");
  });
});
