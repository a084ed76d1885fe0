// The HTTP server of an app. Express gives every request and response its app's prototypes
// (`app.request`, `app.response`) with Object.setPrototypeOf as the request enters the app. Changing
// an object's prototype after it was built throws away what V8 learnt about its shape: every
// later property access on that request and response, in Node's http code as much as in ours,
// takes the slow path. Measured on 2 cores, a one-middleware Express app answering JSON: about
// 150 µs of CPU per request with the swap against about 50 µs when node:http builds the request
// and response with those prototypes from the start (expressjs/express#5998).
//
// So node:http is given constructors whose prototypes already are the app's: Express's swap then
// finds the prototype it would set and changes nothing. The objects are the same kind Express
// would make (`req instanceof http.IncomingMessage`, Express's methods and getters, `req.app`).
//
// And the API's requests skip Express's router: the app's own request path for them is one series
// of middlewares (src/http/app.ts, apiRequestHandler), and the router would only test the few
// routes beside it (the reference, the document) before reaching it.
import http from "node:http";
import type { Express, Request, Response } from "express";
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
  // node's IncomingMessage and ServerResponse are plain constructor functions: called on an object
  // of another prototype they initialise it as their own.
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
 * An HTTP server for the app whose requests and responses are built with its prototypes; requests
 * under `/api/` take the app's request path without Express's router (apiRequestHandler), the rest
 * (`/docs`, `/openapi.json`, `/`) go through the app.
 */
export function createServer(app: Express): http.Server {
  const api = apiRequestHandler(app);
  return http.createServer(appConstructors(app), (req, res) => {
    for (const observe of requestObservers) observe(req as Request, res as Response);
    if (api && req.url?.startsWith("/api/")) api(req as Request, res as Response);
    else app(req, res);
  });
}

/**
 * Told of every request a server of createServer receives, before the app sees it (the tests'
 * response recorder, test/support/recorder.ts, checks each response against the document). Empty
 * in production.
 */
export const requestObservers: ((req: Request, res: Response) => void)[] = [];
