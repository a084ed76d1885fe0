// The request path (src/http/app.ts, src/http/middleware.ts). series(): its middlewares run as one Express middleware;
// each way a middleware can fail reaches Express's error handling, the list's end reaches the next
// middleware, and a later middleware never runs after an earlier one failed. Validation as
// production runs it (responses not validated): the validator's middlewares are chosen per
// operation, and none run for an operation without input called without a query string.
import http from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { createApp } from "../../src/http/app.ts";
import { series } from "../../src/http/middleware.ts";
import { createServer } from "../../src/http/server.ts";
import { expectError, signupTenant, useTestApp } from "../support/app.ts";
import { api } from "../support/api.ts";

const t = useTestApp();

function appWith(handlers: express.RequestHandler[]) {
  const seen: string[] = [];
  const app = express();
  const traced = handlers.map((h, i): express.RequestHandler => {
    return (req, res, next) => {
      seen.push(`m${i}`);
      return h(req, res, next);
    };
  });
  app.use(series(traced));
  app.use((_req, res) => {
    seen.push("after");
    res.status(200).json({ seen });
  });
  app.use((err: Error, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(418).json({ error: err.message, seen });
  });
  return { app, seen };
}

describe("series of middlewares", () => {
  it("runs them in order, then the middleware after the series", async () => {
    const pass: express.RequestHandler = (_req, _res, next) => next();
    const r = await request(appWith([pass, pass, pass]).app).get("/x");
    expect(r.status).toBe(200);
    expect(r.body.seen).toEqual(["m0", "m1", "m2", "after"]);
  });

  it("next(err), a thrown error and a rejected promise each reach the error handler, and stop the series", async () => {
    const pass: express.RequestHandler = (_req, _res, next) => next();
    const failures: [string, express.RequestHandler][] = [
      ["passed", (_req, _res, next) => next(new Error("passed"))],
      [
        "thrown",
        () => {
          throw new Error("thrown");
        },
      ],
      ["rejected", async () => Promise.reject(new Error("rejected"))],
      ["later", (_req, _res, next) => setImmediate(() => next(new Error("later")))],
    ];
    for (const [name, fail] of failures) {
      const r = await request(appWith([pass, fail, pass]).app).get("/x");
      expect(r.status, name).toBe(418);
      expect(r.body, name).toEqual({ error: name, seen: ["m0", "m1"] });
    }
  });

  it("a middleware that answers ends the request there", async () => {
    const answer: express.RequestHandler = (_req, res) => void res.status(201).json({ answered: true });
    const r = await request(appWith([answer, (_req, _res, next) => next()]).app).get("/x");
    expect(r.status).toBe(201);
  });
});

describe("request validation without response validation (production)", () => {
  it("getServerTime, getPfSettings, getEmployee: inputs are still validated on every kind of operation", async () => {
    const app = createApp({ config: t.config, validateResponses: false });
    // an operation without input: no query string passes untouched, any query parameter is refused
    const time = await api(request(app)).op("getServerTime").expect(200);
    expect(time.body.data.epoch_ms).toEqual(expect.any(Number));
    expectError(await request(app).get("/api/server-time?verbose=1"), 400, "validation_failed");
    const o = await signupTenant(t);
    const agent = request.agent(app);
    (agent as unknown as { jar: unknown }).jar = (o.agent as unknown as { jar: unknown }).jar;
    await api(agent)
      .op("updateCompanySettings", { body: { modules: ["payroll"] } })
      .expect(200);
    await api(agent).op("getPfSettings").expect(200);
    expectError(await agent.get("/api/configuration/payroll/pf-settings?x=1"), 400, "validation_failed");
    // an operation with a path parameter
    expectError(await api(agent).op("getEmployee", { params: { employeeId: "not-a-uuid" } }), 400, "validation_failed");
    // no operation: the validator's own 404 and 405
    expectError(await agent.get("/api/no-such-thing"), 404, "not_found");
    expect((await agent.put("/api/server-time")).status).toBe(405);
  });
});

describe("HEAD", () => {
  it("getHealth, getServerTime, listEmployees: every GET operation answers HEAD with the GET's status and headers, no body", async () => {
    const health = await api(t.request()).op("getHealth").expect(200);
    const head = await t.request().head("/api/health").expect(200);
    expect(head.text ?? "").toBe("");
    expect(head.headers["content-type"]).toBe(health.headers["content-type"]);
    expect(head.headers["content-length"]).toBe(health.headers["content-length"]);
    // a guarded read: 401 without a session, 200 with one - the GET's answers
    expect((await t.request().head("/api/employees")).status).toBe(401);
    const o = await signupTenant(t);
    const list = await api(o.agent).op("listEmployees").expect(200);
    const listHead = await o.agent.head("/api/employees").expect(200);
    expect(listHead.text ?? "").toBe("");
    expect(listHead.headers["content-length"]).toBe(list.headers["content-length"]);
    // HEAD of an operation that is not a GET is what the GET would be: no such operation here
    expect((await o.agent.head("/api/auth/sign-out")).status).toBe(405);
  });
});

describe("getServerTime, getHealth: the server builds requests and responses with the app's prototypes", () => {
  it("node:http constructs them as the app's; Express's prototype swap then changes nothing", async () => {
    const app = t.app;
    const server = createServer(app);
    const seen: { built: unknown; served?: unknown; isMessage: boolean; isResponse: boolean }[] = [];
    // before the app: the objects as node:http built them
    server.prependListener("request", (req: http.IncomingMessage, res: http.ServerResponse) => {
      const entry = {
        built: Object.getPrototypeOf(req),
        isMessage: req instanceof http.IncomingMessage,
        isResponse: res instanceof http.ServerResponse && Object.getPrototypeOf(res) === app.response,
        served: undefined as unknown,
      };
      seen.push(entry);
      res.on("finish", () => (entry.served = Object.getPrototypeOf(req)));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    try {
      const r = await api(request(server)).op("getHealth");
      expect(r.status).toBe(200);
      expect(r.body.data.database).toBe("up");
      // a signed-in operation, with Express's helpers (cookies, res.json) on these objects
      const s = await signupTenant({ ...t, request: () => request.agent(server) });
      const time = await api(s.agent).op("getServerTime");
      expect(time.status).toBe(200);
      expect(typeof time.body.data.epoch_ms).toBe("number");
      expect(seen.length).toBeGreaterThanOrEqual(3);
      for (const e of seen) {
        expect(e.built).toBe(app.request);
        expect(e.served).toBe(app.request);
        expect(e.isMessage).toBe(true);
        expect(e.isResponse).toBe(true);
      }
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("the production request path answers as the validated one", () => {
  /** An app on the file's database served as production serves it (createServer: /api/ without Express's router). */
  async function serve(validateResponses: boolean) {
    const server = createServer(createApp({ config: t.config, validateResponses }));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
    return server;
  }
  const close = (server: http.Server) => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(resolve));
  };

  it("listEmployees, getHoliday, createHoliday: same status, body bytes, Content-Type and Content-Length", async () => {
    const o = await signupTenant(t);
    const cookie = (o.agent as unknown as { jar: { getCookies: (a: unknown) => { toValueString(): string }[] } }).jar
      .getCookies({ domain: "127.0.0.1", path: "/", secure: false, script: false })
      .map((c) => c.toValueString())
      .join("; ");
    expect(cookie).toContain("hrms.sid=");
    const holiday = await api(o.agent)
      .op("createHoliday", { body: { date: "2031-01-26", name: "Ünïcode Day — 1" } })
      .expect(201);
    const production = await serve(false);
    const validated = await serve(true);
    try {
      const calls: [string, string][] = [
        ["GET", "/api/employees?limit=5"],
        ["GET", `/api/holidays/${holiday.body.data.id}`],
        ["GET", "/api/holidays/00000000-0000-4000-8000-000000000000"], // an error envelope
        ["GET", "/api/no-such-route"], // no operation: the validator's 404
        ["HEAD", "/api/employees"],
        ["GET", "/api/employees/not-a-uuid"], // 400 with details
      ];
      for (const [method, path] of calls) {
        const [a, b] = await Promise.all(
          [production, validated].map(async (s) => {
            const r = await fetch(`http://127.0.0.1:${(s.address() as AddressInfo).port}${path}`, { method, headers: { cookie } });
            const headers = { "content-type": r.headers.get("content-type"), "content-length": r.headers.get("content-length") };
            return { status: r.status, headers, body: Buffer.from(await r.arrayBuffer()) };
          }),
        );
        expect(a.status, `${method} ${path}`).toBe(b.status);
        expect(a.headers["content-type"], `${method} ${path}`).toBe(b.headers["content-type"]);
        expect(a.headers["content-length"], `${method} ${path}`).toBe(b.headers["content-length"]);
        expect(a.body.toString("utf8"), `${method} ${path}`).toBe(b.body.toString("utf8"));
        expect(a.body.equals(b.body), `${method} ${path}`).toBe(true);
      }
      // an answer of the production path, as a client reads it
      const one = await request(production).get(`/api/holidays/${holiday.body.data.id}`).set("cookie", cookie).expect(200);
      expect(one.headers["content-type"]).toBe("application/json; charset=utf-8");
      expect(one.body.data.name).toBe("Ünïcode Day — 1");
      expect(Number(one.headers["content-length"])).toBe(Buffer.byteLength(JSON.stringify(one.body)));
      // the reference still goes through Express (not under /api/)
      expect((await request(production).get("/openapi.json")).status).toBe(200);
      expect((await request(production).get("/")).status).toBe(302);
    } finally {
      await Promise.all([close(production), close(validated)]);
    }
  });
});
