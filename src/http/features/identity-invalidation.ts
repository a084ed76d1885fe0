// This process's identity cache must not answer the caller's next request with what a write may
// have changed (other processes hear of it through NOTIFY): dropped before the response, failed or not.
import { invalidateIdentities } from "../../platform/identity/identity-cache.ts";
import { STATE_CHANGING } from "../routing.ts";
import type { Feature } from "./feature.ts";

export const identityInvalidation: Feature = {
  name: "identity-invalidation",
  applies: (op) => STATE_CHANGING.has(op.method),
  wrap: (_call, next) => next().finally(invalidateIdentities),
};
