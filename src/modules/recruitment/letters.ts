// Letter templates with merge fields (`{{candidate_name}}` …): the offer and appointment letters
// are rendered from built-in templates, and any template can be previewed as a PDF.
import type { Candidate, JobOffer } from "../../../generated/prisma/client.ts";
import { db } from "../../db/tenancy.ts";
import { badRequest, invalidField } from "../../platform/errors.ts";
import type { RequestBody } from "../../platform/use-case.ts";
import { toDateString } from "../../lib/dates.ts";
import { companyOf, companyToday, EMPLOYMENT_LABELS, formatMoney, fullName, type Company } from "./common.ts";
import { longDate, renderLetterPdf } from "./pdf.ts";
import { amountInWords } from "../../lib/amount-words.ts";

export const MERGE_FIELDS = [
  "candidate_name",
  "candidate_first_name",
  "candidate_email",
  "job_title",
  "department",
  "employment_type",
  "salary",
  "salary_in_words",
  "currency",
  "joining_date",
  "offer_expiry_date",
  "company_name",
  "today",
] as const;
export type MergeField = (typeof MERGE_FIELDS)[number];
export type MergeValues = Partial<Record<MergeField, string>>;

const SAMPLE: Record<MergeField, string> = {
  candidate_name: "Priya Sharma",
  candidate_first_name: "Priya",
  candidate_email: "priya.sharma@example.com",
  job_title: "Senior Backend Engineer",
  department: "Engineering",
  employment_type: "Full-time",
  salary: "24,00,000.00",
  salary_in_words: "Rupees Twenty-Four Lakh Only",
  currency: "INR",
  joining_date: "2 March 2026",
  offer_expiry_date: "13 February 2026",
  company_name: "Your Company",
  today: "1 January 2026",
};

// `{{ name }}`, trimmed in code: `\{\{\s*([^{}]*?)\s*\}\}` was O(n²) at every unclosed `{{` (a
// 20 000-character template froze the process); `[^{}]*` is linear.
const FIELD_RE = /\{\{([^{}]*)\}\}/g;

/** Field names used by a template that are not merge fields (in order of appearance, once each). */
export function unknownFields(template: string): string[] {
  const out: string[] = [];
  for (const m of template.matchAll(FIELD_RE)) {
    const name = m[1].trim();
    if (!(MERGE_FIELDS as readonly string[]).includes(name) && !out.includes(name)) out.push(name);
  }
  return out;
}

export function fillTemplate(template: string, values: Record<MergeField, string>): string {
  return template.replace(FIELD_RE, (_, name: string) => values[name.trim() as MergeField] ?? "");
}

export const OFFER_TEMPLATE = `Dear {{candidate_name}},

We are delighted to offer you the position of {{job_title}} in our {{department}} team at {{company_name}}.

- Employment: {{employment_type}}
- Annual compensation (cost to company): {{currency}} {{salary}} ({{salary_in_words}})
- Joining date: {{joining_date}}

This offer is valid until {{offer_expiry_date}}. Please accept or decline it through the link in the email we sent you.

We look forward to welcoming you to {{company_name}}.

Yours sincerely,`;

export const APPOINTMENT_TEMPLATE =
  `Dear {{candidate_name}},

Further to your acceptance of our offer, we are pleased to appoint you as {{job_title}} ` +
  `in the {{department}} department of {{company_name}}, with effect from {{joining_date}}.

- Employment: {{employment_type}}
- Annual compensation (cost to company): {{currency}} {{salary}} ({{salary_in_words}})

Your appointment is subject to the verification of your documents. Please upload your identity proof, address proof, ` +
  `education and experience certificates through the link in the email we sent you before your joining date.

Welcome to {{company_name}}.

Yours sincerely,`;

export function offerValues(
  o: JobOffer,
  c: Pick<Candidate, "first_name" | "last_name" | "email">,
  company: Company,
  today: string,
): Record<MergeField, string> {
  return {
    candidate_name: fullName(c),
    candidate_first_name: c.first_name,
    candidate_email: c.email,
    job_title: o.job_title,
    department: o.department,
    employment_type: EMPLOYMENT_LABELS[o.employment_type] ?? o.employment_type,
    salary: formatMoney(o.salary.toString(), o.currency),
    salary_in_words: amountInWords(o.salary.toString(), o.currency),
    currency: o.currency,
    // dates in a letter's words, as its heading writes today's ("2 March 2026")
    joining_date: longDate(toDateString(o.joining_date)),
    offer_expiry_date: longDate(toDateString(o.expires_on)),
    company_name: company.name,
    today: longDate(today),
  };
}

/** The offer or appointment letter of an offer as a PDF. */
export async function offerLetterPdf(
  kind: "offer" | "appointment",
  o: JobOffer,
  c: Pick<Candidate, "first_name" | "last_name" | "email">,
  company: Company,
  today: string,
  terms: string | null,
) {
  const values = offerValues(o, c, company, today);
  let body = fillTemplate(kind === "offer" ? OFFER_TEMPLATE : APPOINTMENT_TEMPLATE, values);
  if (terms) body = body.replace(/\n\nYours sincerely,/, `\n\nFurther terms:\n${terms}\n\nYours sincerely,`);
  const title = kind === "offer" ? `Offer letter - ${values.candidate_name}` : `Appointment letter - ${values.candidate_name}`;
  return renderLetterPdf({
    company: company.name,
    address: company.address,
    title,
    subject: `${values.candidate_name}, ${o.job_title} (${o.offer_number})`,
    date: today,
    reference: o.offer_number,
    recipient: [values.candidate_name, c.email],
    body,
    signatory: company.name,
    acceptance: kind === "offer" ? values.candidate_name : undefined,
    footer: `${o.offer_number} - ${company.name} - ${kind === "offer" ? "Offer letter" : "Appointment letter"}`,
  });
}

export async function previewTemplatePdf(body: RequestBody<"previewDocumentTemplatePdf">): Promise<Buffer> {
  const unknown = unknownFields(body.template);
  if (unknown.length)
    throw badRequest(
      `Unknown merge ` +
        `field${unknown.length > 1 ? "s" : ""}: ${unknown.map((u) => `{{${u}}}`).join(", ")} (known: ${MERGE_FIELDS.join(", ")})`,
      unknown.map((u) => ({ path: "body.template", message: `unknown merge field {{${u}}}` })),
    );
  const company = await companyOf();
  const today = await companyToday();
  let base: Record<MergeField, string> = { ...SAMPLE, company_name: company.name, today: longDate(today), currency: company.currency };
  if (company.currency !== SAMPLE.currency)
    base = { ...base, salary: formatMoney("2400000", company.currency), salary_in_words: amountInWords("2400000", company.currency) };
  if (body.offer_id) {
    const o = await db.jobOffer.findFirst({
      where: { id: body.offer_id, deleted_at: null },
      include: { candidate: { select: { first_name: true, last_name: true, email: true } } },
    });
    if (!o) throw invalidField("body.offer_id", "is not an offer of this company");
    base = offerValues(o, o.candidate, company, today);
  }
  const values = { ...base, ...(body.values ?? {}) } as Record<MergeField, string>;
  // a salary given without its words: the words of that salary (when it is a number), not the sample's
  const given = body.values?.salary?.replace(/,/g, "").trim();
  if (given !== undefined && body.values?.salary_in_words === undefined)
    values.salary_in_words = /^\d{1,15}(\.\d{1,2})?$/.test(given) ? amountInWords(given, values.currency) : "";
  const title = body.title?.trim() || "Document preview";
  return renderLetterPdf({
    company: values.company_name,
    address: company.address,
    title,
    subject: values.candidate_name,
    date: values.today,
    body: fillTemplate(body.template, values),
    footer: "Preview",
  });
}
