// JSON request bodies (src/http/body.ts): each operation's `x-body-limit` holds the largest body its
// schema allows and nothing much larger; a body over it is a 413, a body nested deeper than 400
// levels a 400 found before parsing, a body in another charset than UTF-8 a 415, and an operation
// that needs a session does not read the body of a caller without one (401).
import Stripe from "stripe";
import { describe, expect, it } from "vitest";
import { DEFAULT_BODY_LIMIT, jsonBudget, jsonDepth, MAX_JSON_DEPTH, nulPaths } from "../../src/http/body.ts";
// @ts-expect-error the bundler's plugin is plain JavaScript
import { DEFAULT_BODY_LIMIT as BUNDLED_DEFAULT } from "../../openapi/plugins/hrms.js";
import { expectDetails, expectError, signupTenant, useTestApp } from "../support/app.ts";
import { insertEmployee } from "../support/employees.ts";
import { largestBody, mostValues } from "../proof/body-size.ts";
import { document, operations, type Operation } from "../proof/openapi.ts";
import { api } from "../support/api.ts";

const secret = "whsec_body_limits";
const t = useTestApp({ config: { billingWebhookSecret: secret } });
const stripe = new Stripe("sk_test_unused");

/** Room for whitespace (pretty-printed bodies) over the largest compact body. */
const WHITESPACE = 1.25;

const limitOf = (op: Operation): unknown => document().paths[op.path][op.method]["x-body-limit"];
const nested = (levels: number, inner = "1") => `${"[".repeat(levels)}${inner}${"]".repeat(levels)}`;

function webhook(payload: string) {
  const header = stripe.webhooks.generateTestHeaderString({ payload, secret });
  return t.request().post("/api/billing/webhook").set("Content-Type", "application/json").set("Stripe-Signature", header).send(payload);
}

describe("x-body-limit of every operation with a JSON body", () => {
  it("holds the largest body the schema allows (text at 4 bytes a character, 25 % whitespace) and is at most twice that", () => {
    expect(BUNDLED_DEFAULT).toBe(DEFAULT_BODY_LIMIT);
    const problems: string[] = [];
    const json = operations().filter((o) => o.body?.contentType === "application/json");
    expect(json.length).toBeGreaterThan(50);
    for (const op of json) {
      const limit = limitOf(op) as number;
      const { bytes, unbounded } = largestBody(op.body!.schema);
      const need = Math.ceil(bytes * WHITESPACE);
      if (!Number.isInteger(limit)) problems.push(`${op.operationId}: no x-body-limit`);
      else if (unbounded.length) {
        if (limit === DEFAULT_BODY_LIMIT)
          problems.push(`${op.operationId}: unbounded schema (${unbounded[0]}) needs a declared x-body-limit`);
      } else if (limit < need) problems.push(`${op.operationId}: x-body-limit ${limit} < ${need} its schema allows`);
      else if (limit > Math.max(DEFAULT_BODY_LIMIT, 2 * need))
        problems.push(`${op.operationId}: x-body-limit ${limit} > twice the ${need} needed`);
    }
    // the objects, arrays and values a body may have (what it costs in memory, src/http/body.ts
    // jsonBudget) never refuse a body the schema accepts
    for (const op of json) {
      const most = mostValues(op.body!.schema);
      const budget = jsonBudget(limitOf(op) as number);
      if (Number.isFinite(most.containers) && most.containers > budget.containers)
        problems.push(`${op.operationId}: its schema allows ${most.containers} objects and arrays, the body budget ${budget.containers}`);
      if (Number.isFinite(most.commas) && most.commas + 1 > budget.values)
        problems.push(`${op.operationId}: its schema allows ${most.commas + 1} values, the body budget ${budget.values}`);
    }
    for (const op of operations().filter((o) => o.body?.contentType !== "application/json"))
      if (limitOf(op) !== undefined) problems.push(`${op.operationId}: x-body-limit without a JSON body`);
    expect(problems).toEqual([]);
  });
});

describe("updateCompanySettings, importAttendance, signup, receiveBillingWebhook: request bodies", () => {
  it("refuses a body over the operation's limit with 413, and takes one under a larger limit", async () => {
    const o = await signupTenant(t);
    const over = expectError(
      await o.agent
        .post("/api/configuration/company-settings")
        .set("Content-Type", "application/json")
        .send(JSON.stringify({ address: "x".repeat(DEFAULT_BODY_LIMIT) })),
      413,
      "payload_too_large",
    );
    expect(over.error).toContain(`at most ${DEFAULT_BODY_LIMIT} bytes`);
    // under the limit, the same mistake is the schema's 400
    expectError(await api(o.agent).op("updateCompanySettings", { body: { address: "x".repeat(60_000) } }), 400, "validation_failed");
    // an import of 1 000 records with long notes (1.1 MB) is within importAttendance's limit
    const employee = await insertEmployee(t, o.tenantId);
    const start = Date.parse("2022-01-03T00:00:00Z");
    const records = Array.from({ length: 1000 }, (_, i) => ({
      employee_id: employee,
      date: new Date(start + i * 86_400_000).toISOString().slice(0, 10),
      status: "absent",
      notes: `${i} `.padEnd(1000, "n"),
    }));
    const body = JSON.stringify({ records });
    expect(body.length).toBeGreaterThan(1_048_576);
    const res = await o.agent.post("/api/attendance/import").set("Content-Type", "application/json").send(body).expect(200);
    expect(res.body.data).toEqual({ created: 1000, updated: 0 });
  });

  it("refuses JSON nested deeper than 400 levels with 400 before parsing it; brackets in strings do not count", async () => {
    const email = `deep.${Date.now()}@example.test`;
    const deep = `{"name":"D","email":"${email}","password":"long-enough-pw","x":${nested(MAX_JSON_DEPTH)}}`;
    const e = expectError(
      await t.request().post("/api/auth/signup").set("Content-Type", "application/json").send(deep),
      400,
      "validation_failed",
    );
    expect(e.error).toBe("JSON nested deeper than 400 levels");
    expect(e.details).toEqual([{ path: "body", message: "is nested deeper than 400 levels of arrays and objects" }]);
    // 400 levels is fine (the schema then refuses the unknown field); brackets inside strings are text
    const ok = `{"name":"D","email":"${email}","password":"long-enough-pw","x":${nested(MAX_JSON_DEPTH - 1)}}`;
    const schema = expectError(await t.request().post("/api/auth/signup").set("Content-Type", "application/json").send(ok), 400);
    expect(schema.error).not.toContain("nested");
    // 600 opening brackets, all inside strings (some after an escaped quote or backslash)
    const text = { a: "[".repeat(200), b: `"{${"{".repeat(199)}`, c: `\\${"[".repeat(199)}` };
    const inString = JSON.stringify({ id: "evt_in_string", type: "invoice.paid", data: { object: text } });
    expect((await webhook(inString).expect(200)).body.data).toMatchObject({ reason: "unhandled_type" });
  });

  it("answers a deeply nested webhook body with 400, not a 500, and handles one 400 levels deep", async () => {
    const deep = `{"id":"evt_deep_1","type":"invoice.paid","data":{"object":${nested(100_000)}}}`;
    const e = expectError(await webhook(deep), 400, "validation_failed");
    expect(e.error).toBe("JSON nested deeper than 400 levels");
    const atLimit = `{"id":"evt_deep_2","type":"invoice.paid","data":{"object":${nested(MAX_JSON_DEPTH - 2, '"\\u0000"')}}}`;
    const nul = expectDetails(await webhook(atLimit), 400, "validation_failed");
    expect(nul.details[0].path).toBe(`body.data.object${".0".repeat(MAX_JSON_DEPTH - 2)}`);
    const clean = `{"id":"evt_deep_3","type":"invoice.paid","data":{"object":${nested(MAX_JSON_DEPTH - 2)}}}`;
    expect((await webhook(clean).expect(200)).body.data).toMatchObject({ handled: false, reason: "unhandled_type" });
  });

  it("does not read the body of an operation that needs a session when there is none (401)", async () => {
    for (const payload of ['{"name": ', `{"x":${nested(10_000)}}`, JSON.stringify({ address: "x".repeat(200_000) })])
      expectError(
        await t.request().post("/api/configuration/company-settings").set("Content-Type", "application/json").send(payload),
        401,
        "unauthenticated",
      );
  });

  it("takes JSON in UTF-8 only (415 for another charset)", async () => {
    const o = await signupTenant(t);
    const utf16 = Buffer.from(JSON.stringify({ name: "Sixteen Co" }), "utf16le");
    expectError(
      await o.agent.post("/api/configuration/company-settings").set("Content-Type", "application/json; charset=utf-16le").send(utf16),
      415,
      "unsupported_media_type",
    );
    expect((await api(o.agent).op("getCompanySettings")).body.data.name).not.toBe("Sixteen Co");
  });
});

describe("jsonDepth, nulPaths", () => {
  it("measure any depth without recursion", () => {
    expect(jsonDepth(Buffer.from('{"a":[1,{"b":"]]]"}],"c":"\\"["}'))).toBe(3);
    expect(jsonDepth(Buffer.from(nested(1_000_000)))).toBe(MAX_JSON_DEPTH + 1);
    let deep: unknown = "x\u0000y";
    for (let i = 0; i < 200_000; i++) deep = { k: deep };
    expect(nulPaths({ a: ["ok", deep] }, "body")).toEqual([`body.a.1${".k".repeat(200_000)}`]);
    expect(
      nulPaths(
        Array.from({ length: 50 }, () => "\u0000"),
        "body",
      ),
    ).toHaveLength(20);
  });
});
