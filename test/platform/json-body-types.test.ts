// A JSON body's values are taken as their JSON type, never converted: `false` sent for a string, `"5"`
// for an integer or `"true"` for a boolean is a 400 naming the field, and nothing is stored (the request
// validator's body coercion is off: src/http/validation.ts). Path, query and header values are strings on
// the wire and are still read as the type their parameter declares.
import { beforeAll, describe, expect, it } from "vitest";
import { expectError, signupTenant, type TenantSession, useTestApp } from "../support/app.ts";
import { api } from "../support/api.ts";
import { convertibleWrongType } from "../proof/arbitraries.ts";
import { effective, matrixOperations, sample, sampleRequest, send, type Schema } from "../proof/openapi.ts";
import { enableAllModules } from "../proof/world.ts";

const t = useTestApp();
let owner: TenantSession;

beforeAll(async () => {
  owner = await signupTenant(t);
  await enableAllModules(owner);
});

describe("createWebhookEndpoint: a JSON body's types", () => {
  it("refuses a boolean description rather than storing it as the text 'false'", async () => {
    const res = await owner.agent.post("/api/integrations/webhooks").send({ url: "https://hooks.example.com/hrms", description: false });
    expectError(res, 400, "validation_failed");
    expect(res.body.details).toContainEqual(
      expect.objectContaining({ path: "body.description", message: expect.stringMatching(/string/) }),
    );
    const list = await api(owner.agent).op("listWebhookEndpoints").expect(200);
    expect(list.body.data).toEqual([]);
  });

  it("still reads a query value as the integer its parameter declares", async () => {
    const res = await api(owner.agent).op("listWebhookEndpoints", { query: { limit: 5 } });
    expect(res.status).toBe(200);
  });
});

describe("every operation with a JSON body: a scalar of another JSON type is a 400 naming the field", () => {
  const cases = matrixOperations().flatMap((op) => {
    if (op.body?.contentType !== "application/json") return [];
    const wrong = Object.entries<Schema>(effective(op.body.schema).properties ?? {}).flatMap(([k, p]) =>
      convertibleWrongType(effective(p)).map((w) => [k, w.value] as const),
    );
    return wrong.length ? [{ op, wrong }] : [];
  });

  it("covers the document's JSON bodies", () => {
    expect(cases.length).toBeGreaterThan(80);
  });

  it.each(cases.map((c) => [c.op.operationId, c] as const))("%s", async (_id, { op, wrong }) => {
    const pathParams = Object.fromEntries(op.pathParams.map((p) => [p.name, String(sample(p.schema))]));
    const input = sampleRequest(op, pathParams);
    const body = { ...(input.body as Record<string, unknown>), ...Object.fromEntries(wrong) };
    const res = await send(owner.agent, op, { ...input, body });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.code).toBe("validation_failed");
    const named = new Set((res.body.details as { path: string }[]).map((d) => d.path));
    for (const [k] of wrong) expect(named, `${k} sent as ${JSON.stringify(body[k])}: ${JSON.stringify(res.body)}`).toContain(`body.${k}`);
  });
});
