// Privacy: persons' requests about their data, legal holds, the retention schedule, the breach
// register, the privacy notice and candidates' privacy pages. Each handler translates HTTP to one
// use case and back.
import { ack, created, listed, ok, sendAttachment } from "../../http/envelope.ts";
import type { AreaHandlers } from "../../http/types.ts";
import { breachById, breachPage, breachReport, notifyBreachPersons, recordBreach, recordIntimation } from "./breaches.ts";
import { bundleOf } from "./bundle.ts";
import { noticeBeforeJoining } from "./joining.ts";
import { holdPage, placeHold, releaseHold } from "./holds.ts";
import { acknowledgeNotice, noticeStatus, noticeVersions, publishNotice } from "./notices.ts";
import { candidateAcknowledges, candidateConsent, candidateRequest, publicPrivacyPage, sendCandidateLink } from "./public.ts";
import { decideRequest, receiveRequest, requestById, requestPage, withdrawRequest } from "./requests.ts";
import { retentionRules } from "./schedule-view.ts";
import { changePrivacySettings, privacySettings } from "./settings.ts";

export const handlers = {
  async getPrivacySettings() {
    return ok(await privacySettings());
  },
  async updatePrivacySettings({ body, auth }) {
    return ok(await changePrivacySettings(auth, body), "Privacy settings saved");
  },
  async listRetentionRules({ query }) {
    return ok(await retentionRules(query.jurisdiction));
  },
  async listPrivacyRequests({ operationId, query, auth }) {
    const { rows, total, page } = await requestPage(auth, query);
    return listed(operationId, { rows, page, total });
  },
  async createPrivacyRequest({ body, auth }) {
    const r = await receiveRequest(auth, body);
    return created(await requestById(auth, r.id), "Request received");
  },
  async getPrivacyRequest({ params, auth }) {
    return ok(await requestById(auth, params.id));
  },
  async decidePrivacyRequest({ params, body, auth }) {
    return ok(await decideRequest(auth, params.id, body), "Request decided");
  },
  async withdrawPrivacyRequest({ params, auth }) {
    return ok(await withdrawRequest(auth, params.id), "Request withdrawn");
  },
  async getPrivacyRequestBundle({ params, auth }) {
    return ok(await bundleOf(auth, params.id));
  },
  async listLegalHolds({ operationId, query }) {
    const { rows, total, page } = await holdPage(query);
    return listed(operationId, { rows, page, total });
  },
  async createLegalHold({ body, auth }) {
    return created(await placeHold(auth, body), "Legal hold placed");
  },
  async releaseLegalHold({ params, auth }) {
    return ok(await releaseHold(auth, params.id), "Legal hold released");
  },
  async listPrivacyBreaches({ operationId, query }) {
    const { rows, total, page } = await breachPage(query);
    return listed(operationId, { rows, page, total });
  },
  async createPrivacyBreach({ body, auth }) {
    return created(await recordBreach(auth, body), "Breach recorded");
  },
  async getPrivacyBreach({ params }) {
    return ok(await breachById(params.id));
  },
  async notifyPrivacyBreachPersons({ params }) {
    return ok(await notifyBreachPersons(params.id), "Affected persons notified");
  },
  async recordPrivacyBreachIntimation({ params, body }) {
    return ok(await recordIntimation(params.id, body), "Recorded");
  },
  async getPrivacyBreachReport({ params, res }) {
    const { filename, text } = await breachReport(params.id);
    return sendAttachment(res, { fileName: filename, contentType: "text/plain; charset=utf-8", body: Buffer.from(text, "utf8") });
  },
  async listPrivacyNotices() {
    return ok(await noticeVersions());
  },
  async publishPrivacyNotice({ body, auth }) {
    return created(await publishNotice(auth, body), "Privacy notice published");
  },
  async getPrivacyNotice({ auth }) {
    return ok(await noticeStatus(auth));
  },
  async acknowledgePrivacyNotice({ body, auth }) {
    return ok(await acknowledgeNotice(auth, body), "Acknowledged");
  },
  async sendCandidatePrivacyLink({ params }) {
    await sendCandidateLink(params.candidateId);
    return ack("Privacy link mailed to the candidate");
  },
  async getPublicPrivacyNotice({ query }) {
    return ok(await noticeBeforeJoining(query));
  },
  async getPublicPrivacyPage({ params }) {
    return ok(await publicPrivacyPage(params.token));
  },
  async createPublicPrivacyRequest({ params, body }) {
    return created(await candidateRequest(params.token, body), "Request received");
  },
  async acknowledgePublicPrivacyNotice({ params, body }) {
    return ok(await candidateAcknowledges(params.token, body.version), "Acknowledged");
  },
  async setPublicPrivacyConsent({ params, body }) {
    return ok(await candidateConsent(params.token, body.purpose, body.granted), body.granted ? "Consent given" : "Consent withdrawn");
  },
} satisfies Partial<AreaHandlers<"privacy">>;
