// Tenant isolation matrix, derived from generated/openapi.json. For every operation with a path
// id: the resource is created in tenant A (test/proof/factories.ts), then tenant B's owner calls
// the operation with A's ids and a valid request:
//   1. the answer is a 404 `not_found` error envelope;
//   2. it is indistinguishable from the answer for an id that does not exist (no hint);
//   3. A's resource and A's audit trail are unchanged afterwards;
//   4. A's owner reaches the same resource with the same request (the 404 is tenancy, not a bad call).
// Then every list/read operation without a path id, called by B (also filtered by A's ids), never
// contains an id of A. The matrix fails listing any id-taking operation without a factory.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signupTenant, useTestApp, type TenantSession } from "../support/app.ts";
import { markGeneric } from "../support/recorder.ts";
import { createResources, factoryFor, missingFactories, resourcePrefixes } from "./factories.ts";
import { documentedStatus, effective, matrixOperations, sample, send, type Operation } from "./openapi.ts";
import {
  describeResponse,
  enableAllModules,
  ensureSession,
  integrations,
  isEnvelope,
  requestFor,
  resourcesFor,
  type ReadCache,
} from "./world.ts";

markGeneric();
const t = useTestApp({ config: integrations });

const idOps = matrixOperations().filter((o) => o.pathParams.length > 0);
const readOps = matrixOperations().filter((o) => o.method === "get" && o.pathParams.length === 0);
const hasFactories = (op: Operation) => resourcePrefixes(op).every(({ prefix, param }) => factoryFor(prefix, param));
const ID_CASES = 4;

let A: TenantSession;
let B: TenantSession;
/** every id created in A, with the path parameter it was created for */
const aIds: { id: string; param: string }[] = [];
let listCalls = 0;
/** a read's resources, reused by the later reads of the same resources (world.ts) */
const reads: ReadCache = new Map();

beforeAll(async () => {
  A = await signupTenant(t, { company: "Tenant A (isolation)" });
  B = await signupTenant(t, { company: "Tenant B (isolation)" });
  await enableAllModules(A);
  await enableAllModules(B);
});

afterAll(() => {
  const covered = idOps.filter(hasFactories).length;
  console.log(
    `[isolation] ${covered}/${idOps.length} id-taking operations × ${ID_CASES} cases + ${readOps.length} read ` +
      `operations (${listCalls} calls, incl. filters by A's ids) = ${covered * ID_CASES + listCalls} checks`,
  );
});

async function auditCount(tenantId: string): Promise<number> {
  return (await t.query<{ n: number }>("SELECT count(*)::int AS n FROM audit_logs WHERE tenant_id = $1", [tenantId]))[0].n;
}

describe("tenant isolation matrix", () => {
  it("covers every id-taking operation of the document (each has a factory)", () => {
    const missing = missingFactories(idOps);
    expect(missing, `id-taking operations without a factory:\n${missing.join("\n")}`).toEqual([]);
  });

  // Public operations take a link token instead of an id: the token alone picks the tenant (it is
  // the capability), so the caller's session must not matter - an unknown token is a 404 that
  // changes nothing, and A's token answers the same with tenant B's session as without one.
  for (const op of idOps.filter((o) => o.public)) {
    it.skipIf(!hasFactories(op))(
      `${op.operationId}: public link - the token, not the session, picks the tenant; an unknown one is a 404`,
      async () => {
        const { ids, created } = await createResources(op, { t, owner: A, holder: A });
        const before = await Promise.all(created.map((c) => c.snapshot()));
        const ghostIds = Object.fromEntries(op.pathParams.map((p) => [p.name, String(sample(p.schema))]));
        const ghost = await send(B.agent, op, requestFor(op, ghostIds));
        expect(isEnvelope(ghost, 404, ["not_found"]), `${op.operationId} with an unknown token: ${describeResponse(ghost)}`).toBe(true);
        expect(
          await Promise.all(created.map((c) => c.snapshot())),
          `${op.operationId}: A's resource changed after a call with an unknown token`,
        ).toEqual(before);
        const withB = await send(B.agent, op, requestFor(op, ids));
        expect(
          withB.status !== 404 && withB.status < 500 && documentedStatus(op, withB.status),
          `${op.operationId} with A's token and B's session: ${describeResponse(withB)}`,
        ).toBe(true);
        if (op.method === "get") {
          const anonymous = await send(t.request(), op, requestFor(op, ids));
          const seen = (r: typeof withB) => ({
            status: r.status,
            type: r.type,
            body: r.type === "application/json" ? r.body : "(not JSON: a generated document)",
          });
          expect(seen(anonymous), `${op.operationId}: the answer must not depend on the session`).toEqual(seen(withB));
        }
        await ensureSession(t, B);
      },
    );
  }

  for (const op of idOps.filter((o) => !o.public)) {
    it.skipIf(!hasFactories(op))(`${op.operationId}: another tenant's id is a 404 like a missing id, and changes nothing`, async () => {
      const { ids, created } = await resourcesFor(reads, op, { t, owner: A, holder: A });
      for (const [param, id] of Object.entries(ids)) aIds.push({ id, param });
      const before = await Promise.all(created.map((c) => c.snapshot()));
      const auditBefore = await auditCount(A.tenantId);

      const foreign = await send(B.agent, op, requestFor(op, ids));
      expect(isEnvelope(foreign, 404, ["not_found"]), `${op.operationId} from tenant B with A's ids: ${describeResponse(foreign)}`).toBe(
        true,
      );

      const ghostIds = Object.fromEntries(op.pathParams.map((p) => [p.name, String(sample(p.schema))]));
      const ghost = await send(B.agent, op, requestFor(op, ghostIds));
      expect(
        { status: ghost.status, code: ghost.body?.code, error: ghost.body?.error },
        `${op.operationId}: A's id must look exactly like a missing one`,
      ).toEqual({ status: foreign.status, code: foreign.body.code, error: foreign.body.error });

      expect(await Promise.all(created.map((c) => c.snapshot())), `${op.operationId}: A's resource changed after B's call`).toEqual(before);
      expect(await auditCount(A.tenantId)).toBe(auditBefore);

      const own = await send(A.agent, op, requestFor(op, ids));
      expect(
        own.status !== 404 && own.status < 500 && documentedStatus(op, own.status),
        `${op.operationId}: A's owner should reach A's resource: ${describeResponse(own)}`,
      ).toBe(true);
      // (B's calls were refused with a 404, asserted above: they cannot have ended B's session)
      if (op.method !== "get") await ensureSession(t, A);
    });
  }

  const norm = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z]/g, "")
      .replace(/id$/, "");
  for (const op of readOps)
    it(`${op.operationId}: tenant B never sees an id of tenant A, even filtered by it`, async () => {
      const secrets = [...aIds.map((x) => x.id), A.tenantId, A.userId];
      const caller = op.public ? t.request() : B.agent;
      const base = requestFor(op, {});
      const variants: Record<string, unknown>[] = [base.query ?? {}];
      for (const qp of op.queryParams) {
        if (effective(qp.schema).format !== "uuid") continue;
        const related = aIds.filter((x) => norm(x.param) === norm(qp.name)).map((x) => x.id);
        const pick = /user/.test(qp.name) ? [A.userId] : related.length ? related.slice(0, 3) : aIds.slice(0, 2).map((x) => x.id);
        for (const id of pick) variants.push({ ...(base.query ?? {}), [qp.name]: id });
      }
      for (const query of variants) {
        const res = await send(caller, op, { ...base, query });
        listCalls++;
        expect(res.status, `${op.operationId} ${JSON.stringify(query)}: ${describeResponse(res)}`).toBeLessThan(500);
        const text = JSON.stringify(res.body);
        for (const id of secrets)
          expect(text.includes(id), `${op.operationId} ${JSON.stringify(query)} shows tenant A's ${id}`).toBe(false);
      }
    });
});
