// Conditional requests (RFC 9110 §13; src/http/conditional.ts): a GET of one resource
// answers a strong ETag and a 304 for a current If-None-Match; the writes of its path take If-Match
// (stale: 412 with the current version, nothing changed; two writes based on one version: one wins);
// on the records declared `x-if-match: required` an API credential without If-Match is a 428, a
// session (cookie) caller is exempt.
import { describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { entityTag, matches, noneMatch, preconditionRequired, taggedAnswer } from "../../src/http/conditional.ts";
import type { AuthContext } from "../../src/http/types.ts";
import { expectError, signupTenant, useTestApp } from "../support/app.ts";
import { asObject, documentOperationsOf } from "../support/document.ts";
import { createEmployee } from "../support/employees.ts";

const t = useTestApp();
const TAG = /^"[A-Za-z0-9_-]{22}"$/;

const designationOf = async (id: string) =>
  (await t.query<{ designation: string }>("SELECT designation FROM employees WHERE id = $1", [id]))[0].designation;

describe("the document: ETag on every GET of one resource, If-Match on the writes of its path", () => {
  it("x-etag GETs declare ETag (required) on 200 and a 304; x-if-match writes a 412, the required ones a 428", () => {
    const required: string[] = [];
    let gets = 0;
    for (const { item, op } of documentOperationsOf()) {
      const id = String(op.operationId);
      const responses = asObject(op.responses);
      if (op["x-etag"]) {
        gets++;
        expect(asObject(asObject(responses["200"]).headers).ETag, id).toEqual({ $ref: "#/components/headers/ETag" });
        expect(responses["304"], id).toEqual({ $ref: "#/components/responses/NotModified" });
      }
      if (op["x-if-match"]) {
        expect(asObject(item.get)["x-etag"], id).toBe(true);
        expect(responses["412"], id).toEqual({ $ref: "#/components/responses/PreconditionFailed" });
        if (op["x-if-match"] === "required") required.push(id);
      }
    }
    expect(gets).toBeGreaterThan(30);
    expect(required.sort()).toEqual(
      [
        "deleteEmployee",
        "deletePayrollRun",
        "setEmployeeSalarySetup",
        "updateCompanySettings",
        "updateEmployee",
        "updatePayrollRun",
      ].sort(),
    );
  });
});

describe("getEmployee, updateEmployee, deleteEmployee: ETag, If-None-Match, If-Match", () => {
  it("getEmployee: a strong ETag, the same while nothing changes; If-None-Match gives a 304 without a body until it does", async () => {
    const owner = await signupTenant(t);
    const e = await createEmployee(owner);
    const first = await api(owner.agent)
      .op("getEmployee", { params: { employeeId: e.id } })
      .expect(200);
    expect(first.headers.etag).toMatch(TAG);
    const again = await api(owner.agent)
      .op("getEmployee", { params: { employeeId: e.id } })
      .expect(200);
    expect(again.headers.etag).toBe(first.headers.etag);
    const notModified = await api(owner.agent).op("getEmployee", {
      params: { employeeId: e.id },
      headers: { "If-None-Match": first.headers.etag },
    });
    expect(notModified.status).toBe(304);
    expect(notModified.text ?? "").toBe("");
    expect(notModified.headers.etag).toBe(first.headers.etag);
    // weak comparison for If-None-Match: W/"x" matches "x"; a list matches if any does
    await api(owner.agent)
      .op("getEmployee", { params: { employeeId: e.id }, headers: { "If-None-Match": `"other", W/${first.headers.etag}` } })
      .expect(304);
    await api(owner.agent)
      .op("updateEmployee", { params: { employeeId: e.id }, body: { designation: "Analyst" } })
      .expect(200);
    const changed = await api(owner.agent)
      .op("getEmployee", { params: { employeeId: e.id }, headers: { "If-None-Match": first.headers.etag } })
      .expect(200);
    expect(changed.headers.etag).toMatch(TAG);
    expect(changed.headers.etag).not.toBe(first.headers.etag);
  });

  it("updateEmployee: stale If-Match - 412 with the current version, nothing changed; the current one writes (new tag)", async () => {
    const owner = await signupTenant(t);
    const e = await createEmployee(owner, { designation: "Engineer" });
    const v1 = (
      await api(owner.agent)
        .op("getEmployee", { params: { employeeId: e.id } })
        .expect(200)
    ).headers.etag;
    await api(owner.agent)
      .op("updateEmployee", { params: { employeeId: e.id }, body: { designation: "Lead" }, headers: { "If-Match": v1 } })
      .expect(200);
    const v2 = (
      await api(owner.agent)
        .op("getEmployee", { params: { employeeId: e.id } })
        .expect(200)
    ).headers.etag;
    const stale = await api(owner.agent).op("updateEmployee", {
      params: { employeeId: e.id },
      body: { designation: "Manager" },
      headers: { "If-Match": v1 },
    });
    const err = expectError(stale, 412, "precondition_failed");
    expect(err.details).toEqual([{ path: "headers.if-match", message: `the current version is ${v2}` }]);
    expect(stale.headers.etag).toBe(v2);
    expect(await designationOf(e.id)).toBe("Lead");
    const ok = await api(owner.agent)
      .op("updateEmployee", { params: { employeeId: e.id }, body: { designation: "Manager" }, headers: { "If-Match": v2 } })
      .expect(200);
    const v3 = (
      await api(owner.agent)
        .op("getEmployee", { params: { employeeId: e.id } })
        .expect(200)
    ).headers.etag;
    expect(ok.headers.etag).toBe(v3);
    expect(await designationOf(e.id)).toBe("Manager");
  });

  it("updateEmployee: two writes based on one version at once - one is written, the other is a 412", async () => {
    const owner = await signupTenant(t);
    const e = await createEmployee(owner, { designation: "Engineer" });
    const v1 = (
      await api(owner.agent)
        .op("getEmployee", { params: { employeeId: e.id } })
        .expect(200)
    ).headers.etag;
    const [a, b] = await Promise.all(
      ["Architect", "Director"].map((designation) =>
        api(owner.agent).op("updateEmployee", { params: { employeeId: e.id }, body: { designation }, headers: { "If-Match": v1 } }),
      ),
    );
    expect([a.status, b.status].sort()).toEqual([200, 412]);
    const winner = a.status === 200 ? "Architect" : "Director";
    expect(await designationOf(e.id)).toBe(winner);
  });

  it("deleteEmployee: a stale If-Match is a 412, `*` deletes; another company's id answers as a missing one", async () => {
    const owner = await signupTenant(t);
    const other = await signupTenant(t);
    const e = await createEmployee(owner);
    expectError(
      await api(owner.agent).op("deleteEmployee", { params: { employeeId: e.id }, headers: { "If-Match": '"stale0000000000000000000"' } }),
      412,
      "precondition_failed",
    );
    const foreign = await api(other.agent).op("deleteEmployee", { params: { employeeId: e.id }, headers: { "If-Match": "*" } });
    const missing = await api(other.agent).op("deleteEmployee", {
      params: { employeeId: "00000000-0000-4000-8000-000000000000" },
      headers: { "If-Match": "*" },
    });
    expect(foreign.status).toBe(missing.status);
    expect(foreign.body).toEqual(missing.body);
    await api(owner.agent)
      .op("deleteEmployee", { params: { employeeId: e.id }, headers: { "If-Match": "*" } })
      .expect(200);
  });

  it("updateEmployee: a session (cookie) caller may write without If-Match; an API credential may not (428)", async () => {
    const owner = await signupTenant(t);
    const e = await createEmployee(owner);
    await api(owner.agent)
      .op("updateEmployee", { params: { employeeId: e.id }, body: { designation: "Analyst" } })
      .expect(200);
    const session = { userId: owner.userId, tenantId: owner.tenantId } as AuthContext;
    const credential = { ...session, credential: { id: "c0ffee00-0000-4000-8000-000000000000", name: "sync" } } as AuthContext;
    expect(preconditionRequired(session, true, undefined)).toBe(false);
    expect(preconditionRequired(credential, true, undefined)).toBe(true);
    expect(preconditionRequired(credential, true, '"x"')).toBe(false);
    expect(preconditionRequired(credential, false, undefined)).toBe(false);
    // through HTTP with a real API credential (Bearer): 428 without If-Match, 412 on a stale tag, 200 on the current one
    const issued = await api(owner.agent)
      .op("createApiCredential", { body: { name: "HRIS sync", role: "hr", scopes: ["employees:read", "employees:write"] } })
      .expect(201);
    const bearer = { Authorization: `Bearer ${issued.body.data.secret}` };
    const refused = expectError(
      await api(t.request()).op("updateEmployee", { params: { employeeId: e.id }, body: { designation: "Lead" }, headers: bearer }),
      428,
      "precondition_required",
    );
    expect(refused.error).toMatch(/If-Match/);
    const current = await api(t.request())
      .op("getEmployee", { params: { employeeId: e.id }, headers: bearer })
      .expect(200);
    expectError(
      await api(t.request()).op("updateEmployee", {
        params: { employeeId: e.id },
        body: { designation: "Lead" },
        headers: { ...bearer, "If-Match": '"stale"' },
      }),
      412,
      "precondition_failed",
    );
    const ok = await api(t.request()).op("updateEmployee", {
      params: { employeeId: e.id },
      body: { designation: "Lead" },
      headers: { ...bearer, "If-Match": current.headers.etag },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.designation).toBe("Lead");
  });

  it("getEmployee, updateEmployee: `version` is the ETag without quotes; If-Match and If-None-Match take it quoted", async () => {
    const owner = await signupTenant(t);
    const e = await createEmployee(owner, { designation: "Engineer" });
    const read = await api(owner.agent)
      .op("getEmployee", { params: { employeeId: e.id } })
      .expect(200);
    const version = read.body.data.version as string;
    expect(`"${version}"`).toBe(read.headers.etag);
    await api(owner.agent)
      .op("getEmployee", { params: { employeeId: e.id }, headers: { "If-None-Match": `"${version}"` } })
      .expect(304);
    // a copy of the record sent back as it was read (version included) still has the same tag
    expect(entityTag({ data: read.body.data })).toBe(read.headers.etag);
    const written = await api(owner.agent)
      .op("updateEmployee", { params: { employeeId: e.id }, body: { designation: "Lead" }, headers: { "If-Match": `"${version}"` } })
      .expect(200);
    expect(written.body.data.version).toBeDefined();
    expect(`"${written.body.data.version}"`).toBe(written.headers.etag);
    const again = await api(owner.agent)
      .op("getEmployee", { params: { employeeId: e.id } })
      .expect(200);
    expect(again.body.data.version).toBe(written.body.data.version);
    expectError(
      await api(owner.agent).op("updateEmployee", {
        params: { employeeId: e.id },
        body: { designation: "Manager" },
        headers: { "If-Match": `"${version}"` },
      }),
      412,
      "precondition_failed",
    );
    // the bare version (no quotes) is no entity tag: a 400 that says how to send it, nothing written
    const bare = expectError(
      await api(owner.agent).op("updateEmployee", {
        params: { employeeId: e.id },
        body: { designation: "Manager" },
        headers: { "If-Match": version },
      }),
      400,
      "validation_failed",
    );
    expect(bare.details?.[0]).toMatchObject({ path: "headers.if-match" });
    expect(bare.details?.[0].message).toMatch(/double quotes/);
    expect(await designationOf(e.id)).toBe("Lead");
  });

  it("a tagged answer's JSON, made from the JSON the tag hashes, is the bytes JSON.stringify gives its body", () => {
    const bodies: { data: Record<string, unknown>; message?: string; links?: unknown }[] = [
      {
        data: { id: "e1", name: 'A "quoted" name', joined: new Date(Date.UTC(2026, 0, 2)), nested: { a: [1, null] }, gone: undefined },
        message: "OK",
      },
      { data: { id: 1 }, message: "OK", links: { self: "/x" } },
      { data: {}, message: "OK" },
      { data: { id: 2 } },
    ];
    for (const body of bodies) {
      const { tag, answer } = taggedAnswer({ status: 200, body });
      expect(tag).toBe(entityTag(body));
      expect(answer.json).toBe(JSON.stringify(answer.body));
      expect((answer.body as unknown as { data: { version: string } }).data.version).toBe(tag.slice(1, -1));
    }
    // where the bytes could differ, none is made and sendJson stringifies the body
    expect(taggedAnswer({ status: 200, body: { data: { id: 1, version: "old", name: "A" }, message: "OK" } }).answer.json).toBeUndefined();
    expect(taggedAnswer({ status: 200, body: { message: "OK", data: { id: 1 } } }).answer.json).toBeUndefined();
    expect(taggedAnswer({ status: 200, body: { data: [{ id: 1 }], message: "OK" } }).answer.json).toBeUndefined();
  });

  it("the comparisons of RFC 9110: strong for If-Match, weak for If-None-Match; the tag follows the data only", () => {
    const tag = entityTag({ data: { id: 1, name: "A" }, message: "OK" });
    expect(tag).toBe(entityTag({ data: { id: 1, name: "A" }, message: "Other message" }));
    expect(tag).not.toBe(entityTag({ data: { id: 1, name: "B" }, message: "OK" }));
    expect(matches([tag], tag)).toBe(true);
    expect(matches([`W/${tag}`], tag)).toBe(false);
    expect(matches(["*"], tag)).toBe(true);
    expect(matches(["*"], null)).toBe(false);
    expect(noneMatch(`W/${tag}`, tag)).toBe(true);
    expect(noneMatch(undefined, tag)).toBe(false);
  });
});
