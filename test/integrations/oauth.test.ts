// The OAuth 2.0 client-credentials grant (RFC 6749 §4.4): issueOAuthToken trades an API
// credential (client id: its prefix; client secret: its secret) for a short-lived access token the
// Bearer guard accepts with the credential's role and the token's scopes. Errors in RFC 6749 §5.2's
// words inside the API's error envelope.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import * as clock from "../../src/lib/clock.ts";
import { registerAllJobs } from "../../src/modules/jobs.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { expectError, signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { employeeInput } from "../support/employees.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
const TOKEN = "/api/oauth/token";

async function credential(owner: TenantSession, scopes: string[], extra: Record<string, unknown> = {}) {
  const res = await api(owner.agent)
    .op("createApiCredential", { body: { name: "Sync", scopes, ...extra } })
    .expect(201);
  const d = res.body.data as { credential: { id: string; prefix: string }; secret: string };
  return { id: d.credential.id, clientId: d.credential.prefix, secret: d.secret };
}
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`;
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** An RFC 6749 §5.2 error: status, the RFC code in `error`, words in `error_description`, and the envelope's fields. */
function expectOAuthError(
  res: { status: number; body: { error?: unknown; error_description?: unknown; status?: unknown }; headers: Record<string, unknown> },
  status: number,
  error: string,
) {
  expect({ status: res.status, error: res.body.error }).toEqual({ status, error });
  expect(typeof res.body.error_description).toBe("string");
  expect(res.body.status).toBe(status);
  if (error === "invalid_client") expect(res.headers["www-authenticate"]).toMatch(/^Basic /);
  return res.body;
}

afterEach(() => clock.setClock(undefined));

describe("issueOAuthToken: the client-credentials grant", () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer(t.app);
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it("a client with plain fetch: Basic authentication, a form body, the RFC's answer; the token calls the API", async () => {
    // no OAuth client library is installed offline (node_modules): the request a standard client sends, by hand
    const o = await signupTenant(t);
    const c = await credential(o, ["employees:read", "employees:write"]);
    const res = await fetch(`${base}${TOKEN}`, {
      method: "POST",
      headers: {
        Authorization: basic(c.clientId, c.secret),
        "Content-Type": "application/x-www-form-urlencoded",
        Accept: "application/json",
      },
      body: new URLSearchParams({ grant_type: "client_credentials" }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toContain("no-store");
    expect(res.headers.get("pragma")).toBe("no-cache");
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toEqual({
      access_token: expect.stringMatching(/^hrmsat_[\w-]{43}$/),
      token_type: "Bearer",
      expires_in: 3600,
      scope: "employees:read employees:write",
    });
    expect(body).not.toHaveProperty("refresh_token");
    const token = body.access_token as string;
    // stored hashed
    const [row] = await t.query("SELECT token_hash, scopes FROM oauth_access_tokens WHERE credential_id = $1", [c.id]);
    expect(row.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.token_hash).not.toContain(token.slice(7));

    const list = await fetch(`${base}/api/employees`, { headers: bearer(token) });
    expect(list.status).toBe(200);
    const made = await t.request().post("/api/employees").set(bearer(token)).send(employeeInput()).expect(201);
    // audited: the issue, and the change under the credential's name
    const log = (
      await api(o.agent)
        .op("listActivityLog", { query: { entity_id: c.id } })
        .expect(200)
    ).body.data;
    expect(log.map((l: { action: string }) => l.action)).toContain("api_credential.token_issued");
    const issued = log.find((l: { action: string }) => l.action === "api_credential.token_issued");
    expect(issued).toMatchObject({ actor_user_id: o.userId, actor_credential: { id: c.id, name: "Sync" } });
    const changed = (
      await api(o.agent)
        .op("listActivityLog", { query: { entity_id: made.body.data.id } })
        .expect(200)
    ).body.data;
    expect(changed[0]).toMatchObject({ action: "employee.created", actor_credential: { id: c.id } });
  });

  it("client_id and client_secret in the body work too; a narrowed scope is a 403 naming the scope it lacks", async () => {
    const o = await signupTenant(t);
    const c = await credential(o, ["employees:read", "employees:write"]);
    const res = await t
      .request()
      .post(TOKEN)
      .type("form")
      .send({ grant_type: "client_credentials", client_id: c.clientId, client_secret: c.secret, scope: "employees:read" })
      .expect(200);
    expect(res.body.scope).toBe("employees:read");
    const token = res.body.access_token;
    await api(t.request())
      .op("listEmployees", { headers: bearer(token) })
      .expect(200);
    const refused = await t.request().post("/api/employees").set(bearer(token)).send(employeeInput());
    expect(expectError(refused, 403, "forbidden").error).toContain("employees:write");
    // the credential itself still has it
    await t.request().post("/api/employees").set(bearer(c.secret)).send(employeeInput()).expect(201);
  });

  it("a scope the credential lacks or a malformed scope is invalid_scope; another grant unsupported_grant_type", async () => {
    const o = await signupTenant(t);
    const c = await credential(o, ["employees:read"]);
    const auth = basic(c.clientId, c.secret);
    const lacking = await t
      .request()
      .post(TOKEN)
      .set("Authorization", auth)
      .type("form")
      .send({ grant_type: "client_credentials", scope: "payroll:write" });
    expect(expectOAuthError(lacking, 400, "invalid_scope").error_description).toContain("payroll:write");
    expectOAuthError(
      await t.request().post(TOKEN).set("Authorization", auth).type("form").send({ grant_type: "client_credentials", scope: "a  b" }),
      400,
      "invalid_scope",
    );
    expectOAuthError(
      await t.request().post(TOKEN).set("Authorization", auth).type("form").send({ grant_type: "password", username: "x", password: "y" }),
      400,
      "unsupported_grant_type",
    );
    expect(await t.query("SELECT 1 FROM oauth_access_tokens WHERE credential_id = $1", [c.id])).toHaveLength(0);
  });

  it("malformed requests are 400 invalid_request, never a 500", async () => {
    const o = await signupTenant(t);
    const c = await credential(o, ["employees:read"]);
    const auth = basic(c.clientId, c.secret);
    const post = () => t.request().post(TOKEN).set("Authorization", auth);
    // no grant_type
    expectOAuthError(await post().type("form").send({ scope: "employees:read" }), 400, "invalid_request");
    // a repeated parameter (RFC 6749 §3.2: at most once)
    expectOAuthError(await post().type("form").send("grant_type=client_credentials&grant_type=client_credentials"), 400, "invalid_request");
    // JSON is not the token request's media type
    const json = await post().send({ grant_type: "client_credentials" });
    expect(json.status).toBe(415);
    expect(json.body.error).toBe("invalid_request");
    // no body at all
    expectOAuthError(await post(), 400, "invalid_request");
    // garbage bytes, a broken percent-escape, an overlong value
    expectOAuthError(await post().type("form").send("%%%=%zz&\u0000"), 400, "invalid_request");
    expectOAuthError(
      await post()
        .type("form")
        .send(`grant_type=${"x".repeat(500)}`),
      400,
      "invalid_request",
    );
    // Basic and body credentials at once
    expectOAuthError(await post().type("form").send({ grant_type: "client_credentials", client_secret: c.secret }), 400, "invalid_request");
    // a Basic value that is not base64 of id:secret, a broken escape inside it
    expectOAuthError(
      await t.request().post(TOKEN).set("Authorization", "Basic !!!").type("form").send({ grant_type: "client_credentials" }),
      401,
      "invalid_client",
    );
    expectOAuthError(
      await t
        .request()
        .post(TOKEN)
        .set("Authorization", `Basic ${Buffer.from(`${c.clientId}:%E0%A4%A`).toString("base64")}`)
        .type("form")
        .send({ grant_type: "client_credentials" }),
      400,
      "invalid_request",
    );
  });

  it("a wrong secret, an unknown or mismatched client id, no authentication, another scheme: 401 invalid_client", async () => {
    const o = await signupTenant(t);
    const c = await credential(o, ["employees:read"]);
    const other = await credential(o, ["employees:read"]);
    const wrong = `${c.secret.slice(0, -1)}${c.secret.endsWith("A") ? "B" : "A"}`;
    const grant = { grant_type: "client_credentials" };
    const tries = [
      basic(c.clientId, wrong),
      basic("hrms_zzzzzzzzzz", c.secret),
      basic(other.clientId, c.secret),
      basic(c.clientId, "not-a-secret"),
      `Bearer ${c.secret}`,
    ];
    for (const a of tries)
      expectOAuthError(await t.request().post(TOKEN).set("Authorization", a).type("form").send(grant), 401, "invalid_client");
    expectOAuthError(await t.request().post(TOKEN).type("form").send(grant), 401, "invalid_client");
    expectOAuthError(
      await t
        .request()
        .post(TOKEN)
        .type("form")
        .send({ ...grant, client_id: c.clientId, client_secret: wrong }),
      401,
      "invalid_client",
    );
  });

  it("a revoked credential gets no token and its tokens stop at once", async () => {
    const o = await signupTenant(t);
    const c = await credential(o, ["employees:read"]);
    const token = (
      await t
        .request()
        .post(TOKEN)
        .set("Authorization", basic(c.clientId, c.secret))
        .type("form")
        .send({ grant_type: "client_credentials" })
        .expect(200)
    ).body.access_token;
    await api(t.request())
      .op("listEmployees", { headers: bearer(token) })
      .expect(200);
    await api(o.agent)
      .op("revokeApiCredential", { params: { id: c.id } })
      .expect(200);
    const after = await api(t.request()).op("listEmployees", { headers: bearer(token) });
    expectError(after, 401, "unauthenticated");
    expectOAuthError(
      await t
        .request()
        .post(TOKEN)
        .set("Authorization", basic(c.clientId, c.secret))
        .type("form")
        .send({ grant_type: "client_credentials" }),
      401,
      "invalid_client",
    );
  });

  it("a token expires after OAUTH_TOKEN_TTL_SECONDS (the clock), and with its secret once a rotation's grace ends", async () => {
    const o = await signupTenant(t);
    const c = await credential(o, ["employees:read"]);
    const issue = async (id: string, secret: string) =>
      (
        await t
          .request()
          .post(TOKEN)
          .set("Authorization", basic(id, secret))
          .type("form")
          .send({ grant_type: "client_credentials" })
          .expect(200)
      ).body;
    const first = await issue(c.clientId, c.secret);
    clock.setClock(new Date(clock.nowMs() + 3599_000));
    await api(t.request())
      .op("listEmployees", { headers: bearer(first.access_token) })
      .expect(200);
    clock.setClock(new Date(clock.nowMs() + 2_000));
    const expired = await api(t.request()).op("listEmployees", { headers: bearer(first.access_token) });
    expect(expired.status).toBe(401);
    clock.setClock(undefined);

    // rotation with a grace of 10 minutes: a token of the old secret lives while the old secret does
    const old = await issue(c.clientId, c.secret);
    const rotated = (
      await api(o.agent)
        .op("rotateApiCredential", { params: { id: c.id }, body: { grace_seconds: 600 } })
        .expect(200)
    ).body.data;
    const fresh = await issue(rotated.credential.prefix, rotated.secret);
    const during = await issue(c.clientId, c.secret);
    expect(during.expires_in).toBeLessThanOrEqual(600); // never beyond its secret
    await api(t.request())
      .op("listEmployees", { headers: bearer(old.access_token) })
      .expect(200);
    clock.setClock(new Date(clock.nowMs() + 601_000));
    expect((await api(t.request()).op("listEmployees", { headers: bearer(old.access_token) })).status).toBe(401);
    await api(t.request())
      .op("listEmployees", { headers: bearer(fresh.access_token) })
      .expect(200);
  });

  it("expired tokens are pruned a day after they expire (integrations.prune-events)", async () => {
    registerAllJobs();
    const o = await signupTenant(t);
    const c = await credential(o, ["employees:read"]);
    const issue = () =>
      t.request().post(TOKEN).set("Authorization", basic(c.clientId, c.secret)).type("form").send({ grant_type: "client_credentials" });
    await issue().expect(200);
    clock.setClock(new Date(clock.nowMs() + 86_400_000 + 3_600_000 + 1000));
    await issue().expect(200); // a live one, issued a day and an hour later
    await jobs.runNow("integrations.prune-events", t.config);
    const left = await t.query<{ expires_at: Date }>("SELECT expires_at FROM oauth_access_tokens WHERE credential_id = $1", [c.id]);
    expect(left).toHaveLength(1);
    expect(new Date(left[0].expires_at).getTime()).toBeGreaterThan(clock.nowMs());
  });

  it("a credential's expiry bounds its token's", async () => {
    const o = await signupTenant(t);
    const c = await credential(o, ["employees:read"], { expires_at: new Date(clock.nowMs() + 120_000).toISOString() });
    const body = (
      await t
        .request()
        .post(TOKEN)
        .set("Authorization", basic(c.clientId, c.secret))
        .type("form")
        .send({ grant_type: "client_credentials" })
        .expect(200)
    ).body;
    expect(body.expires_in).toBeGreaterThan(100);
    expect(body.expires_in).toBeLessThanOrEqual(120);
  });
});
