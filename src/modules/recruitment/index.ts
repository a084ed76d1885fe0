// The recruitment area's public face: what other areas (utilities) and the job registry may use.
export { EXPIRE_OFFERS_JOB, expireOffersEverywhere } from "./offer-expiry.ts";
export { recruitmentFilesInUse } from "./facts.ts";
// the public joining-document upload's checks, run before its body is read (src/http/public-uploads.ts)
export { checkAppointmentUpload } from "./public.ts";
// the privacy notice shown on the offer page (getPublicPrivacyNotice with offer_token)
export { tenantOfOfferLink } from "./public.ts";
// privacy (src/modules/privacy/): consents, the candidate's data, erasure
export {
  CONSENT_PURPOSES,
  type ConsentPurpose,
  candidateForPrivacy,
  consentsOf,
  notHiredCandidatesBefore,
  pseudonymiseCandidateIn,
  setCandidateConsent,
} from "./consents.ts";
