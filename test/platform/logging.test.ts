// Logs: JSON lines with the request id (and on a request's line its user and tenant), never
// passwords, tokens or cookies; LOG_FORMAT=pretty's short lines for a terminal.
import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { redactPath } from "../../src/http/middleware.ts";
import { toAppError } from "../../src/http/error-middleware.ts";
import { logger, redirectLogs } from "../../src/log.ts";
import { prettyLine } from "../../src/log-pretty.ts";
import { signupTenant, useTestApp } from "../support/app.ts";
import { api } from "../support/api.ts";

const t = useTestApp();

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _enc, cb) {
      lines.push(...String(chunk).split("\n").filter(Boolean));
      cb();
    },
  });
  return { lines, restore: redirectLogs(stream, "info") };
}

describe("logging", () => {
  it("writes one JSON line per request with its request id, and no secrets", async () => {
    const o = await signupTenant(t, { password: "super-secret-password-1" });
    const { lines, restore } = capture();
    try {
      const res = await api(o.agent)
        .op("signIn", { body: { email: o.email, password: "super-secret-password-1" }, headers: { "X-Request-Id": "req-test-123" } })
        .expect(200);
      await api(o.agent).op("getCompanySettings").expect(200);
      logger.info({ password: "leak-me", headers: { cookie: "hrms.sid=abc" }, token: "tok" }, "explicit");
      const all = lines.join("\n");
      const parsed = lines.map((l) => JSON.parse(l));
      const signIn = parsed.find((p) => p.path === "/api/auth/sign-in");
      expect(signIn).toMatchObject({
        request_id: "req-test-123",
        operation_id: "signIn",
        method: "POST",
        status: 200,
        msg: "request",
        level: 30,
      });
      // a client's mistake at warn, with its operation; a path no operation has, without one
      await o.agent.post("/api/holidays").send({}).set("X-Request-Id", "req-bad").expect(400);
      await o.agent.get("/api/no-such-route").set("X-Request-Id", "req-none").expect(404);
      const again = lines.map((l) => JSON.parse(l));
      expect(again.find((p) => p.request_id === "req-bad")).toMatchObject({ operation_id: "createHoliday", status: 400, level: 40 });
      expect(again.find((p) => p.request_id === "req-none")).toMatchObject({ status: 404, level: 40 });
      expect(again.find((p) => p.request_id === "req-none")).not.toHaveProperty("operation_id");
      expect(res.headers["x-request-id"]).toBe("req-test-123");
      expect(all).not.toContain("super-secret-password-1");
      expect(all).not.toContain("leak-me");
      expect(all).not.toContain("hrms.sid=");
      expect(parsed.find((p) => p.msg === "explicit")).toMatchObject({
        password: "[redacted]",
        token: "[redacted]",
        headers: { cookie: "[redacted]" },
      });
    } finally {
      restore();
    }
  });

  it("names the user and the tenant on the request line of a signed-in or credential call, none on an anonymous one", async () => {
    const o = await signupTenant(t);
    const credential = await api(o.agent)
      .op("createApiCredential", { body: { name: "Logs", scopes: ["employees:read"] } })
      .expect(201);
    const { lines, restore } = capture();
    try {
      await api(o.agent)
        .op("getCompanySettings", { headers: { "X-Request-Id": "req-session" } })
        .expect(200);
      await api(t.request())
        .op("listEmployees", { headers: { "X-Request-Id": "req-bearer", Authorization: `Bearer ${credential.body.data.secret}` } })
        .expect(200);
      await api(t.request())
        .op("getHealth", { headers: { "X-Request-Id": "req-anonymous" } })
        .expect(200);
      const line = (id: string) => lines.map((l) => JSON.parse(l)).find((p) => p.msg === "request" && p.request_id === id);
      expect(line("req-session")).toMatchObject({ user_id: o.userId, tenant_id: o.tenantId, status: 200 });
      expect(line("req-bearer")).toMatchObject({ user_id: o.userId, tenant_id: o.tenantId, status: 200 });
      expect(line("req-anonymous")).not.toHaveProperty("user_id");
      expect(line("req-anonymous")).not.toHaveProperty("tenant_id");
    } finally {
      restore();
    }
  });

  it("LOG_FORMAT=pretty: one short line per entry, requests as status, method, path, time, user and tenant", () => {
    const request = JSON.stringify({
      level: 30,
      time: "2026-11-28T03:06:14.101Z",
      service: "hrms-api",
      request_id: "5d3e0c2a-1111-4222-8333-944445555666",
      method: "GET",
      path: "/api/employees",
      status: 200,
      ms: 12.4,
      user_id: "2f1c9a70-aaaa-4bbb-8ccc-dddddddddddd",
      tenant_id: "9a0b1c2d-eeee-4fff-8000-111111111111",
      msg: "request",
    });
    expect(prettyLine(request, false)).toBe("03:06:14.101 200 GET /api/employees 12.4 ms  user=2f1c9a70… tenant=9a0b1c2d…  req=5d3e0c2a…");
    const info = JSON.stringify({
      level: 30,
      time: "2026-11-28T03:06:12.350Z",
      service: "hrms-api",
      ms: 19,
      msg: "database connections ready",
    });
    expect(prettyLine(info, false)).toBe("03:06:12.350 INFO  database connections ready  ms=19");
    const warn = JSON.stringify({
      level: 40,
      time: "2026-11-28T03:06:12.350Z",
      err: { message: "boom", stack: "Error: boom\n at x" },
      msg: "job failed",
    });
    expect(prettyLine(warn, false)).toBe("03:06:12.350 WARN  job failed  err=boom\n    Error: boom\n     at x");
    expect(
      prettyLine(
        JSON.stringify({ level: 30, time: "2026-11-28T00:00:00.000Z", applied: Array(39).fill("m"), msg: "migrations applied" }),
        false,
      ),
    ).toBe("00:00:00.000 INFO  migrations applied  applied=[39 items]");
    expect(prettyLine("not json", false)).toBe("not json");
  });

  it("keeps tokens of public links out of logged paths", () => {
    expect(redactPath("/api/public/offers/s3cr3t-token/pdf")).toBe("/api/public/offers/[token]/pdf");
    expect(redactPath("/api/employees/123")).toBe("/api/employees/123");
  });

  it("gives error responses a request id", async () => {
    const res = await t.request().get("/api/nothing-here");
    expect(res.headers["x-request-id"]).toBeTruthy();
  });

  it("maps unexpected errors to a bare 500 `internal` (no SQL or stack text) and database outages to 503", () => {
    const e = toAppError(Object.assign(new Error('relation "secret_table" does not exist'), { code: "42P01" }));
    expect(e).toMatchObject({ status: 500, code: "internal", message: "Internal server error" });
    expect(toAppError(Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }))).toMatchObject({
      status: 503,
      code: "unavailable",
    });
    expect(toAppError({ code: "P2002" })).toMatchObject({ status: 409, code: "conflict" });
    // @prisma/adapter-pg's error for a connection cut in the middle of a transaction (seen by the
    // database fault test): the socket's ECONNRESET arrives as a DriverAdapterError of kind ConnectionClosed
    for (const kind of ["ConnectionClosed", "SocketTimeout", "DatabaseNotReachable"])
      expect(toAppError(Object.assign(new Error(kind), { name: "DriverAdapterError", cause: { kind } })), kind).toMatchObject({
        status: 503,
        code: "unavailable",
      });
    // ...and a raw query on a connection the cut already closed: Prisma's P2010 with the adapter's
    // error under meta (seen by the cut-at-every-moment sweep of the database fault test)
    const raw = Object.assign(
      new Error("Invalid `prisma.$queryRaw()` invocation: Raw query failed. Code: `N/A`. Message: `Server has closed the connection.`"),
      {
        name: "PrismaClientKnownRequestError",
        code: "P2010",
        meta: {
          driverAdapterError: Object.assign(new Error("ConnectionClosed"), {
            name: "DriverAdapterError",
            cause: { kind: "ConnectionClosed" },
          }),
        },
      },
    );
    expect(toAppError(raw)).toMatchObject({ status: 503, code: "unavailable" });
    // a raw query the database refuses for a reason of its own stays what it is
    expect(
      toAppError({ ...raw, meta: { driverAdapterError: { name: "DriverAdapterError", cause: { kind: "UniqueConstraintViolation" } } } }),
    ).toMatchObject({ status: 500 });
  });
});

// The access-log lines are written to stdout in blocks (LOG_BUFFER_BYTES): none may be lost at exit,
// and a quiet server's lines still arrive within about a second. In a process of its own (stdout).
describe("access-log lines on stdout", () => {
  const script = (exitHow: string, count = 300) => `
    const { logRequest } = await import(${JSON.stringify(new URL("../../src/log.ts", import.meta.url).pathname)});
    for (let i = 0; i < ${count}; i++) logRequest({ request_id: "r" + i, method: "GET", path: "/api/x", status: 200, ms: 1 });
    ${exitHow}`;
  const run = async (code: string, env: Record<string, string>, onLine?: (line: string, kill: () => void) => void) => {
    const { spawn } = await import("node:child_process");
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", code], {
      env: { ...process.env, NODE_ENV: "development", LOG_LEVEL: "info", ...env },
      stdio: ["ignore", "pipe", "inherit"],
    });
    let out = "";
    child.stdout.on("data", (d) => {
      out += String(d);
      onLine?.(out, () => child.kill("SIGKILL"));
    });
    await new Promise((resolve) => child.on("close", resolve));
    return out.split("\n").filter((l) => l.includes('"msg":"request"'));
  };

  it("writes every line by exit, buffered or not", async () => {
    for (const bytes of ["4096", "0"]) {
      const lines = await run(script("process.exit(0);"), { LOG_BUFFER_BYTES: bytes });
      expect(lines.length, `LOG_BUFFER_BYTES=${bytes}`).toBe(300);
      expect(JSON.parse(lines[299])).toMatchObject({ request_id: "r299", status: 200 });
    }
  });

  it("writes the lines of a quiet process without waiting for the buffer to fill", async () => {
    // 100 short lines fill less than a buffer of 16 000 bytes: only the timer writes them, while the process lives
    const lines = await run(script("setInterval(() => {}, 1000);", 100), { LOG_BUFFER_BYTES: "16000" }, (out, kill) => {
      if (out.includes('"request_id":"r99"')) kill();
    });
    expect(lines.length).toBe(100);
  });
});
