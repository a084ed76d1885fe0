// Who is calling, as the cross-cutting mechanisms of the API partition by it (idempotency keys,
// rate limits, the If-Match rule): the signed-in user of a session, or an API credential (Bearer,
// API credentials: the guard sets `credential` on the caller's AuthContext, and every mechanism then keys
// on the credential - this is the one place that reads it).
import type { AuthContext } from "./types.ts";

export type CallerKind = "session" | "credential";

export interface Caller {
  kind: CallerKind;
  /** `user:<id>` or `credential:<id>`: the partition of keys and limits */
  key: string;
}

/** The caller of an authorized request. */
export function callerOf(auth: AuthContext): Caller {
  const credentialId = auth.credential?.id;
  return credentialId ? { kind: "credential", key: `credential:${credentialId}` } : { kind: "session", key: `user:${auth.userId}` };
}
