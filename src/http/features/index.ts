// The operation pipeline: the features every operation runs through, outermost first, each applied
// where the operation's flags (generated/registry.ts) say so - the one place their order is set.
// Adding one: docs/adding-an-operation.md, "Adding a feature".
import type { Matcher } from "../routing.ts";
import { cursor } from "./cursor.ts";
import { etag } from "./etag.ts";
import type { Answer, Call, Feature } from "./feature.ts";
import { identityInvalidation } from "./identity-invalidation.ts";
import { idempotency } from "./idempotency.ts";
import { ifMatch } from "./if-match.ts";
import { mailKick } from "./mail-kick.ts";
import { readReplica } from "./read-replica.ts";
import { readYourWrites } from "./read-your-writes.ts";
import { tenant } from "./tenant.ts";

export type { Answer, Call, Feature } from "./feature.ts";

export const FEATURES: readonly Feature[] = [
  // the walk's query is checked before anything runs
  cursor,
  // after the answer is final, before it is sent
  readYourWrites,
  identityInvalidation,
  tenant,
  // mail queued by the replayed or conditional write goes out once all of it has committed
  mailKick,
  // a replay answers before any check of the resource
  idempotency,
  etag,
  ifMatch,
  readReplica,
];

/** The pipeline of `op`: its features around `handler`, composed once at start. */
export function pipelineOf(op: Matcher, handler: (call: Call) => Promise<Answer>): (call: Call) => Promise<Answer> {
  return FEATURES.filter((f) => f.applies(op)).reduceRight<(call: Call) => Promise<Answer>>(
    (inner, feature) => (call) => feature.wrap(call, () => inner(call)),
    handler,
  );
}
