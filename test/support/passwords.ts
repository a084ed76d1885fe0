// The password of every member the tests insert directly (addMember, the proof factories), with its
// hash computed once, ahead of time, in the production format (`scrypt$<salt>$<hash>`, N=16384):
// hashing it again for every member cost 0.08-0.45 s of scrypt each on 2 cores.
// test/platform/auth.test.ts checks that verifyPassword accepts this pair, so it cannot drift from
// the production format unnoticed.
export const MEMBER_PASSWORD = "member-password-1";
export const MEMBER_PASSWORD_HASH =
  "scrypt$a38491fa1ae5a7e13bdd3e486f48070b$" +
  "0e7f95677b8f5e6c22bf17c9a075aa596d6d2718fe4618bde2868e7a11545d5174ccf2a523db101b668f2571e33858a615f41462cc8592075162735ef1863308";
