import type { Content, ContentInput } from "../provider.ts";
import { extractSkills, skillLabel } from "../skills.ts";
import { listText } from "../text.ts";

const _labels = (skills: string[]) => listText(skills.map(skillLabel));

// size: one text template per content type (a switch over the document's types)
export function content(input: ContentInput): Content {
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
