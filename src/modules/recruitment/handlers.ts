// Recruitment area (module `recruitment`): handlers translate HTTP to one use case and back.
import { ack, created, listed, ok } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { draftContent, draftInterviewQuestions, draftJobDescription, scoreResume } from "./ai.ts";
import { addCandidate, candidateById, changeCandidate, removeCandidate } from "./candidates.ts";
import { candidateList } from "./candidate-list.ts";
import { convertToEmployee } from "./conversion.ts";
import { interviewById, interviewPage } from "./interview-records.ts";
import { changeInterview, removeInterview, scheduleInterview } from "./interviews.ts";
import { previewTemplatePdf } from "./letters.ts";
import { draftOffer, removeOffer, offerById, offerLetterOf, offerPage, changeOffer } from "./offers.ts";
import { sendAppointment, sendOffer } from "./offer-sending.ts";
import { configurePanel, readPanel } from "./panel.ts";
import { sendPdf } from "./pdf.ts";
import { publicAppointmentPage, publicOfferPage } from "./public-pages.ts";
import { addPosting, removePosting, postingById, postingPage, changePosting } from "./postings.ts";
import {
  addAppointmentDocument,
  answerPublicOffer,
  publicAppointment,
  publicAppointmentPdf,
  publicOffer,
  publicOfferPdf,
} from "./public.ts";
import { raiseRequisition, removeRequisition, requisitionById, requisitionPage, changeRequisition } from "./requisitions.ts";
import { scheduleSession, removeSession, sessionById, sessionPage, sendSession, changeSession } from "./sessions.ts";
import { addTalent, talentById, talentPage, removeTalent, changeTalent } from "./talent-pool.ts";

export const handlers = {
  async getInterviewPanel() {
    return ok(await readPanel());
  },
  async updateInterviewPanel({ body, auth }) {
    return ok(await configurePanel(auth, body), "Interview panel updated");
  },

  async listJobRequisitions({ operationId, query, auth }) {
    const { rows, page, total } = await requisitionPage(auth, query);
    return listed(operationId, { rows, page, total });
  },
  async createJobRequisition({ body, auth }) {
    return created(await raiseRequisition(auth, body), "Job requisition created");
  },
  async getJobRequisition({ params, auth }) {
    return ok(await requisitionById(auth, params.id));
  },
  async updateJobRequisition({ params, body, auth }) {
    return ok(await changeRequisition(auth, params.id, body), "Job requisition updated");
  },
  async deleteJobRequisition({ params, auth }) {
    await removeRequisition(auth, params.id);
    return ack("Job requisition deleted");
  },

  async listJobPostings({ operationId, query, auth }) {
    const { rows, page, total } = await postingPage(auth, query);
    return listed(operationId, { rows, page, total });
  },
  async createJobPosting({ body, auth }) {
    return created(await addPosting(auth, body), "Job posting created");
  },
  async getJobPosting({ params, auth }) {
    return ok(await postingById(auth, params.id));
  },
  async updateJobPosting({ params, body, auth }) {
    return ok(await changePosting(auth, params.id, body), "Job posting updated");
  },
  async deleteJobPosting({ params, auth }) {
    await removePosting(auth, params.id);
    return ack("Job posting deleted");
  },

  async listCandidates({ operationId, query, auth, walk }) {
    return listed(operationId, await candidateList(auth, query, walk));
  },
  async createCandidate({ body, auth }) {
    return created(await addCandidate(auth, body), "Candidate added");
  },
  async getCandidate({ params, auth }) {
    return ok(await candidateById(auth, params.id));
  },
  async updateCandidate({ params, body, auth }) {
    return ok(await changeCandidate(auth, params.id, body), "Candidate updated");
  },
  async deleteCandidate({ params, auth }) {
    await removeCandidate(auth, params.id);
    return ack("Candidate deleted");
  },
  async convertCandidateToEmployee({ params, body, auth }) {
    return created(await convertToEmployee(auth, params.id, body), "Candidate converted into an employee");
  },

  async listInterviews({ operationId, query, auth }) {
    const { rows, page, total } = await interviewPage(auth, query);
    return listed(operationId, { rows, page, total });
  },
  async createInterview({ body, auth }) {
    return created(await scheduleInterview(auth, body), "Interview scheduled");
  },
  async getInterview({ params, auth }) {
    return ok(await interviewById(auth, params.id));
  },
  async updateInterview({ params, body, auth }) {
    return ok(await changeInterview(auth, params.id, body), "Interview updated");
  },
  async deleteInterview({ params, auth }) {
    await removeInterview(auth, params.id);
    return ack("Interview deleted");
  },

  async listInterviewSessions({ operationId, query }) {
    const { rows, page, total } = await sessionPage(query);
    return listed(operationId, { rows, page, total });
  },
  async createInterviewSession({ body, auth }) {
    return created(await scheduleSession(auth, body), "Interview session created");
  },
  async getInterviewSession({ params }) {
    return ok(await sessionById(params.id));
  },
  async updateInterviewSession({ params, body }) {
    return ok(await changeSession(params.id, body), "Interview session updated");
  },
  async deleteInterviewSession({ params }) {
    await removeSession(params.id);
    return ack("Interview session deleted");
  },
  async sendInterviewSession({ params }) {
    return ok(await sendSession(params.id), "Interview details sent to the candidate");
  },

  async listJobOffers({ operationId, query }) {
    const { rows, page, total } = await offerPage(query);
    return listed(operationId, { rows, page, total });
  },
  async createJobOffer({ body, auth }) {
    return created(await draftOffer(auth, body), "Offer drafted");
  },
  async getJobOffer({ params }) {
    return ok(await offerById(params.id));
  },
  async updateJobOffer({ params, body }) {
    return ok(await changeOffer(params.id, body), "Offer updated");
  },
  async deleteJobOffer({ params }) {
    await removeOffer(params.id);
    return ack("Offer deleted");
  },
  async sendJobOffer({ params }) {
    return ok(await sendOffer(params.id), "Offer sent to the candidate");
  },
  async sendAppointmentLetter({ params }) {
    return ok(await sendAppointment(params.id), "Appointment letter sent to the candidate");
  },

  async listTalentPoolCandidates({ operationId, query }) {
    const { rows, page, total } = await talentPage(query);
    return listed(operationId, { rows, page, total });
  },
  async createTalentPoolCandidate({ body, auth }) {
    return created(await addTalent(auth, body), "Added to the talent pool");
  },
  async getTalentPoolCandidate({ params }) {
    return ok(await talentById(params.id));
  },
  async updateTalentPoolCandidate({ params, body }) {
    return ok(await changeTalent(params.id, body), "Talent pool entry updated");
  },
  async deleteTalentPoolCandidate({ params }) {
    await removeTalent(params.id);
    return ack("Removed from the talent pool");
  },

  async previewDocumentTemplatePdf({ body, res }) {
    sendPdf(res, await previewTemplatePdf(body), "template-preview.pdf");
    return { sent: true as const };
  },

  async generateJobDescription({ body, auth }) {
    return ok(await draftJobDescription(auth, body), "Job description generated");
  },
  async screenResume({ body, auth }) {
    return ok(await scoreResume(auth, body), "Resume screened");
  },
  async generateInterviewQuestions({ body, auth }) {
    return ok(await draftInterviewQuestions(auth, body), "Interview questions generated");
  },
  async generateRecruitmentContent({ body, auth }) {
    return ok(await draftContent(auth, body), "Content generated");
  },

  async getPublicOffer({ params }) {
    return ok(await publicOffer(params.token));
  },
  async downloadJobOfferPdf({ params, res }) {
    const { pdf, filename } = await offerLetterOf(params.id);
    sendPdf(res, pdf, filename, "attachment");
    return { sent: true as const };
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
  async getPublicOfferPage({ params, res }) {
    const html = await publicOfferPage(params.token); // before any header: an error is the JSON envelope
    res.status(200).type("html").send(html);
    return { sent: true as const };
  },
  async getPublicAppointmentPage({ params, res }) {
    const html = await publicAppointmentPage(params.token);
    res.status(200).type("html").send(html);
    return { sent: true as const };
  },
  async getPublicAppointment({ params }) {
    return ok(await publicAppointment(params.token));
  },
  async getPublicAppointmentPdf({ params, res }) {
    const { pdf, filename } = await publicAppointmentPdf(params.token);
    sendPdf(res, pdf, filename);
    return { sent: true as const };
  },
  async uploadAppointmentDocument({ params, body, files }) {
    const doc = await addAppointmentDocument(
      params.token,
      files.find((f) => f.fieldname === "file"),
      body,
    );
    return created(doc, "Document uploaded");
  },
} satisfies Partial<AreaHandlers<"recruitment">>;
