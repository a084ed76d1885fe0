// Structured JSON logs (or, LOG_FORMAT=pretty, short lines for a terminal: src/log-pretty.ts). Every
// line written while a request is being served carries its request id (src/request-context.ts); the
// access-log line of a request also its user and tenant. Passwords, tokens and cookies are redacted.
import type { Writable } from "node:stream";
import { pino, type Logger, type LoggerOptions } from "pino";
import { config } from "./config.ts";
import { prettyDestination } from "./log-pretty.ts";
import { requestContext } from "./request-context.ts";

const options: LoggerOptions = {
  level: config().logLevel,
  base: { service: "hrms-api" },
  timestamp: pino.stdTimeFunctions.isoTime,
  redact: {
    paths: [
      "password",
      "*.password",
      "token",
      "*.token",
      "cookie",
      "*.cookie",
      "headers.cookie",
      "headers.authorization",
      "*.headers.cookie",
      "*.headers.authorization",
      'headers["set-cookie"]',
      'headers["stripe-signature"]',
      "password_hash",
      "*.password_hash",
      "body.password",
      "body.token",
    ],
    censor: "[redacted]",
  },
  mixin() {
    const ctx = requestContext.getStore();
    return ctx ? { request_id: ctx.requestId } : {};
  },
};

// LOG_FORMAT=pretty: one short line each for a developer's terminal (src/log-pretty.ts)
const pretty = config().logFormat === "pretty";
let current: Logger = pretty ? pino(options, prettyDestination()) : pino(options);

/**
 * The access log: stdout in LOG_BUFFER_BYTES blocks at least once a second (a write per request cost an
 * eighth of a small request's CPU), written synchronously so that no block lands after exit's lines or is
 * lost. Every other line is written at once.
 */
function accessLogDestination() {
  const bytes = config().logBufferBytes;
  if (bytes === 0) return pino.destination({ dest: 1, sync: true });
  const dest = pino.destination({ dest: 1, sync: true, minLength: bytes });
  setInterval(() => {
    try {
      dest.flush();
    } catch {
      /* closed */
    }
  }, 1000).unref();
  // what is left at exit (pino flushes only asynchronous destinations itself)
  process.on("exit", () => {
    try {
      dest.flushSync();
    } catch {
      /* closed */
    }
  });
  return dest;
}

// The per-request line (request id, method, path, status, ms) holds nothing to redact (public
// links' tokens are cut from the path by the caller): written by a logger without the redaction
// and mixin passes every other line goes through.
const { redact: _redact, mixin: _mixin, ...plainOptions } = options;
let requests: Logger = pino(plainOptions, pretty ? prettyDestination() : accessLogDestination());

/** Writes the access-log line of a request. */
export function logRequest(fields: {
  request_id: string;
  /** the operation the request was for (absent for paths no operation has) */
  operation_id?: string;
  method: string;
  path: string;
  status: number;
  ms: number;
  /** the signed-in user or the credential's user, and the company they acted in (when the request had one) */
  user_id?: string;
  tenant_id?: string;
}): void {
  // a client's mistake is worth a look (warn), a failure of ours an alert (error); the rest is traffic
  const level = fields.status >= 500 ? "error" : fields.status >= 400 ? "warn" : "info";
  requests[level](fields, "request");
}

/** The process logger (its destination can be swapped, e.g. by tests that read the lines). */
export const logger: Logger = new Proxy({} as Logger, {
  get(_t, prop) {
    const v = Reflect.get(current, prop);
    return typeof v === "function" ? v.bind(current) : v;
  },
  set(_t, prop, value) {
    return Reflect.set(current, prop, value);
  },
});

/** Sends log lines to `stream` at `level` until the returned function is called. */
export function redirectLogs(stream: Writable, level = "info"): () => void {
  const previous = current;
  const previousRequests = requests;
  current = pino({ ...options, level }, stream);
  requests = pino({ ...plainOptions, level }, stream);
  return () => {
    current = previous;
    requests = previousRequests;
  };
}
