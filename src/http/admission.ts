// size: one closure over the state every part updates (slots, the two queues, body reads, their memory), one timer
// Admission control: at most `maxConcurrent` API requests at work, a bounded FIFO queue with a deadline,
// 503 beyond, before a body is read or a connection asked for. Slow bodies and unread responses hold no
// slot, each with a deadline and a minimum rate (docs/operations.md, "Overload").
import { AsyncResource } from "node:async_hooks";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import { logger } from "../log.ts";
import { AppError, RETRY_AFTER_BUSY_S, rateLimited, unavailable } from "../platform/errors.ts";
import { clientKey } from "../lib/ip.ts";
import { type Links, LinkedSet } from "../lib/linked-set.ts";
import { recordRefusal } from "../platform/metrics.ts";
import { type Waiter, WaitQueue } from "./wait-queue.ts";

export interface AdmissionOptions {
  /** requests in progress at once (MAX_CONCURRENT_REQUESTS) */
  maxConcurrent: number;
  /** requests waiting for a slot at most (MAX_QUEUED_REQUESTS; 0: no waiting) */
  maxQueued: number;
  /** how long a request may wait for a slot (REQUEST_QUEUE_TIMEOUT_MS) */
  queueTimeoutMs: number;
  /** Retry-After of the 503 (seconds) */
  retryAfterSeconds?: number;
  /** bodies one client IP may be sending at once (BODY_READS_PER_CLIENT; default: no limit) */
  bodyReadsPerClient?: number;
  /** the time a body has to arrive, before the extension its bytes earn (BODY_READ_TIMEOUT_MS; default: none) */
  bodyReadTimeoutMs?: number;
  /** each this many bytes of a body received give it one more second (BODY_MIN_BYTES_PER_SECOND) */
  bodyMinBytesPerSecond?: number;
  /** the time a response has to be written after its headers, before its bytes' extension (RESPONSE_WRITE_TIMEOUT_MS; default: none) */
  writeTimeoutMs?: number;
  /** each this many bytes of a response the client took give it one more second (RESPONSE_MIN_BYTES_PER_SECOND) */
  writeMinBytesPerSecond?: number;
  /** the memory request bodies being read or worked on may take at once (BODY_MEMORY_MB; default: no limit) */
  bodyMemoryBytes?: number;
  /** The error middleware, called directly: next(err) walks every route, work an overloaded server cannot spare. */
  respond?: (err: unknown, req: Request, res: Response, next: NextFunction) => void;
}

export interface AdmissionStats {
  /** requests holding a slot */
  active: number;
  /** requests waiting for a slot (new ones, and those whose body is in) */
  queued: number;
  admitted: number;
  rejectedFull: number;
  rejectedTimeout: number;
  /** bodies being received (holding no slot) */
  readingBodies: number;
  /** bodies refused for the client's bodies already arriving (429) */
  rejectedBodyReads: number;
  /** bodies that did not arrive in time (408) */
  bodyReadTimeouts: number;
  /** responses cut off for not being written in time */
  writeTimeouts: number;
  /** responses that gave their slot back because their client was not reading */
  writesReleased: number;
  /** responses being written that hold no slot (their client is slow) */
  writingResponses: number;
  /** the memory reserved for request bodies (bytes) */
  bodyMemory: number;
  /** bodies refused for the memory of bodies already in progress (503) */
  rejectedBodyMemory: number;
  /** Every slot taken and requests waiting, or refused within the last second (health reports it). */
  saturated: boolean;
}

/** The admission control of an app: its middleware, the body-reading wrapper, and its figures. */
export type Admission = RequestHandler & {
  stats: () => AdmissionStats;
  /** `reader` run without a slot, within the body's budget and deadline; `cost` reserved until the request ends */
  readingBody: (reader: RequestHandler, cost?: (req: Request) => number) => RequestHandler;
  options: Readonly<AdmissionOptions>;
};

const UNQUEUED = new Set([
  "/api/health",
  "/api/health/",
  "/api/health/ready",
  "/api/health/ready/",
  "/api/health/live",
  "/api/health/live/",
]);

/** Paths that are never queued: health, liveness and readiness, and everything outside /api/ (the reference, its document). */
export function bypassesAdmission(path: string): boolean {
  return !path.startsWith("/api/") || UNQUEUED.has(path);
}

/** The load of the app serving `req`, as readiness reports it (src/http/metrics-server.ts shows it to operators). */
export const requestLoad = (req: Request) => admissionLoad(req.app.locals.admission as Admission);

export function admissionLoad(admission: Admission) {
  const s = admission.stats();
  return {
    in_progress: s.active,
    limit: admission.options.maxConcurrent,
    queued: s.queued,
    queue_limit: admission.options.maxQueued,
    reading_bodies: s.readingBodies,
    saturated: s.saturated,
  };
}

/** Seconds a client waits before sending another body when its bodies in progress were too many. */
export const BODY_READS_RETRY_S = 2;

/** Is the response waiting for its client to read (its buffer, or its socket's, is full)? */
const waitsOnClient = (res: Response): boolean => res.writableNeedDrain || Boolean(res.socket?.writableNeedDrain);

/** Does the request announce a body (a length above 0, or chunks)? */
function announcesBody(req: Request): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
}

/**
 * An admitted request: `held` a slot, `reading` its body (no slot), `waiting` for a slot again after it,
 * `free` (no slot, no read: an error answered after its body, or a late body), `done`.
 */
interface Entry extends Links<Entry> {
  req: Request;
  res: Response;
  state: "held" | "reading" | "waiting" | "free" | "writing" | "done";
  /** when the response's headers were first seen sent (0: not yet), and the socket's bytes written by then */
  writeFrom: number;
  writeBase: number;
  /** when the response last got bytes further, and how many it had then */
  movedAt: number;
  moved: number;
  /** memory reserved for its body until it ends */
  memory: number;
  /** when its body began to be read, and the socket's bytes read by then */
  bodyFrom: number;
  bodyBase: number;
  /** the client IP whose body budget it uses while reading */
  client: string;
  /** ends the body read as late (408) */
  late?: () => void;
  /** its place in the queue while waiting for a slot after its body */
  waiter?: Waiter;
}

// size: one closure over the state every part of it updates; the queue itself is src/http/wait-queue.ts
export function admissionControl(opts: AdmissionOptions): Admission {
  const retryAfter = opts.retryAfterSeconds ?? RETRY_AFTER_BUSY_S;
  const bodyReadsPerClient = opts.bodyReadsPerClient ?? Number.POSITIVE_INFINITY;
  const bodyTimeout = opts.bodyReadTimeoutMs ?? Number.POSITIVE_INFINITY;
  const minRate = opts.bodyMinBytesPerSecond ?? Number.POSITIVE_INFINITY;
  const writeTimeout = opts.writeTimeoutMs ?? Number.POSITIVE_INFINITY;
  const writeRate = opts.writeMinBytesPerSecond ?? Number.POSITIVE_INFINITY;
  const memoryBudget = opts.bodyMemoryBytes ?? Number.POSITIVE_INFINITY;
  // every quarter of the shorter deadline, at most every second, at least every 20 ms
  const shorter = Math.min(bodyTimeout, writeTimeout);
  const checkEveryMs = Number.isFinite(shorter) ? Math.max(20, Math.min(1000, Math.floor(shorter / 4))) : 0;

  let active = 0;
  /** new requests waiting for a slot */
  const queue = new WaitQueue();
  /** requests whose body is in, waiting for a slot again: served before new ones */
  const resuming = new WaitQueue();
  /** bodies arriving per client IP */
  const readersOf = new Map<string, number>();
  let readingBodies = 0;
  let writing = 0;
  let bodyMemory = 0;
  let lastRefusalAt = 0;
  const counts = {
    admitted: 0,
    rejectedFull: 0,
    rejectedTimeout: 0,
    rejectedBodyReads: 0,
    bodyReadTimeouts: 0,
    writeTimeouts: 0,
    writesReleased: 0,
    rejectedBodyMemory: 0,
  };
  // a linked list, not a Set; the entry on the response itself, not in a WeakMap keyed by it: either kept
  // requests past young collections (src/lib/linked-set.ts; docs/performance.md, "The request path")
  const entries = new LinkedSet<Entry>();
  const ENTRY = Symbol("admission entry");
  const entryOf = (res: Response): Entry | undefined => (res as Response & { [ENTRY]?: Entry })[ENTRY];
  let checker: NodeJS.Timeout | undefined;

  const refusal = (why: string) => unavailable(`Server busy (${why}), try again shortly`, retryAfter);
  const refuse = (req: Request, res: Response, next: NextFunction, why: string) => {
    lastRefusalAt = Date.now();
    return opts.respond ? opts.respond(refusal(why), req, res, next) : next(refusal(why));
  };

  /** Admits the request: it holds a slot until its response is done (finished or the connection closed). */
  function hold(req: Request, res: Response) {
    active++;
    counts.admitted++;
    const e: Entry = {
      req,
      res,
      state: "held",
      writeFrom: 0,
      writeBase: 0,
      movedAt: 0,
      moved: 0,
      memory: 0,
      bodyFrom: 0,
      bodyBase: 0,
      client: "",
      linkedPrev: undefined,
      linkedNext: undefined,
      linkedIn: undefined,
    };
    entries.add(e);
    (res as Response & { [ENTRY]?: Entry })[ENTRY] = e;
    res.once("close", () => close(e));
    if (checkEveryMs && !checker) checker = setInterval(check, checkEveryMs).unref();
  }

  function close(e: Entry) {
    if (e.state === "held") active--;
    else if (e.state === "reading") endBodyRead(e);
    else if (e.state === "waiting" && e.waiter) resuming.leave(e.waiter);
    else if (e.state === "writing") writing--;
    bodyMemory -= e.memory;
    e.memory = 0;
    e.state = "done";
    entries.delete(e);
    dispatch();
  }

  function endBodyRead(e: Entry) {
    readingBodies--;
    const n = (readersOf.get(e.client) ?? 1) - 1;
    if (n > 0) readersOf.set(e.client, n);
    else readersOf.delete(e.client);
    e.late = undefined;
  }

  /** Hands free slots to the waiters: first those whose body is in, then the oldest new ones. */
  function dispatch() {
    while (active < opts.maxConcurrent) {
      const w = resuming.shift() ?? queue.shift();
      if (!w) break;
      w.grant();
    }
  }

  /** The deadlines: bodies that arrive too slowly, responses written too slowly. */
  function check() {
    const now = Date.now();
    for (const e of entries) {
      if (e.state === "reading") {
        const received = Math.max(0, (e.req.socket?.bytesRead ?? e.bodyBase) - e.bodyBase);
        if (now - e.bodyFrom > bodyTimeout + (received * 1000) / minRate) e.late?.();
      } else if (e.res.headersSent && !e.res.writableFinished) {
        const sent = e.res.socket?.bytesWritten ?? 0;
        if (!e.writeFrom) {
          e.writeFrom = now;
          e.writeBase = sent;
        }
        if (sent !== e.moved || !e.movedAt) {
          e.moved = sent;
          e.movedAt = now;
        }
        const written = Math.max(0, sent - e.writeBase);
        // or nothing taken for the whole timeout: what the sockets' buffers absorbed is not reading
        if (now - e.writeFrom > writeTimeout + (written * 1000) / writeRate || now - e.movedAt > writeTimeout) {
          counts.writeTimeouts++;
          recordRefusal("write_timeout");
          logger.warn({ path: e.req.path, ms: now - e.writeFrom, bytes: written }, "response not written in time: connection closed");
          e.res.destroy();
        } else if (e.state === "held" && waitsOnClient(e.res)) {
          // what is left is the client's to read: the slot goes to work that is waiting
          e.state = "writing";
          active--;
          writing++;
          counts.writesReleased++;
          dispatch();
        }
      }
    }
    if (!entries.size && checker) {
      clearInterval(checker);
      checker = undefined;
    }
  }

  const middleware = (req: Request, res: Response, next: NextFunction) => {
    if (bypassesAdmission(req.path)) return next();
    if (active < opts.maxConcurrent && queue.live === 0 && resuming.live === 0) {
      hold(req, res);
      return next();
    }
    if (queue.live >= opts.maxQueued) {
      counts.rejectedFull++;
      recordRefusal("queue_full");
      return refuse(req, res, next, "too many requests waiting");
    }
    // `next` runs from another request's completion: keep this one's async context (its log lines' request id)
    const resume = AsyncResource.bind(() => next());
    const w: Waiter = {
      grant: () => {
        hold(req, res);
        resume();
      },
      gone: false,
      timer: setTimeout(() => {
        if (!queue.leave(w)) return;
        counts.rejectedTimeout++;
        recordRefusal("queue_timeout");
        refuse(req, res, next, `no capacity within ${opts.queueTimeoutMs} ms`);
      }, opts.queueTimeoutMs),
    };
    // the client hung up while waiting: leave the queue (skipped by dispatch)
    res.once("close", () => queue.leave(w));
    queue.push(w);
  };

  /** After its body: the slot again at once, or ahead of new requests within the queue's deadline. */
  function takeSlotAgain(e: Entry, next: NextFunction) {
    if (active < opts.maxConcurrent && resuming.live === 0) {
      e.state = "held";
      active++;
      return next();
    }
    e.state = "waiting";
    const resume = AsyncResource.bind(() => next());
    const w: Waiter = {
      grant: () => {
        e.state = "held";
        e.waiter = undefined;
        active++;
        resume();
      },
      gone: false,
      timer: setTimeout(() => {
        if (!resuming.leave(w)) return;
        e.state = "free";
        e.waiter = undefined;
        counts.rejectedTimeout++;
        recordRefusal("queue_timeout");
        refuse(e.req, e.res, next, `no capacity within ${opts.queueTimeoutMs} ms`);
      }, opts.queueTimeoutMs),
    };
    e.waiter = w;
    resuming.push(w);
  }

  /** Whether `memory` more for a body fits the budget (counted as a refusal when not). */
  function memoryFits(memory: number): boolean {
    if (!memory || bodyMemory + memory <= memoryBudget) return true;
    counts.rejectedBodyMemory++;
    recordRefusal("body_memory");
    return false;
  }

  // size: a body read's whole life in one place: memory, client budget, deadline, the slot given back and retaken
  const readingBody =
    (reader: RequestHandler, cost?: (req: Request) => number): RequestHandler =>
    (req, res, next) => {
      const e = entryOf(res);
      if (e?.state !== "held" || !announcesBody(req)) return reader(req, res, next);
      const memory = cost ? cost(req) : 0;
      if (!memoryFits(memory)) return refuse(req, res, next, "request bodies in memory");
      const client = clientKey(req.ip); // IPv6 by its /64 (src/lib/ip.ts)
      const arriving = readersOf.get(client) ?? 0;
      if (arriving >= bodyReadsPerClient) {
        counts.rejectedBodyReads++;
        recordRefusal("body_reads");
        return next(
          rateLimited(
            BODY_READS_RETRY_S,
            { name: "body-reads", limit: bodyReadsPerClient },
            `Too many request bodies arriving at once from this client (at most ${bodyReadsPerClient}); finish sending one first`,
          ),
        );
      }
      readersOf.set(client, arriving + 1);
      readingBodies++;
      bodyMemory += memory;
      e.memory = memory;
      e.client = client;
      e.bodyFrom = Date.now();
      e.bodyBase = req.socket?.bytesRead ?? 0;
      e.state = "reading";
      active--;
      let over = false;
      const done = (err?: unknown) => {
        if (over) return;
        over = true;
        if (e.state !== "reading") return;
        endBodyRead(e);
        if (err !== undefined && err !== null) {
          e.state = "free";
          return next(err);
        }
        takeSlotAgain(e, next);
      };
      // from the deadline timer: in the request's own async context
      e.late = AsyncResource.bind(() => {
        if (over) return;
        over = true;
        endBodyRead(e);
        e.state = "free";
        counts.bodyReadTimeouts++;
        recordRefusal("body_timeout");
        next(
          new AppError(
            "request_timeout",
            `Request body not received in time (${bodyTimeout} ms, and 1 s more for every ${minRate} bytes received)`,
            undefined,
            // what is left of the body is not waited for: the connection ends with the answer
            { Connection: "close" },
          ),
        );
      });
      // the slot it gave back goes to a waiter
      dispatch();
      reader(req, res, done);
    };

  const stats = (): AdmissionStats => ({
    active,
    queued: queue.live + resuming.live,
    ...counts,
    readingBodies,
    writingResponses: writing,
    bodyMemory,
    saturated: active >= opts.maxConcurrent && (queue.live + resuming.live > 0 || Date.now() - lastRefusalAt < 1000),
  });
  return Object.assign(middleware, { stats, readingBody, options: Object.freeze({ ...opts }) });
}
