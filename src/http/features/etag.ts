// ETag and If-None-Match on a GET of one resource (x-etag; src/http/conditional.ts).
import { tagged } from "../conditional.ts";
import type { Feature } from "./feature.ts";

export const etag: Feature = {
  name: "etag",
  applies: (op) => op.etag,
  wrap: (call, next) => tagged(call.req, call.res, next),
};
