// The privacy area's public face: the notice acknowledged at signup and on accepting an invitation (auth).
export { acknowledgeOnJoining, assertCurrentNotice } from "./joining.ts";
