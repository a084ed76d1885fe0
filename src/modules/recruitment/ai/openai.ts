// OpenAI-compatible provider: POST {AI_BASE_URL}/chat/completions with a JSON-only answer asked
// for. A timeout, a network error, an error status or an answer that is not the JSON asked for
// is a 503 `unavailable` whose message says which - never a 500, never a silent fallback.
import { AppError } from "../../../platform/errors.ts";
import { logger } from "../../../log.ts";
import type { AiProvider, Content, JobDescription, Questions, Screening } from "./provider.ts";
import { trimEndWhere } from "./text.ts";

export interface OpenAiOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  timeoutMs: number;
}

const unavailable = (why: string) => new AppError("unavailable", `AI provider unavailable: ${why}`, undefined, { "Retry-After": "30" });

/** The message without a Markdown code fence (models add one), by string operations: the old regular expression was O(n²). */
export function withoutFence(text: string): string {
  let s = text.trim();
  const open = /^```(?:json)?/.exec(s);
  if (open) s = s.slice(open[0].length).trimStart();
  if (s.endsWith("```")) s = s.slice(0, -3).trimEnd();
  return s;
}

async function chatJson(opts: OpenAiOptions, system: string, user: unknown): Promise<Record<string, unknown>> {
  const url = `${trimEndWhere(opts.baseUrl, (c) => c === "/")}/chat/completions`;
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(opts.apiKey ? { Authorization: `Bearer ${opts.apiKey}` } : {}) },
      body: JSON.stringify({
        model: opts.model,
        temperature: 0.2,
        response_format: { type: "json_object" },
        messages: [
          { role: "system", content: `${system}\nAnswer with one JSON object only, no prose, no Markdown.` },
          { role: "user", content: JSON.stringify(user) },
        ],
      }),
      signal: AbortSignal.timeout(opts.timeoutMs),
    });
  } catch (err) {
    const e = err as Error;
    if (e.name === "TimeoutError" || e.name === "AbortError")
      throw unavailable(`no answer within ${Math.round(opts.timeoutMs / 100) / 10} s`);
    logger.warn({ err: e.message }, "AI provider unreachable");
    throw unavailable("the provider could not be reached");
  }
  if (!res.ok) {
    const detail = (await res.text().catch(() => "")).slice(0, 300);
    logger.warn({ status: res.status, detail }, "AI provider error");
    throw unavailable(`the provider answered HTTP ${res.status}`);
  }
  let payload: { choices?: { message?: { content?: unknown } }[] } | null;
  try {
    payload = await res.json();
  } catch {
    throw unavailable("the provider's answer is not JSON");
  }
  const text = payload?.choices?.[0]?.message?.content;
  if (typeof text !== "string") throw unavailable("the provider's answer has no message content");
  try {
    const parsed = JSON.parse(withoutFence(text));
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
    return parsed;
  } catch {
    throw unavailable("the provider's message is not the JSON object asked for");
  }
}

// Shape checks: what the provider returns must fit the documented output (else 503).
const str = (o: Record<string, unknown>, k: string): string => {
  if (typeof o[k] !== "string" || !(o[k] as string).trim()) throw unavailable(`the provider's answer lacks "${k}"`);
  return (o[k] as string).trim();
};
const strs = (o: Record<string, unknown>, k: string): string[] => {
  const v = o[k] ?? [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) throw unavailable(`the provider's "${k}" is not a list of strings`);
  return (v as string[]).map((x) => x.trim()).filter(Boolean);
};
const num = (o: Record<string, unknown>, k: string): number | null => {
  const v = o[k];
  if (v === null || v === undefined) return null;
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0) throw unavailable(`the provider's "${k}" is not a number`);
  return v;
};

// size: one method per AI operation of the provider interface, each a prompt and the mapping of its answer
export function openAiCompatibleProvider(opts: OpenAiOptions): AiProvider {
  return {
    info: { name: "openai_compatible", model: opts.model },

    async jobDescription(input): Promise<JobDescription> {
      const o = await chatJson(
        opts,
        "You write job descriptions for an HR team. Return keys: title, department, summary (2-3 sentences), " +
          "responsibilities (list), requirements (list of must-haves), nice_to_have (list), skills (lower-case list), " +
          "keywords (list), experience_years (number or null), description (complete Markdown).",
        input,
      );
      return {
        title: typeof o.title === "string" && o.title.trim() ? o.title.trim() : input.title,
        department: typeof o.department === "string" && o.department.trim() ? o.department.trim() : input.department,
        summary: str(o, "summary"),
        responsibilities: strs(o, "responsibilities"),
        requirements: strs(o, "requirements"),
        nice_to_have: strs(o, "nice_to_have"),
        skills: strs(o, "skills").map((s) => s.toLowerCase()),
        keywords: strs(o, "keywords"),
        experience_years: num(o, "experience_years"),
        description: str(o, "description"),
      };
    },

    async screenResume(input): Promise<Screening> {
      const o = await chatJson(
        opts,
        "You screen resumes against job requirements for an HR team, fairly and without regard to protected " +
          "characteristics. Return keys: score (integer 0-100), recommendation (one of strong_match, match, partial_match, " +
          "weak_match), matched_skills, missing_skills, additional_skills (lower-case lists), experience_years (number " +
          "or null), required_experience_years (number or null), reasons (list of short findings), summary (one sentence).",
        input,
      );
      const score = num(o, "score");
      if (score === null || score > 100) throw unavailable(`the provider's "score" is not between 0 and 100`);
      const rec = o.recommendation;
      if (rec !== "strong_match" && rec !== "match" && rec !== "partial_match" && rec !== "weak_match")
        throw unavailable(`the provider's "recommendation" is not one of the documented values`);
      return {
        score: Math.round(score),
        recommendation: rec,
        matched_skills: strs(o, "matched_skills"),
        missing_skills: strs(o, "missing_skills"),
        additional_skills: strs(o, "additional_skills"),
        experience_years: num(o, "experience_years"),
        required_experience_years: num(o, "required_experience_years") ?? input.min_experience_years,
        reasons: strs(o, "reasons"),
        summary: str(o, "summary"),
      };
    },

    async interviewQuestions(input): Promise<Questions> {
      const o = await chatJson(
        opts,
        `You prepare structured interview questions. Return keys: skills (list), ` +
          `questions (list of objects with question, category (technical, behavioral, ` +
          `situational or role), skill (string or null), what_to_look_for). Give exactly ${input.count ?? 8} questions.`,
        input,
      );
      if (!Array.isArray(o.questions)) throw unavailable(`the provider's "questions" is not a list`);
      const questions = (o.questions as Record<string, unknown>[]).slice(0, input.count ?? 8).map((q) => {
        if (!q || typeof q !== "object") throw unavailable("a question is not an object");
        const category = q.category;
        if (category !== "technical" && category !== "behavioral" && category !== "situational" && category !== "role")
          throw unavailable(`a question's "category" is not one of the documented values`);
        return {
          question: str(q, "question"),
          category,
          skill: typeof q.skill === "string" && q.skill.trim() ? q.skill.trim().toLowerCase() : null,
          what_to_look_for: str(q, "what_to_look_for"),
        } as Questions["questions"][number];
      });
      return { job_title: input.job_title ?? null, skills: strs(o, "skills"), questions };
    },

    async content(input): Promise<Content> {
      const email = !["job_post", "linkedin_post"].includes(input.type);
      const o = await chatJson(
        opts,
        `You write recruitment content of the requested type and tone. ` +
          `Return keys: ${email ? "subject (string), " : ""}content (plain text).`,
        input,
      );
      return { type: input.type, subject: email ? str(o, "subject") : null, content: str(o, "content") };
    },
  };
}
