// The offline provider: deterministic, useful output from keyword extraction and skill matching
// (src/modules/recruitment/ai/text.ts). No network, no randomness: the same input always gives
// the same output.
import { EMPLOYMENT_LABELS } from "../common.ts";
import type {
  AiProvider,
  Content,
  ContentInput,
  JobDescription,
  JobDescriptionInput,
  Questions,
  QuestionsInput,
  Screening,
  ScreeningInput,
} from "./provider.ts";
import { nextTurn, yielder } from "../../../lib/yielding.ts";
import {
  canonicalSkill,
  capitalize,
  extractSkills,
  extractSkillsYielding,
  extractYears,
  isDuty,
  isNiceToHave,
  keywords,
  listText,
  mentions,
  sentences,
  skillKind,
  skillLabel,
  stableHash,
  type SkillKind,
  escapeRegExp,
} from "./text.ts";

const labels = (skills: string[]) => listText(skills.map(skillLabel));

// ───────────────────────────── job description ─────────────────────────────

const KIND_DUTIES: Partial<Record<SkillKind, (skills: string) => string>> = {
  language: (s) => `Write clean, tested and maintainable code in ${s}`,
  backend: (s) => `Design, build and operate services and APIs with ${s}`,
  frontend: (s) => `Build fast, accessible user interfaces with ${s}`,
  database: (s) => `Model data and keep queries fast and reliable in ${s}`,
  cloud: (s) => `Run and cost-optimise workloads on ${s}`,
  devops: (s) => `Automate builds, deployments and infrastructure with ${s}`,
  data: (s) => `Turn data into insight and models using ${s}`,
  mobile: (s) => `Ship and maintain mobile apps with ${s}`,
  testing: (s) => `Keep quality high with ${s}`,
  design: (s) => `Design user journeys and interfaces with ${s}`,
  business: (s) => `Own day-to-day ${s} work and its results`,
};

const DEPARTMENT_DUTIES: [RegExp, string[]][] = [
  [
    /engineer|tech|develop|product|it\b|software/i,
    [
      "Take part in code reviews, planning and on-call in rotation",
      "Work with product and design to turn requirements into working software",
    ],
  ],
  [
    /hr|human|people|talent/i,
    ["Partner with managers on hiring, onboarding and employee relations", "Keep people processes compliant and well documented"],
  ],
  [/financ|account/i, ["Keep books and reports accurate and on time", "Support audits, budgeting and month-end close"]],
  [/sales|business/i, ["Build and manage a healthy pipeline of opportunities", "Meet targets while keeping customers' trust"]],
  [/market/i, ["Plan and run campaigns and measure their results", "Keep the brand voice consistent across channels"]],
  [/operat|supply|logist/i, ["Keep operations running smoothly and measure what matters", "Improve processes and remove bottlenecks"]],
  [/support|service|success/i, ["Resolve customer issues quickly and with empathy", "Feed recurring issues back to the product team"]],
];

function departmentDuties(department: string): string[] {
  return (
    DEPARTMENT_DUTIES.find(([re]) => re.test(department))?.[1] ?? [
      "Collaborate closely with your team and stakeholders",
      "Continuously improve how the team works",
    ]
  );
}

function jobDescription(input: JobDescriptionInput): JobDescription {
  const title = input.title.trim();
  const department = input.department.trim();
  const parts = sentences(input.requirements);
  const nice = parts.filter(isNiceToHave);
  const must = parts.filter((s) => !isNiceToHave(s) && !isDuty(s));
  const duties = parts.filter((s) => !isNiceToHave(s) && isDuty(s));
  const skills = extractSkills(input.requirements);
  const niceSkills = new Set(nice.flatMap((s) => extractSkills(s)));
  const coreSkills = skills.filter((s) => !niceSkills.has(s));
  const years = extractYears(input.requirements, "min");

  const byKind = new Map<SkillKind, string[]>();
  for (const s of coreSkills) {
    const k = skillKind(s);
    if (k && k !== "soft") byKind.set(k, [...(byKind.get(k) ?? []), s]);
  }
  const responsibilities = [
    ...duties.map(capitalize),
    ...[...byKind.entries()].flatMap(([k, list]) => (KIND_DUTIES[k] ? [KIND_DUTIES[k]!(labels(list))] : [])),
    ...departmentDuties(department),
  ].slice(0, 8);

  const requirements = must.map(capitalize);
  if (years !== null && !must.some((s) => /\byears?\b|\byrs?\b/i.test(s))) requirements.unshift(`${years}+ years of relevant experience`);
  const kw = keywords(input.requirements, 10, skills);
  const lead = coreSkills.filter((s) => skillKind(s) !== "soft").slice(0, 3);
  const type = input.employment_type ? `${EMPLOYMENT_LABELS[input.employment_type] ?? input.employment_type} ` : "";
  const summary =
    `${input.company_name} is looking for a ${type}${title} to join ` +
    `the ${department} team${input.location ? ` in ${input.location.trim()}` : ""}.` +
    (lead.length ? ` You will work hands-on with ${labels(lead)}` : " You will play a key part in the team's work") +
    (years !== null ? ` and bring at least ${years} years of experience.` : ".");

  const section = (heading: string, items: string[]) =>
    items.length ? `## ${heading}\n\n${items.map((i) => `- ${i}`).join("\n")}\n\n` : "";
  const description =
    `# ${title}\n\n**Department:** ${department}` +
    `${input.location ? `  \n**Location:** ${input.location.trim()}` : ""}` +
    `${input.employment_type ? `  \n**Employment:** ${EMPLOYMENT_LABELS[input.employment_type]}` : ""}\n\n` +
    `## About the role\n\n${summary}\n\n` +
    section("What you will do", responsibilities) +
    section("What you bring", requirements) +
    section("Nice to have", nice.map(capitalize)) +
    (skills.length ? `## Skills\n\n${skills.join(", ")}\n` : "");
  return {
    title,
    department,
    summary,
    responsibilities,
    requirements,
    nice_to_have: nice.map(capitalize),
    skills,
    keywords: kw,
    experience_years: years,
    description: `${description.trim()}\n`,
  };
}

// ───────────────────────────── resume screening ─────────────────────────────

// A resume may be 100 000 characters and is scanned once per known skill alias (some 230 linear
// regular expressions), per required skill and per key term: tens of milliseconds in all, more
// on a busy machine. The screening gives the event loop a turn between its passes (nextTurn), so
// other requests are served in between and no request holds the loop for long
// (scripts/event-loop.ts measures it with the longest texts the document allows).
async function screenResume(input: ScreeningInput): Promise<Screening> {
  const resume = input.resume_text;
  // Skills of sentences marked "a plus" / "preferred" are a bonus, not a requirement.
  const parts = sentences(input.job_requirements);
  const preferredText = parts.filter(isNiceToHave).join("\n");
  const requiredText = parts.filter((p) => !isNiceToHave(p)).join("\n");
  const required = [...new Set([...input.required_skills.map(canonicalSkill), ...extractSkills(requiredText)])];
  const preferred = extractSkills(preferredText).filter((s) => !required.includes(s));
  await nextTurn();
  const matched: string[] = [];
  const tick = yielder();
  for (const s of required) {
    if (mentions(resume, s)) matched.push(s);
    await tick();
  }
  const missing = required.filter((s) => !matched.includes(s));
  const preferredFound = preferred.filter((s) => mentions(resume, s));
  await nextTurn();
  const additional = (await extractSkillsYielding(resume)).filter((s) => !required.includes(s) && !preferred.includes(s));
  const reqYears = input.min_experience_years ?? (input.job_requirements ? extractYears(input.job_requirements, "min") : null);
  const years = extractYears(resume, "max");
  await nextTurn();
  const jobTerms = keywords(input.job_requirements, 15, [...required, ...preferred]);
  const resumeLower = resume.toLowerCase();
  const termsFound = jobTerms.filter((t) => new RegExp(`(?<![a-z])${escapeRegExp(t)}`, "i").test(resumeLower));

  const reasons: string[] = [];
  let skillShare: number;
  if (required.length) {
    skillShare = matched.length / required.length;
    reasons.push(`Has ${matched.length} of ${required.length} required skills${matched.length ? `: ${matched.join(", ")}` : ""}.`);
    if (missing.length) reasons.push(`Missing: ${missing.join(", ")}.`);
  } else {
    skillShare = jobTerms.length ? termsFound.length / jobTerms.length : 0;
    reasons.push("No known skills were named in the requirements; matched on key terms instead.");
  }
  let expPoints: number;
  if (reqYears === null) {
    expPoints = 20;
    if (years !== null) reasons.push(`${years} years of experience (no minimum asked for).`);
  } else if (years === null) {
    expPoints = 10;
    reasons.push(`The resume states no years of experience; the role asks for ${reqYears}+.`);
  } else {
    expPoints = Math.min(1, years / reqYears) * 20;
    reasons.push(
      years >= reqYears
        ? `${years} years of experience meets the ${reqYears}+ asked for.`
        : `${years} years of experience is below the ${reqYears}+ asked for.`,
    );
  }
  const termShare = jobTerms.length ? termsFound.length / jobTerms.length : 1;
  if (jobTerms.length)
    reasons.push(
      `Mentions ${termsFound.length} of ${jobTerms.length} other key terms of the ` +
        `job${termsFound.length ? ` (${termsFound.slice(0, 6).join(", ")})` : ""}.`,
    );
  if (preferred.length) {
    const notFound = preferred.filter((p) => !preferredFound.includes(p));
    reasons.push(
      preferredFound.length
        ? `Nice-to-have skills found: ${preferredFound.join(", ")}` +
            `${preferredFound.length < preferred.length ? ` (not found: ${notFound.join(", ")})` : ""}.`
        : `None of the nice-to-have skills (${preferred.join(", ")}).`,
    );
  }
  if (additional.length) reasons.push(`Also brings: ${additional.slice(0, 8).join(", ")}.`);

  // Nice-to-have skills found make up for up to 5 points lost elsewhere.
  const bonus = preferred.length ? (preferredFound.length / preferred.length) * 5 : 0;
  const score = Math.max(0, Math.min(100, Math.round(skillShare * 70 + expPoints + termShare * 10 + bonus)));
  const recommendation = score >= 75 ? "strong_match" : score >= 55 ? "match" : score >= 35 ? "partial_match" : "weak_match";
  const verdict = { strong_match: "Strong match", match: "Match", partial_match: "Partial match", weak_match: "Weak match" }[
    recommendation
  ];
  const summary =
    `${verdict} (${score}/100): ${required.length ? `${matched.length}/${required.length} required skills` : "no listed skills"}` +
    `${missing.length ? `, missing ${listText(missing.slice(0, 3))}` : ""}` +
    `${years !== null ? `, ${years} years of experience` : ""}.`;
  return {
    score,
    recommendation,
    matched_skills: [...matched, ...preferredFound],
    missing_skills: missing,
    additional_skills: additional,
    experience_years: years,
    required_experience_years: reqYears,
    reasons,
    summary,
  };
}

// ───────────────────────────── interview questions ─────────────────────────────

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

function interviewQuestions(input: QuestionsInput): Questions {
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

// ───────────────────────────── content ─────────────────────────────

function content(input: ContentInput): Content {
  const friendly = input.tone === "friendly";
  const company = input.company_name;
  const job = input.job_title?.trim() || "the role";
  const name = input.candidate_name?.trim();
  const first = name?.split(/\s+/)[0];
  const hello = name ? (friendly ? `Hi ${first},` : `Dear ${name},`) : friendly ? "Hi there," : "Dear candidate,";
  const bye = friendly ? `Cheers,\nThe ${company} team` : `Kind regards,\n${company} Recruitment Team`;
  const details = input.details?.trim();
  const detailBlock = details ? `\n\n${details}` : "";
  const skills = details ? extractSkills(details) : [];
  switch (input.type) {
    case "job_post":
      return {
        type: input.type,
        subject: null,
        content:
          `${friendly ? "We're hiring!" : "Now hiring:"} ${job} at ${company}\n\n` +
          `${company} is looking for a ${job} to join the team.${detailBlock}` +
          `${skills.length ? `\n\nSkills we value: ${skills.join(", ")}.` : ""}\n\n` +
          (friendly
            ? "Sound like you? Apply today - we'd love to hear from you."
            : "Interested candidates are invited to apply with their resume."),
      };
    case "linkedin_post":
      return {
        type: input.type,
        subject: null,
        content:
          `${friendly ? "🚀 " : ""}We're hiring ` +
          `a ${job} at ${company}!${detailBlock}\n\n${skills.length ? `Looking for: ${skills.join(" · ")}\n\n` : ""}Know ` +
          `someone great? Tag them or share this post.\n\n#hiring #${job.replace(/[^A-Za-z0-9]/g, "")} #careers`,
      };
    case "interview_invitation":
      return {
        type: input.type,
        subject: `Interview invitation: ${job} at ${company}`,
        content:
          `${hello}\n\nThank you for applying for ${job} at ${company}. We were impressed by your ` +
          `profile and would like to invite you to an interview.${detailBlock}\n\nPlease reply ` +
          `with a few times that suit you, or let us know if you have any questions.\n\n${bye}`,
      };
    case "rejection_email":
      return {
        type: input.type,
        subject: `Your application for ${job} at ${company}`,
        content:
          `${hello}\n\nThank you for your interest in ${job} at ${company} and for the time you invested in the process. ` +
          `After careful consideration, we have decided to move forward with other candidates whose ` +
          `experience more closely matches the needs of this role.${detailBlock}\n\nWe would like to keep ` +
          `your details for future openings and encourage you to apply again.\n\n${bye}`,
      };
    case "offer_email":
      return {
        type: input.type,
        subject: `Offer of employment: ${job} at ${company}`,
        content:
          `${hello}\n\n` +
          (friendly
            ? `Great news - we would love you to join ${company} as ${job}!`
            : `We are pleased to offer you the position of ${job} at ${company}.`) +
          `${detailBlock}\n\nYou ` +
          `will receive your offer letter with a link to accept it shortly. Please do not hesitate to contact us with ` +
          `any questions.\n\n${bye}`,
      };
    case "follow_up_email":
      return {
        type: input.type,
        subject: `Following up: ${job} at ${company}`,
        content:
          `${hello}\n\nI wanted to follow up on your application for ${job} at ${company} and ` +
          `let you know where things ` +
          `stand.${detailBlock || "\n\nWe are still reviewing applications and expect to share an update soon."}\n\nThank ` +
          `you for your patience.\n\n${bye}`,
      };
    case "referral_request":
      return {
        type: input.type,
        subject: `Know someone for ${job}?`,
        content:
          `${friendly ? "Hi team," : "Dear colleagues,"}\n\nWe are hiring ` +
          `a ${job}.${detailBlock}${skills.length ? `\n\nWe are looking for: ${skills.join(", ")}.` : ""}\n\nIf ` +
          `you know someone who would be a great fit, please refer them to the recruitment team. ` +
          `Great people know great people!\n\n${bye}`,
      };
  }
}

export const offlineProvider: AiProvider = {
  info: { name: "offline", model: null },
  jobDescription: async (input) => jobDescription(input),
  screenResume: (input) => screenResume(input),
  interviewQuestions: async (input) => interviewQuestions(input),
  content: async (input) => content(input),
};
