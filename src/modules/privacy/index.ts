// The privacy area's public face: the notice shown and acknowledged at signup and on accepting an invitation (auth).
export { acknowledgeOnJoining, assertCurrentNotice, noticeBeforeJoining } from "./joining.ts";
