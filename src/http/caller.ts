// Who is calling, as idempotency keys, rate limits and the If-Match rule partition by it: a session's user
// or an API credential - the one place that reads `credential` of AuthContext.
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
