// The offline provider: deterministic, useful output from keyword extraction and skill matching
// (src/modules/recruitment/ai/text.ts). No network, no randomness: the same input always gives
// the same output.
import type { AiProvider } from "./provider.ts";
import { content } from "./offline/content.ts";
import { jobDescription } from "./offline/job-description.ts";
import { interviewQuestions } from "./offline/questions.ts";
import { screenResume } from "./offline/screening.ts";

export const offlineProvider: AiProvider = {
  info: { name: "offline", model: null },
  jobDescription: async (input) => jobDescription(input),
  screenResume: (input) => screenResume(input),
  interviewQuestions: async (input) => interviewQuestions(input),
  content: async (input) => content(input),
};
