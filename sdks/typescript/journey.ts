// The client teams' journey in TypeScript, with the client @hey-api/openapi-ts generates from
// generated/openapi.json (into .sdks/gen/typescript by scripts/sdks/run.ts; build output, not
// committed). Every request goes through a generated function; headers the document declares
// (Idempotency-Key, If-Match, If-None-Match) are passed as the typed `headers` of the call, and
// credentials through the client's `auth` callback, which the generated security requirements call.
// Run by `make sdks` against a live server: HRMS_BASE_URL, HRMS_EMAIL, HRMS_PASSWORD.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { createClient, createConfig } from "../../.sdks/gen/typescript/client/index.ts";
import {
  createApiCredential,
  createEmployee,
  downloadPayrollRunEmployeeSlip,
  exportEmployees,
  getEmployee,
  getPayrollRunBreakdown,
  getServerTime,
  issueOAuthToken,
  listEmployees,
  listPayrollRuns,
  signIn,
  updateEmployee,
} from "../../.sdks/gen/typescript/sdk.gen.ts";
import type { Error as ApiError } from "../../.sdks/gen/typescript/types.gen.ts";

const base = need("HRMS_BASE_URL");
const step = (what: string) => console.log(`typescript: ${what}`);

function need(name: string): string {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set`);
  return v;
}

const anonymous = createClient(createConfig({ baseUrl: base }));

// Sign in: the session cookie comes back in Set-Cookie; the client sends it through the
// `sessionCookie` security scheme (an apiKey in the cookie `hrms.sid`).
const signedIn = await signIn({ client: anonymous, body: { email: need("HRMS_EMAIL"), password: need("HRMS_PASSWORD") } });
assert.equal(signedIn.response.status, 200);
const sid = /^hrms\.sid=([^;]+)/.exec(signedIn.response.headers.getSetCookie().find((c) => c.startsWith("hrms.sid=")) ?? "")?.[1];
assert.ok(sid, "sign-in sets the session cookie");
const session = createClient(createConfig({ baseUrl: base, auth: (a) => (a.in === "cookie" ? sid : undefined) }));
step("signed in (cookie)");

// An API credential (session-only operation), then an OAuth 2.0 token by client credentials.
const issued = await createApiCredential({
  client: session,
  body: {
    name: `SDK journey typescript ${randomUUID().slice(0, 8)}`,
    role: "hr",
    scopes: ["employees:read", "employees:write", "payroll:read"],
  },
});
assert.equal(issued.response.status, 201);
const credential = issued.data!.data;
const token = await issueOAuthToken({
  client: anonymous,
  body: { grant_type: "client_credentials", client_id: credential.credential.prefix, client_secret: credential.secret },
});
assert.equal(token.response.status, 200);
const api = createClient(createConfig({ baseUrl: base, auth: (a) => (a.scheme === "bearer" ? token.data!.access_token : undefined) }));
step("OAuth token by client credentials");

// Create with an Idempotency-Key, retry it: the same answer replayed, one record.
const key = randomUUID();
const email = `sdk.ts.${key.slice(0, 8)}@journey.example`;
const body = {
  first_name: "Tara",
  last_name: "Script",
  email,
  department: "Engineering",
  designation: "SDK tester",
  joining_date: "2026-01-05",
};
const first = await createEmployee({ client: api, body, headers: { "Idempotency-Key": key } });
const again = await createEmployee({ client: api, body, headers: { "Idempotency-Key": key } });
assert.equal(first.response.status, 201);
assert.equal(again.response.status, 201);
assert.equal(again.response.headers.get("idempotent-replayed"), "true");
const employeeId = first.data!.data.id;
assert.equal(again.data!.data.id, employeeId);
const found = await listEmployees({ client: api, query: { search: email } });
assert.deepEqual(
  found.data!.data.map((e) => e.id),
  [employeeId],
);
step("create with Idempotency-Key, retried: replayed, one record");

// Read it, then again with If-None-Match: 304.
const read = await getEmployee({ client: api, path: { employeeId } });
const etag = read.response.headers.get("etag");
assert.ok(etag);
const unchanged = await getEmployee({ client: api, path: { employeeId }, headers: { "If-None-Match": etag } });
assert.equal(unchanged.response.status, 304);
step("read with If-None-Match: 304");

// Update with a stale If-Match (412), then the current one (200).
const stale = `"${"0".repeat(27)}"`;
const refused = await updateEmployee({
  client: api,
  path: { employeeId },
  body: { designation: "Senior SDK tester" },
  headers: { "If-Match": stale },
});
assert.equal(refused.response.status, 412);
const updated = await updateEmployee({
  client: api,
  path: { employeeId },
  body: { designation: "Senior SDK tester" },
  headers: { "If-Match": etag },
});
assert.equal(updated.response.status, 200);
assert.equal(updated.data!.data.designation, "Senior SDK tester");
step("update: stale If-Match 412, current 200");

// Walk every employee by cursor to the end.
const seen = new Set<string>();
let cursor: string | undefined;
for (let pages = 0; ; pages++) {
  assert.ok(pages < 1000, "the walk ends");
  const page = await listEmployees({ client: api, query: { sort: "changed", limit: 10, ...(cursor ? { cursor } : {}) } });
  assert.equal(page.response.status, 200);
  for (const e of page.data!.data) seen.add(e.id);
  if (!page.data!.has_more) break; // caught up: next_cursor is where to resume later
  cursor = page.data!.next_cursor ?? undefined;
}
assert.ok(seen.has(employeeId) && seen.size > 10, `walked ${seen.size} employees`);
step(`walked ${seen.size} employees by cursor`);

// A payslip PDF of a processed run (bytes), and the employee export (CSV text).
const runs = await listPayrollRuns({ client: api, query: { status: "processed" } });
const run = runs.data!.data[0];
assert.ok(run, "a processed payroll run");
const breakdown = await getPayrollRunBreakdown({ client: api, path: { id: run.id }, query: { limit: 1 } });
const slip = breakdown.data!.data.employees[0];
assert.ok(slip, "the run has a slip");
const pdf = await downloadPayrollRunEmployeeSlip({ client: api, path: { id: run.id, employeeId: slip.employee_id } });
assert.equal(pdf.response.status, 200);
assert.ok(pdf.data instanceof Blob);
assert.equal(
  Buffer.from(await pdf.data.arrayBuffer())
    .subarray(0, 5)
    .toString("latin1"),
  "%PDF-",
);
const csv = await exportEmployees({ client: api, query: { format: "csv" }, parseAs: "text" });
assert.equal(csv.response.status, 200);
assert.equal(typeof csv.data, "string");
assert.ok((csv.data as string).includes(email), "the export lists the new employee");
step("payslip PDF (bytes) and CSV export (text)");

// An error answer is the typed error envelope.
const missing = await getEmployee({ client: api, path: { employeeId: randomUUID() } });
assert.equal(missing.response.status, 404);
const error: ApiError | undefined = missing.error as ApiError | undefined;
assert.equal(error?.code, "not_found");
assert.equal(error?.status, 404);
step(`error envelope: ${error?.code} "${error?.error}"`);

// 429: public requests past the address's budget; honour Retry-After, then the request succeeds.
let retryAfter = 0;
for (let i = 0; i < 50 && !retryAfter; i++) {
  const r = await getServerTime({ client: anonymous });
  if (r.response.status === 429) retryAfter = Number(r.response.headers.get("retry-after"));
  else assert.equal(r.response.status, 200);
}
assert.ok(retryAfter > 0, "a 429 with Retry-After");
await new Promise((r) => setTimeout(r, retryAfter * 1000));
assert.equal((await getServerTime({ client: anonymous })).response.status, 200);
step(`429 honoured (Retry-After: ${retryAfter} s)`);
console.log("typescript: journey passed");
