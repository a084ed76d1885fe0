// The lifecycle of the app serving a request (the lifecycle itself: src/platform/lifecycle.ts).
import type { Request } from "express";
import type { Lifecycle } from "../platform/lifecycle.ts";

/** The lifecycle of the app serving `req`. */
export function lifecycleOf(req: Request): Lifecycle {
  return req.app.locals.lifecycle as Lifecycle;
}
