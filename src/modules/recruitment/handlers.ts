// Recruitment area (module `recruitment`): thin handlers over the rules in this folder -
// panel.ts (interview panel), requisitions.ts, postings.ts, candidates.ts (+ conversion.ts),
// interviews.ts, sessions.ts, offers.ts (+ public.ts for the candidate's links), talent-pool.ts,
// letters.ts / pdf.ts (templates and PDFs), ai.ts (+ ai/ providers).
import { ack, created, ok, paginated } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { writeSettingsDoc } from "../../lib/tenant-settings.ts";
import { generateContent, generateInterviewQuestions, generateJobDescription, screenResume } from "./ai.ts";
import { createCandidate, deleteCandidate, getCandidate, listCandidates, updateCandidate } from "./candidates.ts";
import { convertToEmployee } from "./conversion.ts";
import { createInterview, deleteInterview, getInterview, listInterviews, updateInterview } from "./interviews.ts";
import { previewTemplatePdf } from "./letters.ts";
import { createOffer, deleteOffer, getOffer, listOffers, sendAppointment, sendOffer, updateOffer } from "./offers.ts";
import { INTERVIEW_PANEL_DEFAULTS, readPanel, validateRounds } from "./panel.ts";
import { sendPdf } from "./pdf.ts";
import { createPosting, deletePosting, getPosting, listPostings, updatePosting } from "./postings.ts";
import { answerPublicOffer, getPublicAppointment, getPublicOffer, publicAppointmentPdf, publicOfferPdf, uploadAppointmentDocument } from "./public.ts";
import { createRequisition, deleteRequisition, getRequisition, listRequisitions, updateRequisition } from "./requisitions.ts";
import { createSession, deleteSession, getSession, listSessions, sendSession, updateSession } from "./sessions.ts";
import { addTalent, getTalent, listTalentPool, removeTalent, updateTalent } from "./talent-pool.ts";

export { INTERVIEW_PANEL_DEFAULTS };

export const handlers = {
  async getInterviewPanel() {
    return ok(await readPanel());
  },
  async updateInterviewPanel({ body, auth }) {
    const rounds = await validateRounds(body.rounds);
    const patch = { ...body, ...(rounds ? { rounds } : {}) };
    return ok(await writeSettingsDoc("interview_panel", INTERVIEW_PANEL_DEFAULTS, patch, auth.userId), "Interview panel updated");
  },

  async listJobRequisitions({ query, auth }) {
    const { rows, page, total } = await listRequisitions(auth, query);
    return paginated(rows, page, total);
  },
  async createJobRequisition({ body, auth }) {
    return created(await createRequisition(auth, body), "Job requisition created");
  },
  async getJobRequisition({ params, auth }) {
    return ok(await getRequisition(auth, params.id));
  },
  async updateJobRequisition({ params, body, auth }) {
    return ok(await updateRequisition(auth, params.id, body), "Job requisition updated");
  },
  async deleteJobRequisition({ params, auth }) {
    await deleteRequisition(auth, params.id);
    return ack("Job requisition deleted");
  },

  async listJobPostings({ query, auth }) {
    const { rows, page, total } = await listPostings(auth, query);
    return paginated(rows, page, total);
  },
  async createJobPosting({ body, auth }) {
    return created(await createPosting(auth, body), "Job posting created");
  },
  async getJobPosting({ params, auth }) {
    return ok(await getPosting(auth, params.id));
  },
  async updateJobPosting({ params, body, auth }) {
    return ok(await updatePosting(auth, params.id, body), "Job posting updated");
  },
  async deleteJobPosting({ params, auth }) {
    await deletePosting(auth, params.id);
    return ack("Job posting deleted");
  },

  async listCandidates({ query, auth }) {
    const { rows, page, total } = await listCandidates(auth, query);
    return paginated(rows, page, total);
  },
  async createCandidate({ body, auth }) {
    return created(await createCandidate(auth, body), "Candidate added");
  },
  async getCandidate({ params, auth }) {
    return ok(await getCandidate(auth, params.id));
  },
  async updateCandidate({ params, body, auth }) {
    return ok(await updateCandidate(auth, params.id, body), "Candidate updated");
  },
  async deleteCandidate({ params, auth }) {
    await deleteCandidate(auth, params.id);
    return ack("Candidate deleted");
  },
  async convertCandidateToEmployee({ params, body, auth }) {
    return created(await convertToEmployee(auth, params.id, body), "Candidate converted into an employee");
  },

  async listInterviews({ query, auth }) {
    const { rows, page, total } = await listInterviews(auth, query);
    return paginated(rows, page, total);
  },
  async createInterview({ body, auth }) {
    return created(await createInterview(auth, body), "Interview scheduled");
  },
  async getInterview({ params, auth }) {
    return ok(await getInterview(auth, params.id));
  },
  async updateInterview({ params, body, auth }) {
    return ok(await updateInterview(auth, params.id, body), "Interview updated");
  },
  async deleteInterview({ params, auth }) {
    await deleteInterview(auth, params.id);
    return ack("Interview deleted");
  },

  async listInterviewSessions({ query }) {
    const { rows, page, total } = await listSessions(query);
    return paginated(rows, page, total);
  },
  async createInterviewSession({ body, auth }) {
    return created(await createSession(auth, body), "Interview session created");
  },
  async getInterviewSession({ params }) {
    return ok(await getSession(params.id));
  },
  async updateInterviewSession({ params, body, auth }) {
    return ok(await updateSession(auth, params.id, body), "Interview session updated");
  },
  async deleteInterviewSession({ params, auth }) {
    await deleteSession(auth, params.id);
    return ack("Interview session deleted");
  },
  async sendInterviewSession({ params, auth }) {
    return ok(await sendSession(auth, params.id), "Interview details sent to the candidate");
  },

  async listJobOffers({ query, auth }) {
    const { rows, page, total } = await listOffers(auth, query);
    return paginated(rows, page, total);
  },
  async createJobOffer({ body, auth }) {
    return created(await createOffer(auth, body), "Offer drafted");
  },
  async getJobOffer({ params, auth }) {
    return ok(await getOffer(auth, params.id));
  },
  async updateJobOffer({ params, body, auth }) {
    return ok(await updateOffer(auth, params.id, body), "Offer updated");
  },
  async deleteJobOffer({ params, auth }) {
    await deleteOffer(auth, params.id);
    return ack("Offer deleted");
  },
  async sendJobOffer({ params, auth }) {
    return ok(await sendOffer(auth, params.id), "Offer sent to the candidate");
  },
  async sendAppointmentLetter({ params, auth }) {
    return ok(await sendAppointment(auth, params.id), "Appointment letter sent to the candidate");
  },

  async listTalentPoolCandidates({ query }) {
    const { rows, page, total } = await listTalentPool(query);
    return paginated(rows, page, total);
  },
  async createTalentPoolCandidate({ body, auth }) {
    return created(await addTalent(auth, body), "Added to the talent pool");
  },
  async getTalentPoolCandidate({ params }) {
    return ok(await getTalent(params.id));
  },
  async updateTalentPoolCandidate({ params, body }) {
    return ok(await updateTalent(params.id, body), "Talent pool entry updated");
  },
  async deleteTalentPoolCandidate({ params }) {
    await removeTalent(params.id);
    return ack("Removed from the talent pool");
  },

  async previewDocumentTemplatePdf({ body, auth, res }) {
    sendPdf(res, await previewTemplatePdf(auth, body), "template-preview.pdf");
    return { sent: true as const };
  },

  async generateJobDescription({ body, auth }) {
    return ok(await generateJobDescription(auth, body), "Job description generated");
  },
  async screenResume({ body, auth }) {
    return ok(await screenResume(auth, body), "Resume screened");
  },
  async generateInterviewQuestions({ body }) {
    return ok(await generateInterviewQuestions(body), "Interview questions generated");
  },
  async generateRecruitmentContent({ body, auth }) {
    return ok(await generateContent(auth, body), "Content generated");
  },

  async getPublicOffer({ params }) {
    return ok(await getPublicOffer(params.token));
  },
  async getPublicOfferPdf({ params, res }) {
    const { pdf, filename } = await publicOfferPdf(params.token);
    sendPdf(res, pdf, filename);
    return { sent: true as const };
  },
  async acceptPublicOffer({ params }) {
    return ok(await answerPublicOffer(params.token, "accepted"), "Offer accepted - welcome aboard!");
  },
  async declinePublicOffer({ params, body }) {
    return ok(await answerPublicOffer(params.token, "declined", body?.reason), "Offer declined");
  },
  async getPublicAppointment({ params }) {
    return ok(await getPublicAppointment(params.token));
  },
  async getPublicAppointmentPdf({ params, res }) {
    const { pdf, filename } = await publicAppointmentPdf(params.token);
    sendPdf(res, pdf, filename);
    return { sent: true as const };
  },
  async uploadAppointmentDocument({ params, body, files }) {
    const doc = await uploadAppointmentDocument(params.token, files.find((f) => f.fieldname === "file"), body as { document_type: string; title?: string });
    return created(doc, "Document uploaded");
  },
} satisfies AreaHandlers<"recruitment">;
