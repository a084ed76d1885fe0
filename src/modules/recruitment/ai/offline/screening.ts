import type { Screening, ScreeningInput } from "../provider.ts";
import { nextTurn, yielder } from "../../../../lib/yielding.ts";
import { canonicalSkill, extractSkills, extractSkillsYielding, mentions, skillLabel, escapeRegExp } from "../skills.ts";
import { extractYears, isNiceToHave, keywords, listText, sentences } from "../text.ts";

const _labels = (skills: string[]) => listText(skills.map(skillLabel));

// A resume may be 100 000 characters and is scanned once per known skill alias (some 230 linear
// regular expressions), per required skill and per key term: tens of milliseconds in all, more
// on a busy machine. The screening gives the event loop a turn between its passes (nextTurn), so
// other requests are served in between and no request holds the loop for long
// (scripts/measure/event-loop.ts measures it with the longest texts the document allows).
// size: the screening's passes in order with a turn of the event loop between them (see the comment above)
export async function screenResume(input: ScreeningInput): Promise<Screening> {
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
