// What a candidate's mailed links open in a browser: the offer or appointment as an accessible HTML page,
// from the same data as the JSON operations (public.ts). No inline script: /assets/public-link.js wires the
// buttons and fills in the privacy notice (recruitment does not import the privacy area). All text escaped.
import { esc, page as layout } from "../../platform/html-page.ts";
import { formatMoney } from "../../lib/money.ts";
import { publicAppointment, publicOffer } from "./public.ts";

const EMPLOYMENT: Record<string, string> = {
  full_time: "Full time",
  part_time: "Part time",
  contract: "Contract",
  fixed_term: "Fixed term",
  intern: "Internship",
};
const DOCUMENTS: Record<string, string> = {
  id_proof: "Identity proof",
  address_proof: "Address proof",
  education: "Education certificates",
  experience: "Experience certificates",
};
const STATUS: Record<string, string> = {
  sent: "Awaiting your answer",
  accepted: "Accepted",
  declined: "Declined",
  expired: "Expired",
  withdrawn: "Withdrawn",
  draft: "Draft",
};

/** A long date in words (`14 January 2027`): a page for people, not machines. */
function longDate(iso: string): string {
  const [y, m, d] = iso.slice(0, 10).split("-").map(Number);
  const month = new Date(Date.UTC(y, m - 1, d)).toLocaleString("en-GB", { month: "long", timeZone: "UTC" });
  return `${d} ${month} ${y}`;
}

/** The offer page of a mailed offer link. */
export async function publicOfferPage(token: string): Promise<string> {
  const o = await publicOffer(token);
  const base = `/api/public/offers/${encodeURIComponent(token)}`;
  const actions = o.can_respond
    ? `<section aria-labelledby="answer">
<h2 id="answer">Your answer</h2>
<p>Please answer by <strong>${longDate(o.expires_on)}</strong>.</p>
<div class="actions">
<button type="button" class="primary" data-action="${base}/accept"
 data-done="You accepted the offer. Welcome aboard! The company will send your appointment letter.">Accept the offer</button>
<button type="button" class="secondary" data-action="${base}/decline" data-done="You declined the offer. Thank you for letting us know."
 data-confirm="Decline this offer? This cannot be undone.">Decline</button>
</div>
<noscript><p>Accepting or declining needs JavaScript in this browser; or reply to the company's mail.</p></noscript>
</section>`
    : `<p>This offer was ${esc((STATUS[o.status] ?? o.status).toLowerCase())}` +
      `${o.responded_at ? ` on ${longDate(o.responded_at)}` : ""}.</p>`;
  return layout(
    `Offer from ${o.company_name}: ${o.job_title}`,
    `<header>
<p>${esc(o.company_name)} · Offer ${esc(o.offer_number)}</p>
<h1>Your offer: ${esc(o.job_title)}</h1>
<p>Dear ${esc(o.candidate_name)}, we are delighted to offer you this position.</p>
</header>
<section aria-labelledby="details">
<h2 id="details">The offer</h2>
<dl>
<dt>Position</dt><dd>${esc(o.job_title)}</dd>
<dt>Team</dt><dd>${esc(o.department)}</dd>
<dt>Employment</dt><dd>${esc(EMPLOYMENT[o.employment_type] ?? o.employment_type)}</dd>
<dt>Annual salary</dt><dd>${esc(o.currency)} ${esc(formatMoney(o.salary, o.currency))}</dd>
<dt>Joining date</dt><dd>${longDate(o.joining_date)}</dd>
<dt>Answer by</dt><dd>${longDate(o.expires_on)}</dd>
<dt>Status</dt><dd>${esc(STATUS[o.status] ?? o.status)}</dd>
</dl>
${o.terms ? `<h3>Terms</h3>\n<p class="terms">${esc(o.terms)}</p>` : ""}
<p><a class="button secondary" href="${base}/pdf">Download the offer letter (PDF)</a></p>
</section>
${actions}
<p role="status" aria-live="polite"></p>
<section id="privacy-notice" aria-labelledby="privacy-notice-title"
 data-notice="/api/public/privacy-notice?offer_token=${encodeURIComponent(token)}">
<h2 id="privacy-notice-title">How ${esc(o.company_name)} handles your personal data</h2>
<p class="terms" data-notice-text>The privacy notice needs JavaScript in this browser; or ask the company for it.</p>
<ul data-notice-purposes></ul>
</section>`,
  );
}

/** The appointment page of a mailed appointment link. */
export async function publicAppointmentPage(token: string): Promise<string> {
  const a = await publicAppointment(token);
  const base = `/api/public/appointment/${encodeURIComponent(token)}`;
  const uploaded = a.documents.length
    ? `<ul>${a.documents.map((d) => `<li>${esc(DOCUMENTS[d.document_type] ?? d.document_type)}: ${esc(d.title)}</li>`).join("")}</ul>`
    : "<p>None yet.</p>";
  const expected = a.requested_documents.length
    ? `<ul>${a.requested_documents.map((d) => `<li>${esc(DOCUMENTS[d] ?? d)}</li>`).join("")}</ul>`
    : "<p>Nothing more: thank you.</p>";
  return layout(
    `Appointment letter from ${a.company_name}: ${a.job_title}`,
    `<header>
<p>${esc(a.company_name)} · Offer ${esc(a.offer_number)}</p>
<h1>Your appointment: ${esc(a.job_title)}</h1>
<p>Dear ${esc(a.candidate_name)}, thank you for accepting our offer. Your appointment letter is ready.</p>
</header>
<section aria-labelledby="details">
<h2 id="details">The appointment</h2>
<dl>
<dt>Position</dt><dd>${esc(a.job_title)}</dd>
<dt>Team</dt><dd>${esc(a.department)}</dd>
<dt>Employment</dt><dd>${esc(EMPLOYMENT[a.employment_type] ?? a.employment_type)}</dd>
<dt>Annual salary</dt><dd>${esc(a.currency)} ${esc(formatMoney(a.salary, a.currency))}</dd>
<dt>Joining date</dt><dd>${longDate(a.joining_date)}</dd>
<dt>Link valid until</dt><dd>${longDate(a.link_expires_at)}</dd>
</dl>
<p><a class="button secondary" href="${base}/pdf">Download the appointment letter (PDF)</a></p>
</section>
<section aria-labelledby="documents">
<h2 id="documents">Joining documents</h2>
<h3>Uploaded</h3>
${uploaded}
<h3>Still expected</h3>
${expected}
<h3>Upload a document</h3>
<form method="post" enctype="multipart/form-data" action="${base}/upload" data-upload="${base}/upload"
 data-done="Uploaded. Thank you: the list above now shows it.">
<p><label for="document_type">Document</label><br>
<select id="document_type" name="document_type" required>
${Object.entries(DOCUMENTS)
  .map(([value, label]) => `<option value="${value}"${value === a.requested_documents[0] ? " selected" : ""}>${label}</option>`)
  .join("\n")}
</select></p>
<p><label for="title">Title (optional)</label><br><input id="title" name="title" maxlength="200"></p>
<p><label for="file">File: PDF, image, text, Word or Excel, up to 10 MB</label><br>
<input id="file" name="file" type="file" required></p>
<p><button type="submit" class="primary">Upload</button></p>
</form>
<p role="status" aria-live="polite"></p>
</section>`,
  );
}
