// The document says in standard OpenAPI what the wire does (scripts/checks/check-contract.ts): every
// `x-` extension's behaviour and every request header the server reads are declared as parameters,
// security schemes, responses and fields a generator reads; downloads say text or bytes. Passes on
// the bundle; each kind of gap it must find is made in a copy of the bundle and found.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { contractProblems, headerReads } from "../../scripts/checks/check-contract.ts";

const root = path.resolve(import.meta.dirname, "../..");
const bundle = () => JSON.parse(readFileSync(path.join(root, "generated/openapi.json"), "utf8"));
const reads = headerReads(root);

describe("the document declares what the wire does (check-contract)", () => {
  it("finds every request header the server reads, in the platform and in handlers", () => {
    const found = new Set(reads.map((r) => r.header));
    for (const h of ["idempotency-key", "if-match", "if-none-match", "authorization", "cookie", "stripe-signature", "accept"])
      expect(found, h).toContain(h);
    expect(reads.find((r) => r.header === "stripe-signature")?.operationId).toBe("receiveBillingWebhook");
  });

  it("generated/openapi.json has no undeclared wire behaviour", () => {
    expect(contractProblems(bundle(), reads)).toEqual([]);
  });

  it("finds each kind of gap: a header parameter, a scheme, a scope, a field, a download, an extension, a header read", () => {
    const doc = bundle();
    const emp = doc.paths["/api/employees/{employeeId}"];
    emp.put.parameters = emp.put.parameters.filter((p: { $ref?: string }) => !String(p.$ref).includes("IfMatch"));
    emp.get.parameters = emp.get.parameters.filter((p: { $ref?: string }) => !String(p.$ref).includes("IfNoneMatch"));
    const create = doc.paths["/api/employees"].post;
    create.parameters = create.parameters.filter((p: { $ref?: string }) => !String(p.$ref).includes("IdempotencyKey"));
    create.security = create.security.filter((r: object) => !("oauth2" in r));
    delete doc.components.securitySchemes.oauth2.flows.clientCredentials.scopes["leave:read"];
    doc.paths["/api/exports/employees"].get.responses["200"].content["text/csv"].schema = { type: "string", format: "binary" };
    delete doc.components.schemas.Employee.properties.version;
    const list = doc.paths["/api/employees"].get.responses["200"].content["application/json"].schema;
    list.required = list.required.filter((f: string) => f !== "has_more");
    doc.paths["/api/leave-types"].get["x-retry-budget"] = 3;
    const problems = contractProblems(doc, [
      ...reads,
      { header: "x-tenant-hint", file: "src/http/new.ts", line: 1 },
      { header: "x-signature", file: "src/modules/employees/handlers.ts", line: 1, operationId: "createEmployee" },
    ]);
    const expected = [
      "updateEmployee (PUT /api/employees/{employeeId}) `x-if-match`: declares no If-Match header parameter",
      "getEmployee (GET /api/employees/{employeeId}) `x-etag`: declares no If-None-Match header parameter",
      "getEmployee (GET /api/employees/{employeeId}) `x-etag`: answers a record without its `version` field",
      "createEmployee (POST /api/employees) reads idempotency-key but declares no Idempotency-Key header parameter",
      "createEmployee (POST /api/employees) `x-scope`: lists no oauth2 scheme with the scope employees:write in its security",
      "`x-scope`: needs leave:read, which the oauth2 scheme oauth2 does not describe",
      "exportEmployees (GET /api/exports/employees) 200 text/csv: a text answer is a string (`type: string`, no `format: binary`)",
      "listEmployees (GET /api/employees) `x-cursor`: answers no required `has_more`",
      "listLeaveTypes (GET /api/leave-types): `x-retry-budget` is unknown to scripts/checks/check-contract.ts",
      "src/http/new.ts:1 reads the request header x-tenant-hint: no rule of scripts/checks/check-contract.ts says where it is declared",
      "src/modules/employees/handlers.ts:1 reads the request header x-signature for createEmployee (POST /api/employees), " +
        "which declares no x-signature header parameter",
    ];
    for (const e of expected)
      expect(
        problems.some((p) => p.includes(e)),
        `${e}\n\nfound:\n${problems.join("\n")}`,
      ).toBe(true);
  });
});
