// A real client: the SDK types are generated from the document the server publishes at
// /openapi.json (openapi-typescript, exactly as client teams would), the client is openapi-fetch
// over real HTTP with a cookie jar, and it drives a user journey with typed calls only (so
// `make typecheck` proves the generated types describe every request and answer it uses):
// signup → confirmation by e-mail → invite HR → accept → employee record → invite the employee,
// linked to the record → accept → leave setup → the employee requests leave → HR approves → the
// employee sees the approval and the balance. Every response is validated against the document by
// the server and the recorder as well.
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { readFileSync } from "node:fs";
import path from "node:path";
import createClient, { type Client, type Middleware } from "openapi-fetch";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { paths } from "../../generated/api-types.ts";
import { registerAllJobs } from "../../src/modules/jobs.ts";
import { jobs } from "../../src/platform/jobs/queue.ts";
import { uniqueEmail, useTestApp } from "../support/app.ts";

const t = useTestApp();
registerAllJobs();
let server: Server;
let baseUrl: string;

beforeAll(async () => {
  server = t.app.listen(0, "127.0.0.1");
  await new Promise((r) => server.once("listening", r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

/** A typed client with its own cookie jar (one per person of the journey). */
function client(): Client<paths> {
  const jar = new Map<string, string>();
  const cookies: Middleware = {
    onRequest({ request }) {
      if (jar.size) request.headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "));
      return request;
    },
    onResponse({ response }) {
      for (const c of response.headers.getSetCookie()) {
        const [pair] = c.split(";");
        const i = pair.indexOf("=");
        jar.set(pair.slice(0, i), pair.slice(i + 1));
      }
      return response;
    },
  };
  const c = createClient<paths>({ baseUrl });
  c.use(cookies);
  return c;
}

const isoDate = (d: Date) => d.toISOString().slice(0, 10);
function nextWeekday(from: Date, days: number): Date {
  const d = new Date(from.getTime() + days * 86_400_000);
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  return d;
}

describe("SDK generated from the published document", () => {
  it("the server publishes generated/openapi.json, and openapi-typescript turns it into the committed types", async () => {
    const published = await (await fetch(`${baseUrl}/openapi.json`)).json();
    const committed = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../generated/openapi.json"), "utf8"));
    expect(published).toEqual(committed);
    const fresh = astToString(await openapiTS(published, { alphabetize: true, defaultNonNullable: false })); // as generate.mjs
    const types = readFileSync(path.resolve(import.meta.dirname, "../../generated/api-types.ts"), "utf8").replace(/^\/\/.*\n/, "");
    expect(fresh).toBe(types);
  });

  it("drives signup → confirmSignup → invite → accept → employee → leave request → approval through openapi-fetch", async () => {
    const owner = client();
    const ownerEmail = uniqueEmail("journey.owner");
    const signup = await owner.POST("/api/auth/signup", {
      body: { name: "Journey Owner", email: ownerEmail, company_name: "Journey Pvt Ltd" },
    });
    expect(signup.response.status).toBe(202);
    // tokens travel by email (the outbox, as no SMTP is configured); the signup's is mailed by
    // the job auth.signup-requests, run here in the test's process (no worker)
    const tokenMailedTo = async (email: string, label: string) => {
      const [mail] = await t.query<{ text_body: string }>(
        "SELECT text_body FROM email_outbox WHERE to_address = $1 ORDER BY created_at DESC LIMIT 1",
        [email],
      );
      return new RegExp(`${label}: ([A-Za-z0-9_-]+)`).exec(mail.text_body)![1];
    };
    await jobs.runNow("auth.signup-requests");
    const confirmed = await owner.POST("/api/auth/signup/confirm", {
      // the password is chosen at the confirmation, by whoever holds the mailed token
      body: { token: await tokenMailedTo(ownerEmail, "Confirmation token"), password: "journey-password-1" },
    });
    expect(confirmed.response.status).toBe(201);
    const tenantId = confirmed.data!.data.active_tenant_id!;
    const session = await owner.GET("/api/auth/session");
    expect(session.data?.data).toMatchObject({ active_tenant_id: tenantId, role: "owner" });

    // invite an HR person
    const hrEmail = uniqueEmail("journey.hr");
    const invite = await owner.POST("/api/configuration/members", { body: { email: hrEmail, role: "hr" } });
    expect(invite.response.status).toBe(201);
    const hr = client();
    const accepted = await hr.POST("/api/auth/accept-invite", {
      body: { token: await tokenMailedTo(hrEmail, "Invitation token"), name: "Harini HR", password: "journey-password-2" },
    });
    expect(accepted.response.status).toBe(200);
    expect(accepted.data?.data).toMatchObject({ active_tenant_id: tenantId, role: "hr" });
    const members = await owner.GET("/api/configuration/members");
    expect(members.data?.data.members.map((m) => m.email)).toContain(hrEmail);
    const signedIn = await client().POST("/api/auth/sign-in", { body: { email: hrEmail, password: "journey-password-2" } });
    expect(signedIn.data?.data.active_tenant_id).toBe(tenantId);

    // HR creates the employee record; the owner invites that person, linked to the record
    const priyaEmail = uniqueEmail("journey.priya");
    const created = await hr.POST("/api/employees", {
      body: {
        first_name: "Priya",
        last_name: "Raman",
        email: priyaEmail,
        department: "Engineering",
        designation: "Engineer",
        joining_date: "2025-01-06",
      },
    });
    expect(created.response.status, JSON.stringify(created.error)).toBe(201);
    const employeeId = created.data!.data.id;
    const invitePriya = await owner.POST("/api/configuration/members", {
      body: { email: priyaEmail, role: "employee", employee_id: employeeId },
    });
    expect(invitePriya.response.status, JSON.stringify(invitePriya.error)).toBe(201);
    const priya = client();
    const priyaIn = await priya.POST("/api/auth/accept-invite", {
      body: { token: await tokenMailedTo(priyaEmail, "Invitation token"), name: "Priya Raman", password: "journey-password-3" },
    });
    expect(priyaIn.data?.data).toMatchObject({ active_tenant_id: tenantId, role: "employee", employee_id: employeeId });
    const own = await priya.GET("/api/employees/{employeeId}", { params: { path: { employeeId } } });
    expect(own.data?.data).toMatchObject({ id: employeeId, email: priyaEmail });

    // leave set-up by HR: a type, the current period, five days for Priya
    const today = new Date();
    const type = await hr.POST("/api/leave-types", { body: { name: "Journey leave", code: "JRN", min_notice_days: 0 } });
    expect(type.response.status, JSON.stringify(type.error)).toBe(201);
    const leaveTypeId = type.data!.data.id;
    const start = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 1));
    const period = await hr.POST("/api/leave-periods", {
      body: {
        name: "Journey period",
        start_date: isoDate(start),
        end_date: isoDate(new Date(start.getTime() + 364 * 86_400_000)),
        is_current: true,
      },
    });
    expect(period.response.status, JSON.stringify(period.error)).toBe(201);
    const allocation = await hr.POST("/api/leave-allocations", {
      body: { employee_id: employeeId, leave_type_id: leaveTypeId, days: "5" },
    });
    expect(allocation.response.status, JSON.stringify(allocation.error)).toBe(201);

    // Priya asks for a day off (for herself: no employee_id), HR approves it
    const day = isoDate(nextWeekday(today, 7));
    const request = await priya.POST("/api/leave-requests", {
      body: { leave_type_id: leaveTypeId, from_date: day, to_date: day, reason: "Family function" },
    });
    expect(request.response.status, JSON.stringify(request.error)).toBe(201);
    expect(request.data?.data).toMatchObject({ employee_id: employeeId, status: "pending" });
    const requestId = request.data!.data.id;
    const selfApproval = await priya.PUT("/api/leave-requests/{id}", { params: { path: { id: requestId } }, body: { status: "approved" } });
    expect(selfApproval.response.status, "an employee cannot approve leave").toBe(403);
    expect(selfApproval.error).toMatchObject({ status: 403, code: "forbidden" });
    const decided = await hr.PUT("/api/leave-requests/{id}", {
      params: { path: { id: requestId } },
      body: { status: "approved", comment: "Enjoy" },
    });
    expect(decided.data?.data.status).toBe("approved");

    // what Priya sees afterwards
    const mine = await priya.GET("/api/leave-requests/{id}", { params: { path: { id: requestId } } });
    expect(mine.data?.data).toMatchObject({ status: "approved" });
    const balances = await priya.GET("/api/leave-balances", { params: { query: { employee_id: employeeId, leave_type_id: leaveTypeId } } });
    expect(balances.data?.data).toHaveLength(1);
    expect(balances.data?.data[0]).toMatchObject({ employee_id: employeeId, leave_type_id: leaveTypeId, taken: "1.0", pending: "0.0" });
    expect(Number(balances.data?.data[0].available)).toBe(4);
  });
});
