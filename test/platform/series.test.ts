// series(): the request path's middlewares run as one Express middleware (src/http/app.ts). Each
// way a middleware can fail reaches Express's error handling, the list's end reaches the next
// middleware, and a later middleware never runs after an earlier one failed.
import express from "express";
import request from "supertest";
import { describe, expect, it } from "vitest";
import { series } from "../../src/http/app.ts";

function appWith(handlers: express.RequestHandler[]) {
  const seen: string[] = [];
  const app = express();
  app.use(series(handlers.map((h, i) => (req, res, next) => (seen.push(`m${i}`), h(req, res, next)))));
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
