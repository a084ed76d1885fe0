// The recruitment area's public face: what the job registry may use.
export { EXPIRE_OFFERS_JOB, expireOffersEverywhere } from "./offers.ts";
