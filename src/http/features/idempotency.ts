// An Idempotency-Key replays the first answer instead of running again (src/http/idempotency.ts).
import { idempotently } from "../idempotency.ts";
import type { Feature } from "./feature.ts";

export const idempotency: Feature = {
  name: "idempotency",
  applies: (op) => op.idempotent && !op.isPublic,
  wrap: (call, next) => (call.auth ? idempotently(call.req, call.res, call.auth, call.op.id, call.ctx.files, next) : next()),
};
