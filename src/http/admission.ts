// Admission control: a bound on the API requests this process works on at once, and a bounded,
// deadlined wait for the rest. Under overload the requests that cannot be served in time are
// refused early and cheaply - 503 `unavailable` with Retry-After, before their body is read or a
// database connection is asked for - instead of piling up on the event loop and the pool until
// everything is slow and the pool wait or a transaction timeout fails them half-way.
//
//   - fewer than `maxConcurrent` in progress: the request goes on at once;
//   - otherwise it waits in a FIFO queue of at most `maxQueued` for at most `queueTimeoutMs`;
//     a slot freed by a finished request goes to the oldest waiter;
//   - queue full, or still waiting at the deadline: 503 `unavailable`, Retry-After.
// A waiter whose client hangs up leaves the queue. Only /api/ paths are counted; the health check
// (/api/health) and the static reference (/docs, /openapi.json) bypass it, so a load balancer and
// an operator still get answers while the API is saturated.
import { AsyncResource } from "node:async_hooks";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { RETRY_AFTER_BUSY_S, unavailable } from "../platform/errors.ts";

export interface AdmissionOptions {
  /** requests in progress at once (MAX_CONCURRENT_REQUESTS) */
  maxConcurrent: number;
  /** requests waiting for a slot at most (MAX_QUEUED_REQUESTS; 0: no waiting) */
  maxQueued: number;
  /** how long a request may wait for a slot (REQUEST_QUEUE_TIMEOUT_MS) */
  queueTimeoutMs: number;
  /** Retry-After of the 503 (seconds) */
  retryAfterSeconds?: number;
  /**
   * Answers a refusal (the app passes its error middleware, the one place errors become the
   * envelope). Called directly rather than through next(err): Express would walk every route of
   * the app to reach the error handler, work the refusal path of an overloaded server cannot spare.
   */
  respond?: (err: unknown, req: Request, res: Response, next: NextFunction) => void;
}

export interface AdmissionStats {
  active: number;
  queued: number;
  admitted: number;
  rejectedFull: number;
  rejectedTimeout: number;
}

/** Paths that are never queued: health, and everything outside /api/ (the reference, its document). */
export function bypassesAdmission(path: string): boolean {
  return !path.startsWith("/api/") || path === "/api/health" || path === "/api/health/";
}

interface Waiter {
  next: () => void;
  timer: NodeJS.Timeout;
  res: Response;
  gone: boolean;
}

export function admissionControl(opts: AdmissionOptions): RequestHandler & { stats: () => AdmissionStats } {
  const retryAfter = opts.retryAfterSeconds ?? RETRY_AFTER_BUSY_S;
  let active = 0;
  // FIFO as an array with a moving head (shift() of a long array copies it)
  let queue: Waiter[] = [];
  let head = 0;
  /** waiters still waiting (not admitted, timed out or hung up) */
  let waiting = 0;
  const counts = { admitted: 0, rejectedFull: 0, rejectedTimeout: 0 };

  /** Holds a slot until the response is done (finished or the connection closed). */
  function hold(res: Response) {
    active++;
    counts.admitted++;
    let released = false;
    res.once("close", () => {
      if (released) return;
      released = true;
      active--;
      dispatch();
    });
  }

  /** Hands free slots to the oldest waiters. */
  function dispatch() {
    while (active < opts.maxConcurrent && head < queue.length) {
      const w = queue[head];
      queue[head++] = undefined as unknown as Waiter;
      if (w.gone) continue;
      w.gone = true;
      waiting--;
      clearTimeout(w.timer);
      hold(w.res);
      w.next();
    }
    if (head === queue.length) {
      queue = [];
      head = 0;
    } else if (head > 1024 && head * 2 > queue.length) {
      queue = queue.slice(head);
      head = 0;
    }
  }

  const refusal = (why: string) => unavailable(`Server busy (${why}), try again shortly`, retryAfter);
  const refuse = (req: Request, res: Response, next: NextFunction, why: string) =>
    opts.respond ? opts.respond(refusal(why), req, res, next) : next(refusal(why));

  const middleware = (req: Request, res: Response, next: NextFunction) => {
    if (bypassesAdmission(req.path)) return next();
    if (active < opts.maxConcurrent && waiting === 0) {
      hold(res);
      return next();
    }
    if (waiting >= opts.maxQueued) {
      counts.rejectedFull++;
      return refuse(req, res, next, "too many requests waiting");
    }
    // `next` runs later from another request's completion: keep this request's async context
    // (request id of the log lines) for everything downstream.
    const resume = AsyncResource.bind(() => next());
    const w: Waiter = {
      next: resume,
      res,
      gone: false,
      timer: setTimeout(() => {
        if (w.gone) return;
        w.gone = true;
        waiting--;
        counts.rejectedTimeout++;
        refuse(req, res, next, `no capacity within ${opts.queueTimeoutMs} ms`);
      }, opts.queueTimeoutMs),
    };
    res.once("close", () => {
      // the client hung up while waiting: leave the queue (skipped by dispatch)
      if (w.gone) return;
      w.gone = true;
      waiting--;
      clearTimeout(w.timer);
    });
    queue.push(w);
    waiting++;
  };
  return Object.assign(middleware, { stats: (): AdmissionStats => ({ active, queued: waiting, ...counts }) });
}
