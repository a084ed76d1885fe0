// The offline provider's job descriptions: duties by the skills' kinds and the department.
import { EMPLOYMENT_LABELS } from "../../common.ts";
import type { JobDescription, JobDescriptionInput } from "../provider.ts";
import { extractSkills, skillKind, skillLabel, type SkillKind } from "../skills.ts";
import { capitalize, extractYears, isDuty, isNiceToHave, keywords, listText, sentences } from "../text.ts";

const labels = (skills: string[]) => listText(skills.map(skillLabel));

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

export function jobDescription(input: JobDescriptionInput): JobDescription {
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
