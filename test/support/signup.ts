// Signup is confirmed by a token mailed to the address (POST /api/auth/signup answers 202; the
// job auth.signup-requests mails the token; POST /api/auth/signup/confirm creates the account).
// Fixtures do not wait for that mail: they give the address's latest signup a token of their own
// (stored hashed, as the job does) and mark it mailed, so that the job leaves it alone; a job that
// got there first has its token replaced. The e-mailed path itself is tested in
// test/platform/signup.test.ts.
import { newToken } from "../../src/platform/identity/tokens.ts";

type Query = (sql: string, params?: unknown[]) => Promise<unknown[]>;

/** A confirmation token for the latest pending signup of `email` (throws when there is none). */
export async function signupToken(query: Query, email: string): Promise<string> {
  const { token, hash } = newToken();
  const rows = await query(
    `UPDATE signup_requests SET token_hash = $2, mailed_at = coalesce(mailed_at, now())
      WHERE id = (SELECT id FROM signup_requests WHERE email = $1 ORDER BY created_at DESC LIMIT 1) RETURNING id`,
    [email, hash],
  );
  if (rows.length !== 1) throw new Error(`no pending signup for ${email}`);
  return token;
}
