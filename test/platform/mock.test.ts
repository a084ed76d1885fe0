// `make mock` (scripts/dev/mock.ts, docs/mock.md): Prism serves the whole API from the document on a
// free port, with the document's realistic examples and request validation - a session or a
// credential is required, a malformed request is the 400 envelope naming the field.
import { type ChildProcess, spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../..");
let mock: ChildProcess | undefined;
let base = "";
let output = "";
const cookie = { cookie: "hrms.sid=any-session" };

beforeAll(async () => {
  const bin = path.join(root, "node_modules", ".bin");
  mock = spawn(path.join(bin, "tsx"), ["scripts/dev/mock.ts"], {
    cwd: root,
    env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, MOCK_PORT: "0", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  base = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(output);
      if (m) resolve(m[1]);
    };
    mock?.stdout?.on("data", onData);
    mock?.stderr?.on("data", onData);
    mock?.on("exit", (code) => reject(new Error(`the mock exited (${code}) before listening:\n${output}`)));
  });
}, 300_000);

afterAll(() => {
  mock?.kill("SIGTERM");
});

async function call(method: string, url: string, headers: Record<string, string> = {}, body?: unknown) {
  const res = await fetch(base + url, {
    method,
    headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

describe("make mock: the API from the document", () => {
  it("listEmployees answers a page of realistic employees in the envelope", async () => {
    const res = await call("GET", "/api/employees?limit=20", cookie);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("OK");
    expect(res.body.pagination).toMatchObject({ page: 1 });
    const [first] = res.body.data;
    expect(first.full_name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);
    expect(first.email).toMatch(/^[a-z.]+@example\.com$/);
    expect(first.joining_date).toMatch(/^20\d\d-\d\d-\d\d$/);
  });

  it("getEmployee answers one employee for an id in the path (with a bearer credential too)", async () => {
    const id = "0b9f6f3e-5d0a-4c59-9a43-6f1f2d7c1a10";
    const res = await call("GET", `/api/employees/${id}`, { authorization: "Bearer hrms_k3j9x2m4q7_secret" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ view: "full" });
    expect(res.body.data.first_name).toMatch(/^[A-Z][a-z]+$/);
    expect(res.body.data.bank_ifsc).toMatch(/^[A-Z]{4}0[A-Z0-9]{6}$/);
  });

  it("createLeaveRequest answers 201 with the request for a valid body", async () => {
    const res = await call("POST", "/api/leave-requests", cookie, {
      leave_type_id: "d8c25bc1-66e2-4410-aa01-0ba9dfd63e16",
      from_date: "2026-12-07",
      to_date: "2026-12-08",
      reason: "Family function in Jaipur",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data.status).toMatch(/^(pending|approved|rejected|cancelled)$/);
    expect(res.body.data.from_date).toMatch(/^20\d\d-\d\d-\d\d$/);
  });

  it("validates requests: no session is a 401, a malformed body or id a 400 validation_failed naming it", async () => {
    const anonymous = await call("GET", "/api/employees");
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe("unauthenticated");

    const bad = await call("POST", "/api/leave-requests", cookie, { from_date: "7 December" });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("validation_failed");
    const violations = JSON.parse(bad.headers.get("sl-violations") ?? "[]") as { message: string }[];
    expect(violations.map((v) => v.message).join("\n")).toMatch(/leave_type_id/);

    const badId = await call("GET", "/api/employees/not-an-id", cookie);
    expect(badId.status).toBe(400);
  });

  // test/proof/examples.test.ts checks every operation's answer; here what Prism serves of two
  it("listPayrollRuns, listLeaveRequests: the served answers agree with themselves", async () => {
    const runs = await call("GET", "/api/payroll/draft-runs", cookie);
    const [run] = runs.body.data;
    expect(run.status).toBe("draft");
    expect(run).toMatchObject({ failure_reason: null, processed_at: null });
    expect(run.progress.processed).toBe(run.progress.total);
    expect(Number(run.total_gross) - Number(run.total_deductions)).toBeCloseTo(Number(run.total_net), 2);
    expect(Number(run.totals.gross) - Number(run.totals.total_deductions)).toBeCloseTo(Number(run.totals.net_pay), 2);
    expect(JSON.stringify(runs.body)).not.toContain("9007199254740991");
    const leave = await call("GET", "/api/leave-requests", cookie);
    const [request] = leave.body.data;
    expect(request.status).toBe("pending");
    expect(request).toMatchObject({ decided_at: null, decided_by: null, decision_comment: null });
    expect(leave.body.pagination.total).toBeGreaterThanOrEqual(leave.body.data.length);
    const bad = await call("POST", "/api/leave-requests", cookie, { from_date: "7 December" });
    expect(bad.body.details.length).toBeGreaterThan(0);
  });
});
