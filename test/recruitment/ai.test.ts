// AI helpers: the offline provider's output is deterministic and useful (skills, scores, reasons,
// questions, content); resume screening resolves candidates and postings and keeps the score;
// the OpenAI-compatible provider is exercised against a local server imitating the API,
// including its failures (timeout, error status, unusable answer → 503 `unavailable`).
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import type { Config } from "../../src/config.ts";
import { appWith, expectDetails, expectError, useTestApp } from "../support/app.ts";
import { addCandidate, consentToScreening, openPosting, recruitingCompany, type Company } from "./fixtures.ts";

const t = useTestApp();
let c: Company;

beforeAll(async () => {
  c = await recruitingCompany(t, { company: "Initech" });
});

const requirements =
  "5+ years of backend development with TypeScript and Node.js.\nStrong PostgreSQL and " +
  "REST APIs.\nExperience with Docker and Kubernetes is a plus.\nMentor junior engineers.";
const strongResume =
  "Senior backend engineer with 7 years of experience. TypeScript, Node.js (Express), PostgreSQL, " +
  "Redis, Docker. Designed REST APIs for payments and mentored three junior developers.";
const weakResume = "Accountant with 2 years of experience in Tally, GST filing and bank reconciliation.";

describe("generateJobDescription, screenResume, generateInterviewQuestions, generateRecruitmentContent: offline AI helpers", () => {
  it("write a structured, deterministic job description from the requirements", async () => {
    const body = { title: "Senior Backend Engineer", department: "Engineering", requirements };
    const a = await api(c.manager.agent).op("generateJobDescription", { body }).expect(200);
    const b = await api(c.hr.agent).op("generateJobDescription", { body }).expect(200);
    expect(a.body.data).toEqual(b.body.data);
    const jd = a.body.data;
    expect(jd.provider).toEqual({ name: "offline", model: null });
    expect(jd.skills).toEqual(
      expect.arrayContaining(["typescript", "node.js", "postgresql", "rest api", "docker", "kubernetes", "mentoring"]),
    );
    expect(jd.experience_years).toBe(5);
    expect(jd.nice_to_have).toEqual(["Experience with Docker and Kubernetes is a plus"]);
    expect(jd.requirements).toEqual(
      expect.arrayContaining(["5+ years of backend development with TypeScript and Node.js", "Strong PostgreSQL and REST APIs"]),
    );
    expect(jd.responsibilities).toEqual(
      expect.arrayContaining(["Mentor junior engineers", "Model data and keep queries fast and reliable in PostgreSQL"]),
    );
    expect(jd.summary).toContain("Initech is looking for a Senior Backend Engineer to join the Engineering team");
    expect(jd.description).toMatch(/^# Senior Backend Engineer\n/);
    expect(jd.description).toContain("## What you bring");
    expect(jd.description).toContain("## Nice to have");
    const missing = expectDetails(
      await c.hr.agent.post("/api/recruitment/ai/job-description").send({ title: "X" }),
      400,
      "validation_failed",
    );
    expect(missing.details.map((d: { path: string }) => d.path)).toEqual(expect.arrayContaining(["body.department", "body.requirements"]));
  });

  it("score resumes 0-100 with matched and missing skills and reasons", async () => {
    const strong = await api(c.hr.agent)
      .op("screenResume", { body: { resume_text: strongResume, job_requirements: requirements } })
      .expect(200);
    const again = await api(c.hr.agent)
      .op("screenResume", { body: { resume_text: strongResume, job_requirements: requirements } })
      .expect(200);
    expect(again.body.data).toEqual(strong.body.data);
    const s = strong.body.data;
    expect(s).toMatchObject({
      recommendation: "strong_match",
      missing_skills: [],
      experience_years: 7,
      required_experience_years: 5,
      candidate_id: null,
      provider: { name: "offline", model: null },
    });
    expect(s.score).toBeGreaterThanOrEqual(85);
    expect(s.matched_skills).toEqual(expect.arrayContaining(["typescript", "node.js", "postgresql", "rest api", "mentoring", "docker"]));
    expect(s.additional_skills).toContain("redis");
    expect(s.reasons).toEqual(
      expect.arrayContaining([
        "7 years of experience meets the 5+ asked for.",
        "Nice-to-have skills found: docker (not found: kubernetes).",
      ]),
    );

    const weak = (
      await api(c.hr.agent)
        .op("screenResume", { body: { resume_text: weakResume, job_requirements: requirements } })
        .expect(200)
    ).body.data;
    expect(weak.recommendation).toBe("weak_match");
    expect(weak.score).toBeLessThan(25);
    expect(weak.missing_skills).toEqual(expect.arrayContaining(["typescript", "node.js", "postgresql"]));
    expect(weak.reasons).toContain("2 years of experience is below the 5+ asked for.");

    const partial = (
      await api(c.hr.agent)
        .op("screenResume", {
          body: {
            resume_text: "Java developer, 3 years, PostgreSQL and REST APIs.",
            required_skills: ["Java", "Postgres", "Kafka"],
            min_experience_years: 3,
          },
        })
        .expect(200)
    ).body.data;
    expect(partial).toMatchObject({ matched_skills: ["java", "postgresql"], missing_skills: ["kafka"], required_experience_years: 3 });
    expect(partial.score).toBeGreaterThan(weak.score);
    expect(partial.score).toBeLessThan(s.score);
  });

  it("screen a stored candidate against their posting and keep the score", async () => {
    const posting = await openPosting(c.hr.agent, { requirements, skills: ["typescript"] });
    const cand = await addCandidate(c.hr.agent, posting.id, { resume_text: strongResume });
    await consentToScreening(t, c.owner.tenantId, cand.id);
    const r = await api(c.hr.agent)
      .op("screenResume", { body: { candidate_id: cand.id } })
      .expect(200);
    expect(r.body.data.candidate_id).toBe(cand.id);
    const [row] = await t.query(`SELECT screening_score, screened_at FROM candidates WHERE id = $1`, [cand.id]);
    expect(row.screening_score).toBe(r.body.data.score);
    expect(row.screened_at).not.toBeNull();
    expect(
      (
        await api(c.hr.agent)
          .op("getCandidate", { params: { id: cand.id } })
          .expect(200)
      ).body.data.screening_score,
    ).toBe(r.body.data.score);
    const log = await api(c.owner.agent)
      .op("listActivityLog", { query: { entity_id: cand.id, action: "recruitment.candidate_screened" } })
      .expect(200);
    expect(log.body.data[0].changes!.screening_score).toEqual({ from: null, to: r.body.data.score });
    // Against another posting's requirements, or explicit ones.
    const other = await openPosting(c.hr.agent, { requirements: "Excel, Tally and GST; 3 years in accounting.", skills: ["tally"] });
    const vs = await api(c.hr.agent)
      .op("screenResume", { body: { candidate_id: cand.id, posting_id: other.id } })
      .expect(200);
    expect(vs.body.data.score).toBeLessThan(r.body.data.score);
    // The manager sees Engineering candidates; unknown references are 400s.
    await api(c.manager.agent)
      .op("screenResume", { body: { candidate_id: cand.id } })
      .expect(200);
    const fin = await openPosting(c.hr.agent, { department: "Finance" });
    const finCand = await addCandidate(c.hr.agent, fin.id);
    expect(expectDetails(await api(c.manager.agent).op("screenResume", { body: { candidate_id: finCand.id } }), 400).details[0].path).toBe(
      "body.candidate_id",
    );
    expect(
      expectDetails(
        await api(c.hr.agent).op("screenResume", { body: { resume_text: "x", posting_id: "00000000-0000-4000-8000-000000000000" } }),
        400,
      ).details[0].path,
    ).toBe("body.posting_id");
    expect(expectDetails(await api(c.hr.agent).op("screenResume", { body: { job_requirements: "TypeScript" } }), 400).details[0].path).toBe(
      "body.resume_text",
    );
    expect(expectDetails(await api(c.hr.agent).op("screenResume", { body: { resume_text: "TypeScript dev" } }), 400).details[0].path).toBe(
      "body.job_requirements",
    );
    const noText = await addCandidate(c.hr.agent, posting.id, { resume_text: null });
    expect(expectDetails(await api(c.hr.agent).op("screenResume", { body: { candidate_id: noText.id } }), 400).details[0].path).toBe(
      "body.resume_text",
    );
  });

  it("generate interview questions for the skills, with guidance, in the requested mix", async () => {
    const body = { job_title: "Senior Backend Engineer", requirements, count: 6, seniority: "senior" as const };
    const a = (await api(c.hr.agent).op("generateInterviewQuestions", { body }).expect(200)).body.data;
    const b = (await api(c.manager.agent).op("generateInterviewQuestions", { body }).expect(200)).body.data;
    expect(a).toEqual(b);
    expect(a.questions).toHaveLength(6);
    expect(a.questions.filter((q) => q.category === "technical").length).toBe(4);
    expect(a.questions.every((q) => q.question.length > 20 && q.what_to_look_for.length > 10)).toBe(true);
    expect(a.questions[0]).toMatchObject({ category: "technical", skill: "typescript" });
    expect(a.questions.some((q) => q.question.includes("PostgreSQL"))).toBe(true);
    const tech = (
      await api(c.hr.agent)
        .op("generateInterviewQuestions", { body: { requirements: "Kubernetes, Terraform", focus: "technical", count: 10 } })
        .expect(200)
    ).body.data;
    expect(tech.questions.every((q) => q.category === "technical")).toBe(true);
    expect(tech.skills).toEqual(["kubernetes", "terraform"]);
    const beh = (
      await api(c.hr.agent)
        .op("generateInterviewQuestions", { body: { requirements: "anything", focus: "behavioral", count: 3 } })
        .expect(200)
    ).body.data;
    expect(beh.questions.map((q) => q.category)).toEqual(["behavioral", "behavioral", "behavioral"]);
    expectError(
      await api(c.hr.agent).op("generateInterviewQuestions", { body: { requirements: "x", count: 31 } }),
      400,
      "validation_failed",
    );
  });

  it("write recruitment content with the company's name", async () => {
    const rej = (
      await api(c.hr.agent)
        .op("generateRecruitmentContent", { body: { type: "rejection_email", job_title: "Data Analyst", candidate_name: "Priya Sharma" } })
        .expect(200)
    ).body.data;
    expect(rej).toMatchObject({
      type: "rejection_email",
      subject: "Your application for Data Analyst at Initech",
      provider: { name: "offline" },
    });
    expect(rej.content).toMatch(/^Dear Priya Sharma,/);
    expect(rej.content).toContain("Initech Recruitment Team");
    const post = (
      await api(c.hr.agent)
        .op("generateRecruitmentContent", {
          body: {
            type: "job_post",
            job_title: "Data Analyst",
            details: "SQL, Power BI and Python; hybrid in Pune.",
            tone: "friendly",
            company_name: "Initech India",
          },
        })
        .expect(200)
    ).body.data;
    expect(post.subject).toBeNull();
    expect(post.content).toContain("Initech India");
    expect(post.content).toContain("Skills we value: python, sql, power bi.");
    for (const type of ["linkedin_post", "interview_invitation", "offer_email", "follow_up_email", "referral_request"]) {
      const r = (
        await c.hr.agent.post("/api/recruitment/ai/content").send({ type, job_title: "Data Analyst", candidate_name: "Priya" }).expect(200)
      ).body.data;
      expect(r.content.length).toBeGreaterThan(50);
    }
    expectError(await c.hr.agent.post("/api/recruitment/ai/content").send({ type: "poem" }), 400, "validation_failed");
    expectError(await api(c.employee.agent).op("generateRecruitmentContent", { body: { type: "job_post" } }), 403, "forbidden");
  });
});

describe("OpenAI-compatible provider", () => {
  let server: Server;
  let url: string;
  let handler: (req: IncomingMessage, body: any) => { status?: number; json?: unknown; raw?: string; delayMs?: number };
  const seen: { auth?: string; body: any; path?: string }[] = [];
  const reply = (content: unknown) => ({
    json: {
      id: "chatcmpl-1",
      object: "chat.completion",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: typeof content === "string" ? content : JSON.stringify(content) },
          finish_reason: "stop",
        },
      ],
    },
  });

  beforeAll(async () => {
    server = createServer((req, res) => {
      let data = "";
      req.on("data", (d) => (data += d));
      req.on("end", () => {
        const body = data ? JSON.parse(data) : null;
        seen.push({ auth: req.headers.authorization, body, path: req.url });
        const r = handler(req, body);
        setTimeout(() => {
          if (res.destroyed) return;
          res.writeHead(r.status ?? 200, { "Content-Type": "application/json" });
          res.end(r.raw ?? JSON.stringify(r.json));
        }, r.delayMs ?? 0);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  /**
   * hr's session on an app that asks the imitation provider (`overrides`: other settings of it);
   * its timeout generous, so a busy machine's slow answer is not taken for the provider's.
   */
  const hrWithProvider = (overrides: Partial<Config> = {}) =>
    appWith(t, { aiBaseUrl: url, aiApiKey: "sk-test-123", aiModel: "test-model", aiTimeoutMs: 60_000, ...overrides }).as(c.hr.agent);

  it("asks the chat-completions API for JSON and returns its answer", async () => {
    const hr = hrWithProvider();
    handler = () =>
      reply({
        summary: "Join us.",
        responsibilities: ["Build APIs"],
        requirements: ["TypeScript"],
        nice_to_have: [],
        skills: ["TypeScript"],
        keywords: ["apis"],
        experience_years: 5,
        description: "# Senior Backend Engineer\n\nJoin us.",
      });
    const r = await api(hr)
      .op("generateJobDescription", { body: { title: "Senior Backend Engineer", department: "Engineering", requirements } })
      .expect(200);
    expect(r.body.data).toMatchObject({
      title: "Senior Backend Engineer",
      summary: "Join us.",
      skills: ["typescript"],
      experience_years: 5,
      provider: { name: "openai_compatible", model: "test-model" },
    });
    const call = seen[seen.length - 1];
    expect(call.path).toBe("/v1/chat/completions");
    expect(call.auth).toBe("Bearer sk-test-123");
    expect(call.body).toMatchObject({ model: "test-model", response_format: { type: "json_object" } });
    expect(call.body.messages[0].role).toBe("system");
    expect(JSON.parse(call.body.messages[1].content)).toMatchObject({
      title: "Senior Backend Engineer",
      department: "Engineering",
      requirements,
      company_name: "Initech",
    });

    handler = () =>
      reply(
        "```json\n" +
          JSON.stringify({
            score: 72,
            recommendation: "match",
            matched_skills: ["typescript"],
            missing_skills: ["kubernetes"],
            additional_skills: [],
            experience_years: 6,
            required_experience_years: 5,
            reasons: ["Solid TypeScript"],
            summary: "Good fit.",
          }) +
          "\n```",
      );
    const s = await api(hr)
      .op("screenResume", { body: { resume_text: strongResume, job_requirements: requirements } })
      .expect(200);
    expect(s.body.data).toMatchObject({
      score: 72,
      recommendation: "match",
      reasons: ["Solid TypeScript"],
      provider: { name: "openai_compatible" },
    });

    handler = () =>
      reply({
        skills: ["typescript"],
        questions: [{ question: "Explain generics.", category: "technical", skill: "TypeScript", what_to_look_for: "Variance" }],
      });
    const q = await api(hr)
      .op("generateInterviewQuestions", { body: { requirements, count: 1 } })
      .expect(200);
    expect(q.body.data.questions).toEqual([
      { question: "Explain generics.", category: "technical", skill: "typescript", what_to_look_for: "Variance" },
    ]);

    handler = () => reply({ subject: "Hello", content: "Dear Priya, ..." });
    const ct = await api(hr)
      .op("generateRecruitmentContent", { body: { type: "offer_email", candidate_name: "Priya" } })
      .expect(200);
    expect(ct.body.data).toMatchObject({ type: "offer_email", subject: "Hello", content: "Dear Priya, ..." });
  });

  it("turns timeouts, error statuses and unusable answers into a 503 that says why", async () => {
    const hr = hrWithProvider();
    const jd = { title: "Engineer", department: "Engineering", requirements: "TypeScript" };
    // a provider slower than a short timeout: the timeout's message
    handler = () => ({ delayMs: 5000, ...reply({}) });
    const slow = expectError(
      await api(hrWithProvider({ aiTimeoutMs: 500 })).op("generateJobDescription", { body: jd }),
      503,
      "unavailable",
    );
    expect(slow.error).toBe("AI provider unavailable: no answer within 0.5 s");
    handler = () => ({ status: 500, json: { error: { message: "boom" } } });
    expect(expectError(await api(hr).op("generateJobDescription", { body: jd }), 503, "unavailable").error).toBe(
      "AI provider unavailable: the provider answered HTTP 500",
    );
    handler = () => ({ status: 401, json: { error: { message: "bad key" } } });
    expect(expectError(await api(hr).op("generateRecruitmentContent", { body: { type: "job_post" } }), 503, "unavailable").error).toContain(
      "HTTP 401",
    );
    handler = () => ({ raw: "<html>gateway</html>" });
    expect(expectError(await api(hr).op("generateJobDescription", { body: jd }), 503, "unavailable").error).toContain("not JSON");
    handler = () => reply("Sure! Here is your job description: ...");
    expect(expectError(await api(hr).op("generateJobDescription", { body: jd }), 503, "unavailable").error).toContain(
      "not the JSON object",
    );
    handler = () => reply({ score: 150, recommendation: "match", reasons: [], summary: "x" });
    expect(
      expectError(await api(hr).op("screenResume", { body: { resume_text: "x", job_requirements: "y" } }), 503, "unavailable").error,
    ).toContain('"score"');
    handler = () => reply({ skills: [], questions: [{ question: "Q", category: "trivia", skill: null, what_to_look_for: "w" }] });
    expect(
      expectError(await api(hr).op("generateInterviewQuestions", { body: { requirements: "x" } }), 503, "unavailable").error,
    ).toContain("category");
    expect(
      expectError(
        await api(hrWithProvider({ aiBaseUrl: "http://127.0.0.1:1/v1" })).op("generateRecruitmentContent", { body: { type: "job_post" } }),
        503,
        "unavailable",
      ).error,
    ).toContain("could not be reached");
  });
});
