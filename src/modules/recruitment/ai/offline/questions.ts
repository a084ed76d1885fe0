import type { Questions, QuestionsInput } from "../provider.ts";
import { canonicalSkill, extractSkills, skillKind, skillLabel } from "../skills.ts";
import { listText, stableHash } from "../text.ts";

const _labels = (skills: string[]) => listText(skills.map(skillLabel));

type Q = Questions["questions"][number];

const TECH: Record<string, [string, string][]> = {
  language: [
    [
      "Which {skill} features do you rely on most for writing maintainable code, and which do you avoid? Why?",
      "Idiomatic use, awareness of pitfalls, reasons grounded in real code.",
    ],
    [
      "Walk me through a bug in {skill} code that took you long to find. How did you find and fix it?",
      "Systematic debugging, root-cause thinking, what they changed to prevent it.",
    ],
  ],
  backend: [
    [
      "How would you design an API with {skill} that must stay fast under ten times today's load?",
      "Caching, pagination, idempotency, back-pressure, measuring before optimising.",
    ],
    [
      "Describe how you structure error handling and logging in a {skill} service.",
      "Consistent error model, no leaked internals, correlation ids, actionable logs.",
    ],
  ],
  frontend: [
    [
      "How do you keep a large {skill} application fast and easy to change?",
      "Component boundaries, state management, measuring performance, accessibility.",
    ],
    ["Tell me how you would test a complex form built with {skill}.", "Unit vs. integration tests, user-centred testing, edge cases."],
  ],
  database: [
    [
      "A query in {skill} became slow after the table grew. How do you investigate and fix it?",
      "Reading query plans, indexes, avoiding N+1, measuring the fix.",
    ],
    [
      "How do you change a {skill} schema without downtime?",
      "Backwards-compatible migrations, expand/contract, backfills, locking awareness.",
    ],
  ],
  cloud: [
    [
      "How would you design a fault-tolerant, cost-aware deployment on {skill}?",
      "Redundancy across zones, autoscaling, least privilege, cost controls.",
    ],
  ],
  devops: [
    [
      "Describe a delivery pipeline you built or improved with {skill}. What did it change?",
      "Automation, fast feedback, safe rollbacks, measurable improvement.",
    ],
    [
      "A release with {skill} failed in production. Walk me through your response.",
      "Calm incident handling, rollback, communication, blameless follow-up.",
    ],
  ],
  data: [
    [
      "Tell me about an analysis or model you built with {skill}. How did you validate the result?",
      "Sound method, validation against a baseline, communicating uncertainty.",
    ],
  ],
  mobile: [["How do you handle offline use and slow networks in a {skill} app?", "Caching, sync and conflict handling, user feedback."]],
  testing: [["How do you decide what to cover with {skill}, and what not?", "Risk-based coverage, test pyramid, flakiness control."]],
  design: [
    [
      "Show how you took a feature from research to final design in {skill}.",
      "User research, iteration, collaboration with engineers, measuring outcomes.",
    ],
  ],
  business: [
    [
      "Describe your process for {skill} from start to finish. Which numbers tell you it is going well?",
      "Clear process, relevant metrics, ownership of results.",
    ],
    [
      "Tell me about a difficult situation in {skill} and how you resolved it.",
      "Judgement, compliance where relevant, stakeholder handling.",
    ],
  ],
  soft: [
    [
      "Tell me about a situation that tested your {skill}. What did you do, and what was the outcome?",
      "A concrete situation, their own actions, a result and what they learned (STAR).",
    ],
  ],
};
const SOFT: Record<string, [string, string]> = {
  communication: [
    "Tell me about a time you had to explain something complex to someone without your background. How did you make sure it landed?",
    "Adapting to the audience, checking understanding, clarity.",
  ],
  leadership: [
    "Describe a time you led a group through a difficult change or deadline. What did you do to keep them together?",
    "Setting direction, listening, taking responsibility for the outcome.",
  ],
  mentoring: [
    "Tell me about someone you mentored. How did you help them grow, and how did you know it worked?",
    "Patience, tailored guidance, measurable growth of the mentee.",
  ],
  teamwork: [
    "Tell me about a team success you were part of. What was your part, and how did you help others do theirs?",
    "Collaboration, credit-sharing, reliability.",
  ],
  "problem solving": [
    "Walk me through the hardest problem you solved recently. How did you break it down?",
    "Structured thinking, hypotheses, verifying the solution.",
  ],
  "stakeholder management": [
    "Tell me about a stakeholder who disagreed with your plan. How did you bring them along?",
    "Understanding interests, transparent trade-offs, trust.",
  ],
  negotiation: [
    "Describe a negotiation where you had to give something up. How did you decide what?",
    "Preparation, knowing priorities, win-win outcomes.",
  ],
  "time management": [
    "Tell me about a week with more work than time. How did you decide what to drop?",
    "Prioritising by impact, communicating early, follow-through.",
  ],
};
const GENERIC_TECH: [string, string][] = [
  [
    "Tell me about a project where you used {skill}. What trade-offs did you make?",
    "Depth of hands-on experience and clear reasoning about trade-offs.",
  ],
];

const BEHAVIORAL: [string, string][] = [
  [
    "Tell me about a time you disagreed with a colleague on an important decision. What happened?",
    "Respectful disagreement, listening, commitment to the outcome.",
  ],
  ["Describe the achievement in your last role you are proudest of.", "Ownership, measurable impact, their specific contribution."],
  ["Tell me about a mistake you made at work and what you changed afterwards.", "Honesty, accountability, learning."],
  ["How do you keep stakeholders informed when a deadline is at risk?", "Early, clear communication and options rather than surprises."],
  ["Describe a time you had to learn something new quickly to deliver.", "Learning strategy, resourcefulness, result."],
];
const SITUATIONAL: [string, string][] = [
  [
    "You join the team and find an important process undocumented and fragile. What do you do in your first month?",
    "Prioritising, learning before changing, incremental improvement.",
  ],
  [
    "Two senior stakeholders ask for conflicting priorities this week. How do you handle it?",
    "Clarifying impact, transparent trade-offs, escalation when needed.",
  ],
  [
    "You are given a task with unclear requirements and a tight deadline. How do you proceed?",
    "Asking the right questions, scoping, delivering iteratively.",
  ],
  [
    "A teammate is repeatedly missing commitments that affect your work. What do you do?",
    "Direct, empathetic conversation; involving the manager appropriately.",
  ],
];
const SENIOR: [string, string][] = [
  ["How have you raised the bar for a team - in quality, process or skills?", "Mentoring, setting standards, multiplying others' impact."],
  [
    "Describe a technical or business decision you made that had long-term consequences. Would you decide the same today?",
    "Strategic thinking, reflection, accountability.",
  ],
];
const JUNIOR: [string, string][] = [
  ["What have you built or studied recently that you are excited about?", "Curiosity, fundamentals, ability to explain their work."],
];

// size: the question sets (technical, behavioural, role) built from the skills in turn, then the selection
export function interviewQuestions(input: QuestionsInput): Questions {
  const count = input.count ?? 8;
  const focus = input.focus ?? "mixed";
  const seniority = input.seniority ?? "mid";
  const skills = [...new Set([...(input.skills ?? []).map(canonicalSkill), ...extractSkills(input.requirements)])];
  const hardSkills = skills.filter((s) => skillKind(s) !== "soft");
  const softSkills = skills.filter((s) => skillKind(s) === "soft");
  const seed = stableHash(`${input.job_title ?? ""}|${input.requirements}`);

  const technical: Q[] = [];
  for (const [round, list] of [
    [0, hardSkills],
    [1, hardSkills],
  ] as const)
    for (const skill of list) {
      const bank = TECH[skillKind(skill) ?? ""] ?? GENERIC_TECH;
      const pick = bank[(stableHash(skill) + round) % bank.length];
      if (round === 1 && bank.length < 2) continue;
      technical.push({ question: pick[0].replace("{skill}", skillLabel(skill)), category: "technical", skill, what_to_look_for: pick[1] });
    }
  const behavioral: Q[] = [
    ...softSkills.map((skill) => {
      const [q, w] = SOFT[skill] ?? [TECH.soft[0][0].replace("{skill}", skill), TECH.soft[0][1]];
      return { question: q, category: "behavioral" as const, skill, what_to_look_for: w };
    }),
    ...(seniority === "senior" ? SENIOR : seniority === "junior" ? JUNIOR : []).map(([q, w]) => ({
      question: q,
      category: "role" as const,
      skill: null,
      what_to_look_for: w,
    })),
    ...rotate(BEHAVIORAL, seed).map(([q, w]) => ({ question: q, category: "behavioral" as const, skill: null, what_to_look_for: w })),
  ];
  const situational: Q[] = rotate(SITUATIONAL, seed).map(([q, w]) => ({
    question: q,
    category: "situational" as const,
    skill: null,
    what_to_look_for: w,
  }));

  let questions: Q[];
  if (focus === "technical")
    questions = technical.length
      ? technical
      : GENERIC_TECH.map(([q, w]) => ({
          question: q.replace("{skill}", input.job_title ?? "your main skill"),
          category: "technical" as const,
          skill: null,
          what_to_look_for: w,
        }));
  else if (focus === "behavioral") questions = behavioral;
  else if (focus === "situational") questions = situational;
  else {
    // Mixed: about 60 % on the skills (first round of each skill first), the rest behavioural and situational.
    const nTech = Math.min(technical.length, Math.max(1, Math.round(count * 0.6)));
    const firstRound = technical.filter((_, i) => i < hardSkills.length);
    const tech = [...firstRound, ...technical.slice(hardSkills.length)].slice(0, nTech);
    const rest = interleave(behavioral, situational);
    questions = [...tech, ...rest];
  }
  const out = questions.slice(0, count);
  return {
    job_title: input.job_title?.trim() ?? null,
    skills: [...new Set(out.map((q) => q.skill).filter((s): s is string => Boolean(s)))],
    questions: out,
  };
}

function rotate<T>(list: T[], seed: number): T[] {
  const k = seed % list.length;
  return [...list.slice(k), ...list.slice(0, k)];
}
function interleave<T>(a: T[], b: T[]): T[] {
  const out: T[] = [];
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (i < a.length) out.push(a[i]);
    if (i < b.length) out.push(b[i]);
  }
  return out;
}
