// Errors in words (src/platform/validation-messages.ts, used by the error middleware): every validation
// message says what is expected - a date as YYYY-MM-DD, money as a decimal string with two places,
// an enumeration's values - keeps `details` with the path, shows no regular expression and gives
// one message per mistake; an unknown path suggests the nearest route when obvious; a 405 carries
// `Allow`.
import { describe, expect, it } from "vitest";
import doc from "../../generated/openapi.json" with { type: "json" };
import { nearestRoute, PATTERN_WORDS } from "../../src/platform/validation-messages.ts";
import { expectDetails, expectError, signupTenant, useTestApp } from "../support/app.ts";
import { api } from "../support/api.ts";

const t = useTestApp();

/** No message may show a regular expression or the validator's jargon. */
const RAW = /\^|\$"|\\d|\[A-Z|must match (pattern|format|exactly)|allowed values|must NOT/;

type Mistake = [
  what: string,
  method: "get" | "post" | "put",
  path: string,
  body: Record<string, unknown> | undefined,
  at: string,
  says: RegExp,
];
const MISTAKES: Mistake[] = [
  [
    "a date as DD/MM/YYYY",
    "post",
    "/api/leave-periods",
    { name: "FY", start_date: "01/04/2026", end_date: "2027-03-31" },
    "body.start_date",
    /YYYY-MM-DD/,
  ],
  ["an impossible month", "post", "/api/payroll/draft-runs", { period: "2026-13" }, "body.period", /month as YYYY-MM/],
  [
    "money as a number",
    "post",
    "/api/payroll/salary-components",
    { name: "Bonus", code: "BONUS", type: "earning", calculation: "fixed", amount: 100 },
    "body.amount",
    /decimal string with two places/,
  ],
  [
    "money without its two places",
    "post",
    "/api/payroll/salary-components",
    { name: "Bonus", code: "BONUS", type: "earning", calculation: "fixed", amount: "100" },
    "body.amount",
    /decimal string with two places/,
  ],
  [
    "a value outside an enumeration",
    "post",
    "/api/helpdesk/tickets",
    { title: "Printer", category: "printer", priority: "high", description: "Jammed" },
    "body.category",
    /^must be one of: hr, payroll, leave, it, facilities, finance, other$/,
  ],
  [
    "a nullable phone in the wrong form",
    "post",
    "/api/employees",
    {
      first_name: "Asha",
      last_name: "Rao",
      email: "asha@acme.example",
      department: "Sales",
      designation: "AE",
      joining_date: "2026-01-05",
      phone: "call me",
    },
    "body.phone",
    /phone number/,
  ],
  [
    "a nullable IFSC in lower case",
    "post",
    "/api/employees",
    {
      first_name: "Asha",
      last_name: "Rao",
      email: "asha@acme.example",
      department: "Sales",
      designation: "AE",
      joining_date: "2026-01-05",
      bank_ifsc: "hdfc0001234",
    },
    "body.bank_ifsc",
    /IFSC/,
  ],
  [
    "a required field left out",
    "post",
    "/api/employees",
    { last_name: "Rao", email: "asha@acme.example", department: "Sales", designation: "AE", joining_date: "2026-01-05" },
    "body.first_name",
    /^is required$/,
  ],
  [
    "an e-mail address without @",
    "post",
    "/api/configuration/members",
    { email: "asha.acme.example", role: "hr" },
    "body.email",
    /e-mail address/,
  ],
  ["a page size over the limit", "get", "/api/employees?limit=500", undefined, "query.limit", /^must be at most 100$/],
  ["a number as a string", "get", "/api/employees?page=first", undefined, "query.page", /whole number/],
  ["a blank name", "post", "/api/configuration/branches", { name: "   " }, "body.name", /^must not be blank$/],
]; // prettier-ignore

describe("errors in words: validation messages", () => {
  it.each(MISTAKES)("%s: one message at its path, in words", async (_what, method, path, body, at, says) => {
    const owner = await signupTenant(t);
    await api(owner.agent)
      .op("updateCompanySettings", { body: { modules: ["payroll", "helpdesk"] } })
      .expect(200);
    const req = owner.agent[method](path);
    const res = body === undefined ? await req : await req.send(body);
    const err = expectDetails(res, 400, "validation_failed");
    const here = err.details.filter((d: { path: string }) => d.path === at);
    expect(here, JSON.stringify(err.details)).toHaveLength(1); // one mistake, one message
    expect(here[0].message).toMatch(says);
    for (const d of err.details) expect(d.message, d.message).not.toMatch(RAW);
  });

  it("every pattern of the document has its words (a new pattern needs them in PATTERN_WORDS)", () => {
    const patterns = new Set<string>();
    const walk = (o: unknown) => {
      if (!o || typeof o !== "object") return;
      const p = (o as { pattern?: unknown }).pattern;
      if (typeof p === "string") patterns.add(p);
      for (const v of Object.values(o)) walk(v);
    };
    walk(doc);
    expect([...patterns].filter((p) => !PATTERN_WORDS[p])).toEqual([]);
    for (const w of Object.values(PATTERN_WORDS)) expect(w).not.toMatch(/\\d|\^/);
  });
});

describe("errors in words: unknown paths and methods", () => {
  it("signIn: a 404 on a mistyped path suggests the nearest route when it is obvious", async () => {
    const typo = expectError(await t.request().post("/api/auth/signin").send({ email: "a@b.example", password: "x" }), 404, "not_found");
    expect(typo.error).toBe("Not found: no route /api/auth/signin. Did you mean /api/auth/sign-in?");
    const owner = await signupTenant(t);
    const plural = expectError(await owner.agent.get("/api/employee"), 404, "not_found");
    expect(plural.error).toContain("Did you mean /api/employees?");
    expect(expectError(await t.request().get("/api/nothing-like-this-here"), 404, "not_found").error).toBe(
      "Not found: no route /api/nothing-like-this-here. Every route is in /docs and /openapi.json.",
    );
    // a word of a route (runs of draft-runs), the /api prefix left out, or only the area right
    expect(expectError(await owner.agent.get("/api/payroll/runs"), 404, "not_found").error).toContain(
      "Did you mean /api/payroll/draft-runs?",
    );
    expect(expectError(await owner.agent.get("/employees"), 404, "not_found").error).toContain("Did you mean /api/employees?");
    const area = expectError(await owner.agent.get("/api/recruitment/nothing-like-this"), 404, "not_found").error;
    expect(area).toMatch(
      /^Not found: no route \/api\/recruitment\/nothing-like-this\. Routes under \/api\/recruitment\/: .*\/api\/recruitment\/candidates/,
    );
  });

  it("nearestRoute: ids stand in for parameters; no guess when two routes are as near", () => {
    const paths = ["/api/leave-types/{id}", "/api/leave-periods/{id}", "/api/auth/sign-in", "/api/auth/sign-out"];
    expect(nearestRoute("/api/leave-type/7b1e", paths)).toBe("/api/leave-types/7b1e");
    expect(nearestRoute("/api/auth/sign-in", paths)).toBeUndefined(); // not a mistake
    expect(nearestRoute("/api/auth/sign-ot", paths)).toBe("/api/auth/sign-out");
    expect(nearestRoute("/api/auth/sign-i", ["/api/auth/sign-in", "/api/auth/sign-io"])).toBeUndefined();
  });

  it("getServerTime, getCompanySettings: a 405 carries Allow (HEAD wherever GET is)", async () => {
    const res = await t.request().put("/api/server-time").send({});
    expectError(res, 405, "method_not_allowed");
    expect(res.headers.allow).toBe("GET, HEAD");
    const owner = await signupTenant(t);
    const settings = await owner.agent.delete("/api/configuration/company-settings");
    expectError(settings, 405, "method_not_allowed");
    expect(settings.headers.allow?.split(", ").sort()).toEqual(["GET", "HEAD", "POST"]);
    expect(settings.body.error).toMatch(/allowed: /);
  });
});
