// The AI helpers behind one interface: the offline provider (deterministic keyword extraction
// and skill matching, always available) and an OpenAI-compatible chat-completions provider used
// when AI_BASE_URL is configured.
import { config } from "../../../config.ts";
import type { components } from "../../../../generated/api-types.ts";
import { offlineProvider } from "./offline.ts";
import { openAiCompatibleProvider } from "./openai.ts";

type S = components["schemas"];
export type ProviderInfo = S["AiProvider"];
export type JobDescriptionInput = S["AiJobDescriptionRequest"] & { company_name: string };
export type JobDescription = Omit<S["AiJobDescription"], "provider">;
/** What a screening works on, once candidate and posting references are resolved. */
export interface ScreeningInput {
  resume_text: string;
  job_requirements: string;
  required_skills: string[];
  min_experience_years: number | null;
}
export type Screening = Omit<S["AiResumeScreening"], "provider" | "candidate_id">;
export type QuestionsInput = S["AiInterviewQuestionsRequest"];
export type Questions = Omit<S["AiInterviewQuestions"], "provider">;
export type ContentInput = S["AiContentRequest"] & { company_name: string };
export type Content = Omit<S["AiContent"], "provider">;

export interface AiProvider {
  readonly info: ProviderInfo;
  jobDescription(input: JobDescriptionInput): Promise<JobDescription>;
  screenResume(input: ScreeningInput): Promise<Screening>;
  interviewQuestions(input: QuestionsInput): Promise<Questions>;
  content(input: ContentInput): Promise<Content>;
}

/** The configured provider: OpenAI-compatible when AI_BASE_URL is set, offline otherwise. */
export function aiProvider(): AiProvider {
  const { aiBaseUrl, aiApiKey, aiModel, aiTimeoutMs } = config();
  if (aiBaseUrl) return openAiCompatibleProvider({ baseUrl: aiBaseUrl, apiKey: aiApiKey, model: aiModel, timeoutMs: aiTimeoutMs });
  return offlineProvider;
}
