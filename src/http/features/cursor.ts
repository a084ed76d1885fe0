// A list declared x-cursor pages by number or walks by cursor (src/http/cursor.ts).
import { walkOf } from "../cursor.ts";
import type { Feature } from "./feature.ts";

export const cursor: Feature = {
  name: "cursor",
  applies: (op) => op.cursor !== null && !op.isPublic,
  wrap(call, next) {
    if (call.auth) (call.ctx as { walk: unknown }).walk = walkOf(call.req, call.op.id, call.auth.tenantId, call.op.cursor!);
    return next();
  },
};
