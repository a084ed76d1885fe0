// The AI helpers' use cases: resolve what the request refers to (candidate, posting, the
// company's name), spend one call of the caller's and the company's hourly budgets, ask the
// configured provider (ai/provider.ts), and keep a screening score on the candidate it was made for.
import { config } from "../../config.ts";
import { assertConsent } from "./consents.ts";
import { audit } from "../../platform/audit.ts";
import { HOUR_S, useOrRefuse } from "../../platform/limits.ts";
import { db, tenantTx, byId } from "../../db/tenancy.ts";
import { invalidField } from "../../platform/errors.ts";
import type { AuthContext, RequestBody } from "../../platform/use-case.ts";
import { aiProvider } from "./ai/provider.ts";
import { candidateScope } from "./candidates.ts";
import { companyOf } from "./common.ts";
import { lockCandidate } from "./queries.ts";
import { postingScope } from "./postings.ts";
import * as clock from "../../lib/clock.ts";

/**
 * One call of the AI helpers, counted against the caller's budget (AI_CALLS_PER_USER_PER_HOUR, the
 * same whichever company they act for) and the company's (AI_CALLS_PER_TENANT_PER_HOUR); past
 * either, a 429 `rate_limited` with Retry-After and nothing counted. Spent just before the
 * provider is asked: a request refused for its input costs nothing.
 */
async function spendAiCall(auth: AuthContext): Promise<void> {
  const { aiCallsPerUserPerHour, aiCallsPerTenantPerHour } = config();
  const words = { what: "AI helper", windowSeconds: HOUR_S };
  await useOrRefuse([
    { key: `ai:user:${auth.userId}`, policy: "ai-user", max: aiCallsPerUserPerHour, per: "calls per user per hour", ...words },
    { key: `ai:tenant:${auth.tenantId}`, policy: "ai-tenant", max: aiCallsPerTenantPerHour, per: "calls per company per hour", ...words },
  ]);
}

export async function draftJobDescription(auth: AuthContext, body: RequestBody<"generateJobDescription">) {
  const provider = aiProvider();
  const company_name = body.company_name?.trim() || (await companyOf()).name;
  await spendAiCall(auth);
  return { ...(await provider.jobDescription({ ...body, company_name })), provider: provider.info };
}

export async function scoreResume(auth: AuthContext, body: RequestBody<"screenResume">) {
  const candidate = body.candidate_id
    ? await db.candidate.findFirst({ where: { id: body.candidate_id, ...(await candidateScope(auth)) }, include: { posting: true } })
    : null;
  if (body.candidate_id && !candidate) throw invalidField("body.candidate_id", "is not a candidate of this company you can see");
  const posting = body.posting_id
    ? await db.jobPosting.findFirst({ where: { id: body.posting_id, ...(await postingScope(auth)) } })
    : (candidate?.posting ?? null);
  if (body.posting_id && !posting) throw invalidField("body.posting_id", "is not a job posting of this company you can see");
  const resume_text = body.resume_text ?? candidate?.resume_text;
  if (!resume_text?.trim())
    throw invalidField(
      "body.resume_text",
      candidate ? "is required: the candidate has no stored resume text" : "is required without candidate_id",
    );
  const explicit = body.job_requirements !== undefined || body.required_skills !== undefined;
  const job_requirements = explicit
    ? (body.job_requirements ?? "")
    : posting
      ? [posting.title, posting.requirements, posting.description].filter(Boolean).join("\n")
      : "";
  const required_skills = explicit ? (body.required_skills ?? []) : (posting?.skills ?? []);
  if (!job_requirements.trim() && !required_skills.length)
    throw invalidField(
      "body.job_requirements",
      "is required (or required_skills, posting_id, or a candidate_id whose posting has requirements)",
    );

  if (candidate) await assertConsent(candidate.id, "ai_screening");
  const provider = aiProvider();
  await spendAiCall(auth);
  const result = await provider.screenResume({
    resume_text,
    job_requirements,
    required_skills,
    min_experience_years: body.min_experience_years ?? null,
  });
  if (candidate) {
    await tenantTx(async (tx) => {
      if (!(await lockCandidate(tx, candidate.id))) return;
      await tx.candidate.update({ where: byId(candidate.id), data: { screening_score: result.score, screened_at: clock.now() } });
      await audit(
        {
          action: "recruitment.candidate_screened",
          entity_type: "candidate",
          entity_id: candidate.id,
          changes: {
            screening_score: { from: candidate.screening_score, to: result.score },
            recommendation: result.recommendation,
            provider: provider.info.name,
          },
        },
        tx,
      );
    });
  }
  return { ...result, candidate_id: candidate?.id ?? null, provider: provider.info };
}

export async function draftInterviewQuestions(auth: AuthContext, body: RequestBody<"generateInterviewQuestions">) {
  const provider = aiProvider();
  await spendAiCall(auth);
  return { ...(await provider.interviewQuestions(body)), provider: provider.info };
}

export async function draftContent(auth: AuthContext, body: RequestBody<"generateRecruitmentContent">) {
  const provider = aiProvider();
  const company_name = body.company_name?.trim() || (await companyOf()).name;
  await spendAiCall(auth);
  return { ...(await provider.content({ ...body, company_name })), provider: provider.info };
}
