// Offer and appointment letters as the candidate sees them: the public PDFs rendered to PNG
// (written to /tmp for a look) and their text read back with positions - the letterhead with the
// company's address, reference and date, the addressee, the salary in Indian grouping and in
// words, bullets that hang, the signature block, the acceptance block of the offer, and "Page n
// of m" on every page.
import { createHash, randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { expectError, useTestApp } from "../support/app.ts";
import { find, renderPdf, type RenderedPdf } from "../support/pdf.ts";
import { binary, type Company, draftOffer, recruitingCompany } from "./fixtures.ts";
import { today } from "../support/clock.ts";
import { api } from "../support/api.ts";

const t = useTestApp();
let c: Company;

const sha = (s: string) => createHash("sha256").update(s).digest("hex");
const getPdf = async (path: string): Promise<Buffer> => (await t.request().get(path).buffer(true).parse(binary).expect(200)).body;

/** A link token of our own for the offer's link of `kind` (the real one went out by mail, stored hashed). */
async function ownToken(offerId: string, kind: "offer" | "appointment"): Promise<string> {
  const token = randomBytes(24).toString("base64url");
  await t.query(`UPDATE job_offers SET ${kind}_token_hash = $2 WHERE id = $1`, [offerId, sha(token)]);
  return token;
}

const sameLine = (r: RenderedPdf, a: { y: number; page: number }) =>
  r.items
    .filter((i) => i.page === a.page && Math.abs(i.y - a.y) < 2)
    .sort((p, q) => p.x - q.x)
    .map((i) => i.str);

const longDate = (iso: string) =>
  new Date(`${iso}T00:00:00Z`).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });

beforeAll(async () => {
  c = await recruitingCompany(t, { company: "Acme Analytics" });
  await api(c.owner.agent)
    .op("updateCompanySettings", { body: { legal_name: "Acme Analytics Pvt Ltd", address: "4th Floor, 12 MG Road, Bengaluru 560001" } })
    .expect(200);
});

describe("getPublicOfferPdf, getPublicAppointmentPdf: the letters rendered", () => {
  let offer: any;
  let offerPdf: RenderedPdf;

  beforeAll(async () => {
    const made = await draftOffer(c.hr.agent, { terms: "- Notice period: 60 days" }, { first_name: "Priya", last_name: "Sharma" });
    offer = { ...made.offer, email: made.candidate.email };
    await api(c.hr.agent)
      .op("sendJobOffer", { params: { id: offer.id } })
      .expect(200);
    const token = await ownToken(offer.id, "offer");
    offerPdf = await renderPdf(await getPdf(`/api/public/offers/${token}/pdf`), "/tmp/payslip-offer-letter.png");
  });

  it("the offer letter is one A4 page with ink on it", () => {
    expect(offerPdf.pages).toBe(1);
    expect(offerPdf.png).toMatchObject({ width: 893, height: 1263 });
    expect(offerPdf.png.inkPixels).toBeGreaterThan(3000);
  });

  it("has a letterhead: name, address, then reference and date on one line, then the addressee", async () => {
    const name = find(offerPdf, "Acme Analytics Pvt Ltd");
    const address = find(offerPdf, "4th Floor, 12 MG Road, Bengaluru 560001");
    expect(name.y).toBeLessThan(address.y);
    const ref = find(offerPdf, `Ref: ${offer.offer_number}`);
    expect(ref.y).toBeGreaterThan(address.y);
    // the letter is dated the company's today by the server's clock (src/lib/clock.ts)
    expect(sameLine(offerPdf, ref)).toEqual([`Ref: ${offer.offer_number}`, `Date: ${longDate(today())}`]);
    const to = find(offerPdf, "To");
    expect(to.y).toBeGreaterThan(ref.y);
    expect(find(offerPdf, "Priya Sharma").y).toBeGreaterThan(to.y);
    expect(find(offerPdf, offer.email).y).toBeLessThan(find(offerPdf, "Offer letter - Priya Sharma").y);
  });

  it("states the salary in Indian grouping and in words, with bullets that hang", () => {
    expect(offerPdf.text).toContain("Annual compensation (cost to company): INR 24,00,000.00 (Rupees Twenty-Four Lakh Only)");
    const dear = find(offerPdf, "Dear Priya Sharma,");
    const employment = find(offerPdf, "Employment: Full-time");
    const bullet = offerPdf.items.find((i) => i.str === "\u2022" && Math.abs(i.y - employment.y) < 2);
    expect(bullet?.x).toBeGreaterThan(dear.x);
    expect(employment.x).toBeGreaterThan(bullet?.x ?? Number.POSITIVE_INFINITY);
    expect(find(offerPdf, /^Annual compensation/).x).toBe(employment.x);
    expect(find(offerPdf, "Notice period: 60 days").x).toBe(employment.x);
  });

  it("closes with the company's signature block and the candidate's acceptance block, and numbers the page", () => {
    const closing = find(offerPdf, "Yours sincerely,");
    const forCompany = find(offerPdf, "For Acme Analytics Pvt Ltd");
    const signatory = find(offerPdf, "Authorised signatory");
    expect(closing.y).toBeLessThan(forCompany.y);
    expect(signatory.y - forCompany.y).toBeGreaterThan(30); // room to sign
    const acceptance = find(offerPdf, "Acceptance");
    expect(acceptance.y).toBeGreaterThan(signatory.y);
    expect(offerPdf.text).toContain("I, Priya Sharma, accept this offer on the terms set out above.");
    expect(sameLine(offerPdf, find(offerPdf, "Signature"))).toEqual(["Signature", "Date"]);
    const page = find(offerPdf, "Page 1 of 1");
    expect(page.y).toBeGreaterThan(780);
    expect(sameLine(offerPdf, page)).toEqual([`${offer.offer_number} - Acme Analytics Pvt Ltd - Offer letter`, "Page 1 of 1"]);
  });

  it("the appointment letter has the same letterhead and signature, and no acceptance block", async () => {
    const token = await ownToken(offer.id, "offer");
    await api(t.request()).op("acceptPublicOffer", { params: { token } }).expect(200);
    await api(c.hr.agent)
      .op("sendAppointmentLetter", { params: { id: offer.id } })
      .expect(200);
    const atoken = await ownToken(offer.id, "appointment");
    const r = await renderPdf(await getPdf(`/api/public/appointment/${atoken}/pdf`), "/tmp/payslip-appointment-letter.png");
    expect(r.png.inkPixels).toBeGreaterThan(3000);
    expect(find(r, "4th Floor, 12 MG Road, Bengaluru 560001")).toBeDefined();
    expect(find(r, "Appointment letter - Priya Sharma")).toBeDefined();
    expect(r.text).toContain("INR 24,00,000.00 (Rupees Twenty-Four Lakh Only)");
    expect(find(r, "Authorised signatory")).toBeDefined();
    expect(r.text).not.toContain("Acceptance");
    expect(sameLine(r, find(r, "Page 1 of 1"))[0]).toBe(`${offer.offer_number} - Acme Analytics Pvt Ltd - Appointment letter`);
  });
});

describe("getPublicOfferPdf: a letter longer than a page", () => {
  it("numbers every page 'Page n of m' and keeps the signature together", async () => {
    const terms = Array.from({ length: 60 }, (_, i) => `- Clause ${i + 1}: the employee follows the company's policies.`).join("\n");
    const { offer } = await draftOffer(c.hr.agent, { terms });
    await api(c.hr.agent)
      .op("sendJobOffer", { params: { id: offer.id } })
      .expect(200);
    const token = await ownToken(offer.id, "offer");
    const r = await renderPdf(await getPdf(`/api/public/offers/${token}/pdf`), "/tmp/payslip-offer-letter-long.png");
    expect(r.pages).toBeGreaterThan(1);
    for (let p = 1; p <= r.pages; p++) expect(r.items.some((i) => i.page === p && i.str === `Page ${p} of ${r.pages}`)).toBe(true);
    const forCompany = find(r, "For Acme Analytics Pvt Ltd");
    expect(find(r, "Authorised signatory").page).toBe(forCompany.page);
  });
});

describe("previewDocumentTemplatePdf: salary_in_words", () => {
  const preview = async (body: Record<string, unknown>) =>
    renderPdf(
      (await c.hr.agent.post("/api/recruitment/document-templates/preview-pdf").send(body).buffer(true).parse(binary).expect(200)).body,
      "/tmp/payslip-preview.png",
    );

  it("fills the words of a given salary, of an offer's salary, or the sample's", async () => {
    const template = "Salary: {{currency}} {{salary}} ({{salary_in_words}})";
    expect((await preview({ template, values: { salary: "1500000.00" } })).text).toContain(
      "Salary: INR 1500000.00 (Rupees Fifteen Lakh Only)",
    );
    const { offer } = await draftOffer(c.hr.agent, { salary: "1234567.50" });
    expect((await preview({ template, offer_id: offer.id })).text).toContain(
      "Salary: INR 12,34,567.50 (Rupees Twelve Lakh Thirty-Four Thousand Five Hundred Sixty-Seven and Paise Fifty Only)",
    );
    expect((await preview({ template })).text).toContain("Salary: INR 24,00,000.00 (Rupees Twenty-Four Lakh Only)");
    expect((await preview({ template, values: { salary: "a lot", salary_in_words: "Plenty" } })).text).toContain(
      "Salary: INR a lot (Plenty)",
    );
  });
});

describe("downloadJobOfferPdf: HR downloads any offer's letter", () => {
  it("serves hr the letter the candidate's link serves, a draft's too, and nobody outside hr", async () => {
    const made = await draftOffer(c.hr.agent, {}, { first_name: "Arjun", last_name: "Menon" });
    // a draft, never sent: no link exists, hr still gets its letter
    const res = await c.hr.agent.get(`/api/recruitment/offers/${made.offer.id}/pdf`).buffer(true).parse(binary).expect(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.headers["content-disposition"]).toBe(`attachment; filename="offer-letter-${made.offer.offer_number}.pdf"`);
    const hrLetter = await renderPdf(res.body, "/tmp/payslip-offer-letter-hr.png");
    expect(hrLetter.text).toContain("Offer letter - Arjun Menon");

    // once sent, the same letter as the candidate's link
    await api(c.hr.agent)
      .op("sendJobOffer", { params: { id: made.offer.id } })
      .expect(200);
    const token = await ownToken(made.offer.id, "offer");
    const publicLetter = await renderPdf(await getPdf(`/api/public/offers/${token}/pdf`), "/tmp/payslip-offer-letter-public.png");
    const again = await c.owner.agent.get(`/api/recruitment/offers/${made.offer.id}/pdf`).buffer(true).parse(binary).expect(200);
    expect((await renderPdf(again.body, "/tmp/payslip-offer-letter-owner.png")).text).toBe(publicLetter.text);

    for (const who of [c.manager, c.employee])
      expectError(await api(who.agent).op("downloadJobOfferPdf", { params: { id: made.offer.id } }), 403, "forbidden");
  });
});
