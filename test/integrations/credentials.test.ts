// API credentials: created, listed, rotated and revoked by owners/admins; Bearer calls
// with scopes enforced by the one generic guard; audited under the credential's name.
import { describe, expect, it } from "vitest";
import { addMember, expectDetails, expectError, signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { employeeInput } from "../support/employees.ts";
import * as clock from "../../src/lib/clock.ts";
import { api, type RequestBodyOf } from "../support/api.ts";

const t = useTestApp();

async function credential(owner: TenantSession, body: RequestBodyOf<"createApiCredential">) {
  return (await api(owner.agent).op("createApiCredential", { body }).expect(201)).body.data;
}
const bearer = (secret: string) => ({ Authorization: `Bearer ${secret}` });

describe("createApiCredential, listApiCredentials: machine clients with scopes", () => {
  it("the secret is shown once, stored hashed, and a Bearer call acts with its scopes", async () => {
    const o = await signupTenant(t);
    const c = await credential(o, { name: "Payroll sync", scopes: ["employees:read", "employees:write"] });
    expect(c.secret).toMatch(/^hrms_[a-z0-9]{10}_[\w-]{43}$/);
    expect(c.secret.startsWith(`${c.credential.prefix}_`)).toBe(true);
    const [row] = await t.query("SELECT secret_hash, prefix FROM api_credentials WHERE id = $1", [c.credential.id]);
    expect(row.secret_hash).not.toContain(c.secret.slice(16));
    expect(row.secret_hash).toMatch(/^[0-9a-f]{64}$/);

    const list = (await api(o.agent).op("listApiCredentials").expect(200)).body;
    expect(list.data).toHaveLength(1);
    expect(list.data[0]).toMatchObject({ name: "Payroll sync", prefix: c.credential.prefix, role: "hr", revoked_at: null });
    expect(JSON.stringify(list)).not.toContain(c.secret);

    await api(t.request())
      .op("listEmployees", { headers: bearer(c.secret) })
      .expect(200);
    const made = await t.request().post("/api/employees").set(bearer(c.secret)).send(employeeInput()).expect(201);
    // audited under the credential's name, its creator as the user
    const log = (
      await api(o.agent)
        .op("listActivityLog", { query: { entity_id: made.body.data.id } })
        .expect(200)
    ).body.data;
    expect(log[0]).toMatchObject({
      action: "employee.created",
      actor_user_id: o.userId,
      actor_credential: { id: c.credential.id, name: "Payroll sync" },
    });
    const created = (
      await api(o.agent)
        .op("listActivityLog", { query: { entity_id: c.credential.id } })
        .expect(200)
    ).body.data;
    expect(created.map((l: { action: string }) => l.action)).toEqual(["api_credential.created"]);
  });

  it("a missing scope is a 403 naming it; a role outside x-roles a 403; session-only operations refuse credentials", async () => {
    const o = await signupTenant(t);
    const c = await credential(o, { name: "Reader", scopes: ["employees:read", "settings:write", "leave:read"] });
    const refused = await t.request().post("/api/employees").set(bearer(c.secret)).send(employeeInput());
    const res = expectError(refused, 403, "forbidden");
    // the scope it lacks: in words, in `required_scope`, and in WWW-Authenticate (RFC 6750 §3.1)
    expect(res.error).toContain("employees:write");
    expect(res.required_scope).toBe("employees:write");
    expect(res.allowed_roles).toBeUndefined();
    expect(refused.headers["www-authenticate"]).toBe('Bearer error="insufficient_scope", scope="employees:write"');
    await api(t.request())
      .op("listLeaveTypes", { headers: bearer(c.secret) })
      .expect(200);
    expect(expectError(await api(t.request()).op("listBranches", { headers: bearer(c.secret) }), 403, "forbidden").required_scope).toBe(
      "organization:read",
    );
    // company settings are owner/admin only: an hr credential with the scope is still refused, naming the roles it admits
    const role = expectError(
      await api(t.request()).op("updateCompanySettings", { body: { name: "X" }, headers: bearer(c.secret) }),
      403,
      "forbidden",
    );
    expect(role.allowed_roles).toEqual(["owner", "admin"]);
    expect(role.error).toBe("This operation is for the roles owner, admin; the API credential's role is hr");
    // credentials cannot manage credentials (no x-scope: session only)
    expect(expectError(await api(t.request()).op("listApiCredentials", { headers: bearer(c.secret) }), 403, "forbidden").error).toMatch(
      /session/,
    );
    expectError(await api(t.request()).op("getSession", { headers: bearer(c.secret) }), 403, "forbidden");
  });

  it("unknown scopes, a past expiry and an admin credential from an owner", async () => {
    const o = await signupTenant(t);
    const bad = expectDetails(await api(o.agent).op("createApiCredential", { body: { name: "x", scopes: ["nothing:read"] } }), 400);
    expect(bad.details[0].path).toBe("body.scopes.0");
    const past = expectDetails(
      await api(o.agent).op("createApiCredential", { body: { name: "x", scopes: ["employees:read"], expires_at: "2001-01-01T00:00:00Z" } }),
      400,
    );
    expect(past.details[0].path).toBe("body.expires_at");
    const a = await credential(o, { name: "Admin bot", role: "admin", scopes: ["settings:read"] });
    expect(a.credential).toMatchObject({ scopes: ["settings:read"] });
    const hr = await addMember(t, o, "hr");
    expectError(await api(hr.agent).op("createApiCredential", { body: { name: "x", scopes: ["employees:read"] } }), 403, "forbidden");
  });
});

describe("revokeApiCredential, rotateApiCredential: wrong, expired, revoked and rotated secrets", () => {
  it("wrong, malformed, other-scheme and revoked secrets are 401 envelopes; revocation is immediate", async () => {
    const o = await signupTenant(t);
    const c = await credential(o, { name: "Sync", scopes: ["employees:read"] });
    const wrong = `${c.secret.slice(0, -1)}${c.secret.endsWith("A") ? "B" : "A"}`;
    for (const header of [`Bearer ${wrong}`, "Bearer hrms_short", "Bearer ", "Basic dXNlcjpwYXNz", `Bearer ${"x".repeat(500)}`, "Bearer"])
      expectError(await api(t.request()).op("listEmployees", { headers: { Authorization: header } }), 401, "unauthenticated");
    await api(t.request())
      .op("listEmployees", { headers: bearer(c.secret) })
      .expect(200);
    const revoked = (
      await api(o.agent)
        .op("revokeApiCredential", { params: { id: c.credential.id } })
        .expect(200)
    ).body.data;
    expect(revoked.revoked_at).not.toBeNull();
    expectError(await api(t.request()).op("listEmployees", { headers: bearer(c.secret) }), 401, "unauthenticated");
    expectError(await api(o.agent).op("revokeApiCredential", { params: { id: c.credential.id } }), 409, "conflict");
    expectError(await api(o.agent).op("rotateApiCredential", { params: { id: c.credential.id }, body: {} }), 409, "conflict");
    // a Bearer request does not fall back to the cookie it also carries
    expectError(await api(o.agent).op("listEmployees", { headers: bearer(c.secret) }), 401, "unauthenticated");
  });

  it("two secrets during a rotation; grace 0 ends the old one at once; expiry", async () => {
    const o = await signupTenant(t);
    const c = await credential(o, { name: "Rotating", scopes: ["employees:read"] });
    const r1 = (
      await api(o.agent)
        .op("rotateApiCredential", { params: { id: c.credential.id }, body: { grace_seconds: 3600 } })
        .expect(200)
    ).body.data;
    expect(r1.credential.previous_prefix).toBe(c.credential.prefix);
    await api(t.request())
      .op("listEmployees", { headers: bearer(c.secret) })
      .expect(200);
    await api(t.request())
      .op("listEmployees", { headers: bearer(r1.secret) })
      .expect(200);
    const r2 = (
      await api(o.agent)
        .op("rotateApiCredential", { params: { id: c.credential.id }, body: { grace_seconds: 0 } })
        .expect(200)
    ).body.data;
    expect(r2.credential.previous_prefix).toBeNull();
    expectError(await api(t.request()).op("listEmployees", { headers: bearer(r1.secret) }), 401);
    expectError(await api(t.request()).op("listEmployees", { headers: bearer(c.secret) }), 401);
    await api(t.request())
      .op("listEmployees", { headers: bearer(r2.secret) })
      .expect(200);
    const log = (
      await api(o.agent)
        .op("listActivityLog", { query: { entity_id: c.credential.id } })
        .expect(200)
    ).body.data;
    expect(log.map((l: { action: string }) => l.action)).toEqual([
      "api_credential.rotated",
      "api_credential.rotated",
      "api_credential.created",
    ]);

    const soon = new Date(clock.nowMs() + 60_000).toISOString();
    const e = await credential(o, { name: "Short-lived", scopes: ["employees:read"], expires_at: soon });
    await api(t.request())
      .op("listEmployees", { headers: bearer(e.secret) })
      .expect(200);
    clock.setClock(new Date(clock.nowMs() + 120_000));
    try {
      expectError(await api(t.request()).op("listEmployees", { headers: bearer(e.secret) }), 401, "unauthenticated");
    } finally {
      clock.setClock(undefined);
    }
  });

  it("tenant-bound; no Origin check (no cookie); the creator's removal ends the credential", async () => {
    const a = await signupTenant(t);
    const b = await signupTenant(t);
    const bEmployee = (await b.agent.post("/api/employees").send(employeeInput()).expect(201)).body.data;
    const admin = await addMember(t, a, "admin");
    const c = await credential(admin, { name: "A's sync", scopes: ["employees:read", "employees:write"] });
    expectError(
      await api(t.request()).op("getEmployee", { params: { employeeId: bEmployee.id }, headers: bearer(c.secret) }),
      404,
      "not_found",
    );
    const list = (
      await api(t.request())
        .op("listEmployees", { headers: bearer(c.secret) })
        .expect(200)
    ).body.data;
    expect(list.map((e: { id: string }) => e.id)).not.toContain(bEmployee.id);
    await t.request().post("/api/employees").set(bearer(c.secret)).set("Origin", "https://evil.example").send(employeeInput()).expect(201);
    await api(a.agent)
      .op("removeMember", { params: { userId: admin.userId } })
      .expect(200);
    expectError(await api(t.request()).op("listEmployees", { headers: bearer(c.secret) }), 401, "unauthenticated");
  });
});
