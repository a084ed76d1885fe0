// The integrations area's public face: who a person's data was shared with (the privacy area's access bundle).
export { credentialsThatTouched, endpointsThatReceived } from "./queries.ts";
