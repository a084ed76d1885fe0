// The AI helpers' budgets: every call that reaches the provider counts against
// the caller's AI_CALLS_PER_USER_PER_HOUR and the company's AI_CALLS_PER_TENANT_PER_HOUR, shared by
// the four helpers; past either, 429 `rate_limited` with Retry-After and nothing counted. A request
// refused for its input costs nothing; another company has its own budget. And every text input of
// every AI operation is bounded in the document, so what a provider is sent is bounded.
import { beforeAll, describe, expect, it } from "vitest";
import { addMember, expectError, useTestApp } from "../support/app.ts";
import { asObject, at, deref, documentOperationsOf } from "../support/document.ts";
import { expectRateLimitHeaders } from "../support/rate-limit.ts";
import { type Company, recruitingCompany } from "./fixtures.ts";
import { api } from "../support/api.ts";

const t = useTestApp({ config: { aiCallsPerUserPerHour: 2, aiCallsPerTenantPerHour: 3 } });
let c: Company;
let other: Company;

beforeAll(async () => {
  c = await recruitingCompany(t, { company: "Budgeted" });
  other = await recruitingCompany(t, { company: "Other Co" });
});

const jobDescription = { title: "Backend Engineer", department: "Engineering", requirements: "TypeScript and PostgreSQL" };
const content = { type: "rejection_email", job_title: "Backend Engineer", candidate_name: "Priya" };
const questions = { requirements: "TypeScript, PostgreSQL", count: 3 };
const screening = { resume_text: "TypeScript developer, 4 years", job_requirements: "TypeScript" };

function expectRateLimited(
  res: { status: number; body: unknown; headers: Record<string, string> },
  message: RegExp,
  policy: { name: string; limit: number },
) {
  const body = expectError(res, 429, "rate_limited");
  expectRateLimitHeaders(res, { ...policy, windowSeconds: 3600 });
  expect(body.error).toMatch(message);
  const retryAfter = Number(res.headers["retry-after"]);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThan(0);
  expect(retryAfter).toBeLessThanOrEqual(3600);
  expect(body.error).toContain(`retry in ${retryAfter} s`);
}

describe("generateJobDescription, screenResume, generateInterviewQuestions, generateRecruitmentContent: AI budgets", () => {
  it("answer the user's third call in the hour with 429 and Retry-After; a refused input costs nothing", async () => {
    // a call refused for its input (an unknown candidate) does not reach the provider and is not counted
    expectError(await api(c.hr.agent).op("screenResume", { body: { candidate_id: "00000000-0000-4000-8000-000000000000" } }), 400);
    await api(c.hr.agent).op("generateJobDescription", { body: jobDescription }).expect(200);
    await api(c.hr.agent).op("screenResume", { body: screening }).expect(200);
    // every helper shares the budget
    for (const [p, body] of [
      ["/api/recruitment/ai/job-description", jobDescription],
      ["/api/recruitment/ai/resume-screening", screening],
      ["/api/recruitment/ai/interview-questions", questions],
      ["/api/recruitment/ai/content", content],
    ] as const)
      expectRateLimited(await c.hr.agent.post(p).send(body), /^AI helper limit reached \(2 calls per user per hour\); retry in \d+ s$/, {
        name: "ai-user",
        limit: 2,
      });
  });

  it("hold the company's budget across its users; another company keeps its own", async () => {
    // hr spent 2 of the company's 3 above; the manager gets the last one, the owner none
    await api(c.manager.agent).op("generateInterviewQuestions", { body: questions }).expect(200);
    expectRateLimited(
      await c.owner.agent.post("/api/recruitment/ai/content").send(content),
      /^AI helper limit reached \(3 calls per company per hour\)/,
      { name: "ai-tenant", limit: 3 },
    );
    const admin = await addMember(t, c.owner, "admin");
    expectRateLimited(await api(admin.agent).op("generateJobDescription", { body: jobDescription }), /3 calls per company per hour/, {
      name: "ai-tenant",
      limit: 3,
    });
    // another company has its own budget
    await other.hr.agent.post("/api/recruitment/ai/content").send(content).expect(200);
    await api(other.owner.agent).op("generateJobDescription", { body: jobDescription }).expect(200);
    const counters = await t.query<{ key: string; uses: number }>(
      "SELECT key, uses FROM usage_counters WHERE key LIKE 'ai:%' ORDER BY key",
    );
    const byKey = Object.fromEntries(counters.map((r) => [r.key, r.uses]));
    // the refused calls counted nothing (neither the owner nor the admin has a counter)
    expect(byKey[`ai:tenant:${c.owner.tenantId}`]).toBe(3);
    expect(byKey[`ai:user:${c.owner.userId}`]).toBeUndefined();
    expect(byKey[`ai:user:${admin.userId}`]).toBeUndefined();
    expect(byKey[`ai:tenant:${other.owner.tenantId}`]).toBe(2);
  });
});

describe("AI operations: every text input is bounded in the document", () => {
  it("has maxLength on every string and maxItems on every array of each AI request body", () => {
    const unbounded: string[] = [];
    const walk = (node: unknown, where: string) => {
      const s = deref(node);
      if (Object.keys(s).length === 0) return;
      const types = [s.type].flat();
      if (types.includes("string") && s.maxLength === undefined && !s.enum && !s.format) unbounded.push(where);
      if (types.includes("array")) {
        if (s.maxItems === undefined) unbounded.push(where);
        walk(s.items, `${where}[]`);
      }
      for (const [k, v] of Object.entries(asObject(s.properties))) walk(v, `${where}.${k}`);
    };
    const ops = documentOperationsOf().filter(({ path }) => path.startsWith("/api/recruitment/ai/"));
    expect(ops).toHaveLength(4);
    for (const { path: p, method, op } of ops) {
      expect(method).toBe("post");
      walk(at(op, "requestBody", "content", "application/json", "schema"), `${op.operationId}.body`);
      expect(at(op, "responses", "429"), `${p} documents its 429`).toBeDefined();
      expect(op.description, `${p} names its budget settings`).toContain("AI_CALLS_PER_USER_PER_HOUR");
    }
    expect(unbounded).toEqual([]);
  });
});
