// The budgets of uploads and AI helpers at their production values (productionLimits, never lowered):
// each counter is filled through the window store up to its last use (the uses of other processes in
// the hour), then the last use is served and the next refused in the one 429 shape, naming its policy.
import { describe, expect, it } from "vitest";
import { exactWindows } from "../../src/db/windows.ts";
import { addMember, appWith, expectError, signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { productionLimits } from "../support/limits.ts";
import { expectRateLimitHeaders } from "../support/rate-limit.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
const { uploadsPerUserPerHour, uploadsPerTenantPerHour, aiCallsPerUserPerHour, aiCallsPerTenantPerHour } = productionLimits;
const production = () => appWith(t, { uploadsPerUserPerHour, uploadsPerTenantPerHour, aiCallsPerUserPerHour, aiCallsPerTenantPerHour });
const HOUR = 3600;
/** `uses` of the counter `key` already spent in the hour (by this or another process). */
const spent = (key: string, uses: number) => exactWindows.add([{ key, uses, windowSeconds: HOUR }]);

/** The one 429: envelope, message naming the limit and the wait, Retry-After and the RateLimit fields of `policy`. */
function expectRefused(
  res: { status: number; body: unknown; headers: Record<string, unknown> },
  policy: string,
  limit: number,
  words: string,
) {
  const body = expectError(res, 429, "rate_limited");
  const wait = expectRateLimitHeaders(res, { name: policy, limit, windowSeconds: HOUR });
  expect(body.error).toBe(`${words.replace("{max}", String(limit))}; retry in ${wait} s`);
}

describe("uploadFile: UPLOADS_PER_USER_PER_HOUR and UPLOADS_PER_TENANT_PER_HOUR at their production values", () => {
  it("the last upload of the hour served, the next refused: the user's (`upload-user`), then the company's (`upload-tenant`)", async () => {
    const app = production();
    const owner = await signupTenant(t);
    const hr = await addMember(t, owner, "hr");
    const up = (s: TenantSession) =>
      app.as(s.agent).post("/api/upload").attach("file", Buffer.from("budget\n"), { filename: "a.txt", contentType: "text/plain" });
    await spent(`upload:user:${owner.userId}`, uploadsPerUserPerHour - 1);
    await up(owner).expect(201);
    expectRefused(await up(owner), "upload-user", uploadsPerUserPerHour, "Upload limit reached ({max} uploads per user per hour)");
    // the company: hr has uploads left, the company one (the owner's refused upload counted nothing)
    await spent(`upload:tenant:${owner.tenantId}`, uploadsPerTenantPerHour - 2);
    await up(hr).expect(201);
    expectRefused(await up(hr), "upload-tenant", uploadsPerTenantPerHour, "Upload limit reached ({max} uploads per company per hour)");
  });
});

describe("generateJobDescription: AI_CALLS_PER_USER_PER_HOUR and AI_CALLS_PER_TENANT_PER_HOUR at their production values", () => {
  it("the user's last call of the hour is served, the next refused (`ai-user`); the company's likewise (`ai-tenant`)", async () => {
    const app = production();
    const owner = await signupTenant(t);
    await api(owner.agent)
      .op("updateCompanySettings", { body: { modules: ["recruitment"] } })
      .expect(200);
    const hr = await addMember(t, owner, "hr");
    const body = { title: "Backend Engineer", department: "Engineering", requirements: "TypeScript and PostgreSQL" };
    const call = (s: TenantSession) => api(app.as(s.agent)).op("generateJobDescription", { body });
    await spent(`ai:user:${owner.userId}`, aiCallsPerUserPerHour - 1);
    await call(owner).expect(200);
    expectRefused(await call(owner), "ai-user", aiCallsPerUserPerHour, "AI helper limit reached ({max} calls per user per hour)");
    await spent(`ai:tenant:${owner.tenantId}`, aiCallsPerTenantPerHour - 2);
    await call(hr).expect(200);
    expectRefused(await call(hr), "ai-tenant", aiCallsPerTenantPerHour, "AI helper limit reached ({max} calls per company per hour)");
  });
});
