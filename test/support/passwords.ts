// The password of every member the tests insert directly (addMember, the proof factories), with its
// hash computed once, ahead of time, in the stored format at the suite's cost (PASSWORD_HASH_COST=10,
// test/support/test-env.ts): hashing it again for every member would cost a scrypt each.
// test/platform/auth.test.ts checks that verifyPassword accepts this pair and that signing in with it
// leaves it as it is, so it cannot drift from the format or the suite's cost unnoticed.
export const MEMBER_PASSWORD = "member-password-1";
export const MEMBER_PASSWORD_HASH =
  "scrypt$ln=10,r=8,p=1$c109d696085adf4f4a2d0d22811ace9e$" +
  "c250deb6e1e87e9203d31f39ea3006ccd023032b881661c6799fc7d4f661474aaf3bef14c267d64cc132b13bbea65ab172db0f2ac5a875a527967e5f34f13341";
