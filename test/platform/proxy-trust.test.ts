// TRUST_PROXY believes only the configured proxies' hops of X-Forwarded-For: the left
// part of the header is whatever the client sent, so a forged one must change neither the IP the
// limits count nor the IP the audit trail records. (Before, TRUST_PROXY=true trusted every hop
// and a client picked its own IP.)
import { describe, expect, it } from "vitest";
import { appWith, expectError, signupTenant, uniqueEmail, useTestApp } from "../support/app.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
const PASSWORD = "granite-otter-lantern-94";

describe("signup, updateCompanySettings, listActivityLog: a forged X-Forwarded-For", () => {
  for (const [trustProxy, proxySaw] of [
    [1, "203.0.113.50"],
    [["loopback"], "203.0.113.60"],
  ] as const)
    it(`does not move the per-IP signup limit (TRUST_PROXY=${JSON.stringify(trustProxy)})`, async () => {
      const app = appWith(t, { signupMaxPerIp: 2, trustProxy });
      // the client writes the left part (a new address each time), our proxy appends the address it saw
      const signup = (i: number) =>
        app
          .as(t.request())
          .post("/api/auth/signup")
          .set("X-Forwarded-For", `198.51.100.${i}, ${proxySaw}`)
          .send({ name: "Forger", email: uniqueEmail("forger"), password: PASSWORD });
      await signup(1).expect(202);
      await signup(2).expect(202);
      expectError(await signup(3), 429, "rate_limited");
      // another real client (another address appended by the proxy) is not affected
      await app
        .as(t.request())
        .post("/api/auth/signup")
        .set("X-Forwarded-For", `${proxySaw.slice(0, -1)}1`)
        .send({ name: "Other", email: uniqueEmail("other"), password: PASSWORD })
        .expect(202);
    });

  it("records the address the proxy saw in the audit trail, not the forged one", async () => {
    const o = await signupTenant(t);
    const app = appWith(t, { trustProxy: 1 });
    await app
      .as(o.agent)
      .post("/api/configuration/company-settings")
      .set("X-Forwarded-For", "6.6.6.6, 203.0.113.77")
      .send({ timezone: "Asia/Dubai" })
      .expect(200);
    const log = (
      await api(o.agent)
        .op("listActivityLog", { query: { action: "settings.", limit: 5 } })
        .expect(200)
    ).body.data;
    expect(log[0]).toMatchObject({ action: "settings.updated", ip: "203.0.113.77" });
  });
});
