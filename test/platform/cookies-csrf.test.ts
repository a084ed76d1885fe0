// Security review, "also" items: a write that takes no request body refused a
// cross-site `text/plain` or form post only when an Origin came with it - now any body but JSON is a
// 415; and the cookies fit the `__Host-` prefix in production (Secure, Path=/, no Domain), where
// the unprefixed name (which another host of the domain could plant) is no session.
import supertest from "supertest";
import { describe, expect, it } from "vitest";
import { appWith, expectError, signupTenant, useTestApp } from "../support/app.ts";
import { api } from "../support/api.ts";

const t = useTestApp();

describe("deleteBranch, markAllNotificationsRead: a write without a request body takes no text/plain or form body", () => {
  it("415 for text/plain, form-urlencoded and multipart bodies sent without an Origin; none or JSON pass", async () => {
    const o = await signupTenant(t);
    const branch = async (name: string) => (await api(o.agent).op("createBranch", { body: { name } }).expect(201)).body.data.id;
    const id = await branch("Kept");
    const refused = [
      o.agent.delete(`/api/configuration/branches/${id}`).set("Content-Type", "text/plain").send("x"),
      o.agent.delete(`/api/configuration/branches/${id}`).type("form").send({ a: "1" }),
      o.agent.delete(`/api/configuration/branches/${id}`).field("a", "1"),
      o.agent.delete(`/api/configuration/branches/${id}`).set("Content-Type", "text/plain;charset=UTF-8").send(""),
      o.agent.post("/api/notifications/read-all").set("Content-Type", "text/plain").send("{}"),
    ];
    for (const r of refused) expect(expectError(await r, 415, "unsupported_media_type").error).toMatch(/takes no request body/);
    expect((await api(o.agent).op("listBranches").expect(200)).body.data.map((b) => b.id)).toContain(id);
    // no body, or JSON (as SDKs send), is the ordinary write
    await o.agent.post("/api/notifications/read-all").set("Content-Type", "application/json").send("").expect(200);
    await api(o.agent).op("markAllNotificationsRead").expect(200);
    await api(o.agent)
      .op("deleteBranch", { params: { branchId: id } })
      .expect(200);
  });
});

describe("signIn, getSession, signOut: __Host- cookies in production", () => {
  it("the session cookie is __Host-hrms.sid (Secure, Path=/, no Domain); an unprefixed hrms.sid is no session there", async () => {
    const o = await signupTenant(t);
    const prod = appWith(t, { isProduction: true, trustProxy: 1 });
    const agent = supertest(prod.app);
    const signIn = await api(agent)
      .op("signIn", { body: { email: o.email, password: o.password }, headers: { "X-Forwarded-Proto": "https" } })
      .expect(200);
    const set = (signIn.headers["set-cookie"] as unknown as string[]).find((c) => c.startsWith("__Host-hrms.sid="));
    expect(set).toBeDefined();
    expect(set).toMatch(/; Path=\//);
    expect(set).toMatch(/; Secure/);
    expect(set).toMatch(/; HttpOnly/);
    expect(set).not.toMatch(/Domain=/i);
    // the known-client cookie likewise
    const client = (signIn.headers["set-cookie"] as unknown as string[]).find((c) => c.startsWith("__Host-hrms.client="));
    expect(client).toMatch(/; Path=\/.*; Secure/);
    expect(client).not.toMatch(/Domain=/i);
    expect((signIn.headers["set-cookie"] as unknown as string[]).some((c) => c.startsWith("hrms.client="))).toBe(false);
    const value = set!.split(";")[0].slice("__Host-hrms.sid=".length);
    const session = await agent
      .get("/api/auth/session")
      .set("X-Forwarded-Proto", "https")
      .set("Cookie", `__Host-hrms.sid=${value}`)
      .expect(200);
    expect(session.body.data.user.id).toBe(o.userId);
    // the same value under the unprefixed name (a cookie another host could set): not a session
    expectError(
      await agent.get("/api/employees").set("X-Forwarded-Proto", "https").set("Cookie", `hrms.sid=${value}`),
      401,
      "unauthenticated",
    );
    const out = await agent
      .post("/api/auth/sign-out")
      .set("X-Forwarded-Proto", "https")
      .set("Cookie", `__Host-hrms.sid=${value}`)
      .expect(200);
    const cleared = (out.headers["set-cookie"] as unknown as string[]).find((c) => c.startsWith("__Host-hrms.sid=;"));
    expect(cleared).toMatch(/; Path=\/.*; Secure/);
  });
});
