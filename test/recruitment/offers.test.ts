// Offers end to end: draft → send (mail with a personal link, token stored hashed) → the candidate
// opens the link without a session, downloads the PDF, accepts → appointment letter (mail, public
// page, PDF, joining documents upload) → hired → convert-to-employee. Also decline, withdraw,
// expiry (410), unknown tokens (404), the module gate on public links, and template previews.
import { longDate } from "../../src/modules/recruitment/pdf.ts";
import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api } from "../support/api.ts";
import { registerAllJobs } from "../../src/modules/jobs.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { expireOffersEverywhere } from "../../src/modules/recruitment/offer-expiry.ts";
import { expectDetails, expectError, useTestApp } from "../support/app.ts";
import { startMailSink, type MailSink, type ReceivedMail } from "../support/mail.ts";
import { addCandidate, advance, binary, dateIn, draftOffer, openPosting, pdfText, recruitingCompany, type Company } from "./fixtures.ts";
import * as clock from "../../src/lib/clock.ts";

const t = useTestApp();
let c: Company;
let mail: MailSink;

beforeAll(async () => {
  mail = await startMailSink();
  registerAllJobs();
  await jobs.start(t.url, t.configWith({ smtpUrl: mail.url })); // the worker delivers to the sink
  c = await recruitingCompany(t, { company: "Acme Analytics" });
});
afterAll(async () => {
  await jobs.stop();
  await mail.close();
});

const sha = (s: string) => createHash("sha256").update(s).digest("hex");
function linkToken(m: ReceivedMail, kind: "offers" | "appointment"): string {
  const text = m.text;
  const found = new RegExp(`/api/public/${kind}/([A-Za-z0-9_-]{20,})`).exec(text);
  if (!found) throw new Error(`no ${kind} link in mail:\n${text}`);
  return found[1];
}
/** Waits for the n-th mail to an address (1-based). */
async function nthMail(to: string, n: number): Promise<ReceivedMail> {
  const until = Date.now() + 120_000;
  for (;;) {
    const all = mail.messages.filter((m) => m.to.includes(to.toLowerCase()));
    if (all.length >= n) return all[n - 1];
    if (Date.now() > until) throw new Error(`mail #${n} for ${to} did not arrive`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
const anon = () => t.request();
const getPdf = (path: string) => anon().get(path).buffer(true).parse(binary);

describe("listJobOffers, createJobOffer, getJobOffer, updateJobOffer, deleteJobOffer, sendJobOffer: offers", () => {
  it("are drafted for candidates in interview, one live offer at a time, with date checks", async () => {
    const posting = await openPosting(c.hr.agent, { title: "Data Scientist", department: "Data" });
    const cand = await addCandidate(c.hr.agent, posting.id);
    const body = { candidate_id: cand.id, salary: "1850000.00", joining_date: dateIn(40), expires_on: dateIn(10) };
    expectError(await api(c.hr.agent).op("createJobOffer", { body }), 409, "conflict");
    await advance(c.hr.agent, cand.id, "interview");
    expect(
      expectDetails(await api(c.hr.agent).op("createJobOffer", { body: { ...body, expires_on: dateIn(-1) } }), 400).details[0].path,
    ).toBe("body.expires_on");
    expect(
      expectDetails(await api(c.hr.agent).op("createJobOffer", { body: { ...body, joining_date: dateIn(5) } }), 400).details[0].path,
    ).toBe("body.joining_date");
    expectError(await api(c.hr.agent).op("createJobOffer", { body: { ...body, salary: "18,50,000" } }), 400, "validation_failed");
    expect(expectDetails(await api(c.hr.agent).op("createJobOffer", { body: { ...body, salary: "0.00" } }), 400).details[0].path).toBe(
      "body.salary",
    );
    expect(expectDetails(await api(c.hr.agent).op("createJobOffer", { body: { ...body, salary: "-5.00" } }), 400).details[0].path).toBe(
      "body.salary",
    );
    expectError(await c.hr.agent.post("/api/recruitment/offers").send({ candidate_id: cand.id }), 400, "validation_failed");
    const o = await api(c.hr.agent).op("createJobOffer", { body }).expect(201);
    expect(o.body.data).toMatchObject({
      status: "draft",
      job_title: "Data Scientist",
      department: "Data",
      salary: "1850000.00",
      currency: "INR",
      employment_type: "full_time",
      candidate_email: cand.email,
      sent_at: null,
      link_expires_at: null,
      documents: [],
    });
    expect(o.body.data.offer_number).toMatch(/^OFR-\d{5}$/);
    expect(
      (
        await api(c.hr.agent)
          .op("getCandidate", { params: { id: cand.id } })
          .expect(200)
      ).body.data.stage,
    ).toBe("offer");
    expectError(await api(c.hr.agent).op("createJobOffer", { body }), 409, "conflict");
    const upd = await api(c.hr.agent)
      .op("updateJobOffer", { params: { id: o.body.data.id }, body: { salary: "1900000.00", terms: "Relocation support" } })
      .expect(200);
    expect(upd.body.data).toMatchObject({ salary: "1900000.00", terms: "Relocation support" });
    const log = await api(c.owner.agent)
      .op("listActivityLog", { query: { entity_id: o.body.data.id, action: "recruitment.offer_updated" } })
      .expect(200);
    expect(log.body.data[0].changes!.salary).toEqual({ from: "1850000.00", to: "1900000.00" });
    expectError(await api(c.hr.agent).op("updateJobOffer", { params: { id: o.body.data.id }, body: { status: "sent" } }), 409, "conflict");
    expectError(
      await api(c.hr.agent).op("updateJobOffer", { params: { id: o.body.data.id }, body: { status: "accepted" } }),
      409,
      "conflict",
    );
    expectError(
      await api(c.hr.agent).op("updateJobOffer", { params: { id: o.body.data.id }, body: { status: "expired" } }),
      409,
      "conflict",
    );
    await api(c.hr.agent)
      .op("updateJobOffer", { params: { id: o.body.data.id }, body: { status: "withdrawn" } })
      .expect(200);
    expectError(await api(c.hr.agent).op("sendJobOffer", { params: { id: o.body.data.id } }), 409, "conflict");
    // Withdrawn frees the candidate for a new offer; a withdrawn draft can be deleted.
    const again = await api(c.hr.agent).op("createJobOffer", { body }).expect(201);
    await api(c.hr.agent)
      .op("deleteJobOffer", { params: { id: o.body.data.id } })
      .expect(200);
    const list = await api(c.hr.agent)
      .op("listJobOffers", { query: { candidate_id: cand.id } })
      .expect(200);
    expect(list.body.data.map((x) => x.id)).toEqual([again.body.data.id]);
    expect(
      (
        await api(c.hr.agent)
          .op("listJobOffers", { query: { search: again.body.data.offer_number } })
          .expect(200)
      ).body.data,
    ).toHaveLength(1);
    expect(
      (
        await api(c.hr.agent)
          .op("listJobOffers", { query: { search: cand.last_name, status: "draft" } })
          .expect(200)
      ).body.data,
    ).toHaveLength(1);
    expectError(await api(c.manager.agent).op("listJobOffers"), 403, "forbidden");
  });

  it(
    "getPublicOffer, getPublicOfferPdf, acceptPublicOffer, sendAppointmentLetter, " +
      "getPublicAppointment, getPublicAppointmentPdf, uploadAppointmentDocument, " +
      "convertCandidateToEmployee: go from send to accepted, appointment, joining documents and an employee record",
    async () => {
      const { candidate, offer } = await draftOffer(
        c.hr.agent,
        { terms: "Joining bonus INR 1,00,000." },
        { first_name: "Kavya", last_name: "Nair", phone: "+91 98450 12345" },
      );
      expectError(await api(c.hr.agent).op("sendAppointmentLetter", { params: { id: offer.id } }), 409, "conflict");
      const sent = await api(c.hr.agent)
        .op("sendJobOffer", { params: { id: offer.id } })
        .expect(200);
      expect(sent.body.data.status).toBe("sent");
      expect(sent.body.data.link_expires_at).not.toBeNull();
      expectError(await api(c.hr.agent).op("updateJobOffer", { params: { id: offer.id }, body: { salary: "1.00" } }), 409, "conflict");
      expectError(await api(c.hr.agent).op("deleteJobOffer", { params: { id: offer.id } }), 409, "conflict");

      // The mail arrives on the loopback SMTP server with the personal link.
      const m = await mail.waitFor(candidate.email);
      expect(m.subject).toContain("Your offer from Acme Analytics");
      const token = linkToken(m, "offers");
      const [row] = await t.query(`SELECT offer_token_hash FROM job_offers WHERE id = $1`, [offer.id]);
      expect(row.offer_token_hash).toBe(sha(token));
      expect(JSON.stringify(await t.query(`SELECT * FROM job_offers WHERE id = $1`, [offer.id]))).not.toContain(token);

      // The link works without a session.
      const pub = await api(anon()).op("getPublicOffer", { params: { token } }).expect(200);
      expect(pub.body.data).toMatchObject({
        offer_number: offer.offer_number,
        status: "sent",
        company_name: "Acme Analytics",
        candidate_name: "Kavya Nair",
        job_title: "Backend Engineer",
        salary: "2400000.00",
        currency: "INR",
        can_respond: true,
        terms: "Joining bonus INR 1,00,000.",
        pdf_url: `/api/public/offers/${token}/pdf`,
      });
      const pdf = await getPdf(`/api/public/offers/${token}/pdf`).expect(200);
      expect(pdf.headers["content-type"]).toBe("application/pdf");
      expect(pdf.body.subarray(0, 5).toString()).toBe("%PDF-");
      expect(pdf.body.toString("latin1")).toContain("(Offer letter - Kavya Nair)");
      const text = pdfText(pdf.body).replace(/\s+/g, " ");
      expect(text).toContain("Dear Kavya Nair,");
      expect(text).toContain("Annual compensation (cost to company): INR 24,00,000.00");
      expect(text).toContain("Joining bonus INR 1,00,000.");

      const accepted = await api(anon()).op("acceptPublicOffer", { params: { token } }).expect(200);
      expect(accepted.body.data).toMatchObject({ status: "accepted", can_respond: false });
      expectError(await api(anon()).op("acceptPublicOffer", { params: { token } }), 409, "conflict");
      expectError(await api(anon()).op("declinePublicOffer", { params: { token }, body: { reason: "changed my mind" } }), 409, "conflict");
      await api(anon()).op("getPublicOffer", { params: { token } }).expect(200);
      const hrNotes = await api(c.hr.agent).op("listNotifications").expect(200);
      expect(hrNotes.body.data.some((n) => n.kind === "recruitment.offer_accepted" && n.title.includes("Kavya Nair"))).toBe(true);
      const [acc] = await t.query(`SELECT status, responded_at FROM job_offers WHERE id = $1`, [offer.id]);
      expect(acc.status).toBe("accepted");
      expect(acc.responded_at).not.toBeNull();
      const log = await api(c.owner.agent)
        .op("listActivityLog", { query: { entity_id: offer.id } })
        .expect(200);
      expect(log.body.data.find((e) => e.action === "recruitment.offer_status_changed")!.changes).toMatchObject({
        status: { from: "sent", to: "accepted" },
        by: `candidate ${candidate.email}`,
      });

      // Conversion needs the candidate hired first.
      expectError(await api(c.hr.agent).op("convertCandidateToEmployee", { params: { id: candidate.id } }), 409, "conflict");

      // Appointment letter.
      const appt = await api(c.hr.agent)
        .op("sendAppointmentLetter", { params: { id: offer.id } })
        .expect(200);
      expect(appt.body.data.appointment_sent_at).not.toBeNull();
      const am = await nthMail(candidate.email, 2);
      expect(am.subject).toContain("Your appointment letter from Acme Analytics");
      const atoken = linkToken(am, "appointment");
      const [arow] = await t.query(`SELECT appointment_token_hash FROM job_offers WHERE id = $1`, [offer.id]);
      expect(arow.appointment_token_hash).toBe(sha(atoken));
      const page = await api(anon())
        .op("getPublicAppointment", { params: { token: atoken } })
        .expect(200);
      expect(page.body.data).toMatchObject({
        candidate_name: "Kavya Nair",
        company_name: "Acme Analytics",
        documents: [],
        requested_documents: ["id_proof", "address_proof", "education", "experience"],
        upload_url: `/api/public/appointment/${atoken}/upload`,
      });
      const apdf = await getPdf(`/api/public/appointment/${atoken}/pdf`).expect(200);
      expect(apdf.body.subarray(0, 5).toString()).toBe("%PDF-");
      expect(apdf.body.toString("latin1")).toContain("(Appointment letter - Kavya Nair)");
      expect(pdfText(apdf.body).replace(/\s+/g, " ")).toContain("we are pleased to appoint you as Backend Engineer");
      // The offer token does not open the appointment and vice versa.
      expectError(await api(anon()).op("getPublicAppointment", { params: { token } }), 404, "not_found");
      expectError(await api(anon()).op("getPublicOffer", { params: { token: atoken } }), 404, "not_found");

      // Joining documents: type and size limits through the shared upload rules.
      const up = await anon()
        .post(`/api/public/appointment/${atoken}/upload`)
        .field("document_type", "id_proof")
        .field("title", "PAN card")
        .attach("file", Buffer.from("%PDF-1.4 pan card"), { filename: "pan.pdf", contentType: "application/pdf" })
        .expect(201);
      expect(up.body.data).toMatchObject({
        document_type: "id_proof",
        title: "PAN card",
        original_name: "pan.pdf",
        mime_type: "application/pdf",
      });
      expectError(
        await anon()
          .post(`/api/public/appointment/${atoken}/upload`)
          .field("document_type", "education")
          .attach("file", Buffer.from("MZ\x90\x00"), { filename: "x.exe", contentType: "application/x-msdownload" }),
        415,
        "unsupported_media_type",
      );
      expectError(
        await anon()
          .post(`/api/public/appointment/${atoken}/upload`)
          .field("document_type", "education")
          .attach("file", Buffer.from("not a pdf"), { filename: "fake.pdf", contentType: "application/pdf" }),
        415,
        "unsupported_media_type",
      );
      expectError(
        await anon()
          .post(`/api/public/appointment/${atoken}/upload`)
          .field("document_type", "diploma")
          .attach("file", Buffer.from("%PDF-1.4"), { filename: "a.pdf", contentType: "application/pdf" }),
        400,
        "validation_failed",
      );
      expectError(
        await anon()
          .post(`/api/public/appointment/${atoken}/upload`)
          .field("document_type", "education")
          .attach("file", Buffer.alloc(10 * 1024 * 1024 + 10, 0x25), { filename: "big.pdf", contentType: "application/pdf" }),
        413,
        "payload_too_large",
      );
      const after = await api(anon())
        .op("getPublicAppointment", { params: { token: atoken } })
        .expect(200);
      expect(after.body.data.documents.map((d) => d.title)).toEqual(["PAN card"]);
      expect(after.body.data.requested_documents).toEqual(["address_proof", "education", "experience"]);
      const [doc] = await t.query(
        `SELECT f.purpose, f.uploaded_by FROM appointment_documents d JOIN files ` +
          `f ON f.tenant_id = d.tenant_id AND f.id = d.file_id WHERE d.offer_id = $1`,
        [offer.id],
      );
      expect(doc).toMatchObject({ purpose: "appointment_document", uploaded_by: null });
      const hrView = await api(c.hr.agent)
        .op("getJobOffer", { params: { id: offer.id } })
        .expect(200);
      expect(hrView.body.data.documents).toHaveLength(1);
      await api(c.hr.agent)
        .op("downloadFile", { params: { fileId: hrView.body.data.documents[0].file_id } })
        .expect(200);

      // Hired → employee, in one go, with the documents.
      await api(c.hr.agent)
        .op("updateCandidate", { params: { id: candidate.id }, body: { stage: "hired" } })
        .expect(200);
      const conv = await api(c.hr.agent)
        .op("convertCandidateToEmployee", { params: { id: candidate.id }, body: { reports_to: c.managerEmployeeId } })
        .expect(201);
      const emp = conv.body.data.employee;
      expect(emp).toMatchObject({
        first_name: "Kavya",
        last_name: "Nair",
        email: candidate.email,
        phone: "+91 98450 12345",
        designation: "Backend Engineer",
        department: "Engineering",
        joining_date: offer.joining_date,
        status: "active",
        reports_to: c.managerEmployeeId,
        employment_type: "full_time",
      });
      expect(emp.employee_code).toMatch(/^EMP-\d{5}$/);
      expect(conv.body.data.candidate).toMatchObject({ employee_id: emp.id, stage: "hired" });
      expect(conv.body.data.documents_copied).toBe(1);
      const profile = await api(c.hr.agent)
        .op("getEmployee", { params: { employeeId: emp.id } })
        .expect(200);
      expect(profile.body.data).toMatchObject({ id: emp.id, full_name: "Kavya Nair", designation: "Backend Engineer" });
      const docs = await api(c.hr.agent)
        .op("listEmployeeDocuments", { params: { employeeId: emp.id } })
        .expect(200);
      expect(docs.body.data.map((d) => [d.document_type, d.title])).toEqual([["id_proof", "PAN card"]]);
      const empLog = await api(c.hr.agent)
        .op("getEmployeeActivityLog", { params: { employeeId: emp.id } })
        .expect(200);
      expect(empLog.body.data.map((e) => e.action)).toEqual(
        expect.arrayContaining(["employee.created", "employee.hired_from_candidate", "employee.document_uploaded"]),
      );
      const [crow] = await t.query(`SELECT employee_id::text, converted_at FROM candidates WHERE id = $1`, [candidate.id]);
      expect(crow.employee_id).toBe(emp.id);
      expect(crow.converted_at).not.toBeNull();
      expectError(await api(c.hr.agent).op("convertCandidateToEmployee", { params: { id: candidate.id } }), 409, "conflict");
      expectError(await api(c.hr.agent).op("updateCandidate", { params: { id: candidate.id }, body: { notes: "x" } }), 409, "conflict");
      expectError(
        await anon()
          .post(`/api/public/appointment/${atoken}/upload`)
          .field("document_type", "education")
          .attach("file", Buffer.from("%PDF-1.4"), { filename: "a.pdf", contentType: "application/pdf" }),
        409,
        "conflict",
      );
    },
  );

  it("conversion is all or nothing: an email already used by an employee is a 409 and nothing is created", async () => {
    const { candidate, offer } = await draftOffer(c.hr.agent);
    await t.query(`UPDATE job_offers SET status = 'accepted' WHERE id = $1`, [offer.id]);
    await api(c.hr.agent)
      .op("updateCandidate", { params: { id: candidate.id }, body: { stage: "hired" } })
      .expect(200);
    await api(c.hr.agent)
      .op("createEmployee", {
        body: {
          first_name: "Other",
          last_name: "Person",
          email: candidate.email,
          department: "X",
          designation: "Y",
          joining_date: "2024-01-01",
        },
      })
      .expect(201);
    const before = (await t.query(`SELECT count(*)::int AS n FROM employees WHERE tenant_id = $1`, [c.owner.tenantId]))[0].n;
    expectError(await api(c.hr.agent).op("convertCandidateToEmployee", { params: { id: candidate.id } }), 409, "conflict");
    expect((await t.query(`SELECT count(*)::int AS n FROM employees WHERE tenant_id = $1`, [c.owner.tenantId]))[0].n).toBe(before);
    expect((await t.query(`SELECT employee_id FROM candidates WHERE id = $1`, [candidate.id]))[0].employee_id).toBeNull();
    expectError(
      await api(c.hr.agent).op("convertCandidateToEmployee", { params: { id: candidate.id }, body: { joining_date: "2024-02-30" } }),
      400,
      "validation_failed",
    );
    expectError(
      await api(c.hr.agent).op("convertCandidateToEmployee", {
        params: { id: candidate.id },
        body: { reports_to: "00000000-0000-4000-8000-000000000000" },
      }),
      400,
      "validation_failed",
    );
    const ok = await api(c.hr.agent).op("convertCandidateToEmployee", {
      params: { id: candidate.id },
      body: { employee_code: "NEW-1", designation: "Staff Engineer" },
    });
    expect(ok.status).toBe(409); // the email is still taken; the override does not change it
  });

  it(
    "declinePublicOffer: are declined with a reason; " +
      "a sent offer can be re-sent (old link dead) or withdrawn (link gone, candidate told)",
    async () => {
      const { candidate, offer } = await draftOffer(c.hr.agent);
      await api(c.hr.agent)
        .op("sendJobOffer", { params: { id: offer.id } })
        .expect(200);
      const first = linkToken(await mail.waitFor(candidate.email), "offers");
      await api(c.hr.agent)
        .op("sendJobOffer", { params: { id: offer.id } })
        .expect(200);
      const second = linkToken(await nthMail(candidate.email, 2), "offers");
      expect(second).not.toBe(first);
      expectError(await api(anon()).op("getPublicOffer", { params: { token: first } }), 404, "not_found");
      const d = await api(anon())
        .op("declinePublicOffer", { params: { token: second }, body: { reason: "Accepted another offer" } })
        .expect(200);
      expect(d.body.data.status).toBe("declined");
      const hrView = await api(c.hr.agent)
        .op("getJobOffer", { params: { id: offer.id } })
        .expect(200);
      expect(hrView.body.data).toMatchObject({ status: "declined", decline_reason: "Accepted another offer" });
      expectError(await api(c.hr.agent).op("sendJobOffer", { params: { id: offer.id } }), 409, "conflict");
      expectError(await api(c.hr.agent).op("updateJobOffer", { params: { id: offer.id }, body: { status: "withdrawn" } }), 409, "conflict");
      expectError(await api(c.hr.agent).op("updateCandidate", { params: { id: candidate.id }, body: { stage: "hired" } }), 409, "conflict");
      expectError(await anon().post(`/api/public/offers/${second}/decline`).send({ extra: 1 }), 400, "validation_failed");

      const w = await draftOffer(c.hr.agent);
      await api(c.hr.agent)
        .op("sendJobOffer", { params: { id: w.offer.id } })
        .expect(200);
      const wt = linkToken(await mail.waitFor(w.candidate.email), "offers");
      await api(c.hr.agent)
        .op("updateJobOffer", { params: { id: w.offer.id }, body: { status: "withdrawn" } })
        .expect(200);
      const gone = expectError(await api(anon()).op("getPublicOffer", { params: { token: wt } }), 410, "invalid_token");
      expect(gone.error).toContain("withdrawn");
      expectError(await api(anon()).op("acceptPublicOffer", { params: { token: wt } }), 410, "invalid_token");
      expectError(await api(anon()).op("getPublicOfferPdf", { params: { token: wt } }), 410, "invalid_token");
      expect((await nthMail(w.candidate.email, 2)).subject).toContain("Offer withdrawn");
    },
  );

  it("expire: past expires_on → expired (410, audited, author told); expired links and unknown tokens", async () => {
    const { candidate, offer } = await draftOffer(c.hr.agent);
    await api(c.hr.agent)
      .op("sendJobOffer", { params: { id: offer.id } })
      .expect(200);
    const token = linkToken(await mail.waitFor(candidate.email), "offers");
    await t.query(`UPDATE job_offers SET expires_on = $2 WHERE id = $1`, [offer.id, dateIn(-2)]);
    const e = expectError(await api(anon()).op("acceptPublicOffer", { params: { token } }), 410, "invalid_token");
    expect(e.error).toContain("expired");
    const [row] = await t.query(`SELECT status FROM job_offers WHERE id = $1`, [offer.id]);
    expect(row.status).toBe("expired");
    const log = await api(c.owner.agent)
      .op("listActivityLog", { query: { entity_id: offer.id, action: "recruitment.offer_status_changed" } })
      .expect(200);
    expect(log.body.data[0].changes!.status).toEqual({ from: "sent", to: "expired" });
    expect((await api(c.hr.agent).op("listNotifications").expect(200)).body.data.some((n) => n.kind === "recruitment.offer_expired")).toBe(
      true,
    );
    expectError(await api(c.hr.agent).op("sendJobOffer", { params: { id: offer.id } }), 409, "conflict");

    // The link's own expiry.
    const b = await draftOffer(c.hr.agent);
    await api(c.hr.agent)
      .op("sendJobOffer", { params: { id: b.offer.id } })
      .expect(200);
    const bt = linkToken(await mail.waitFor(b.candidate.email), "offers");
    await t.query(`UPDATE job_offers SET offer_token_expires_at = $2::timestamptz - interval '1 minute' WHERE id = $1`, [
      b.offer.id,
      clock.now(),
    ]);
    expectError(await api(anon()).op("getPublicOffer", { params: { token: bt } }), 410, "invalid_token");
    expectError(await api(anon()).op("getPublicOfferPdf", { params: { token: bt } }), 410, "invalid_token");
    // HR can expire a sent offer by hand.
    const x = await draftOffer(c.hr.agent);
    await api(c.hr.agent)
      .op("sendJobOffer", { params: { id: x.offer.id } })
      .expect(200);
    await api(c.hr.agent)
      .op("updateJobOffer", { params: { id: x.offer.id }, body: { status: "expired" } })
      .expect(200);
    // The hourly job expires offers of every company.
    const y = await draftOffer(c.hr.agent);
    await api(c.hr.agent)
      .op("sendJobOffer", { params: { id: y.offer.id } })
      .expect(200);
    await t.query(`UPDATE job_offers SET expires_on = $2 WHERE id = $1`, [y.offer.id, dateIn(-1)]);
    expect(await expireOffersEverywhere()).toBeGreaterThanOrEqual(1);
    expect((await t.query(`SELECT status FROM job_offers WHERE id = $1`, [y.offer.id]))[0].status).toBe("expired");

    const unknown = "A".repeat(43);
    expectError(await api(anon()).op("getPublicOffer", { params: { token: unknown } }), 404, "not_found");
    expectError(await api(anon()).op("getPublicOfferPdf", { params: { token: unknown } }), 404, "not_found");
    expectError(await api(anon()).op("acceptPublicOffer", { params: { token: unknown } }), 404, "not_found");
    expectError(await api(anon()).op("declinePublicOffer", { params: { token: unknown } }), 404, "not_found");
    expectError(await api(anon()).op("getPublicAppointment", { params: { token: unknown } }), 404, "not_found");
    expectError(await api(anon()).op("getPublicAppointmentPdf", { params: { token: unknown } }), 404, "not_found");
    expectError(
      await anon()
        .post(`/api/public/appointment/${unknown}/upload`)
        .field("document_type", "other")
        .attach("file", Buffer.from("hi"), { filename: "a.txt", contentType: "text/plain" }),
      404,
      "not_found",
    );
    expectError(await api(anon()).op("getPublicOffer", { params: { token: "short" } }), 400, "validation_failed");
  });

  it("sendJobOffer, sendAppointmentLetter: a delivered offer or appointment mail keeps no live link in email_outbox", async () => {
    const { candidate, offer } = await draftOffer(c.hr.agent);
    await api(c.hr.agent)
      .op("sendJobOffer", { params: { id: offer.id } })
      .expect(200);
    const token = linkToken(await mail.waitFor(candidate.email), "offers");
    await t.query(`UPDATE job_offers SET status = 'accepted' WHERE id = $1`, [offer.id]);
    await api(c.hr.agent)
      .op("sendAppointmentLetter", { params: { id: offer.id } })
      .expect(200);
    const appointment = linkToken(await nthMail(candidate.email, 2), "appointment");
    const until = Date.now() + 120_000;
    let rows: { status: string; text_body: string }[] = [];
    do {
      await new Promise((r) => setTimeout(r, 100));
      rows = await t.query("SELECT status, text_body FROM email_outbox WHERE to_address = $1 ORDER BY created_at", [candidate.email]);
    } while (rows.some((r) => r.status !== "sent") && Date.now() < until);
    expect(rows.map((r) => r.status)).toEqual(["sent", "sent"]);
    expect(rows[0].text_body).toContain("/api/public/offers/[redacted]/pdf");
    expect(rows[1].text_body).toContain("/api/public/appointment/[redacted]");
    for (const secret of [token, appointment]) expect(JSON.stringify(rows)).not.toContain(secret);
    await api(anon())
      .op("getPublicAppointment", { params: { token: appointment } })
      .expect(200);
  });

  it("appointment links expire after 30 days and only serve accepted offers", async () => {
    const { candidate, offer } = await draftOffer(c.hr.agent);
    await t.query(`UPDATE job_offers SET status = 'accepted' WHERE id = $1`, [offer.id]);
    const a = await api(c.hr.agent)
      .op("sendAppointmentLetter", { params: { id: offer.id } })
      .expect(200);
    const days = (Date.parse(a.body.data.appointment_link_expires_at!) - clock.nowMs()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    const token = linkToken(await mail.waitFor(candidate.email), "appointment");
    await api(anon()).op("getPublicAppointment", { params: { token } }).expect(200);
    await t.query(`UPDATE job_offers SET appointment_token_expires_at = $2::timestamptz - interval '1 second' WHERE id = $1`, [
      offer.id,
      clock.now(),
    ]);
    expectError(await api(anon()).op("getPublicAppointment", { params: { token } }), 410, "invalid_token");
    expectError(await api(anon()).op("getPublicAppointmentPdf", { params: { token } }), 410, "invalid_token");
    expectError(
      await anon()
        .post(`/api/public/appointment/${token}/upload`)
        .field("document_type", "other")
        .attach("file", Buffer.from("hi"), { filename: "a.txt", contentType: "text/plain" }),
      410,
      "invalid_token",
    );
  });

  it("public links honour the module gate and each company's own data", async () => {
    const other = await recruitingCompany(t, { company: "Globex Corp" });
    const mine = await draftOffer(c.hr.agent);
    const theirs = await draftOffer(other.hr.agent, {}, { first_name: "Omar" });
    await api(c.hr.agent)
      .op("sendJobOffer", { params: { id: mine.offer.id } })
      .expect(200);
    await api(other.hr.agent)
      .op("sendJobOffer", { params: { id: theirs.offer.id } })
      .expect(200);
    const myToken = linkToken(await mail.waitFor(mine.candidate.email), "offers");
    const theirToken = linkToken(await mail.waitFor(theirs.candidate.email), "offers");
    expect(
      (
        await api(anon())
          .op("getPublicOffer", { params: { token: myToken } })
          .expect(200)
      ).body.data.company_name,
    ).toBe("Acme Analytics");
    const g = await api(anon())
      .op("getPublicOffer", { params: { token: theirToken } })
      .expect(200);
    expect(g.body.data).toMatchObject({ company_name: "Globex Corp", candidate_name: theirs.candidate.full_name });
    // Another company's HR cannot use ids of this one.
    expectError(await api(other.hr.agent).op("sendJobOffer", { params: { id: mine.offer.id } }), 404, "not_found");
    await api(other.owner.agent)
      .op("updateCompanySettings", { body: { modules: [] } })
      .expect(200);
    expectError(await api(anon()).op("getPublicOffer", { params: { token: theirToken } }), 403, "module_disabled");
    await api(anon())
      .op("getPublicOffer", { params: { token: myToken } })
      .expect(200);
  });
});

describe("previewDocumentTemplatePdf: document templates", () => {
  it("previews a template with merge fields as a PDF", async () => {
    const res = await c.hr.agent
      .post("/api/recruitment/document-templates/preview-pdf")
      .send({
        title: "Offer letter",
        template:
          "Dear {{candidate_name}},\n\nWe offer you the role of {{ job_title }} " +
          "at {{company_name}} for {{currency}} {{salary}} from {{joining_date}}.",
        values: { candidate_name: "Rohan Gupta", salary: "1500000.00", joining_date: "2027-01-04" },
      })
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(res.headers["content-type"]).toBe("application/pdf");
    expect(res.body.subarray(0, 5).toString()).toBe("%PDF-");
    const text = pdfText(res.body).replace(/\s+/g, " ");
    expect(text).toContain("Dear Rohan Gupta,");
    expect(text).toContain("We offer you the role of Senior Backend Engineer at Acme Analytics for INR 1500000.00 from 2027-01-04.");
    expect(res.body.toString("latin1")).toContain("(Offer letter)");
  });

  it("fills fields from an offer and names unknown fields in a 400", async () => {
    const { offer, candidate } = await draftOffer(c.hr.agent);
    const res = await c.hr.agent
      .post("/api/recruitment/document-templates/preview-pdf")
      .send({ template: "{{candidate_first_name}}: {{job_title}}, {{salary}}, valid until {{offer_expiry_date}}", offer_id: offer.id })
      .buffer(true)
      .parse(binary)
      .expect(200);
    expect(pdfText(res.body).replace(/\s+/g, " ")).toContain(
      `${candidate.first_name}: Backend Engineer, 24,00,000.00, valid until ${longDate(offer.expires_on)}`,
    );
    const bad = expectError(
      await api(c.hr.agent).op("previewDocumentTemplatePdf", {
        body: { template: "Hi {{candidate_name}} {{ssn}} {{Bank Account}} {{ssn}}" },
      }),
      400,
      "validation_failed",
    );
    expect(bad.details).toEqual([
      { path: "body.template", message: "unknown merge field {{ssn}}" },
      { path: "body.template", message: "unknown merge field {{Bank Account}}" },
    ]);
    expect(bad.error).toContain("{{ssn}}");
    expectError(
      await c.hr.agent
        .post("/api/recruitment/document-templates/preview-pdf")
        .send({ template: "x", values: { favourite_colour: "blue" } }),
      400,
      "validation_failed",
    );
    expectError(
      await api(c.hr.agent).op("previewDocumentTemplatePdf", { body: { template: "x", offer_id: "00000000-0000-4000-8000-000000000000" } }),
      400,
      "validation_failed",
    );
    expectError(await c.hr.agent.post("/api/recruitment/document-templates/preview-pdf").send({}), 400, "validation_failed");
    expectError(await api(c.manager.agent).op("previewDocumentTemplatePdf", { body: { template: "x" } }), 403, "forbidden");
  });
});
