// The document is the truth: every operation has a handler, and a response the document does not
// declare never passes unnoticed - whether it goes through the response validator (which turns it
// into a 500) or is produced before it (body parser, session gate, origin check: the response
// recorder of test/support/recorder.ts flags it and fails the test).
import express from "express";
import supertest from "supertest";
import { afterEach, describe, expect, it } from "vitest";
import { handlers } from "../../generated/handlers.ts";
import { operationTable } from "../../generated/registry.ts";
import { createApp } from "../../src/http/app.ts";
import { AppError } from "../../src/platform/errors.ts";
import { documentOperations, markGeneric, takeViolations } from "../support/recorder.ts";
import { useTestApp } from "../support/app.ts";
import { operations } from "./openapi.ts";
import { api } from "../support/api.ts";

markGeneric();
const t = useTestApp();
const original = { ...handlers };
afterEach(() => Object.assign(handlers, original));

describe("every operation of the document", () => {
  it("is in the registry with the same method and path, and has a handler", () => {
    const ops = operations();
    expect(ops.length).toBe(Object.keys(operationTable).length);
    const missing: string[] = [];
    for (const op of ops) {
      const meta = (operationTable as Record<string, { method: string; path: string }>)[op.operationId];
      if (!meta || meta.method !== op.method || meta.path !== op.path)
        missing.push(`${op.operationId}: not in generated/registry.ts as ${op.method.toUpperCase()} ${op.path}`);
      else if (typeof (handlers as Record<string, unknown>)[op.operationId] !== "function") missing.push(`${op.operationId}: no handler`);
    }
    expect(missing, `operations without a handler:\n${missing.join("\n")}`).toEqual([]);
    console.log(`[contract] ${ops.length} operations in generated/openapi.json, each with a handler`);
  });

  it(
    "declares the statuses the platform can always produce (400, 500, " +
      "503; 401/403 unless public; 404 with path ids; 413/415 with a body)",
    () => {
      const gaps: string[] = [];
      for (const op of operations()) {
        const need = ["400", "500", "503"];
        if (!op.public) need.push("401", "403");
        if (op.pathParams.length) need.push("404");
        if (op.body) need.push("413", "415");
        for (const s of need) if (!op.responses[s]) gaps.push(`${op.operationId} lacks ${s}`);
      }
      expect(gaps).toEqual([]);
    },
  );
});

describe("undocumented responses are caught", () => {
  it("the response validator turns a status the operation does not declare into a 500 (flagged by the recorder)", async () => {
    // invalid on purpose: a handler answering what the document refuses
    (handlers as any).getServerTime = async () => ({
      status: 202,
      body: { data: { now: new Date().toISOString(), epoch_ms: Date.now() }, message: "OK" },
    });
    const app = createApp({ validateResponses: true });
    const res = await api(supertest(app)).op("getServerTime");
    expect(res.status).toBe(500);
    expect(res.body).toMatchObject({ status: 500, code: "internal" });
    const v = takeViolations();
    expect(v.map((x) => x.problem).join("\n")).toMatch(/500 served/);
  });

  it("an error the operation does not declare (a 409 from getServerTime) becomes the 500 envelope, never Express's HTML page", async () => {
    // invalid on purpose: a handler answering what the document refuses
    (handlers as any).getServerTime = async () => {
      throw new AppError("conflict", "not declared here");
    };
    const res = await api(supertest(createApp({ validateResponses: true }))).op("getServerTime");
    expect(res.status).toBe(500);
    expect(res.type).toBe("application/json");
    expect(JSON.parse(res.text)).toEqual({ error: "Internal server error", status: 500, code: "internal" });
    expect(takeViolations().length).toBeGreaterThan(0); // the recorder still fails a real test that does this
  });

  it("the response validator refuses a body that does not match the declared schema", async () => {
    // invalid on purpose: a handler answering what the document refuses
    (handlers as any).getServerTime = async () => ({
      status: 200,
      body: { data: { now: "yesterday", epoch_ms: "soon" }, message: "OK" },
    });
    const res = await api(supertest(createApp({ validateResponses: true }))).op("getServerTime");
    expect(res.status).toBe(500);
    expect(takeViolations()).toHaveLength(1);
  });

  it(
    "the recorder flags statuses produced outside the validator " + "that the operation does not declare, and non-envelope errors",
    async () => {
      const rogue = express();
      rogue.get("/api/health", (_req, res) => {
        res.status(418).json({ error: "teapot", status: 418, code: "internal" });
      });
      rogue.get("/api/server-time", (_req, res) => {
        res.status(400).json({ message: "not the envelope" });
      });
      await api(supertest(rogue)).op("getHealth");
      await api(supertest(rogue)).op("getServerTime");
      const problems = takeViolations().map((x) => `${x.operationId}: ${x.problem}`);
      expect(problems).toHaveLength(2);
      expect(problems[0]).toMatch(/^getHealth: status 418 is not documented/);
      expect(problems[1]).toMatch(/^getServerTime: a 400 without the error envelope/);
    },
  );

  it("the recorder flags a 429 without a header the document declares required, and a declared header out of its schema", async () => {
    const rogue = express();
    const envelope = { error: "Too many attempts, try again later", status: 429, code: "rate_limited" };
    rogue.post("/api/auth/sign-in", (_req, res) => {
      res.status(429).set("Retry-After", "60").json(envelope);
    });
    rogue.post("/api/auth/forgot-password", (_req, res) => {
      res.status(429).set({ "Retry-After": "0", RateLimit: '"reset-ip";r=0;t=0', "RateLimit-Policy": "20 per 15 minutes" }).json(envelope);
    });
    rogue.post("/api/auth/signup", (_req, res) => {
      res
        .status(429)
        .set({ "Retry-After": "60", RateLimit: '"signup-ip";r=0;t=60', "RateLimit-Policy": '"signup-ip";q=10;w=900' })
        .json(envelope);
    });
    // bodiless on purpose: the rogue app answers 429 whatever is sent
    await supertest(rogue).post("/api/auth/sign-in");
    await supertest(rogue).post("/api/auth/forgot-password");
    await supertest(rogue).post("/api/auth/signup");
    const problems = takeViolations().map((x) => `${x.operationId}: ${x.problem}`);
    expect(problems).toEqual([
      "signIn: signIn 429 without the header ratelimit, which the document declares required",
      "signIn: signIn 429 without the header ratelimit-policy, which the document declares required",
      expect.stringMatching(/^forgotPassword: forgotPassword 429: header retry-after "0" does not fit its schema/),
      expect.stringMatching(/^forgotPassword: forgotPassword 429: header ratelimit ""reset-ip";r=0;t=0" does not fit/),
      expect.stringMatching(/^forgotPassword: forgotPassword 429: header ratelimit-policy "20 per 15 minutes" does not fit/),
    ]);
  });

  it("matches requests to operations exactly like the app mounts them (static segments before parameters)", () => {
    const ids = documentOperations().map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    expect(documentOperations().find((o) => o.method === "POST" && o.re.test("/api/notifications/read-all"))?.operationId).toBe(
      "markAllNotificationsRead",
    );
  });

  it("a live request the document declares passes both checks", async () => {
    await api(t.request()).op("getServerTime").expect(200);
    expect(takeViolations()).toEqual([]);
  });
});
