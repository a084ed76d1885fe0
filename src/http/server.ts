// The HTTP server of an app: requests and responses built with the app's prototypes (V8 keeps their
// shapes; expressjs/express#5998), and /api/ without Express's router (docs/architecture.md and
// docs/performance.md, "The request path").
import http from "node:http";
import type { Duplex } from "node:stream";
import type { Express, Request, Response } from "express";
import { type Config, config } from "../config.ts";
import type { ErrorCode } from "../platform/errors.ts";
import { apiRequestHandler } from "./app.ts";

type Constructors = {
  IncomingMessage: typeof http.IncomingMessage;
  ServerResponse: typeof http.ServerResponse;
};

const constructorsOf = new WeakMap<Express, Constructors>();

/** node:http request and response constructors whose instances have the app's prototypes. */
export function appConstructors(app: Express): Constructors {
  let c = constructorsOf.get(app);
  if (c) return c;
  // plain constructor functions: called on an object of another prototype they initialise it as their own
  function AppRequest(this: http.IncomingMessage, socket: import("node:net").Socket) {
    http.IncomingMessage.call(this, socket);
  }
  AppRequest.prototype = app.request;
  function AppResponse(this: http.ServerResponse, req: http.IncomingMessage, options?: unknown) {
    (http.ServerResponse as unknown as (this: http.ServerResponse, ...a: unknown[]) => void).call(this, req, options);
  }
  AppResponse.prototype = app.response;
  c = {
    IncomingMessage: AppRequest as unknown as typeof http.IncomingMessage,
    ServerResponse: AppResponse as unknown as typeof http.ServerResponse,
  };
  constructorsOf.set(app, c);
  return c;
}

/**
 * The app's server: bounds headers, the whole request and idle connections (docs/operations.md,
 * "Overload"), checked every quarter of the headers' time (Node's default: every 30 s).
 */
export function createServer(app: Express): http.Server {
  const api = apiRequestHandler(app);
  const cfg = (app.locals.config as Config | undefined) ?? config();
  const requestTimeout = cfg.requestTimeoutMs;
  // Node refuses a headers timeout longer than the request's (loadConfig refuses it too)
  const headersTimeout = Math.min(cfg.headersTimeoutMs, requestTimeout);
  const server = http.createServer(
    {
      ...appConstructors(app),
      headersTimeout,
      requestTimeout,
      connectionsCheckingInterval: Math.max(20, Math.min(1000, Math.floor(headersTimeout / 4))),
    },
    (req, res) => {
      for (const observe of requestObservers) observe(req as Request, res as Response);
      if (api && req.url?.startsWith("/api/")) api(req as Request, res as Response);
      else app(req, res);
    },
  );
  server.keepAliveTimeout = cfg.keepAliveTimeoutMs;
  server.on("clientError", answerClientError);
  return server;
}

/** Node's error codes of a request it could not read: what the client is told. */
function clientErrorAnswer(code: string | undefined): { status: number; code: ErrorCode; message: string } {
  if (code === "ERR_HTTP_REQUEST_TIMEOUT")
    return { status: 408, code: "request_timeout", message: "Request not received in time (its headers or its body)" };
  if (code === "HPE_HEADER_OVERFLOW")
    // 431 Request Header Fields Too Large (RFC 6585); no code of its own: the body is too large's kin
    return { status: 431, code: "payload_too_large", message: "Request headers too large" };
  return { status: 400, code: "validation_failed", message: "Malformed HTTP request" };
}

/** A request out of time or unparseable: the error envelope if nothing was sent yet (as Node decides), then close. */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  const pending = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code !== "ECONNRESET" && err.code !== "EPIPE" && socket.writable && !pending?.headersSent) {
    const a = clientErrorAnswer(err.code);
    const body = JSON.stringify({ error: a.message, status: a.status, code: a.code });
    socket.write(
      `HTTP/1.1 ${a.status} ${http.STATUS_CODES[a.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  // as Node's own handler does: what was written is on its way, nothing more is read
  socket.destroy();
}

/** Told of every request before the app sees it (the tests' response recorder); empty in production. */
export const requestObservers: ((req: Request, res: Response) => void)[] = [];
